package tree

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestDeterministicAcrossWorkers: outputs and all gradients are bit-identical
// for any number of workers.
func TestDeterministicAcrossWorkers(t *testing.T) {
	cases := []gradCase{
		{trees: 1, depth: 9, features: 13, outputs: 3, batch: 301, split: Sigmoid, logitScale: 0.5},
		{trees: 37, depth: 5, features: 20, subset: 8, outputs: 1, batch: 203, split: Softsign, mode: LeafWeights, dropout: 0.25, logitScale: 0.05},
		{trees: 9, depth: 4, features: 6, outputs: 2, batch: 77, split: Entmoid, mode: EstimatorWeights, dropout: 0.5, logitScale: 1},
	}
	for ci, c := range cases {
		t.Run(c.String(), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(ci), 99))
			k := randomKernel(t, c, r)
			x := randomSlice(r, c.batch*c.features)
			dy := randomSlice(r, c.batch*c.outputs)
			var keep []bool
			if c.dropout > 0 {
				keep = make([]bool, c.batch*c.trees)
				_ = DropoutMask(keep, c.dropout, 5)
			}
			var first [][]float32
			for _, w := range []int{1, 2, 3, 8} {
				if err := k.SetWorkers(w); err != nil {
					t.Fatal(err)
				}
				k.Prepare()
				out, grad, dX := runKernel(t, k, x, c.batch, keep, dy, true)
				pred := make([]float32, len(out))
				if err := k.Predict(k.NewWorkspace(), x, c.batch, pred); err != nil {
					t.Fatal(err)
				}
				all := [][]float32{out, grad.IndexLogits, grad.Thresholds, grad.Leaves, grad.LeafWeights, dX, pred}
				if first == nil {
					first = all
					continue
				}
				for i := range all {
					for j := range all[i] {
						if math.Float32bits(all[i][j]) != math.Float32bits(first[i][j]) {
							t.Fatalf("workers %d: tensor %d entry %d = %v, with 1 worker %v", w, i, j, all[i][j], first[i][j])
						}
					}
				}
			}
		})
	}
}

// TestPredictRoutePlainAgree: Predict equals Forward without dropout bit for
// bit, and the plain trees extracted from the parameters route every sample
// to the kernel's leaf and give the same value.
func TestPredictRoutePlainAgree(t *testing.T) {
	for ci, c := range []gradCase{
		{trees: 1, depth: 7, features: 5, outputs: 1, batch: 500, split: Sigmoid, logitScale: 1},
		{trees: 6, depth: 3, features: 12, subset: 4, outputs: 3, batch: 300, split: Softsign, mode: LeafWeights, logitScale: 0.05},
		{trees: 4, depth: 2, features: 3, outputs: 2, batch: 100, split: Softsign, mode: EstimatorWeights, logitScale: 1},
	} {
		r := rand.New(rand.NewPCG(uint64(ci), 1))
		k := randomKernel(t, c, r)
		B := c.batch
		x := randomSlice(r, B*c.features)
		// put some inputs exactly on thresholds: equality goes right
		for b := 0; b < B; b += 7 {
			x[b*c.features+int(k.selFeat[0])] = k.selThr[0]
		}
		ws := k.NewWorkspace()
		out := make([]float32, B*c.outputs)
		pred := make([]float32, B*c.outputs)
		leaves := make([]int32, B*c.trees)
		weights := make([]float32, B*c.trees)
		if err := k.Forward(ws, x, B, nil, out); err != nil {
			t.Fatal(err)
		}
		if err := k.Predict(ws, x, B, pred); err != nil {
			t.Fatal(err)
		}
		if err := k.Route(ws, x, B, leaves); err != nil {
			t.Fatal(err)
		}
		if err := k.TreeWeights(ws, x, B, weights); err != nil {
			t.Fatal(err)
		}
		for i := range out {
			if math.Float32bits(out[i]) != math.Float32bits(pred[i]) {
				t.Fatalf("case %d: Predict[%d] = %v, Forward %v", ci, i, pred[i], out[i])
			}
		}
		m := k.Ensemble()
		if err := m.Validate(c.features); err != nil {
			t.Fatal(err)
		}
		for b := 0; b < B; b++ {
			xb := x[b*c.features : (b+1)*c.features]
			var wsum float64
			for e := 0; e < c.trees; e++ {
				if l := m.Leaf(e, xb) - int(m.Roots[e]) - k.ni; int32(l) != leaves[b*c.trees+e] {
					t.Fatalf("case %d sample %d tree %d: plain leaf %d, kernel %d", ci, b, e, l, leaves[b*c.trees+e])
				}
				wsum += float64(weights[b*c.trees+e])
			}
			if math.Abs(wsum-1) > 1e-6 {
				t.Fatalf("case %d sample %d: tree weights sum to %v", ci, b, wsum)
			}
			if c.trees == 1 {
				v := m.LeafValue(m.Leaf(0, xb))
				for j := range v {
					if v[j] != out[b*c.outputs+j] {
						t.Fatalf("sample %d: plain value %v, kernel %v", b, v, out[b*c.outputs:(b+1)*c.outputs])
					}
				}
			}
		}
		// the dense reference routes the same way
		ref := refFromKernel(k).run(to64(x), B, nil, make([]float64, B*c.outputs))
		for i := range out {
			if math.Abs(float64(out[i])-ref.y[i]) > 1e-6*(1+math.Abs(ref.y[i])) {
				t.Fatalf("case %d: output %d = %v, dense reference %v", ci, i, out[i], ref.y[i])
			}
		}
	}
}

