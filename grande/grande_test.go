package grande

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/option"
	"github.com/gdt-ml/gdt/rng"
	"github.com/gdt-ml/gdt/tree"
)

// synthetic returns rows of 12 standard-normal features labelled by an
// ensemble-friendly rule: class 1 iff x0 + x1 > 0.3 (an oblique boundary
// that single axis-aligned trees approximate poorly), or x5 > 1.2.
func synthetic(n int, seed uint32) *model.Data {
	r := rng.New(seed)
	x := data.NewMatrix(n, 12)
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		for j := 0; j < 12; j++ {
			x.Set(i, j, float32(r.NormFloat64()))
		}
		if x.At(i, 0)+x.At(i, 1) > 0.3 || x.At(i, 5) > 1.2 {
			y[i] = 1
		}
	}
	return &model.Data{X: x, Y: y}
}

var binaryTask = model.Problem{Task: data.Binary, NumClasses: 2}

func accuracy(t *testing.T, m *Model, d *model.Data) float64 {
	t.Helper()
	p, err := m.PredictProba(d.X)
	if err != nil {
		t.Fatal(err)
	}
	dec := model.Decide(m.Task, p)
	ok := 0
	for i, v := range dec {
		if v == d.Y[i] {
			ok++
		}
	}
	return float64(ok) / float64(len(dec))
}

func smallConfig() Config {
	return Config{Trees: 32, Depth: 4, MaxEpochs: 30, Patience: 10, LRIndex: 0.05, LRValues: 0.05, LRLeaf: 0.05, LRWeights: 0.02}
}

func TestLearnsSyntheticEnsembleTask(t *testing.T) {
	tr, va, te := synthetic(1500, 1), synthetic(300, 2), synthetic(1500, 3)
	m := New(smallConfig())
	if err := m.Fit(context.Background(), binaryTask, tr, va); err != nil {
		t.Fatal(err)
	}
	acc := accuracy(t, m, te)
	t.Logf("test accuracy %.3f after %d epochs (best %d)", acc, m.Restarts[0].Epochs, m.Restarts[0].BestEpoch)
	if acc < 0.9 {
		t.Fatalf("test accuracy %.3f, want ≥ 0.9", acc)
	}
	if m.SubsetSize != 10 {
		t.Fatalf("subset size %d, want 10 (floor of 10 on 12 features)", m.SubsetSize)
	}
	if len(m.TopTrees) != topTrees || len(m.MeanWeights) != 32 {
		t.Fatalf("%d top trees, %d mean weights", len(m.TopTrees), len(m.MeanWeights))
	}
	var s float64
	for _, w := range m.MeanWeights {
		s += float64(w)
	}
	if math.Abs(s-1) > 1e-4 {
		t.Fatalf("mean weights sum to %v, want 1", s)
	}
	// the rule's features dominate the importance
	imp := m.FeatureImportance(nil, nil)
	top := map[string]bool{}
	for _, im := range imp[:3] {
		top[im.Column] = true
	}
	if !top["x0"] || !top["x1"] {
		t.Fatalf("x0 and x1 not among the three most important features: %+v", imp[:3])
	}
}

// roundTrip saves and loads m through the registered kind.
func roundTrip(t *testing.T, m *Model) *Model {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	k, err := model.LookupKind("grande")
	if err != nil {
		t.Fatal(err)
	}
	l, err := k.Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	return l.(*Model)
}

func equalFloats(t *testing.T, what string, a, b []float32) {
	t.Helper()
	if len(a) != len(b) {
		t.Fatalf("%s: lengths %d and %d", what, len(a), len(b))
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			t.Fatalf("%s: value %d differs: %v vs %v", what, i, a[i], b[i])
		}
	}
}

// kernelRaw returns the kernel's outputs for X (the training-time forward
// without dropout).
func kernelRaw(t *testing.T, m *Model, X *data.Matrix) []float32 {
	t.Helper()
	k, err := m.Kernel()
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float32, X.Rows*m.Outputs)
	if err := k.Predict(k.NewWorkspace(), X.Data, X.Rows, out); err != nil {
		t.Fatal(err)
	}
	return out
}

