package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/bench"
	"github.com/gdt-ml/gdt/datasets"
	"github.com/gdt-ml/gdt/hpo"
)

func TestTuneCreateResumeJoin(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "studies.jsonl")
	best := filepath.Join(dir, "best.json")
	out, errOut, code := gdt(t, "tune", "--model", "cart", "--dataset", "demo", "--trials", "6", "--storage", store,
		"--out", best, "--pruner", "none", "--sampler", "random", "--sampler-seed", "3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, `study "cart:demo": 6 complete`) || !strings.Contains(errOut, "created study") {
		t.Errorf("output:\n%s\n%s", out, errOut)
	}
	tuned, err := bench.ReadTuned(best)
	if err != nil {
		t.Fatal(err)
	}
	if len(tuned) != 1 || tuned[0].Kind != "cart" || tuned[0].Dataset != "demo" || tuned[0].Options["depth"] == "" || tuned[0].Complete != 6 {
		t.Errorf("best configuration %+v", tuned)
	}
	// Resuming with a larger target extends the study.
	out, errOut, code = gdt(t, "tune", "--model", "cart", "--dataset", "demo", "--trials", "9", "--storage", store, "--out", best, "--quiet")
	if code != 0 || !strings.Contains(out, "9 complete") {
		t.Fatalf("resume: exit %d: %s\n%s", code, out, errOut)
	}
	// Joining needs an existing study.
	if _, errOut, code = gdt(t, "tune", "--join", "--study", "nope", "--storage", store); code == 0 || !strings.Contains(errOut, `no study "nope"`) {
		t.Errorf("join of a missing study: exit %d, %s", code, errOut)
	}
	// --create-only, then a worker joins by name alone.
	out, errOut, code = gdt(t, "tune", "--model", "cart", "--dataset", "demo", "--study", "s2", "--trials", "4", "--storage", store, "--create-only")
	if code != 0 || !strings.Contains(out, "gdt tune --join --study 's2'") {
		t.Fatalf("create-only: exit %d: %s\n%s", code, out, errOut)
	}
	out, errOut, code = gdt(t, "tune", "--join", "--study", "s2", "--storage", store, "--out", filepath.Join(dir, "s2.json"), "--workers", "2", "--quiet")
	if code != 0 || !strings.Contains(out, `study "s2"`) {
		t.Fatalf("join: exit %d: %s\n%s", code, out, errOut)
	}
	j, err := hpo.OpenJournal(store)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	s, err := hpo.LoadStudy(j, "s2", hpo.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := s.Counts(); c.Complete+c.Pruned != 4 || c.Running != 0 {
		t.Errorf("study s2 counts %+v, want 4 evaluated", c)
	}
	// Usage errors.
	for _, args := range [][]string{
		{"tune", "--dataset", "demo", "--storage", store},
		{"tune", "--model", "cart", "--dataset", "demo", "--create-only", "--join", "--storage", store},
		{"tune", "--model", "nope", "--dataset", "demo", "--study", "x", "--storage", store},
		{"tune", "--model", "cart", "--dataset", "demo", "--study", "y", "--storage", store, "--sampler", "nope"},
	} {
		if _, errOut, code := gdt(t, args...); code == 0 {
			t.Errorf("%v: exit 0, want an error (%s)", args, errOut)
		}
	}
}

func TestBenchTuned(t *testing.T) {
	root, err := datasets.Root("")
	if err != nil {
		t.Skipf("benchmark data not available: %v", err)
	}
	dir := t.TempDir()
	cfg := `{"kind":"cart","dataset":"blood-transfusion","options":{"max_depth":"4","criterion":"entropy"}}`
	if err := os.WriteFile(filepath.Join(dir, "cart.json"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := gdt(t, "bench", "gradtree-binary", "--models", "cart", "--tuned", dir, "--datasets", "blood-transfusion,titanic",
		"--trials", "2", "--data-root", root, "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"cart-tuned", "thesis CART", "0.613", "§10.3"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "cart on titanic") {
		t.Errorf("missing configuration not reported: %s", errOut)
	}
}
