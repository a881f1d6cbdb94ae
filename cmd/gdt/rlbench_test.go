package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	rlbench "github.com/gdt-ml/gdt/rl/bench"
)

// TestRLBenchCommand runs a tiny benchmark, resumes it (no training the
// second time) and renders the report from the CSV.
func TestRLBenchCommand(t *testing.T) {
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "r.csv")
	args := []string{"rl", "bench", "--envs", "CP", "--methods", "sympol,sa-dt-d5", "--seeds", "1", "--steps", "1000", "--out", csvPath, "--quiet"}
	out, errOut, code := gdt(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"### Mean test return (PPO)", "| sympol |", "| sa-dt-d5 |", "2 rows in"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	first, err := os.ReadFile(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(first), "env,method,seed,steps,val_return,test_return,tree_nodes,seconds,") {
		t.Errorf("CSV starts %q", strings.SplitN(string(first), "\n", 2)[0])
	}
	// Resume: nothing to do, the file is unchanged.
	if _, errOut, code := gdt(t, args...); code != 0 {
		t.Fatalf("resume: exit %d: %s", code, errOut)
	}
	again, _ := os.ReadFile(csvPath)
	if string(again) != string(first) {
		t.Errorf("resume changed the CSV:\n%s\n---\n%s", first, again)
	}
	rep := filepath.Join(dir, "rep")
	if _, errOut, code := gdt(t, "rl", "bench", "--from", csvPath, "--report", rep); code != 0 {
		t.Fatalf("report: exit %d: %s", code, errOut)
	}
	if b, err := os.ReadFile(filepath.Join(rep, "index.html")); err != nil || !strings.Contains(string(b), "<svg") {
		t.Errorf("report: %v", err)
	}
	if _, _, code := gdt(t, "rl", "bench", "--envs", "CP"); code != 2 {
		t.Errorf("missing --out: exit %d, want 2", code)
	}
	if _, errOut, code := gdt(t, "rl", "bench", "--methods", "nope", "--out", filepath.Join(dir, "x.csv")); code != 2 || !strings.Contains(errOut, "nope") {
		t.Errorf("bad method: exit %d, %s", code, errOut)
	}
}

// TestRLBenchFirstSeed runs two trainings from --first-seed 1000 and checks
// their seeds in the CSV (1000, 1100), and that first seeds below 1 or
// whose validation episodes would meet the test episodes are refused.
func TestRLBenchFirstSeed(t *testing.T) {
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "r.csv")
	if _, errOut, code := gdt(t, "rl", "bench", "--envs", "CP", "--methods", "sympol", "--seeds", "2", "--first-seed", "1000",
		"--steps", "600", "--set", "critic_width=16", "--set", "n_steps=64", "--out", csvPath, "--quiet"); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	f, err := os.Open(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := rlbench.ReadCSV(f, csvPath)
	if err != nil {
		t.Fatal(err)
	}
	var seeds []int
	for _, r := range rows {
		seeds = append(seeds, r.Seed)
	}
	if !slices.Equal(seeds, []int{1000, 1100}) {
		t.Errorf("seeds %v, want [1000 1100]", seeds)
	}
	for _, c := range []struct{ seed, want string }{{"0", "--first-seed"}, {"123453", "overlap the test episodes"}} {
		if _, errOut, code := gdt(t, "rl", "bench", "--envs", "CP", "--methods", "sympol", "--first-seed", c.seed, "--out", filepath.Join(dir, "x.csv")); code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("--first-seed %s: exit %d, want 2 and an error naming %q: %s", c.seed, code, c.want, errOut)
		}
	}
}

// TestAppendRLRowsUpgradesOldFile appends to a results file of an older
// gdt (without the best-validation columns): the file is rewritten with
// the current header, every line with the same columns, old rows kept.
func TestAppendRLRowsUpgradesOldFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.csv")
	old := "env,method,seed,steps,val_return,test_return,tree_nodes,seconds,algorithm,profile,variant,trained_steps,val_episodes,test_episodes,curve,error\n" +
		"CartPole-v1,sympol,142,1000,500,450,31,1.500,ppo,default,,1024,500;500,400;500,,\n"
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	row := rlbench.Row{Env: "CartPole-v1", Method: "sympol", Seed: 242, Algorithm: "ppo", Profile: "default", Steps: 1000,
		ValReturn: 480, TestReturn: 490, BestValReturn: 500, BestTestReturn: 470, BestStep: 512}
	if err := appendRLRows(path, []rlbench.Row{row}); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(f).ReadAll() // fails on lines of differing widths
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 3 || !slices.Equal(recs[0], rlbench.Header) {
		t.Fatalf("file after appending:\n%v", recs)
	}
	rows, err := readRLRows(path)
	if err != nil {
		t.Fatal(err)
	}
	if rows[0].Seed != 142 || rows[0].TestReturn != 450 || rows[0].BestStep != 0 || rows[1].Seed != 242 || rows[1].BestStep != 512 || rows[1].BestTestReturn != 470 {
		t.Errorf("rows %+v", rows)
	}
	// Appending to a current file only appends.
	if err := appendRLRows(path, []rlbench.Row{row}); err != nil {
		t.Fatal(err)
	}
	if rows, err = readRLRows(path); err != nil || len(rows) != 3 {
		t.Errorf("%d rows, %v", len(rows), err)
	}
}