// closeFloats checks that a and b differ by at most 2 units in the last
// place of float32: the trained form's predictor takes the leaf weights'
// exponentials once (ensemble.Predictor.Predict), which changes float64
// rounding, rarely visible after the rounding to float32.
func closeFloats(t *testing.T, what string, a, b []float32) {
	t.Helper()
	if len(a) != len(b) {
		t.Fatalf("%s: lengths %d and %d", what, len(a), len(b))
	}
	for i := range a {
		if d := int64(math.Float32bits(a[i])) - int64(math.Float32bits(b[i])); d > 2 || d < -2 || math.Signbit(float64(a[i])) != math.Signbit(float64(b[i])) {
			if a[i] != b[i] { // ±0
				t.Fatalf("%s: value %d differs: %v vs %v", what, i, a[i], b[i])
			}
		}
	}
}

func TestSaveLoadAndFlatEquality(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		p    model.Problem
	}{
		{"binary-leaf", Config{Trees: 12, Depth: 3, MaxEpochs: 3}, binaryTask},
		{"binary-estimator", Config{Trees: 12, Depth: 3, MaxEpochs: 3, Weights: "estimator"}, binaryTask},
		{"binary-dense", Config{Trees: 5, Depth: 2, MaxEpochs: 2, SaveDense: true, Dropout: 0.3, DataSubsetFraction: 0.7}, binaryTask},
		{"multiclass", Config{Trees: 8, Depth: 3, MaxEpochs: 3}, model.Problem{Task: data.Multiclass, NumClasses: 3}},
		{"regression", Config{Trees: 8, Depth: 3, MaxEpochs: 3, Bootstrap: true}, model.Problem{Task: data.Regression, NumClasses: 1}},
		{"one-tree", Config{Trees: 1, Depth: 3, MaxEpochs: 2}, binaryTask},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr, va, te := synthetic(400, 4), synthetic(100, 5), synthetic(300, 6)
			for _, d := range []*model.Data{tr, va, te} {
				for i := range d.Y {
					switch tc.p.Task {
					case data.Multiclass:
						d.Y[i] = float64(int(d.Y[i]) + 2*btoi(d.X.At(i, 3) > 0.5))
						d.Y[i] = math.Min(d.Y[i], 2)
					case data.Regression:
						d.Y[i] = 10*float64(d.X.At(i, 0)) + 3
					}
				}
			}
			m := New(tc.cfg)
			if err := m.Fit(context.Background(), tc.p, tr, va); err != nil {
				t.Fatal(err)
			}
			raw, err := m.Raw(te.X)
			if err != nil {
				t.Fatal(err)
			}
			closeFloats(t, "trained form vs kernel", kernelRaw(t, m, te.X), raw)
			back := roundTrip(t, m)
			raw2, err := back.Raw(te.X)
			if err != nil {
				t.Fatal(err)
			}
			equalFloats(t, "trained form after load", raw, raw2)
			equalFloats(t, "kernel after load", kernelRaw(t, m, te.X), kernelRaw(t, back, te.X))
			p1, _ := m.PredictProba(te.X)
			p2, err := back.PredictProba(te.X)
			if err != nil {
				t.Fatal(err)
			}
			equalFloats(t, "probabilities after load", p1.Data, p2.Data)
			w1, _ := m.TreeWeights(te.X)
			w2, err := back.TreeWeights(te.X)
			if err != nil {
				t.Fatal(err)
			}
			equalFloats(t, "tree weights after load", w1, w2)
			for _, f := range Formats {
				if _, err := back.Render(f, nil, nil); err != nil {
					t.Fatalf("render %s: %v", f, err)
				}
			}
		})
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestDeterministicAcrossWorkers(t *testing.T) {
	tr, va := synthetic(300, 7), synthetic(80, 8)
	// many trees (units of whole trees) and few (units of depth levels
	// once there are several workers), the fast and the precise node path
	for _, base := range []Config{
		{Trees: 16, Depth: 3, MaxEpochs: 3, Dropout: 0.2, DataSubsetFraction: 0.8},
		{Trees: 16, Depth: 3, MaxEpochs: 3, Dropout: 0.2, DataSubsetFraction: 0.8, Precise: true},
		{Trees: 3, Depth: 5, MaxEpochs: 2},
	} {
		fit := func(workers int) *Model {
			c := base
			c.Workers, c.SaveDense = workers, true
			m := New(c)
			if err := m.Fit(context.Background(), binaryTask, tr, va); err != nil {
				t.Fatal(err)
			}
			return m
		}
		a := fit(1)
		for _, o := range []*Model{fit(2), fit(3), fit(4)} {
			equalFloats(t, "index logits", a.Dense.IndexLogits, o.Dense.IndexLogits)
			equalFloats(t, "thresholds", a.Dense.Thresholds, o.Dense.Thresholds)
			equalFloats(t, "leaves", a.Dense.Leaves, o.Dense.Leaves)
			equalFloats(t, "weights", a.Dense.LeafWeights, o.Dense.LeafWeights)
			if a.Restarts[0].BestLoss != o.Restarts[0].BestLoss {
				t.Fatalf("validation loss %v vs %v", a.Restarts[0].BestLoss, o.Restarts[0].BestLoss)
			}
		}
	}
	tr, va = synthetic(300, 7), synthetic(80, 8)
	fit := func(workers int) *Model {
		c := Config{Trees: 16, Depth: 3, MaxEpochs: 3, Dropout: 0.2, DataSubsetFraction: 0.8, Workers: workers, SaveDense: true}
		m := New(c)
		if err := m.Fit(context.Background(), binaryTask, tr, va); err != nil {
			t.Fatal(err)
		}
		return m
	}
	a := fit(1)
	// a different seed gives a different model
	m := New(Config{Trees: 16, Depth: 3, MaxEpochs: 3, Dropout: 0.2, DataSubsetFraction: 0.8, Seed: 7, SaveDense: true})
	if err := m.Fit(context.Background(), binaryTask, tr, va); err != nil {
		t.Fatal(err)
	}
	if m.Dense.Leaves[0] == a.Dense.Leaves[0] {
		t.Fatal("seed 7 and seed 42 gave the same leaf value")
	}
}