// TestTiesAndEquality: tied logits select the lowest column (kernel, plain
// tree and dense reference agree), and x equal to the threshold goes right.
func TestTiesAndEquality(t *testing.T) {
	k, err := New(Config{Trees: 1, Depth: 1, Features: 4, Outputs: 1, Split: Softsign})
	if err != nil {
		t.Fatal(err)
	}
	p := k.Params()
	copy(p.IndexLogits, []float32{0.1, 0.7, 0.7, 0.7})
	copy(p.Thresholds, []float32{9, 0.5, 9, 9})
	copy(p.Leaves, []float32{-1, 1})
	k.Prepare()
	if k.sel[0] != 1 {
		t.Fatalf("k* = %d, want 1 (lowest tied index)", k.sel[0])
	}
	pl := k.Ensemble()
	if pl.Feature[0] != 1 || pl.Threshold[0] != 0.5 {
		t.Fatalf("trained-form split %d < %v, want 1 < 0.5", pl.Feature[0], pl.Threshold[0])
	}
	ws := k.NewWorkspace()
	x := []float32{0, 0.5, 0, 0, 0, 0.49999997, 0, 0}
	out := make([]float32, 2)
	if err := k.Forward(ws, x, 2, nil, out); err != nil {
		t.Fatal(err)
	}
	if out[0] != 1 || out[1] != -1 {
		t.Fatalf("outputs %v: want [1 −1] (x = τ goes right, x < τ left)", out)
	}
	ref := refFromKernel(k).run(to64(x), 2, nil, []float64{1, 1})
	if ref.y[0] != 1 || ref.y[1] != -1 {
		t.Fatalf("dense reference outputs %v", ref.y)
	}
}

// TestLeafAndWeightGradientsFiniteDifferences: the output is smooth in the
// leaf values and weights for fixed routing, so central differences of the
// dense reference's loss Σ w·y must match the kernel's gradients.
func TestLeafAndWeightGradientsFiniteDifferences(t *testing.T) {
	for ci, c := range []gradCase{
		{trees: 5, depth: 3, features: 6, subset: 3, outputs: 2, batch: 15, split: Softsign, mode: LeafWeights, dropout: 0.3, logitScale: 1},
		{trees: 4, depth: 2, features: 4, outputs: 1, batch: 12, split: Sigmoid, mode: EstimatorWeights, logitScale: 1},
		{trees: 1, depth: 4, features: 4, outputs: 3, batch: 12, split: Sigmoid, logitScale: 1},
	} {
		r := rand.New(rand.NewPCG(uint64(ci), 11))
		k := randomKernel(t, c, r)
		x := randomSlice(r, c.batch*c.features)
		dy := randomSlice(r, c.batch*c.outputs)
		var keep []bool
		if c.dropout > 0 {
			keep = make([]bool, c.batch*c.trees)
			_ = DropoutMask(keep, c.dropout, 3)
		}
		_, grad, _ := runKernel(t, k, x, c.batch, keep, dy, false)
		m := refFromKernel(k)
		x64, w64 := to64(x), to64(dy)
		zero := make([]float64, len(w64))
		loss := func() float64 {
			y := m.run(x64, c.batch, keep, zero).y
			var s float64
			for i := range y {
				s += w64[i] * y[i]
			}
			return s
		}
		const h = 1e-6
		for _, v := range []struct {
			name string
			p    []float64
			g    []float32
		}{{"leaves", m.Lam, grad.Leaves}, {"weights", m.W, grad.LeafWeights}} {
			for i := range v.p {
				old := v.p[i]
				v.p[i] = old + h
				lp := loss()
				v.p[i] = old - h
				lm := loss()
				v.p[i] = old
				fd := (lp - lm) / (2 * h)
				if math.Abs(fd-float64(v.g[i])) > 1e-6+1e-5*math.Abs(fd) {
					t.Errorf("case %d %s[%d]: kernel %v, finite difference %v", ci, v.name, i, v.g[i], fd)
				}
			}
		}
	}
}

