package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/datasets"
)

// idCSV is trainCSV with a row-id column in front.
func idCSV() string {
	lines := strings.Split(strings.TrimSpace(trainCSV), "\n")
	out := []string{"id," + lines[0]}
	for i, l := range lines[1:] {
		out = append(out, fmt.Sprintf("%d,%s", 1000+7*i, l))
	}
	// repeat the rows (new ids) so the file has the 20 rows the check needs
	for i, l := range lines[1:] {
		out = append(out, fmt.Sprintf("%d,%s", 2000+7*i, l))
	}
	return strings.Join(out, "\n") + "\n"
}

func TestTrainTargetRequired(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "loans.csv")
	os.WriteFile(data, []byte(idCSV()), 0o644)
	_, errOut, code := gdt(t, "train", "--data", data, "--model", "cart", "--out", filepath.Join(dir, "m.json"))
	if code != 2 || !strings.Contains(errOut, "--target is required") || !strings.Contains(errOut, "id, age, income, housing, decision") {
		t.Fatalf("train without --target: exit %d, %q; want exit 2 and the column list", code, errOut)
	}
	_, errOut, code = gdt(t, "eval", "--data", data, "--models", "cart")
	if code != 2 || !strings.Contains(errOut, "--target is required") {
		t.Errorf("eval without --target: exit %d, %q", code, errOut)
	}
}

func TestTrainSaysWhatItUsed(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "loans.csv")
	os.WriteFile(data, []byte(idCSV()), 0o644)
	model := filepath.Join(dir, "m.json")
	_, errOut, code := gdt(t, "train", "--data", data, "--target", "decision", "--model", "cart", "--out", model)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"target: decision", "task: binary", "classes: no, yes", `warning: column "id"`, "--drop id"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("train's stderr lacks %q:\n%s", want, errOut)
		}
	}
	var doc struct {
		Target  string   `json:"target"`
		Task    string   `json:"task"`
		Columns int      `json:"columns"`
		Ignored []string `json:"ignored_columns"`
		IDLike  []string `json:"id_like_columns"`
	}
	jsonRun(t, &doc, "train", "--data", data, "--target", "decision", "--drop", "id", "--model", "cart", "--out", model, "--json")
	if doc.Target != "decision" || doc.Task != "binary" || doc.Columns != 3 || strings.Join(doc.Ignored, ",") != "id" || len(doc.IDLike) != 0 {
		t.Errorf("train --drop id --json: %+v", doc)
	}
	if _, errOut, code := gdt(t, "train", "--data", data, "--target", "decision", "--drop", "nope", "--out", model); code != 2 || !strings.Contains(errOut, `"nope"`) {
		t.Errorf("--drop nope: exit %d, %q", code, errOut)
	}
}

func TestIDLikeColumns(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	data := filepath.Join(dir, "loans.csv")
	os.WriteFile(data, []byte(idCSV()), 0o644)
	df := dataFlags{path: data, target: "decision"}
	ds, _, err := df.loadDataset()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(idLikeColumns(ds.X), ","); got != "id" {
		t.Errorf("id-like columns %q, want id (age and income repeat, housing is text that repeats)", got)
	}
}

func TestTrainRegisteredDataset(t *testing.T) {
	if testing.Short() {
		t.Skip("reads benchmark data")
	}
	if _, err := datasets.Root(""); err != nil {
		t.Skipf("benchmark data not found (%v)", err)
	}
	dir := t.TempDir()
	var doc struct {
		Target  string   `json:"target"`
		Task    string   `json:"task"`
		Classes []string `json:"classes"`
		Ignored []string `json:"ignored_columns"`
		IDLike  []string `json:"id_like_columns"`
	}
	jsonRun(t, &doc, "train", "--dataset", "grande/wdbc", "--model", "cart", "--set", "depth=2", "--out", filepath.Join(dir, "m.json"), "--json")
	if doc.Target != "Class" || doc.Task != "binary" || strings.Join(doc.Classes, ",") != "B,M" || strings.Join(doc.Ignored, ",") != "id" || len(doc.IDLike) != 0 {
		t.Errorf("train --dataset grande/wdbc: %+v", doc)
	}
	if _, errOut, code := gdt(t, "train", "--dataset", "grande/wdbc", "--target", "id", "--out", filepath.Join(dir, "m.json")); code != 2 || !strings.Contains(errOut, "--dataset") {
		t.Errorf("--dataset with --target: exit %d, %q", code, errOut)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "m.json"))
	if !json.Valid(b) {
		t.Errorf("model file is not JSON")
	}
}