func TestExplain(t *testing.T) {
	tr, va := synthetic(300, 9), synthetic(80, 10)
	m := New(Config{Trees: 20, Depth: 3, MaxEpochs: 4})
	if err := m.Fit(context.Background(), binaryTask, tr, va); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		x := va.X.Row(i)
		ex, err := m.Explain(x, 5, tr.X)
		if err != nil {
			t.Fatal(err)
		}
		if len(ex.Estimators) != 5 || ex.Trees != 20 {
			t.Fatalf("%d estimators of %d trees", len(ex.Estimators), ex.Trees)
		}
		var sum float64
		for j, est := range ex.Estimators {
			sum += est.Share
			if j > 0 && est.Share > ex.Estimators[j-1].Share {
				t.Fatalf("estimators not ranked: %v after %v", est.Share, ex.Estimators[j-1].Share)
			}
			if !est.Tree.Counted {
				t.Fatal("explained tree not pruned with the training rows")
			}
		}
		if sum > 1+1e-6 || math.Abs(sum-ex.Covered) > 1e-9 {
			t.Fatalf("shares sum to %v (covered %v)", sum, ex.Covered)
		}
		txt, err := ex.Text(m.ViewOptions(nil, []string{"no", "yes"}))
		if err != nil || !strings.Contains(txt, "estimator") {
			t.Fatalf("explanation text %q, %v", txt, err)
		}
	}
	if _, err := m.Explain(va.X.Row(0)[:3], 1, nil); err == nil {
		t.Fatal("short instance accepted")
	}
	if _, err := m.Explain(va.X.Row(0), 0, nil); err == nil {
		t.Fatal("topK 0 accepted")
	}
}