func TestConfigErrors(t *testing.T) {
	ok := Config{Trees: 2, Depth: 3, Features: 4, Outputs: 1}
	cases := []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"no trees", func(c *Config) { c.Trees = 0 }, "Trees"},
		{"depth 0", func(c *Config) { c.Depth = 0 }, "Depth"},
		{"too deep", func(c *Config) { c.Depth = MaxDepth + 1 }, "Depth"},
		{"no features", func(c *Config) { c.Features = 0 }, "Features"},
		{"no outputs", func(c *Config) { c.Outputs = 0 }, "Outputs"},
		{"bad split", func(c *Config) { c.Split = 7 }, "Split"},
		{"bad weights", func(c *Config) { c.Weights = 9 }, "Weights"},
		{"negative workers", func(c *Config) { c.Workers = -1 }, "Workers"},
		{"subset rows", func(c *Config) { c.Subsets = [][]int{{0, 1}} }, "Subsets"},
		{"empty subset", func(c *Config) { c.Subsets = [][]int{{}, {}} }, "Subsets[0]"},
		{"ragged subset", func(c *Config) { c.Subsets = [][]int{{0, 1}, {2}} }, "Subsets[1]"},
		{"feature out of range", func(c *Config) { c.Subsets = [][]int{{0, 1}, {2, 4}} }, "Subsets[1][1]"},
		{"duplicate feature", func(c *Config) { c.Subsets = [][]int{{0, 1}, {3, 3}} }, "twice"},
		{"too large", func(c *Config) { c.Trees, c.Depth, c.Features = 1<<10, 20, 4 }, "exceed"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := ok
			tc.edit(&c)
			if _, err := New(c); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("New: error %v, want one mentioning %q", err, tc.want)
			}
		})
	}
	if _, err := New(ok); err != nil {
		t.Fatal(err)
	}
}

