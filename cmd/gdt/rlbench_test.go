package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
