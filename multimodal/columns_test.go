package multimodal

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/data"
)

// TestCSVColumnRule: multimodal files are typed by package data's rule —
// a numeric-looking column with a stray value is a *data.ColumnError
// naming line, column and value, unless declared categorical or the value
// missing; the markers declared at training are stored in the model and
// read as missing by PredictCSV without being repeated.
func TestCSVColumnRule(t *testing.T) {
	dir := t.TempDir()
	writeSynthetic(t, dir, 40, 8)
	path := filepath.Join(dir, "ham10000.csv")
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// setAge returns the CSV with the age of data row r set to v
	// (columns: image_id,image_file,lesion_id,dx,label,dx_type,age,…).
	setAge := func(text string, r int, v string) string {
		lines := strings.Split(text, "\n")
		f := strings.Split(lines[r+1], ",")
		f[6] = v
		lines[r+1] = strings.Join(f, ",")
		return strings.Join(lines, "\n")
	}
	stray := setAge(string(orig), 4, "unknown")
	if err := os.WriteFile(path, []byte(stray), 0o644); err != nil {
		t.Fatal(err)
	}
	noImages := LoadOptions{NoImages: true}
	_, err = LoadCSV(path, dir, CSVOptions{LoadOptions: noImages})
	var ce *data.ColumnError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "ham10000.csv:6: column 7 (\"age\")") || !strings.Contains(err.Error(), `"unknown"`) {
		t.Fatalf("stray value: error %v, want a *data.ColumnError naming ham10000.csv:6, column 7 (age) and \"unknown\"", err)
	}
	cat, err := LoadCSV(path, dir, CSVOptions{Categorical: []string{"age"}, LoadOptions: noImages})
	if err != nil || cat.Tab.Col("age").Kind != data.Categorical {
		t.Fatalf("--categorical age: %v", err)
	}
	ds, err := LoadCSV(path, dir, CSVOptions{NAValues: []string{"unknown", "unknown"}, LoadOptions: noImages})
	if err != nil {
		t.Fatal(err)
	}
	if age := ds.Tab.Col("age"); age.Kind != data.Numeric || !age.IsMissing(4) || !reflect.DeepEqual(ds.NAValues, []string{"unknown"}) {
		t.Fatalf("--na-values unknown: age %v, missing at row 4 %v, markers %q", age.Kind, age.IsMissing(4), ds.NAValues)
	}
	cfg := tinyConfig(false, "grande")
	cfg.PretrainEpochs, cfg.Epochs = 2, 2
	tr, err := TrainDataset(context.Background(), ds, TrainOptions{Config: cfg, ValidFraction: 0.25})
	if err != nil {
		t.Fatal(err)
	}
	saved := filepath.Join(dir, "m.json")
	if err := tr.Save(saved); err != nil {
		t.Fatal(err)
	}
	back, err := LoadTrained(saved)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.NAValues, []string{"unknown"}) {
		t.Fatalf("saved markers %q", back.NAValues)
	}
	got, err := back.PredictCSV(context.Background(), path, PredictOptions{})
	if err != nil {
		t.Fatalf("predicting the file with the stored marker: %v", err)
	}
	blank := filepath.Join(dir, "blank.csv")
	if err := os.WriteFile(blank, []byte(setAge(stray, 4, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	want, err := back.PredictCSV(context.Background(), blank, PredictOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Proba.Data, want.Proba.Data) {
		t.Error("the stored marker does not predict as an empty (missing) field")
	}
	// a marker given at prediction adds to the stored ones
	other := filepath.Join(dir, "other.csv")
	if err := os.WriteFile(other, []byte(setAge(stray, 4, "n.a.")), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := back.PredictCSV(context.Background(), other, PredictOptions{}); err == nil || !strings.Contains(err.Error(), `"n.a."`) {
		t.Errorf("unknown marker n.a.: %v, want an error naming it", err)
	}
	if p, err := back.PredictCSV(context.Background(), other, PredictOptions{NAValues: []string{"n.a."}}); err != nil || !reflect.DeepEqual(p.Proba.Data, want.Proba.Data) {
		t.Errorf("PredictOptions.NAValues n.a.: %v", err)
	}
	// a damaged marker list is refused at load
	b, _ := os.ReadFile(saved)
	bad := strings.Replace(string(b), `"na_values":["unknown"]`, `"na_values":["unknown","unknown"]`, 1)
	if bad == string(b) {
		t.Fatal("no na_values in the saved file")
	}
	os.WriteFile(saved, []byte(bad), 0o644)
	if _, err := LoadTrained(saved); err == nil || !strings.Contains(err.Error(), "na_values[1]") {
		t.Errorf("repeated marker: %v", err)
	}
}