func TestCallErrors(t *testing.T) {
	k, _ := New(Config{Trees: 2, Depth: 2, Features: 3, Outputs: 2, Weights: LeafWeights})
	other, _ := New(Config{Trees: 1, Depth: 1, Features: 3, Outputs: 2})
	ws := k.NewWorkspace()
	x := make([]float32, 6)
	out := make([]float32, 4)
	if err := k.Forward(ws, x, 2, nil, out); err == nil || !strings.Contains(err.Error(), "Prepare") {
		t.Fatalf("unprepared Forward: %v", err)
	}
	k.Prepare()
	other.Prepare()
	grad := k.NewParams()
	checks := []struct {
		name string
		err  error
		want string
	}{
		{"backward before forward", k.Backward(ws, out, grad, nil), "call Forward first"},
		{"nil workspace", k.Forward(nil, x, 2, nil, out), "nil"},
		{"foreign workspace", k.Forward(other.NewWorkspace(), x, 2, nil, out), "another kernel"},
		{"x length", k.Forward(ws, x[:5], 2, nil, out), "x has 5"},
		{"out length", k.Forward(ws, x, 2, nil, out[:3]), "out has 3"},
		{"keep length", k.Forward(ws, x, 2, make([]bool, 3), out), "keep mask"},
		{"negative batch", k.Forward(ws, nil, -1, nil, nil), "batch size"},
		{"route length", k.Route(ws, x, 2, make([]int32, 3)), "leaves has 3"},
		{"weights length", k.TreeWeights(ws, x, 2, make([]float32, 1)), "weights has 1"},
		{"predict length", k.Predict(ws, x, 2, make([]float32, 1)), "out has 1"},
	}
	for _, c := range checks {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%s: error %v, want one mentioning %q", c.name, c.err, c.want)
		}
	}
	if err := k.Forward(ws, x, 2, nil, out); err != nil {
		t.Fatal(err)
	}
	bad := k.NewParams()
	bad.LeafWeights = bad.LeafWeights[:1]
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"dOut length", k.Backward(ws, out[:1], grad, nil), "dOut has 1"},
		{"grad shape", k.Backward(ws, out, bad, nil), "LeafWeights"},
		{"grad nil", k.Backward(ws, out, nil, nil), "nil"},
		{"grad aliases params", k.Backward(ws, out, k.Params(), nil), "own Params"},
		{"dX length", k.Backward(ws, out, grad, make([]float32, 2)), "dX has 2"},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%s: error %v, want one mentioning %q", c.name, c.err, c.want)
		}
	}
	if err := k.SetWorkers(-2); err == nil {
		t.Error("SetWorkers(−2): no error")
	}
	if err := k.Init(InitScheme(5), 1); err == nil {
		t.Error("Init with unknown scheme: no error")
	}
	if err := k.InitDataAware(x, 3, 1); err == nil {
		t.Error("InitDataAware with wrong length: no error")
	}
	if err := DropoutMask(make([]bool, 3), 1.5, 1); err == nil {
		t.Error("DropoutMask rate 1.5: no error")
	}
	if err := k.Params().CopyFrom(other.Params()); err == nil {
		t.Error("CopyFrom with other shapes: no error")
	}
}

func TestInit(t *testing.T) {
	cfg := Config{Trees: 3, Depth: 4, Features: 10, Outputs: 1, Weights: LeafWeights}
	k, _ := New(cfg)
	if err := k.Init(InitGlorot, 42); err != nil {
		t.Fatal(err)
	}
	p := k.Params()
	a := math.Sqrt(6.0 / (15 + 10))
	for i, v := range p.IndexLogits {
		if math.Abs(float64(v)) > a {
			t.Fatalf("Glorot Z[%d] = %v outside ±%v", i, v, a)
		}
		if p.Thresholds[i] != v {
			t.Fatalf("Glorot: T[%d] = %v differs from Z = %v (GT-paper initialises T to Z)", i, p.Thresholds[i], v)
		}
	}
	b := math.Sqrt(6.0 / 32)
	for i, v := range p.Leaves {
		if math.Abs(float64(v)) > b {
			t.Fatalf("Glorot Λ[%d] = %v outside ±%v", i, v, b)
		}
	}
	k2, _ := New(cfg)
	_ = k2.Init(InitGlorot, 42)
	k3, _ := New(cfg)
	_ = k3.Init(InitGlorot, 43)
	same, diff := true, false
	for i := range p.IndexLogits {
		same = same && p.IndexLogits[i] == k2.Params().IndexLogits[i]
		diff = diff || p.IndexLogits[i] != k3.Params().IndexLogits[i]
	}
	if !same || !diff {
		t.Fatalf("Init not a deterministic function of the seed (same %v, different %v)", same, diff)
	}

	big, _ := New(Config{Trees: 64, Depth: 6, Features: 50, Outputs: 1, Weights: LeafWeights})
	_ = big.Init(InitNormal, 1)
	for _, ts := range big.Params().Tensors() {
		var s, s2 float64
		for _, v := range ts.Data {
			s += float64(v)
			s2 += float64(v) * float64(v)
		}
		n := float64(len(ts.Data))
		mean, std := s/n, math.Sqrt(s2/n-(s/n)*(s/n))
		if math.Abs(mean) > 4*0.05/math.Sqrt(n) || math.Abs(std-0.05) > 0.05*6/math.Sqrt(n) {
			t.Errorf("normal init %s: mean %v std %v, want N(0, 0.05²)", ts.Name, mean, std)
		}
	}
	bp := big.Params()
	if bp.IndexLogits[0] == bp.Thresholds[0] {
		t.Error("normal init: Z and T drawn from the same stream")
	}

	// data-aware: thresholds are data values of the node's column
	sub, _ := New(Config{Trees: 2, Depth: 2, Features: 4, Outputs: 1, Subsets: [][]int{{3, 1}, {0, 2}}})
	x := []float32{0, 1, 2, 3, 10, 11, 12, 13}
	if err := sub.InitDataAware(x, 2, 7); err != nil {
		t.Fatal(err)
	}
	sp := sub.Params()
	for e := 0; e < 2; e++ {
		for i := 0; i < 3; i++ {
			for c := 0; c < 2; c++ {
				v := sp.Thresholds[(e*3+i)*2+c]
				f := float32(sub.Feature(e, c))
				if v != f && v != f+10 {
					t.Fatalf("data-aware T[%d,%d,%d] = %v, want a value of feature %v", e, i, c, v, f)
				}
			}
		}
	}
}