func TestParseModelList(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in, want, err string
	}{
		{"cart", "cart{}", ""},
		{"grande[n_estimators=64,depth=4],cart", "grande{depth=4 n_estimators=64} cart{}", ""},
		{" gradtree [ depth = 5 ] , cart ", "gradtree{depth=5} cart{}", ""},
		{"grande[n_estimators=64", "", "unclosed"},
		{"grande]", "", "unmatched"},
		{"grande[depth]", "", "key=value"},
		{",", "", "empty"},
	} {
		items, err := parseModelList(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want one with %q", c.in, err, c.err)
			}
			continue
		}
		var got []string
		for _, it := range items {
			var kv []string
			for _, k := range sortedKeys(it.opts) {
				kv = append(kv, k+"="+it.opts[k])
			}
			got = append(got, it.name+"{"+strings.Join(kv, " ")+"}")
		}
		if err != nil || strings.Join(got, " ") != c.want {
			t.Errorf("%q: %v, %v; want %s", c.in, got, err, c.want)
		}
	}
}

func sortedKeys(m map[string]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// TestOneModelVocabulary: --model and --models both work in eval and
// bench, inline options work in every model list and in train, and --set
// reaches only the kinds that declare the key.
func TestOneModelVocabulary(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "loans.csv")
	os.WriteFile(data, []byte(idCSV()), 0o644)
	var doc struct {
		Models []struct {
			Model string `json:"model"`
		} `json:"models"`
	}
	jsonRun(t, &doc, "eval", "--data", data, "--target", "decision", "--drop", "id", "--folds", "2", "--json",
		"--model", "gradtree[depth=2,epochs=2],cart", "--set", "depth=3", "--set", "epochs=3")
	var got []string
	for _, m := range doc.Models {
		got = append(got, m.Model)
	}
	if want := "gradtree[depth=2,epochs=2] cart[depth=3]"; strings.Join(got, " ") != want {
		t.Errorf("eval models %q, want %q (inline wins over --set; epochs reaches only gradtree)", got, want)
	}
	_, errOut, code := gdt(t, "eval", "--data", data, "--target", "decision", "--models", "cart", "--set", "n_estimators=4")
	if code != 2 || !strings.Contains(errOut, `no model of the list declares "n_estimators"`) {
		t.Errorf("--set n_estimators with cart only: exit %d, %q", code, errOut)
	}
	_, errOut, code = gdt(t, "eval", "--data", data, "--target", "decision", "--models", "cart[nope=1]")
	if code == 0 || !strings.Contains(errOut, "nope") {
		t.Errorf("inline unknown option: exit %d, %q", code, errOut)
	}
	var tr struct {
		Kind    string            `json:"kind"`
		Options map[string]string `json:"options"`
	}
	jsonRun(t, &tr, "train", "--data", data, "--target", "decision", "--model", "cart[depth=1]", "--set", "depth=4",
		"--out", filepath.Join(dir, "m.json"), "--quiet", "--json")
	if tr.Kind != "cart" || tr.Options["depth"] != "1" {
		t.Errorf("train --model cart[depth=1]: %+v", tr)
	}
}

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"version"}} {
		out, _, code := gdt(t, args...)
		if code != 0 || !strings.Contains(out, "github.com/gdt-ml/gdt") || !strings.Contains(out, runtime.Version()) {
			t.Errorf("gdt %v: exit %d, %q", args, code, out)
		}
	}
	var v buildVersion
	jsonRun(t, &v, "--version", "--json")
	if v.Module == "" || v.Version == "" || v.Go != runtime.Version() {
		t.Errorf("--version --json: %+v", v)
	}
}

