package modelfile_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	_ "github.com/gdt-ml/gdt/cart" // registers the model kinds the golden files use
	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/datasets"
	_ "github.com/gdt-ml/gdt/forest"
	_ "github.com/gdt-ml/gdt/gradtree"
	_ "github.com/gdt-ml/gdt/grande"
	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/modelfile"
)

var update = flag.Bool("update", false, "rewrite the golden model files of the current version (testdata/vN)")

// goldenSpecs are the tiny models saved as golden files: small enough to
// train in a fraction of a second and to keep in the repository.
var goldenSpecs = []model.Spec{
	{Kind: "cart", Options: map[string]string{"max_depth": "4"}, Seed: 42},
	{Kind: "gradtree", Options: map[string]string{"depth": "3", "restarts": "1", "epochs": "30", "lr_leaf": "0.05"}, Seed: 42},
	{Kind: "grande", Options: map[string]string{"n_estimators": "4", "depth": "2", "epochs": "10", "workers": "1"}, Seed: 42},
	{Kind: "random-forest", Options: map[string]string{"n_estimators": "3", "max_depth": "3", "workers": "1"}, Seed: 42},
}

// goldenData returns the training rows (the first 200 demo rows) and the
// rows whose predictions are recorded: 30 more demo rows, one with a
// missing numeric value and one with an unseen category.
func goldenData() (train *data.Dataset, query *data.Table) {
	ds := datasets.Demo()
	idx := func(from, to int) []int {
		out := make([]int, 0, to-from)
		for i := from; i < to; i++ {
			out = append(out, i)
		}
		return out
	}
	train = ds.Subset(idx(0, 200))
	q := ds.Subset(idx(200, 232)).X
	// Row 30: missing income; row 31: an unseen purpose.
	cols := make([]*data.Column, len(q.Columns))
	for j, c := range q.Columns {
		cc := *c
		if c.Kind == data.Numeric {
			cc.Num = append([]float64(nil), c.Num...)
		} else {
			cc.Codes = append([]int32(nil), c.Codes...)
		}
		cols[j] = &cc
	}
	q = &data.Table{Columns: cols}
	q.Col("income").Num[30] = math.NaN()
	q.Col("purpose").Codes[31] = data.Missing
	return train, q
}

// recorded is the predictions file of one version folder.
type recorded struct {
	Note  string                 `json:"note"`
	Proba map[string][][]float64 `json:"proba"` // kind → rows × columns
}

func versionDir(v int) string { return filepath.Join("testdata", fmt.Sprintf("v%d", v)) }

// TestGolden loads the golden model files of every version this build
// reads and checks their predictions against the recorded ones. With
// -update it first regenerates the files of the current version.
func TestGolden(t *testing.T) {
	train, query := goldenData()
	if *update {
		dir := versionDir(modelfile.Version)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		rec := recorded{Note: "PredictProba of the golden query rows (modelfile/golden_test.go goldenData), written by go test ./modelfile -run TestGolden -update", Proba: map[string][][]float64{}}
		for _, s := range goldenSpecs {
			m, err := model.Train(context.Background(), train, s)
			if err != nil {
				t.Fatalf("%s: %v", s.Kind, err)
			}
			m.Target = "decision"
			m.Info["created_by"] = "modelfile golden test"
			if err := m.Save(filepath.Join(dir, s.Kind+".gdt.json")); err != nil {
				t.Fatal(err)
			}
			p, err := m.PredictProba(query)
			if err != nil {
				t.Fatalf("%s: %v", s.Kind, err)
			}
			rec.Proba[s.Kind] = toRows(p)
		}
		b, err := marshalRecorded(rec)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "predictions.json"), b, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote the golden files of version %d to %s", modelfile.Version, dir)
	}
	for v := 1; v <= modelfile.Version; v++ {
		dir := versionDir(v)
		b, err := os.ReadFile(filepath.Join(dir, "predictions.json"))
		if err != nil {
			t.Fatalf("version %d has no golden files (%v): every version this build reads needs them; generate the current one with go test ./modelfile -run TestGolden -update", v, err)
		}
		var rec recorded
		if err := json.Unmarshal(b, &rec); err != nil {
			t.Fatalf("%s/predictions.json: %v", dir, err)
		}
		for _, s := range goldenSpecs {
			t.Run(fmt.Sprintf("v%d/%s", v, s.Kind), func(t *testing.T) {
				path := filepath.Join(dir, s.Kind+".gdt.json")
				f, err := modelfile.Load(path)
				if err != nil {
					t.Fatal(err)
				}
				if f.Version != v || f.Kind != s.Kind {
					t.Fatalf("%s: version %d kind %q, expected version %d kind %q", path, f.Version, f.Kind, v, s.Kind)
				}
				m, err := model.FromFile(f, path)
				if err != nil {
					t.Fatal(err)
				}
				want, ok := rec.Proba[s.Kind]
				if !ok {
					t.Fatalf("%s/predictions.json has no %s entry", dir, s.Kind)
				}
				p, err := m.PredictProba(query)
				if err != nil {
					t.Fatal(err)
				}
				got := toRows(p)
				if len(got) != len(want) {
					t.Fatalf("%d rows predicted, %d recorded", len(got), len(want))
				}
				for i := range got {
					if len(got[i]) != len(want[i]) {
						t.Fatalf("row %d: %d columns, %d recorded", i, len(got[i]), len(want[i]))
					}
					for c := range got[i] {
						// Trees reproduce the recorded float32 exactly; the
						// tolerance leaves room for a different (but
						// equally exact) float32 summation order in an
						// ensemble's prediction code.
						if d := math.Abs(got[i][c] - want[i][c]); d > 1e-6 || math.IsNaN(got[i][c]) {
							t.Fatalf("row %d, class %d: predicts %v, recorded %v", i, c, got[i][c], want[i][c])
						}
					}
				}
			})
		}
	}
}

// marshalRecorded writes rec with one prediction row per line (readable
// diffs when a version's golden files are regenerated).
func marshalRecorded(rec recorded) ([]byte, error) {
	note, err := json.Marshal(rec.Note)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "{\n \"note\": %s,\n \"proba\": {", note)
	for k, s := range goldenSpecs {
		if k > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "\n  %q: [", s.Kind)
		for i, r := range rec.Proba[s.Kind] {
			row, err := json.Marshal(r)
			if err != nil {
				return nil, err
			}
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString("\n   ")
			b.Write(row)
		}
		b.WriteString("\n  ]")
	}
	b.WriteString("\n }\n}\n")
	return b.Bytes(), nil
}

func toRows(p *data.Matrix) [][]float64 {
	out := make([][]float64, p.Rows)
	for i := range out {
		for _, v := range p.Row(i) {
			out[i] = append(out[i], float64(v))
		}
	}
	return out
}