func TestConfigErrors(t *testing.T) {
	tr, va := synthetic(100, 11), synthetic(30, 12)
	for _, tc := range []struct {
		name string
		cfg  Config
		want string
	}{
		{"trees", Config{Trees: -1}, "n_estimators"},
		{"depth", Config{Depth: 40}, "depth"},
		{"lr", Config{LRIndex: -1}, "lr_index"},
		{"selected", Config{SelectedVariables: 2.5}, "selected_variables"},
		{"subset", Config{DataSubsetFraction: 1.5}, "data_subset_fraction"},
		{"dropout", Config{Dropout: 1}, "dropout"},
		{"split", Config{Split: "relu"}, "split"},
		{"weights", Config{Weights: "tree"}, "estimator_weights"},
		{"loss", Config{Loss: "mse"}, "loss"},
		{"classweights", Config{ClassWeights: "auto"}, "class_weights"},
		{"cosine", Config{CosineDecaySteps: math.NaN()}, "cosine_decay_steps"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := New(tc.cfg).Fit(context.Background(), binaryTask, tr, va)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one naming %s", err, tc.want)
			}
		})
	}
	if err := New(Config{}).Fit(context.Background(), binaryTask, tr, nil); err == nil {
		t.Fatal("missing validation split accepted")
	}
	bad := synthetic(50, 13)
	bad.X.Data[7] = float32(math.NaN())
	if err := New(Config{}).Fit(context.Background(), binaryTask, bad, va); err == nil || !strings.Contains(err.Error(), "row 0, column 7") {
		t.Fatalf("NaN input: %v", err)
	}
	var m Model
	if _, err := m.PredictProba(tr.X); err == nil {
		t.Fatal("unfitted model predicted")
	}
	// a failed fit leaves no half-fitted model behind
	good := New(Config{Trees: 2, Depth: 2, MaxEpochs: 1})
	if err := good.Fit(context.Background(), binaryTask, tr, va); err != nil {
		t.Fatal(err)
	}
	badY := &model.Data{X: va.X, Y: append([]float64{3}, va.Y[1:]...)}
	if err := good.Fit(context.Background(), binaryTask, tr, badY); err == nil || !strings.Contains(err.Error(), "validation label 3 of row 0") {
		t.Fatalf("bad label: %v", err)
	}
	if _, err := good.PredictProba(tr.X); err == nil {
		t.Fatal("model predicted after a failed fit")
	}
}

