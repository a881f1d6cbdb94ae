package model_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/datasets"
	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/modelfile"
)

// TestNAValues: the training data's missing markers survive a save and
// load, ReadOptions merges them with the reader's own, a file without
// them (every golden file) loads with none, and a file whose na_values
// are too many, too long or repeated is refused naming the field.
func TestNAValues(t *testing.T) {
	tr, err := model.Train(context.Background(), datasets.Demo(), model.Spec{Kind: "cart", Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	tr.NAValues = []string{"-", "n.a."}
	dir := t.TempDir()
	path := filepath.Join(dir, "m.json")
	if err := tr.Save(path); err != nil {
		t.Fatal(err)
	}
	back, err := model.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.NAValues, tr.NAValues) {
		t.Fatalf("loaded na_values %q, saved %q", back.NAValues, tr.NAValues)
	}
	opt := back.ReadOptions(data.ReadOptions{NAValues: []string{"n.a.", "??"}})
	if want := []string{"-", "n.a.", "??"}; !reflect.DeepEqual(opt.NAValues, want) {
		t.Errorf("ReadOptions NAValues = %q, want %q", opt.NAValues, want)
	}
	if !opt.Schema.LenientOthers || len(opt.Schema.Numeric)+len(opt.Schema.Categorical) != len(back.Inputs) {
		t.Errorf("ReadOptions schema %+v: want the model's inputs, others lenient", opt.Schema)
	}

	golden, err := filepath.Glob("../modelfile/testdata/v*/cart.gdt.json")
	if err != nil || len(golden) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	for _, g := range golden {
		old, err := model.Load(g)
		if err != nil {
			t.Fatalf("%s: %v", g, err)
		}
		if old.NAValues != nil {
			t.Errorf("%s: na_values %q, want none", g, old.NAValues)
		}
	}

	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	many := make([]string, 1001)
	for i := range many {
		many[i] = strconv.Itoa(i)
	}
	bad := []struct {
		name string
		vals []string
		want string
	}{
		{"repeated", []string{"-", "?", "-"}, `na_values[2] = "-" is repeated`},
		{"too long", []string{strings.Repeat("z", 1001)}, "na_values[0]: 1001 bytes: expected at most 1000"},
		{"too many", many, "na_values: 1001 values: expected at most 1000"},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			var doc map[string]any
			if err := json.Unmarshal(raw, &doc); err != nil {
				t.Fatal(err)
			}
			doc["na_values"] = tt.vals
			b, err := json.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			f, err := modelfile.Read(strings.NewReader(string(b)), "bad.json")
			if err != nil {
				t.Fatal(err)
			}
			_, err = model.FromFile(f, "bad.json")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("load: %v; want an error containing %q", err, tt.want)
			}
			m := *tr
			m.NAValues = tt.vals
			if err := m.Save(filepath.Join(dir, "bad.json")); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("save: %v; want an error containing %q", err, tt.want)
			}
		})
	}
}