func TestDropoutMask(t *testing.T) {
	keep := make([]bool, 100000)
	for _, rate := range []float64{0, 0.25, 0.5, 1} {
		if err := DropoutMask(keep, rate, 9); err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, v := range keep {
			if v {
				n++
			}
		}
		frac := float64(n) / float64(len(keep))
		if math.Abs(frac-(1-rate)) > 0.01 || (rate == 0 && n != len(keep)) || (rate == 1 && n != 0) {
			t.Errorf("rate %v: kept fraction %v", rate, frac)
		}
	}
	a, b := make([]bool, 1000), make([]bool, 1000)
	_ = DropoutMask(a, 0.5, 1)
	_ = DropoutMask(b, 0.5, 1)
	for i := range a {
		if a[i] != b[i] {
			t.Fatal("DropoutMask is not deterministic")
		}
	}
}

// TestDropoutMaskDefinition: every entry is its draw u = k/2⁵³ compared
// with the rate, whatever the mask's length and the number of workers;
// also at rates equal to a draw (kept: u ≥ rate) and one ulp either side.
func TestDropoutMaskDefinition(t *testing.T) {
	const seed = 77
	base := mix64(seed ^ 0x5851f42d4c957f2d)
	draw := func(i int) float64 {
		return float64(mix64(base+uint64(i)*0x9e3779b97f4a7c15)>>11) / (1 << 53)
	}
	u := draw(5)
	rates := []float64{0, 1e-17, 0.2, 0.5, 0.9, 1 - 1.0/(1<<53), 1, u, math.Nextafter(u, 0), math.Nextafter(u, 1)}
	for _, n := range []int{1, 100, 1 << 15, 100003} {
		keep := make([]bool, n)
		for _, rate := range rates {
			if err := DropoutMask(keep, rate, seed); err != nil {
				t.Fatal(err)
			}
			for i, v := range keep {
				if want := draw(i) >= rate; v != want {
					t.Fatalf("length %d, rate %v: keep[%d] = %v, want %v", n, rate, i, v, want)
				}
			}
		}
	}
}

// TestAllDroppedSample: a sample whose trees are all dropped outputs 0 and
// contributes no gradient.
func TestAllDroppedSample(t *testing.T) {
	c := gradCase{trees: 3, depth: 2, features: 3, outputs: 2, batch: 2, split: Softsign, mode: LeafWeights, logitScale: 1}
	r := rand.New(rand.NewPCG(1, 2))
	k := randomKernel(t, c, r)
	x := randomSlice(r, 6)
	keep := []bool{false, false, false, true, false, true}
	dy := randomSlice(r, 4)
	out, grad1, dX := runKernel(t, k, x, 2, keep, dy, true)
	if out[0] != 0 || out[1] != 0 {
		t.Fatalf("all-dropped sample output %v, want 0", out[:2])
	}
	for f := 0; f < 3; f++ {
		if dX[f] != 0 {
			t.Fatalf("all-dropped sample dX = %v, want 0", dX[:3])
		}
	}
	// the same gradient as the second sample alone
	_, grad2, _ := runKernel(t, k, x[3:], 1, keep[3:], dy[2:], false)
	for i := range grad1.IndexLogits {
		if grad1.IndexLogits[i] != grad2.IndexLogits[i] {
			t.Fatalf("dZ[%d] = %v, without the dropped sample %v", i, grad1.IndexLogits[i], grad2.IndexLogits[i])
		}
	}
}