func TestParseOptions(t *testing.T) {
	c, err := ParseOptions(map[string]string{
		"n_estimators": "512", "depth": "4", "learning_rate": "0.02", "lr_leaf": "0.1", "cosine-decay-steps": "0.1",
		"selected_variables": "0.6", "data_subset_fraction": "0.9", "bootstrap": "true", "dropout": "0.25",
		"split": "entmoid", "estimator_weights": "estimator", "focal_factor": "3", "class_weights": "none",
		"batch_size": "128", "epochs": "100", "patience": "5", "restarts": "2", "workers": "1", "save_dense": "1",
		"eval_every": "20", "intercept": "None",
	})
	if err != nil {
		t.Fatal(err)
	}
	want := Config{Trees: 512, Depth: 4, LRWeights: 0.02, LRIndex: 0.02, LRValues: 0.02, LRLeaf: 0.1, CosineDecaySteps: 0.1,
		SelectedVariables: 0.6, DataSubsetFraction: 0.9, Bootstrap: true, Dropout: 0.25, Split: "entmoid", Weights: "estimator",
		Loss: "focal", FocalGamma: 3, ClassWeights: "none", BatchSize: 128, MaxEpochs: 100, Patience: 5, Restarts: 2, Workers: 1, SaveDense: true,
		EvalEvery: 20, Intercept: "none"}
	if c != want {
		t.Fatalf("got %+v\nwant %+v", c, want)
	}
	if c, _ := ParseOptions(map[string]string{"focal_factor": "0"}); c.Loss != "crossentropy" {
		t.Fatalf("focal_factor 0 gave loss %q", c.Loss)
	}
	if c, _ := ParseOptions(map[string]string{"estimator_leaf_weights": "false"}); c.Weights != "estimator" {
		t.Fatalf("estimator_leaf_weights=false gave %q", c.Weights)
	}
	for _, bad := range []map[string]string{{"nope": "1"}, {"depth": "x"}, {"bootstrap": "maybe"}} {
		if _, err := ParseOptions(bad); err == nil {
			t.Fatalf("%v accepted", bad)
		}
	}
	// 0 where a zero field means the published default is an error, not
	// a silent 2048 trees or seed 42.
	for _, key := range []string{"n_estimators", "trees", "lr_weights", "selected_variables",
		"data_subset_fraction", "seed", "depth", "patience", "focal_gamma"} {
		if _, err := ParseOptions(map[string]string{key: "0"}); !errors.Is(err, option.ErrZeroIsDefault) {
			t.Errorf("%s=0: err %v, want option.ErrZeroIsDefault", key, err)
		}
	}
	if _, err := ParseOptions(map[string]string{"learning_rate": "0"}); err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("learning_rate=0: err %v, want out of range", err)
	}
	for _, key := range []string{"dropout", "cosine_decay_steps", "workers", "focal_factor"} {
		if _, err := ParseOptions(map[string]string{key: "0"}); err != nil {
			t.Errorf("%s=0: %v", key, err)
		}
	}
}

func TestSubsetSizeAndBatchSize(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		n    int
		want int
	}{{0.8, 46, 36}, {0.8, 5, 5}, {0.8, 12, 10}, {1.0, 500, 50}, {0.8, 1776, 50}, {20, 46, 20}, {20, 5, 5}, {0.5, 30, 15}} {
		if got := SubsetSize(tc.v, tc.n); got != tc.want {
			t.Errorf("SubsetSize(%v, %d) = %d, want %d", tc.v, tc.n, got, tc.want)
		}
	}
	for _, tc := range []struct{ bs, n, want int }{{64, 7960, 64}, {64, 100, 50}, {64, 65, 33}, {64, 129, 65}, {64, 1000, 64}, {64, 1025, 65}, {64, 1089, 65}, {64, 20, 10}} {
		if got := BatchSize(tc.bs, tc.n); got != tc.want {
			t.Errorf("BatchSize(%d, %d) = %d, want %d", tc.bs, tc.n, got, tc.want)
		}
	}
}

// TestFlatMatchesKernel checks the flat path against the kernel on random
// (untrained) parameters with large weight logits, for both weightings and
// several output widths, on rows that include exact threshold values.
func TestEnsembleMatchesKernel(t *testing.T) {
	for _, tc := range []struct {
		mode    tree.WeightMode
		trees   int
		outputs int
	}{{tree.LeafWeights, 37, 1}, {tree.LeafWeights, 5, 4}, {tree.EstimatorWeights, 9, 2}, {tree.LeafWeights, 1, 3}} {
		k, err := tree.New(tree.Config{Trees: tc.trees, Depth: 4, Features: 7, Outputs: tc.outputs,
			Subsets: FeatureSubsets(tc.trees, 7, 5, 3), Split: tree.Softsign, Weights: tc.mode})
		if err != nil {
			t.Fatal(err)
		}
		if err := k.Init(tree.InitNormal, 5); err != nil {
			t.Fatal(err)
		}
		p := k.Params()
		r := rng.New(9)
		for i := range p.LeafWeights {
			p.LeafWeights[i] = float32(3 * r.NormFloat64())
		}
		k.Prepare()
		f := k.Ensemble()
		pred, err := f.Compile(7)
		if err != nil {
			t.Fatal(err)
		}
		X := data.NewMatrix(333, 7)
		for i := range X.Data {
			X.Data[i] = float32(0.06 * r.NormFloat64())
		}
		copy(X.Row(0), p.Thresholds[:7]) // some exact threshold values
		want := make([]float32, X.Rows*tc.outputs)
		if err := k.Predict(k.NewWorkspace(), X.Data, X.Rows, want); err != nil {
			t.Fatal(err)
		}
		for _, w := range []int{1, 3} {
			got := make([]float32, len(want))
			if err := pred.Predict(X.Data, X.Rows, got, w); err != nil {
				t.Fatal(err)
			}
			if tc.mode == tree.LeafWeights && tc.trees > 1 {
				closeFloats(t, "trained form", want, got)
			} else {
				equalFloats(t, "trained form", want, got)
			}
		}
	}
}

