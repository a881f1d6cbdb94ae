package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
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