// TestNoAllocations: a prepared training step does not allocate once the
// workspace has grown.
func TestNoAllocations(t *testing.T) {
	for _, c := range []struct {
		gradCase
		workers int
		fast    bool // Config.Fast, with a NodeUpdater
	}{
		{gradCase{trees: 8, depth: 5, features: 10, subset: 6, outputs: 2, batch: 64, split: Softsign, mode: LeafWeights, logitScale: 0.1}, 2, false},
		{gradCase{trees: 1, depth: 10, features: 14, outputs: 1, batch: 128, split: Sigmoid, logitScale: 3}, 1, false},
		{gradCase{trees: 1, depth: 10, features: 14, outputs: 1, batch: 128, split: Sigmoid, logitScale: 3}, 2, false},
		{gradCase{trees: 8, depth: 5, features: 10, subset: 6, outputs: 2, batch: 64, split: Softsign, mode: LeafWeights, logitScale: 0.1}, 2, true},
		{gradCase{trees: 3, depth: 4, features: 150, subset: 70, outputs: 1, batch: 40, split: Softsign, mode: LeafWeights, logitScale: 1}, 2, true},
	} {
		r := rand.New(rand.NewPCG(1, 2))
		k := randomKernel(t, c.gradCase, r)
		_ = k.SetWorkers(c.workers)
		k.cfg.Fast = c.fast
		x := randomSlice(r, c.batch*c.features)
		dy := randomSlice(r, c.batch*c.outputs)
		keep := make([]bool, c.batch*c.trees)
		_ = DropoutMask(keep, 0.2, 1)
		ws := k.NewWorkspace()
		if c.fast {
			ws.SetNodeUpdater(sgdNodes{k.Params(), k.SubsetSize()})
		}
		out := make([]float32, c.batch*c.outputs)
		grad := k.NewParams()
		dX := make([]float32, len(x))
		step := func() {
			k.Prepare()
			if err := k.Forward(ws, x, c.batch, keep, out); err != nil {
				t.Fatal(err)
			}
			if err := k.Backward(ws, dy, grad, dX); err != nil {
				t.Fatal(err)
			}
			if err := k.Predict(ws, x, c.batch, out); err != nil {
				t.Fatal(err)
			}
		}
		step()
		// With several workers the goroutine hand-off can make the runtime
		// allocate (sudog/stack growth) when the machine is overloaded, so
		// the step must be allocation-free in at least one of three
		// measurements; code that allocates fails all three.
		n := testing.AllocsPerRun(20, step)
		for try := 1; n != 0 && c.workers > 1 && try < 3; try++ {
			n = testing.AllocsPerRun(20, step)
		}
		if n != 0 {
			t.Errorf("%v, %d workers: training step allocates %v times", c.gradCase, c.workers, n)
		}
	}
}

// TestConcurrentPredict: several goroutines may predict with one kernel on
// their own workspaces (as a server does) and get identical results.
func TestConcurrentPredict(t *testing.T) {
	c := gradCase{trees: 12, depth: 4, features: 7, subset: 5, outputs: 2, batch: 90, split: Softsign, mode: LeafWeights, logitScale: 1}
	r := rand.New(rand.NewPCG(8, 9))
	k := randomKernel(t, c, r)
	_ = k.SetWorkers(3)
	x := randomSlice(r, c.batch*c.features)
	want := make([]float32, c.batch*c.outputs)
	if err := k.Predict(k.NewWorkspace(), x, c.batch, want); err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 6)
	for g := 0; g < 6; g++ {
		go func() {
			ws := k.NewWorkspace()
			out := make([]float32, len(want))
			for rep := 0; rep < 20; rep++ {
				if err := k.Predict(ws, x, c.batch, out); err != nil {
					errs <- err
					return
				}
				for i := range out {
					if out[i] != want[i] {
						errs <- fmt.Errorf("concurrent Predict[%d] = %v, want %v", i, out[i], want[i])
						return
					}
				}
			}
			errs <- nil
		}()
	}
	for g := 0; g < 6; g++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

