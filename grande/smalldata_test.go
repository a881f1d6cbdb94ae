package grande_test

import (
	"context"
	"testing"

	"github.com/gdt-ml/gdt/bench"
	"github.com/gdt-ml/gdt/datasets"
	"github.com/gdt-ml/gdt/grande"
	"github.com/gdt-ml/gdt/metrics"
	"github.com/gdt-ml/gdt/model"
)

// On Hepatitis under the GradTree protocol (100 training rows, SMOTE to
// ≈ 146; every categorical column leave-one-out encoded on the training
// rows, so each training row's value carries a trace of its own label that
// no new row has) GRANDE separated the training rows by those traces and
// predicted the majority class for (almost) every test row: with 256 trees
// macro F1 0.436 in all three trials, with these 32 trees 0.426, 0.436,
// 0.436 (intercept=none). With the intercept fitted on the validation rows
// (grande.SmallData) neither grande nor grande-fast predicts a single
// class. Skips without the benchmark data.
func TestHepatitisNotConstant(t *testing.T) {
	if testing.Short() {
		t.Skip("trains 2 × 3 ensembles of 32 trees")
	}
	root, err := datasets.Root("")
	if err != nil {
		t.Skipf("benchmark data not found (%v); set GDT_DATA to run this test", err)
	}
	ds, err := datasets.Load(root, "hepatitis")
	if err != nil {
		t.Fatal(err)
	}
	proto := bench.GradTreeProtocol{}
	folds, err := proto.Folds(ds, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"grande", "grande-fast"} {
		k, err := model.LookupKind(kind)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range folds {
			prep, err := proto.Prepare(ds, f)
			if err != nil {
				t.Fatal(err)
			}
			l, err := k.New(map[string]string{"n_estimators": "32"}, 42)
			if err != nil {
				t.Fatal(err)
			}
			if err := l.Fit(context.Background(), prep.Problem, prep.Train, prep.Valid); err != nil {
				t.Fatal(err)
			}
			if m := l.(*grande.Model); !grande.SmallData(prep.Train.X.Rows) || m.Intercept == nil {
				t.Fatalf("%s trial %d: %d training rows: the small-data intercept was not fitted", kind, f.Trial, prep.Train.X.Rows)
			}
			p, err := l.PredictProba(prep.Test.X)
			if err != nil {
				t.Fatal(err)
			}
			pred := model.Decide(prep.Problem.Task, p)
			classes := map[float64]bool{}
			for _, v := range pred {
				classes[v] = true
			}
			f1 := metrics.F1Macro(prep.Test.Y, pred, 2)
			t.Logf("%s trial %d: test macro F1 %.3f", kind, f.Trial, f1)
			if len(classes) < 2 {
				t.Errorf("%s trial %d predicts one class for all %d test rows", kind, f.Trial, len(pred))
			}
		}
	}
}
