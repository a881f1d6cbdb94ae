package grande_test

import (
	"context"
	"math"
	"testing"

	"github.com/gdt-ml/gdt/bench"
	"github.com/gdt-ml/gdt/datasets"
	"github.com/gdt-ml/gdt/grande"
	"github.com/gdt-ml/gdt/interpret"
	"github.com/gdt-ml/gdt/model"
)

// plainPredict is the ensemble written out with plain trees: every tree
// routes x to a leaf (its value and weight logit), the weights are
// soft-maxed across the trees and the values summed with them — the
// reading of the model a user can do by hand. The sums run in tree order
// in float64, as in the kernel.
func plainPredict(trees []*interpret.Tree, x []float32, out []float32, val []float64) {
	E := len(trees)
	leaf := make([]int, E)
	mx := math.Inf(-1)
	for e, t := range trees {
		l, err := t.LeafOf(x)
		if err != nil {
			panic(err)
		}
		leaf[e] = l
		mx = math.Max(mx, float64(t.Nodes[leaf[e]].Weight))
	}
	a := make([]float64, E)
	var s float64
	for e, t := range trees {
		a[e] = math.Exp(float64(t.Nodes[leaf[e]].Weight) - mx)
		s += a[e]
	}
	clear(val)
	for e, t := range trees {
		w := a[e] / s
		if E == 1 {
			w = 1
		}
		for c, v := range t.Nodes[leaf[e]].Value {
			val[c] += w * float64(v)
		}
	}
	for c, v := range val {
		out[c] = float32(v)
	}
}

// TestNoInformationLoss is the thesis's "no information loss" promise for
// GRANDE, checked on every dataset of the grande suite under the GRANDE
// protocol (first fold): the unpruned plain trees (interpret.FromKernel)
// combined with the per-row softmax over the reached leaves' weight logits,
// and the flat inference path, reproduce the kernel's raw outputs bit for
// bit on every training, validation and test row; the trained form's
// predictor (ensemble.Predictor, which takes the leaf weights'
// exponentials once) agrees up to float32 rounding (logged when a bit
// differs). Trainings are short
// (16 trees of depth 4, 2 epochs); the property does not depend on how
// long training ran.
func TestNoInformationLoss(t *testing.T) {
	root, err := datasets.Root("")
	if err != nil {
		t.Skipf("benchmark data not found (%v); set GDT_DATA to run this test", err)
	}
	entries, err := datasets.Suite(datasets.SuiteGRANDE)
	if err != nil {
		t.Fatal(err)
	}
	proto := bench.CVProtocol{K: 5, ValidFraction: 0.1, Seed: 42, Pipeline: "gr-paper"}
	for _, entry := range entries {
		t.Run(entry.Dataset, func(t *testing.T) {
			ds, err := datasets.Load(root, entry.Dataset)
			if err != nil {
				t.Fatal(err)
			}
			folds, err := proto.Folds(ds, 1)
			if err != nil {
				t.Fatal(err)
			}
			prep, err := proto.Prepare(ds, folds[0])
			if err != nil {
				t.Fatal(err)
			}
			m := grande.New(grande.Config{Trees: 16, Depth: 4, MaxEpochs: 2})
			if err := m.Fit(context.Background(), prep.Problem, prep.Train, prep.Valid); err != nil {
				t.Fatal(err)
			}
			k, err := m.Kernel()
			if err != nil {
				t.Fatal(err)
			}
			trees := make([]*interpret.Tree, k.Trees())
			for e := range trees {
				if trees[e], err = interpret.FromEnsemble(m.Ensemble, e); err != nil {
					t.Fatal(err)
				}
			}
			C := m.Outputs
			got, val := make([]float32, C), make([]float64, C)
			rows, differ := 0, 0
			for _, part := range []*model.Data{prep.Train, prep.Valid, prep.Test} {
				raw := make([]float32, part.X.Rows*C)
				if err := k.Predict(k.NewWorkspace(), part.X.Data, part.X.Rows, raw); err != nil {
					t.Fatal(err)
				}
				pred, err := m.Raw(part.X)
				if err != nil {
					t.Fatal(err)
				}
				for i := 0; i < part.X.Rows; i++ {
					plainPredict(trees, part.X.Row(i), got, val)
					for c := 0; c < C; c++ {
						want := math.Float32bits(raw[i*C+c])
						if math.Float32bits(got[c]) != want {
							t.Fatalf("row %d output %d: kernel %v, plain trees %v", i, c, raw[i*C+c], got[c])
						}
						if math.Float32bits(pred[i*C+c]) != want {
							differ++
							if d := math.Abs(float64(pred[i*C+c] - raw[i*C+c])); d > 2.5e-7*math.Max(1, math.Abs(float64(raw[i*C+c]))) {
								t.Fatalf("row %d output %d: kernel %v, trained form %v", i, c, raw[i*C+c], pred[i*C+c])
							}
						}
					}
					rows++
				}
			}
			if rows == 0 {
				t.Fatal("no rows compared")
			}
			if differ > 0 {
				t.Logf("%d of %d outputs of the trained form differ from the kernel's in the last bits", differ, rows*C)
			}
		})
	}
}

// TestBenchRegistration checks the benchmark models of this package: they
// build with their fixed options, and their thesis columns exist in the
// grande suite's reference tables.
func TestBenchRegistration(t *testing.T) {
	entries, err := datasets.Suite(datasets.SuiteGRANDE)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, thesis, weights string }{
		{"grande", "GRANDE", "leaf"}, {"grande-estimator-weights", "", "estimator"}, {"random-forest", "RandomForest", ""},
	} {
		m, err := bench.Lookup(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		if m.Thesis != tc.thesis {
			t.Fatalf("%s: thesis column %q, want %q", tc.name, m.Thesis, tc.thesis)
		}
		if tc.thesis != "" {
			for _, e := range entries {
				if _, ok := e.Thesis[tc.thesis]; !ok {
					t.Fatalf("%s: dataset %s has no thesis figure %q", tc.name, e.Dataset, tc.thesis)
				}
			}
		}
		l := m.New(42)
		if g, ok := l.(*grande.Model); ok {
			if g.Config.Weights != "" && g.Config.Weights != tc.weights {
				t.Fatalf("%s: weights %q", tc.name, g.Config.Weights)
			}
			if !m.UsesValidation {
				t.Fatalf("%s does not use the validation split", tc.name)
			}
		}
	}
	s, err := bench.LookupSuite("grande")
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := s.Protocol.(bench.CVProtocol); !ok || p != (bench.CVProtocol{K: 5, ValidFraction: 0.1, Seed: 42, Pipeline: "gr-paper"}) {
		t.Fatalf("grande suite protocol %#v", s.Protocol)
	}
}
