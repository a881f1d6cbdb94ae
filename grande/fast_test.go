package grande

import (
	"context"
	"encoding/json"
	"math"
	"path/filepath"
	"testing"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/datasets"
	"github.com/gdt-ml/gdt/loss"
	"github.com/gdt-ml/gdt/model"
)

// grande-fast is grande with other defaults: options set over Fast, the
// user's options over those.
func TestFastKindOptions(t *testing.T) {
	k, err := model.LookupKind("grande-fast")
	if err != nil {
		t.Fatal(err)
	}
	l, err := k.New(map[string]string{"patience": "3", "trees": "64"}, 7)
	if err != nil {
		t.Fatal(err)
	}
	c := l.(*Model).Config
	want := Fast
	want.Patience, want.Trees, want.Seed = 3, 64, 7
	if c != want {
		t.Fatalf("grande-fast with patience=3 trees=64: %+v, want %+v", c, want)
	}
	g, err := model.LookupKind("grande")
	if err != nil {
		t.Fatal(err)
	}
	l, err = g.New(nil, 7)
	if err != nil {
		t.Fatal(err)
	}
	if c := l.(*Model).Config; c != (Config{Seed: 7}) {
		t.Fatalf("grande without options: %+v, want the zero configuration (published defaults)", c)
	}
}

// grande-fast trains, saves, loads and predicts like grande: through the
// registry (model.Train, Save, Load) on the demo data, with the reloaded
// model's predictions bit-identical and its configuration Fast's.
func TestFastTrainsSavesLoadsPredicts(t *testing.T) {
	ds := datasets.Demo()
	for _, kind := range []string{"grande", "grande-fast"} {
		t.Run(kind, func(t *testing.T) {
			opts := map[string]string{"n_estimators": "16", "depth": "3", "epochs": "6"}
			tr, err := model.Train(context.Background(), ds, model.Spec{Kind: kind, Options: opts, Seed: 7})
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "m.json")
			if err := tr.Save(path); err != nil {
				t.Fatal(err)
			}
			back, err := model.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			if back.Spec.Kind != kind {
				t.Fatalf("reloaded kind %q", back.Spec.Kind)
			}
			a, err := tr.PredictProba(ds.X)
			if err != nil {
				t.Fatal(err)
			}
			b, err := back.PredictProba(ds.X)
			if err != nil {
				t.Fatal(err)
			}
			for i := range a.Data {
				if a.Data[i] != b.Data[i] || math.IsNaN(float64(a.Data[i])) {
					t.Fatalf("row %d: %v before saving, %v after", i/a.Cols, a.Row(i/a.Cols), b.Row(i/b.Cols))
				}
			}
			bm := back.Learner.(*Model)
			c := bm.Config
			wantBatch, wantEvery, wantTrees := 64, 0, 16
			if kind == "grande-fast" {
				// feature coverage raises the 16 trees on the demo data
				wantBatch, wantEvery = Fast.BatchSize, Fast.EvalEvery
				wantTrees = CoveredTrees(16, Fast.FeatureCoverage, bm.Features, bm.SubsetSize)
			}
			if c.Trees != wantTrees || c.BatchSize != wantBatch || c.EvalEvery != wantEvery {
				t.Fatalf("reloaded configuration %+v", c)
			}
		})
	}
}

// With EvalEvery the fit checks the validation loss within epochs and
// restores the best check's weights: the reloaded run's best loss is the
// validation loss of the returned model.
func TestEvalEveryRestoresBestCheck(t *testing.T) {
	tr, va := synthetic(1200, 1), synthetic(200, 2)
	c := smallConfig()
	c.EvalEvery, c.BatchSize, c.MaxEpochs = 5, 64, 6
	m := New(c)
	if err := m.Fit(context.Background(), binaryTask, tr, va); err != nil {
		t.Fatal(err)
	}
	r := m.Restarts[m.BestRestart]
	if r.BestStep == 0 || len(r.History) < 2*r.Epochs {
		t.Fatalf("expected several checks per epoch: %d checks in %d epochs, best step %d", len(r.History), r.Epochs, r.BestStep)
	}
	raw, err := m.Raw(va.X)
	if err != nil {
		t.Fatal(err)
	}
	lc, err := lossConfig(m.Config, data.Binary, 1, tr.Y)
	if err != nil {
		t.Fatal(err)
	}
	if got := validLoss(t, lc, raw, va.Y); math.Abs(got-r.BestLoss) > 1e-6 {
		t.Fatalf("validation loss of the kept model %v, best check %v", got, r.BestLoss)
	}
}

