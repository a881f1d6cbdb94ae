package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func gdt(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(context.Background(), args, &o, &e)
	return o.String(), e.String(), code
}

func TestDemo(t *testing.T) {
	out, errOut, code := gdt(t, "demo")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"CART", "income <=", "test: accuracy"} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q:\n%s", want, out)
		}
	}
}

func TestHelpEverywhere(t *testing.T) {
	out, _, code := gdt(t, "help")
	if code != 0 || !strings.Contains(out, "bench") {
		t.Fatalf("help: %d %q", code, out)
	}
	for name := range commands {
		out, errOut, code := gdt(t, name, "--help")
		if code != 0 || !strings.Contains(out, "Usage: gdt "+name) || errOut != "" {
			t.Errorf("%s --help: exit %d, stdout %q, stderr %q (help asked for goes to stdout)", name, code, out, errOut)
		}
	}
	if _, _, code := gdt(t, "frobnicate"); code != 2 {
		t.Errorf("unknown command: exit %d, want 2", code)
	}
}

const trainCSV = `age,income,housing,decision
25,30000,rent,no
47,82000,own,yes
35,51000,mortgage,yes
52,40000,own,yes
23,21000,rent,no
41,67000,rent,yes
30,28000,mortgage,no
60,90000,own,yes
28,35000,rent,no
39,45000,own,yes
33,31000,rent,no
45,72000,mortgage,yes
`

func TestTrainPredictShow(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "loans.csv")
	os.WriteFile(data, []byte(trainCSV), 0o644)
	model := filepath.Join(dir, "m.json")
	out, errOut, code := gdt(t, "train", "--data", data, "--target", "decision", "--model", "cart", "--set", "depth=2", "--out", model)
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "trained cart") {
		t.Fatalf("train output: %q", out)
	}
	out, errOut, code = gdt(t, "show", model)
	if code != 0 || !strings.Contains(out, "income <=") || !strings.Contains(out, "target: decision") {
		t.Fatalf("show: exit %d: %s %s", code, out, errOut)
	}
	// Predict on rows without the target, columns in another order, with an unseen category.
	newCSV := filepath.Join(dir, "new.csv")
	os.WriteFile(newCSV, []byte("housing,income,age\nboat,85000,50\nrent,20000,22\n"), 0o644)
	out, errOut, code = gdt(t, "predict", model, "--data", newCSV, "--proba")
	if code != 0 {
		t.Fatalf("predict: exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || lines[0] != "prediction,p_no,p_yes" || !strings.HasPrefix(lines[1], "yes,") || !strings.HasPrefix(lines[2], "no,") {
		t.Fatalf("predictions:\n%s", out)
	}
	// A missing column is a clear error naming it.
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("age,housing\n30,rent\n"), 0o644)
	_, errOut, code = gdt(t, "predict", model, "--data", bad)
	if code != 1 || !strings.Contains(errOut, `"income"`) {
		t.Fatalf("missing column: exit %d: %s", code, errOut)
	}
	// A corrupted model file is a clear error.
	os.WriteFile(filepath.Join(dir, "broken.json"), []byte(`{"format":"gdt-model","version":1,"kind":"cart","model":{`), 0o644)
	_, errOut, code = gdt(t, "show", filepath.Join(dir, "broken.json"))
	if code != 1 || !strings.Contains(errOut, "broken.json") {
		t.Fatalf("broken model: exit %d: %s", code, errOut)
	}
	// eval with k-fold cross-validation.
	out, errOut, code = gdt(t, "eval", "--data", data, "--target", "decision", "--models", "cart-d3", "--folds", "3")
	if code != 0 || !strings.Contains(out, "| cart-d3 |") {
		t.Fatalf("eval: exit %d: %s %s", code, out, errOut)
	}
}

func TestTrainErrors(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name string
		args []string
		want string
		code int
	}{
		{"no data", []string{"train", "--out", filepath.Join(dir, "m")}, "--data", 2},
		{"missing file", []string{"train", "--data", filepath.Join(dir, "nope.csv"), "--out", filepath.Join(dir, "m")}, "nope.csv", 1},
		{"bad option", []string{"train", "--data", "x", "--set", "oops", "--out", "m"}, "key=value", 2},
	}
	for _, c := range cases {
		_, errOut, code := gdt(t, c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%s: exit %d, %q; want exit %d and %q", c.name, code, errOut, c.code, c.want)
		}
	}
	data := filepath.Join(dir, "d.csv")
	os.WriteFile(data, []byte(trainCSV), 0o644)
	_, errOut, code := gdt(t, "train", "--data", data, "--target", "nope", "--out", filepath.Join(dir, "m"))
	if code != 1 || !strings.Contains(errOut, "nope") {
		t.Errorf("unknown target: exit %d: %s", code, errOut)
	}
	_, errOut, code = gdt(t, "train", "--data", data, "--target", "decision", "--set", "max_depthh=3", "--out", filepath.Join(dir, "m"))
	if code != 1 || !strings.Contains(errOut, "max_depthh") {
		t.Errorf("unknown option: exit %d: %s", code, errOut)
	}
}

