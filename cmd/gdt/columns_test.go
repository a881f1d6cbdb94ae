package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/model"
)

// writeFile writes text to name in dir and returns its path.
func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestNumericLookingColumnFlags: a numeric column with one stray value is
// an error in train and eval naming file:line, column and value, unless
// --categorical or --na-values say what it is; decimal commas are named.
func TestNumericLookingColumnFlags(t *testing.T) {
	dir := t.TempDir()
	stray := writeFile(t, dir, "stray.csv", strings.Replace(trainCSV, "\n33,31000,", "\nabc,31000,", 1))
	comma := writeFile(t, dir, "comma.csv", strings.ReplaceAll(strings.ReplaceAll(trainCSV, ",", ";"), "000;", ",5;"))
	out := filepath.Join(dir, "m.json")
	tests := []struct {
		name string
		args []string
		want []string // stderr parts; nil: success
	}{
		{"train stray", []string{"train", "--data", stray, "--target", "decision", "--out", out, "--quiet"},
			[]string{"stray.csv:12:", `column 1 ("age")`, `"abc" is not a number`, "1 value is not", "--categorical age", "--na-values abc"}},
		{"eval stray", []string{"eval", "--data", stray, "--target", "decision", "--folds", "2"},
			[]string{"stray.csv:12:", `"age"`, `"abc"`}},
		{"train --categorical", []string{"train", "--data", stray, "--target", "decision", "--categorical", "age", "--out", out, "--quiet"}, nil},
		{"train --na-values", []string{"train", "--data", stray, "--target", "decision", "--na-values", "abc,n/a", "--out", out, "--quiet"}, nil},
		{"train decimal commas", []string{"train", "--data", comma, "--target", "decision", "--out", out, "--quiet"},
			[]string{"comma.csv:2:", `column 2 ("income")`, `"30,5" is a number written with a decimal comma`, "3,5 -> 3.5"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, code := gdt(t, tt.args...)
			if tt.want == nil {
				if code != 0 {
					t.Fatalf("exit %d: %s", code, stderr)
				}
				return
			}
			if code == 0 {
				t.Fatal("exit 0, want an error")
			}
			for _, w := range tt.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr %q lacks %q", stderr, w)
				}
			}
		})
	}
}

