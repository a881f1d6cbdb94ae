package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/datasets"
	"github.com/gdt-ml/gdt/model"
)

func TestReadTuned(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	one := write("a.json", `{"kind":"cart","dataset":"adult","options":{"max_depth":"4"},"score":0.8}`)
	write("b.json", `[{"kind":"gradtree","dataset":"iris","options":{"depth":"7"}},{"kind":"gradtree","dataset":"gradtree/wine","options":{}}]`)
	got, err := ReadTuned(one)
	if err != nil || len(got) != 1 || got[0].Options["max_depth"] != "4" {
		t.Fatalf("file: %+v, %v", got, err)
	}
	got, err = ReadTuned(dir)
	if err != nil || len(got) != 3 {
		t.Fatalf("dir: %+v, %v", got, err)
	}
	if tunedKey("gradtree", "gradtree/wine") != tunedKey("gradtree", "wine") {
		t.Error("gradtree/ prefix not ignored")
	}
	bad := write("c.json", `{"kind":"cart"}`)
	if _, err := ReadTuned(bad); err == nil || !strings.Contains(err.Error(), "kind and dataset are required") {
		t.Errorf("missing dataset: %v", err)
	}
	if _, err := ReadTuned(filepath.Join(dir, "nope")); err == nil {
		t.Error("missing file accepted")
	}
	if _, err := ReadTuned(t.TempDir()); err == nil || !strings.Contains(err.Error(), "no *.json") {
		t.Errorf("empty dir: %v", err)
	}
}

func TestOptimisedSuite(t *testing.T) {
	entries, err := datasets.Suite("gradtree-binary")
	if err != nil {
		t.Fatal(err)
	}
	s := optimisedSuite(&Suite{Name: "gradtree-binary", Entries: entries})
	e, _ := s.Entry("blood-transfusion")
	if e.Thesis["GradTree"] != 0.628 || !strings.Contains(e.ThesisTable, "10.3") {
		t.Errorf("reference %v (%s), want the optimised table's 0.628", e.Thesis, e.ThesisTable)
	}
	if entries[0].Thesis["GradTree"] != 0.627 {
		t.Errorf("the original suite was changed: %v", entries[0].Thesis)
	}
}

// TestSavedTunedDeclared checks that the tuned configurations kept in the
// repository (results/tuned) still parse under their kinds' declarations.
func TestSavedTunedDeclared(t *testing.T) {
	tuned, err := ReadTuned(filepath.Join("..", "results", "tuned"))
	if err != nil {
		t.Fatal(err)
	}
	if len(tuned) == 0 {
		t.Fatal("no tuned configurations in results/tuned")
	}
	for _, c := range tuned {
		k, err := model.LookupKind(c.Kind)
		if err != nil {
			t.Fatal(err)
		}
		if err := k.Options.Check(c.Options); err != nil {
			t.Errorf("%s on %s: %v", c.Kind, c.Dataset, err)
		}
	}
}