func TestBenchCommand(t *testing.T) {
	if _, err := os.Stat(filepath.Join("..", "..", "..", "shared", "data", "manifest.json")); err != nil && os.Getenv("GDT_DATA") == "" {
		t.Skip("benchmark data not found; set GDT_DATA to run this test")
	}
	out := filepath.Join(t.TempDir(), "r.csv")
	stdout, errOut, code := gdt(t, "bench", "gradtree-binary", "--models", "cart", "--trials", "2", "--datasets", "titanic,rice", "--out", out, "--quiet")
	if code != 0 {
		t.Fatalf("bench: exit %d: %s", code, errOut)
	}
	if !strings.Contains(stdout, "| Titanic |") || !strings.Contains(stdout, "**MRR**") {
		t.Fatalf("bench table:\n%s", stdout)
	}
	b, _ := os.ReadFile(out)
	if n := strings.Count(string(b), "\n"); n != 5 {
		t.Fatalf("results file has %d lines, want 5:\n%s", n, b)
	}
	// Resume: nothing to run, same file content apart from timings.
	_, errOut, code = gdt(t, "bench", "gradtree-binary", "--models", "cart", "--trials", "2", "--datasets", "titanic,rice", "--out", out, "--resume", "--quiet")
	if code != 0 {
		t.Fatalf("resume: exit %d: %s", code, errOut)
	}
	// Resuming with a different subset adds rows and keeps those of the
	// datasets outside the subset.
	_, errOut, code = gdt(t, "bench", "gradtree-binary", "--models", "cart", "--trials", "1", "--datasets", "banknote-authentication", "--out", out, "--resume", "--quiet")
	if code != 0 {
		t.Fatalf("resume with another subset: exit %d: %s", code, errOut)
	}
	b, _ = os.ReadFile(out)
	if n := strings.Count(string(b), "\n"); n != 6 || !strings.Contains(string(b), "titanic") || !strings.Contains(string(b), "banknote") {
		t.Fatalf("after resuming with another subset the file has %d lines, want 6 (titanic, rice and banknote-authentication rows):\n%s", n, b)
	}
}

// TestBenchSet runs a benchmark model with a changed option: its rows are
// named apart from the published configuration's, and a misspelt option is
// an error naming it.
func TestBenchSet(t *testing.T) {
	if _, err := os.Stat(filepath.Join("..", "..", "..", "shared", "data", "manifest.json")); err != nil && os.Getenv("GDT_DATA") == "" {
		t.Skip("benchmark data not found; set GDT_DATA to run this test")
	}
	out := filepath.Join(t.TempDir(), "r.csv")
	stdout, errOut, code := gdt(t, "bench", "gradtree-binary", "--models", "cart", "--set", "depth=2", "--trials", "1", "--datasets", "titanic", "--out", out, "--quiet")
	if code != 0 {
		t.Fatalf("bench --set: exit %d: %s", code, errOut)
	}
	b, _ := os.ReadFile(out)
	if !strings.Contains(string(b), ",cart[depth=2],") || !strings.Contains(stdout, "cart[depth=2]") {
		t.Fatalf("rows or table not named cart[depth=2]:\n%s\n%s", b, stdout)
	}
	_, errOut, code = gdt(t, "bench", "gradtree-binary", "--models", "cart", "--set", "max_dpth=2", "--trials", "1", "--datasets", "titanic", "--quiet")
	if code == 0 || !strings.Contains(errOut, "max_dpth") {
		t.Fatalf("misspelt option: exit %d, stderr %q; want an error naming max_dpth", code, errOut)
	}
}

func TestRegressionTrainPredictEval(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("x,kind,y\n")
	for i := 0; i < 120; i++ {
		x := float64(i%40) / 4
		kind := []string{"a", "b", "c"}[i%3]
		y := 2*x + 1
		if kind == "a" {
			y += 5
		}
		fmt.Fprintf(&b, "%g,%s,%g\n", x, kind, y)
	}
	data := filepath.Join(dir, "reg.csv")
	os.WriteFile(data, []byte(b.String()), 0o644)
	out, errOut, code := gdt(t, "eval", "--data", data, "--target", "y", "--task", "regression", "--models", "cart", "--folds", "3")
	if code != 0 || !strings.Contains(out, "| R² |") || !strings.Contains(out, "| cart | 0.99") {
		t.Fatalf("eval: exit %d:\n%s%s", code, out, errOut)
	}
	model := filepath.Join(dir, "m.json")
	if _, errOut, code := gdt(t, "train", "--data", data, "--target", "y", "--task", "regression", "--model", "cart", "--out", model); code != 0 {
		t.Fatalf("train: %s", errOut)
	}
	out, errOut, code = gdt(t, "predict", model, "--data", data)
	if code != 0 || len(strings.Split(strings.TrimSpace(out), "\n")) != 121 {
		t.Fatalf("predict: exit %d: %s", code, errOut)
	}
}