// TestPredictUnseenLevels: gdt predict warns with the rows per column that
// hold a level never seen in training, lists them in --json, and fails
// with --strict; a non-numeric value in a column the model knows as
// numeric is an error unless declared missing.
func TestPredictUnseenLevels(t *testing.T) {
	dir := t.TempDir()
	train := writeFile(t, dir, "train.csv", trainCSV)
	modelPath := filepath.Join(dir, "m.json")
	if _, stderr, code := gdt(t, "train", "--data", train, "--target", "decision", "--model", "cart", "--out", modelPath, "--quiet"); code != 0 {
		t.Fatal(stderr)
	}
	seen := writeFile(t, dir, "seen.csv", "age,income,housing\n30,40000,rent\n50,80000,own\n")
	unseen := writeFile(t, dir, "unseen.csv", "age,income,housing\n30,40000,boat\n50,80000,own\n41,50000,castle\n22,20000,boat\n33,30000,\n")
	oldAge := writeFile(t, dir, "old.csv", "age,income,housing\n30,40000,rent\nold,80000,own\n")
	want := model.Unseen{{Column: "housing", Rows: 3, Levels: []model.LevelRows{{Level: "boat", Rows: 2}, {Level: "castle", Rows: 1}}}}
	const warning = `warning: %s: category levels never seen in training, each encoded as the unseen level (--strict makes this an error): "housing": 3 rows ("boat" 2, "castle" 1)`

	stdout, stderr, code := gdt(t, "predict", modelPath, "--data", unseen)
	if code != 0 || !strings.Contains(stderr, fmt.Sprintf(warning, unseen)) || strings.Count(stdout, "\n") != 6 {
		t.Errorf("without --strict: exit %d, stderr %q, %d lines", code, stderr, strings.Count(stdout, "\n"))
	}
	stdout, stderr, code = gdt(t, "predict", modelPath, "--data", unseen, "--json")
	var doc struct {
		Rows   int          `json:"rows"`
		Unseen model.Unseen `json:"unseen"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil || code != 0 {
		t.Fatalf("--json: exit %d, %v: %s", code, err, stderr)
	}
	if doc.Rows != 5 || !reflect.DeepEqual(doc.Unseen, want) {
		t.Errorf("--json unseen %+v, want %+v", doc.Unseen, want)
	}
	out := filepath.Join(dir, "p.csv")
	stdout, _, code = gdt(t, "predict", modelPath, "--data", unseen, "--out", out, "--json")
	doc.Unseen = nil
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil || code != 0 || !reflect.DeepEqual(doc.Unseen, want) {
		t.Errorf("--out --json: exit %d, %v, unseen %+v", code, err, doc.Unseen)
	}

	_, stderr, code = gdt(t, "predict", modelPath, "--data", unseen, "--strict", "--out", filepath.Join(dir, "strict.csv"))
	if code == 0 || !strings.Contains(stderr, `--strict): "housing": 3 rows ("boat" 2, "castle" 1)`) {
		t.Errorf("--strict: exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "strict.csv")); err == nil {
		t.Error("--strict failed but wrote its --out file")
	}
	stdout, stderr, code = gdt(t, "predict", modelPath, "--data", seen, "--strict", "--json")
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil || code != 0 || stderr != "" || len(doc.Unseen) != 0 || !strings.Contains(stdout, `"unseen": []`) {
		t.Errorf("--strict, all levels seen: exit %d, stderr %q, unseen %v", code, stderr, doc.Unseen)
	}

	_, stderr, code = gdt(t, "predict", modelPath, "--data", oldAge)
	if code == 0 || !strings.Contains(stderr, `old.csv:3: column 1 ("age"): expected a number, found "old"`) {
		t.Errorf("text in a numeric column: exit %d, stderr %q", code, stderr)
	}
	if _, stderr, code = gdt(t, "predict", modelPath, "--data", oldAge, "--na-values", "old"); code != 0 {
		t.Errorf("--na-values old: exit %d, %s", code, stderr)
	}
}

// TestNAValuesStoredInModel: the missing markers given to train with
// --na-values are stored in the model file, so predict and report read
// later files with them without the flag (merged with any given then):
// the marked cells predict exactly as empty (missing) cells do. "?" is a
// default marker anyway; "-" and "unknown" are not.
func TestNAValuesStoredInModel(t *testing.T) {
	dir := t.TempDir()
	marked := strings.NewReplacer("\n33,31000,rent,", "\n?,31000,-,", "\n41,67000,", "\n41,-,").Replace(trainCSV)
	train := writeFile(t, dir, "train.csv", marked)
	modelPath := filepath.Join(dir, "m.json")
	if _, stderr, code := gdt(t, "train", "--data", train, "--target", "decision", "--model", "cart", "--na-values", "?,-", "--out", modelPath, "--quiet"); code != 0 {
		t.Fatal(stderr)
	}
	b, err := os.ReadFile(modelPath)
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		NAValues []string `json:"na_values"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(f.NAValues, []string{"?", "-"}) {
		t.Fatalf("model file na_values = %q, want [? -]", f.NAValues)
	}
	rows := "age,income,housing\n?,40000,rent\n50,-,own\n-,80000,-\n41,50000,castle\n22,20000,own\n"
	withMarkers := writeFile(t, dir, "marked.csv", rows)
	blank := writeFile(t, dir, "blank.csv", strings.NewReplacer("?", "", "-", "").Replace(rows))
	other := writeFile(t, dir, "other.csv", strings.Replace(rows, "22,20000", "unknown,20000", 1))
	want, stderr, code := gdt(t, "predict", modelPath, "--data", blank, "--proba")
	if code != 0 {
		t.Fatal(stderr)
	}
	got, stderr, code := gdt(t, "predict", modelPath, "--data", withMarkers, "--proba")
	if code != 0 {
		t.Fatalf("predict without --na-values: exit %d: %s", code, stderr)
	}
	if got != want {
		t.Errorf("marked cells predict\n%s\nempty (missing) cells predict\n%s", got, want)
	}
	if strings.Count(stderr, "never seen") != 1 || !strings.Contains(stderr, `housing`) || !strings.Contains(stderr, "1 row") {
		t.Errorf("stderr %q: want one unseen level (castle), the marker \"-\" read as missing", stderr)
	}
	// a marker given at predict time adds to the stored ones
	if _, stderr, code := gdt(t, "predict", modelPath, "--data", other); code == 0 || !strings.Contains(stderr, `"unknown"`) {
		t.Errorf("predict on %q without --na-values unknown: exit %d, stderr %q; want an error naming it", other, code, stderr)
	}
	blankOther := writeFile(t, dir, "blank-other.csv", strings.NewReplacer("?", "", "-", "", "unknown", "").Replace(strings.Replace(rows, "22,20000", "unknown,20000", 1)))
	wantOther, stderr, code := gdt(t, "predict", modelPath, "--data", blankOther, "--proba")
	if code != 0 {
		t.Fatal(stderr)
	}
	if got, stderr, code := gdt(t, "predict", modelPath, "--data", other, "--proba", "--na-values", "unknown"); code != 0 || got != wantOther {
		t.Errorf("predict --na-values unknown: exit %d (%s), output\n%s\nwant\n%s", code, stderr, got, wantOther)
	}
	// report reads the data through the same options (here the training
	// file, which holds "-" in a numeric column)
	if _, stderr, code := gdt(t, "report", modelPath, "--data", train, "--out", filepath.Join(dir, "report")); code != 0 {
		t.Errorf("report without --na-values: exit %d: %s", code, stderr)
	}
}