func TestFitIntercept(t *testing.T) {
	// binary: raw outputs all 2 for 3 rows of class 1 and 1 of class 0;
	// balanced, the intercept makes the mean probability per class equal
	// their balanced share: with one raw value it is σ(2 + b) = 1/2.
	b := fitIntercept([]float32{2, 2, 2, 2}, []float64{1, 1, 1, 0}, 1, 2, true)
	if len(b) != 1 || math.Abs(float64(b[0])+2) > 1e-5 {
		t.Fatalf("balanced binary intercept %v, want −2", b)
	}
	// unweighted: σ(2 + b) = 3/4
	b = fitIntercept([]float32{2, 2, 2, 2}, []float64{1, 1, 1, 0}, 1, 2, false)
	if want := math.Log(3) - 2; len(b) != 1 || math.Abs(float64(b[0])-want) > 1e-5 {
		t.Fatalf("unweighted binary intercept %v, want %v", b, want)
	}
	// multiclass, balanced: the fitted gradient vanishes (every class's
	// mean probability over the balanced rows is 1/3)
	raw := []float32{1, 0, 0, 0.5, 0.2, -1, 0, 2, 0, -0.3, 0.1, 0.4, 1, 1, 0}
	y := []float64{0, 0, 1, 2, 2}
	b = fitIntercept(raw, y, 3, 3, true)
	if len(b) != 3 {
		t.Fatalf("multiclass intercept %v", b)
	}
	w := []float64{1.0 / 6, 1.0 / 3, 1.0 / 6}
	g := make([]float64, 3)
	for i, v := range y {
		var p [3]float64
		var s float64
		for c := range p {
			p[c] = math.Exp(float64(raw[i*3+c] + b[c]))
			s += p[c]
		}
		for c := range p {
			t := 0.0
			if c == int(v) {
				t = 1
			}
			g[c] += w[int(v)] * (p[c]/s - t)
		}
	}
	for c, v := range g {
		if math.Abs(v) > 1e-5 {
			t.Fatalf("gradient of class %d at the fitted intercept %v: %v", c, b, v)
		}
	}
	// a class missing from the validation rows: no intercept
	if b := fitIntercept([]float32{1, 2}, []float64{1, 1}, 1, 2, true); b != nil {
		t.Fatalf("intercept %v with one class only", b)
	}
}

// The small-data rule fits the intercept below 4·2^depth training rows
// and never on the GRANDE benchmark's datasets (their smallest training
// split has 360 rows); "none" and "validation" override it.
func TestSmallDataIntercept(t *testing.T) {
	if !SmallData(146) || !SmallData(255) || SmallData(256) || SmallData(360) {
		t.Fatal("SmallData")
	}
	va := synthetic(60, 2)
	for _, c := range []struct {
		rows      int
		intercept string
		fitted    bool
	}{{100, "", true}, {100, "none", false}, {300, "", false}, {300, "validation", true}} {
		cfg := smallConfig()
		cfg.Depth, cfg.MaxEpochs, cfg.Intercept = 6, 3, c.intercept
		m := New(cfg)
		if err := m.Fit(context.Background(), binaryTask, synthetic(c.rows, 1), va); err != nil {
			t.Fatal(err)
		}
		if (m.Intercept != nil) != c.fitted {
			t.Fatalf("%d rows, intercept=%q: intercept %v", c.rows, c.intercept, m.Intercept)
		}
		// the intercept is in the leaves: kernel and trained form agree
		raw, err := m.Raw(va.X)
		if err != nil {
			t.Fatal(err)
		}
		k, err := m.Kernel()
		if err != nil {
			t.Fatal(err)
		}
		kr := make([]float32, len(raw))
		if err := k.Predict(k.NewWorkspace(), va.X.Data, va.X.Rows, kr); err != nil {
			t.Fatal(err)
		}
		equalFloats(t, "kernel vs trained form", kr, raw)
		back := jsonRoundTrip(t, m)
		if len(back.Intercept) != len(m.Intercept) {
			t.Fatalf("intercept %v after a round trip, %v before", back.Intercept, m.Intercept)
		}
	}
}

// validLoss is the early-stopping loss (unweighted lc) of raw outputs.
func validLoss(t *testing.T, lc loss.Config, raw []float32, y []float64) float64 {
	t.Helper()
	f, err := loss.New(lc)
	if err != nil {
		t.Fatal(err)
	}
	v, err := f.Unweighted().Eval(raw, y, nil)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// feature_coverage raises the trees only where the subsets would leave a
// feature in fewer trees on average, and never above MaxCoverageTrees.
func TestCoveredTrees(t *testing.T) {
	for _, tc := range []struct {
		trees    int
		coverage float64
		n, ne    int
		want     int
	}{
		{256, 0, 500, 50, 256},                  // off
		{256, 64, 30, 24, 256},                  // 256·24/30 ≈ 205 trees per feature already
		{256, 64, 500, 50, 640},                 // madelon: ⌈64·500/50⌉
		{256, 64, 100000, 50, MaxCoverageTrees}, // bounded
		{4096, 64, 500, 50, 4096},               // never lowers the configured trees
	} {
		if got := CoveredTrees(tc.trees, tc.coverage, tc.n, tc.ne); got != tc.want {
			t.Errorf("CoveredTrees(%d, %v, %d, %d) = %d, want %d", tc.trees, tc.coverage, tc.n, tc.ne, got, tc.want)
		}
	}
}

// A fit with feature_coverage records the trees it trained in its
// configuration, so that the saved model checks and loads.
func TestFeatureCoverageFit(t *testing.T) {
	tr, va := synthetic(300, 1), synthetic(100, 2)
	c := smallConfig()
	c.Trees, c.MaxEpochs, c.SelectedVariables, c.FeatureCoverage = 4, 2, 2, 8
	m := New(c)
	if err := m.Fit(context.Background(), binaryTask, tr, va); err != nil {
		t.Fatal(err)
	}
	want := CoveredTrees(4, 8, tr.X.Cols, 2)
	if want <= 4 || m.Config.Trees != want || m.Ensemble.Trees() != want {
		t.Fatalf("%d trees configured, %d trained; want %d (> 4)", m.Config.Trees, m.Ensemble.Trees(), want)
	}
	back := jsonRoundTrip(t, m)
	if _, err := back.Raw(va.X); err != nil {
		t.Fatal(err)
	}
}

// jsonRoundTrip returns m saved to JSON and read back.
func jsonRoundTrip(t *testing.T, m *Model) *Model {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var back Model
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	return &back
}