// TestHelpOnStdout: help asked for is the command's output, so
// `gdt train --help | less` shows it; a usage error stays on stderr.
func TestHelpOnStdout(t *testing.T) {
	for _, args := range [][]string{{"train", "--help"}, {"train", "-h"}, {"help", "train"}, {"rl", "train", "--help"}, {"eval", "--data", "x", "--help"}} {
		out, errOut, code := gdt(t, args...)
		if code != 0 || !strings.Contains(out, "Usage: gdt") || errOut != "" {
			t.Errorf("gdt %v: exit %d, stdout %.60q, stderr %.60q", args, code, out, errOut)
		}
	}
	out, errOut, code := gdt(t, "train", "--no-such-flag")
	if code != 2 || out != "" || !strings.Contains(errOut, "Usage: gdt train") {
		t.Errorf("usage error: exit %d, stdout %.60q, stderr %.60q", code, out, errOut)
	}
}

// TestJSONEverywhere: the rl commands and tune take --json; errors under
// --json are an object with an "error" field; rl train counts the steps it
// ran (whole rollouts pass --steps).
func TestJSONEverywhere(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "cp")
	out, errOut, code := gdt(t, "rl", "train", "--env", "CartPole-v1", "--steps", "1500", "--out", run, "--json")
	if code != 0 {
		t.Fatalf("rl train: exit %d: %s", code, errOut)
	}
	var sum rlSummary
	decodeOne(t, out, &sum)
	if sum.Env != "CartPole-v1" || sum.Steps < 1500 {
		t.Fatalf("rl train --json: %+v", sum)
	}
	if want := fmt.Sprintf("%d/1500 done", sum.Steps); !strings.Contains(errOut, want) {
		t.Errorf("rl train progress lacks %q (the steps run):\n%s", want, errOut)
	}
	var ev struct {
		Returns []float64 `json:"returns"`
	}
	jsonRun(t, &ev, "rl", "eval", run, "--episodes", "2", "--json")
	if len(ev.Returns) != 2 {
		t.Errorf("rl eval --json: %+v", ev)
	}
	var show map[string]any
	jsonRun(t, &show, "rl", "show", run, "--json")
	if len(show) == 0 {
		t.Errorf("rl show --json: empty")
	}
	for _, args := range [][]string{
		{"rl", "eval", filepath.Join(dir, "absent"), "--json"},
		{"rl", "bench", "--json"},
		{"tune", "--model", "cart", "--trials", "0", "--json"},
		{"serve", "--json"},
		{"train", "--data", "x.csv", "--out", "m.json", "--json"},
	} {
		out, errOut, code := gdt(t, args...)
		var doc struct {
			Error string `json:"error"`
			Exit  int    `json:"exit_code"`
		}
		if code == 0 || errOut == "" || json.Unmarshal([]byte(out), &doc) != nil || doc.Error == "" || doc.Exit != code {
			t.Errorf("gdt %s: exit %d, stdout %q, stderr %q; want an error object", strings.Join(args, " "), code, out, errOut)
		}
	}
}

// TestDatasetsShowTargetsAndFiles: gdt datasets names each dataset's
// target column and files (which exist).
func TestDatasetsShowTargetsAndFiles(t *testing.T) {
	if _, err := datasets.Root(""); err != nil {
		t.Skipf("benchmark data not found (%v)", err)
	}
	var doc struct {
		Datasets []struct {
			Name   string   `json:"name"`
			Target string   `json:"target"`
			Files  []string `json:"files"`
		} `json:"datasets"`
	}
	jsonRun(t, &doc, "datasets", "--suite", "pad-ufes-tabular", "--json")
	if len(doc.Datasets) == 0 {
		t.Fatal("no datasets")
	}
	for _, d := range doc.Datasets {
		if d.Target == "" || len(d.Files) == 0 {
			t.Errorf("%s: target %q, files %v", d.Name, d.Target, d.Files)
		}
		for _, f := range d.Files {
			if _, err := os.Stat(f); err != nil {
				t.Errorf("%s: %v", d.Name, err)
			}
		}
	}
	out, _, code := gdt(t, "datasets", "--suite", "pad-ufes-tabular")
	if code != 0 || !strings.Contains(out, "target") || !strings.Contains(out, doc.Datasets[0].Target) {
		t.Errorf("gdt datasets text lacks the target column:\n%s", out)
	}
}