func TestFloat32sEncoding(t *testing.T) {
	in := Float32s{0, float32(math.Copysign(0, -1)), 1.5, float32(math.Inf(1)), float32(math.NaN()), -3e-38}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out Float32s
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	equalFloats(t, "round trip", in, out)
	if err := json.Unmarshal([]byte("[1, 2.5]"), &out); err != nil || len(out) != 2 || out[1] != 2.5 {
		t.Fatalf("array form: %v %v", out, err)
	}
	for _, bad := range []string{`"AAA"`, `"!!!!"`, `5`} {
		if err := json.Unmarshal([]byte(bad), &out); err == nil {
			t.Fatalf("%s accepted", bad)
		}
	}
	var ints Int32s
	if err := json.Unmarshal([]byte(`[3, -1]`), &ints); err != nil || ints[1] != -1 {
		t.Fatalf("int array: %v %v", ints, err)
	}
	b, _ = json.Marshal(Int32s{7, -2, 1 << 30})
	if err := json.Unmarshal(b, &ints); err != nil || ints[0] != 7 || ints[1] != -2 || ints[2] != 1<<30 {
		t.Fatalf("int round trip: %v %v", ints, err)
	}
}

func TestSubsets(t *testing.T) {
	fs := FeatureSubsets(50, 46, 36, 42)
	again := FeatureSubsets(50, 46, 36, 42)
	for e, row := range fs {
		seen := map[int]bool{}
		for k, f := range row {
			if f < 0 || f >= 46 || seen[f] {
				t.Fatalf("tree %d column %d: feature %d (repeated or out of range)", e, k, f)
			}
			seen[f] = true
			if again[e][k] != f {
				t.Fatal("feature subsets depend on more than the seed")
			}
		}
	}
	if all := FeatureSubsets(3, 8, 8, 1); all[2][7] != 7 {
		t.Fatalf("n_e = n: %v, want every feature in order", all[2])
	}
	const trees, rows = 70, 200
	for _, bootstrap := range []bool{false, true} {
		s := newRowSubsets(trees, rows, 0.8, bootstrap, 9)
		for e := 0; e < trees; e++ {
			n := 0
			for r := 0; r < rows; r++ {
				if s.bits[r*s.words+e/64]&(1<<(e%64)) != 0 {
					n++
				}
			}
			if !bootstrap && n != 160 || bootstrap && (n > 160 || n < 80) {
				t.Fatalf("bootstrap %v: tree %d sees %d rows of %d", bootstrap, e, n, rows)
			}
		}
		keep := make([]bool, 3*trees)
		for i := range keep {
			keep[i] = true
		}
		batch := []int{5, 17, 199}
		s.apply(keep, batch, trees)
		for b, r := range batch {
			for e := 0; e < trees; e++ {
				in := s.bits[r*s.words+e/64]&(1<<(e%64)) != 0
				if keep[b*trees+e] != in {
					t.Fatalf("row %d tree %d: keep %v, subset %v", r, e, keep[b*trees+e], in)
				}
			}
		}
	}
}