// TestWorkspaceReuse: a workspace that served a larger batch gives the same
// results for a smaller one as a fresh workspace, and an empty batch yields
// zero gradients.
func TestWorkspaceReuse(t *testing.T) {
	c := gradCase{trees: 5, depth: 4, features: 6, subset: 4, outputs: 2, batch: 50, split: Sigmoid, mode: LeafWeights, logitScale: 1}
	r := rand.New(rand.NewPCG(4, 4))
	k := randomKernel(t, c, r)
	x := randomSlice(r, 50*c.features)
	dy := randomSlice(r, 50*c.outputs)
	ws := k.NewWorkspace()
	out := make([]float32, 50*c.outputs)
	grad := k.NewParams()
	if err := k.Forward(ws, x, 50, nil, out); err != nil {
		t.Fatal(err)
	}
	if err := k.Backward(ws, dy, grad, nil); err != nil {
		t.Fatal(err)
	}
	const B = 20
	if err := k.Forward(ws, x[:B*c.features], B, nil, out[:B*c.outputs]); err != nil {
		t.Fatal(err)
	}
	if err := k.Backward(ws, dy[:B*c.outputs], grad, nil); err != nil {
		t.Fatal(err)
	}
	fresh, gradFresh, _ := runKernel(t, k, x[:B*c.features], B, nil, dy[:B*c.outputs], false)
	for i := range fresh {
		if fresh[i] != out[i] {
			t.Fatalf("reused workspace output %d = %v, fresh %v", i, out[i], fresh[i])
		}
	}
	for i := range gradFresh.IndexLogits {
		if gradFresh.IndexLogits[i] != grad.IndexLogits[i] || gradFresh.Thresholds[i] != grad.Thresholds[i] {
			t.Fatalf("reused workspace gradient %d differs", i)
		}
	}
	// empty batch
	if err := k.Forward(ws, nil, 0, nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := k.Backward(ws, nil, grad, nil); err != nil {
		t.Fatal(err)
	}
	for _, ts := range grad.Tensors() {
		for i, v := range ts.Data {
			if v != 0 {
				t.Fatalf("empty batch: %s[%d] = %v, want 0", ts.Name, i, v)
			}
		}
	}
}

// sgdNodes is a NodeUpdater taking a small gradient step on the node rows.
type sgdNodes struct {
	p  *Params
	ne int
}

func (u sgdNodes) UpdateNodes(lo, hi int, gz, gt []float32, _ []int32) {
	z, t := u.p.IndexLogits[lo*u.ne:hi*u.ne], u.p.Thresholds[lo*u.ne:hi*u.ne]
	for i := range z {
		z[i] -= 1e-3 * gz[i]
		t[i] -= 1e-3 * gt[i]
	}
}

// TestSplitRoutes checks Kernel.Split against Route: descending every row
// by the splits Split reports (left when x[feature] < threshold) reaches
// the leaf Route gives, in every tree, and the column's feature is the
// one Feature maps it to.
func TestSplitRoutes(t *testing.T) {
	c := gradCase{trees: 3, depth: 4, features: 9, subset: 5, outputs: 2, batch: 200, split: Softsign, logitScale: 1}
	r := rand.New(rand.NewPCG(7, 1))
	k := randomKernel(t, c, r)
	B := c.batch
	x := randomSlice(r, B*c.features)
	leaves := make([]int32, B*c.trees)
	if err := k.Route(k.NewWorkspace(), x, B, leaves); err != nil {
		t.Fatal(err)
	}
	for b := range B {
		row := x[b*c.features : (b+1)*c.features]
		for e := range c.trees {
			i := 0
			for i < k.Nodes() {
				col, f, thr := k.Split(e, i)
				if f != k.Feature(e, col) {
					t.Fatalf("tree %d node %d: column %d has feature %d, Split says %d", e, i, col, k.Feature(e, col), f)
				}
				if row[f] < thr {
					i = 2*i + 1
				} else {
					i = 2*i + 2
				}
			}
			if got, want := i-k.Nodes(), int(leaves[b*c.trees+e]); got != want {
				t.Fatalf("row %d tree %d: Split's descent reaches leaf %d, Route %d", b, e, got, want)
			}
		}
	}
}
