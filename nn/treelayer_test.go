package nn

import (
	"math"
	"testing"

	"github.com/gdt-ml/gdt/ensemble"
	"github.com/gdt-ml/gdt/rng"
	"github.com/gdt-ml/gdt/tree"
)

// The hard trees are piecewise constant in x and in the thresholds, so
// their straight-through gradient is checked against the surrogate that
// defines it (spec §2.4, §3.1): every node's rounded decision is replaced by
// ŝ_i(x, T) = round(s_i(x₀, T₀)) + S(z_i(x, T)) − S(z_i(x₀, T₀)), with the
// routing frozen at (x₀, T₀) and the selection one-hot fixed; the leaf
// indicators are the products of the ŝ along each leaf's path and the output
// is the dense weighted sum of the thesis formulation. This function is
// smooth (its slope parts are S), equals the hard output at (x₀, T₀), and its
// derivative there is the straight-through gradient. It is evaluated here in
// float64 from the plain trees, sharing no code with the kernel.
type treeSurrogate struct {
	E, d, C, ne int
	mode        tree.WeightMode
	split       tree.SplitFunc
	plains      []*plainTree
	col         []int     // [E][I] selected column k*
	thr0        []float64 // [E][I] selected thresholds at the base point
	x0          []float64
	estW        []float64 // EstimatorWeights logits
}

// plainTree is one complete tree of the trained form: breadth-first
// features and thresholds, leaf values and weights.
type plainTree struct {
	Feature         []int
	Threshold       []float32
	Values, Weights []float32
}

func plainOf(m *ensemble.Ensemble, e int) *plainTree {
	lo, hi := m.Span(e)
	ni := (hi - lo) / 2
	p := &plainTree{Values: m.Value[(lo+ni)*m.Outputs : hi*m.Outputs], Threshold: m.Threshold[lo : lo+ni]}
	for _, f := range m.Feature[lo : lo+ni] {
		p.Feature = append(p.Feature, int(f))
	}
	if m.LeafWeight != nil {
		p.Weights = m.LeafWeight[lo+ni : hi]
	}
	return p
}

func newTreeSurrogate(t *testing.T, k *tree.Kernel, x []float32) *treeSurrogate {
	cfg := k.Config()
	s := &treeSurrogate{E: k.Trees(), d: k.Depth(), C: k.Outputs(), ne: k.SubsetSize(), mode: cfg.Weights, split: cfg.Split}
	I := k.Nodes()
	m := k.Ensemble()
	for e := 0; e < s.E; e++ {
		p := plainOf(m, e)
		s.plains = append(s.plains, p)
		for i := 0; i < I; i++ {
			s.thr0 = append(s.thr0, float64(p.Threshold[i]))
			c := -1
			for j := 0; j < s.ne; j++ {
				if k.Feature(e, j) == p.Feature[i] {
					c = j
				}
			}
			s.col = append(s.col, c)
		}
	}
	if s.mode == tree.EstimatorWeights {
		for _, w := range k.Params().LeafWeights {
			s.estW = append(s.estW, float64(w))
		}
	}
	for _, v := range x {
		s.x0 = append(s.x0, float64(v))
	}
	return s
}

// eval returns Σ_b Σ_c r[b,c]·ỹ[b,c] at inputs x and selected thresholds thr.
func (s *treeSurrogate) eval(x, thr []float64, B, n int, r []float32) float64 {
	I, L := (1<<s.d)-1, 1<<s.d
	var total float64
	sh := make([]float64, I)
	o := make([]float64, s.E*s.C)
	om := make([]float64, s.E)
	for b := 0; b < B; b++ {
		for e := 0; e < s.E; e++ {
			p := s.plains[e]
			for i := 0; i < I; i++ {
				f := p.Feature[i]
				z0 := s.thr0[e*I+i] - s.x0[b*n+f]
				z := thr[e*I+i] - x[b*n+f]
				left := 0.0
				if s.x0[b*n+f] < s.thr0[e*I+i] {
					left = 1
				}
				sh[i] = left + s.split.Value(z) - s.split.Value(z0)
			}
			for c := 0; c < s.C; c++ {
				o[e*s.C+c] = 0
			}
			om[e] = 0
			for l := 0; l < L; l++ {
				prod, node := 1.0, 0
				for j := 0; j < s.d; j++ {
					bit := (l >> (s.d - 1 - j)) & 1
					if bit == 0 {
						prod *= sh[node]
					} else {
						prod *= 1 - sh[node]
					}
					node = 2*node + 1 + bit
				}
				for c := 0; c < s.C; c++ {
					o[e*s.C+c] += float64(p.Values[l*s.C+c]) * prod
				}
				if s.mode == tree.LeafWeights {
					om[e] += float64(p.Weights[l]) * prod
				}
			}
		}
		a := make([]float64, s.E)
		switch s.mode {
		case tree.NoWeights:
			for e := range a {
				a[e] = 1 / float64(s.E)
			}
		default:
			w := om
			if s.mode == tree.EstimatorWeights {
				w = s.estW
			}
			mx := math.Inf(-1)
			for _, v := range w {
				mx = math.Max(mx, v)
			}
			var z float64
			for e, v := range w {
				a[e] = math.Exp(v - mx)
				z += a[e]
			}
			for e := range a {
				a[e] /= z
			}
		}
		for c := 0; c < s.C; c++ {
			var y float64
			for e := 0; e < s.E; e++ {
				y += a[e] * o[e*s.C+c]
			}
			total += float64(r[b*s.C+c]) * y
		}
	}
	return total
}

func TestTreeLayerGradients(t *testing.T) {
	cases := []struct {
		name string
		cfg  TreeConfig
		B    int
	}{
		{"gradtree sigmoid C=3", TreeConfig{Kernel: tree.Config{Trees: 1, Depth: 3, Features: 4, Outputs: 3, Split: tree.Sigmoid}, Init: tree.InitGlorot, Seed: 1}, 6},
		{"grande softsign leaf weights", TreeConfig{Kernel: tree.Config{Trees: 4, Depth: 3, Features: 5, Outputs: 2, Split: tree.Softsign, Weights: tree.LeafWeights}, Init: tree.InitNormal, Seed: 2}, 7},
		{"grande subsets embedding", TreeConfig{Kernel: tree.Config{Trees: 3, Depth: 2, Features: 6, Outputs: 4, Split: tree.Softsign, Weights: tree.LeafWeights,
			Subsets: [][]int{{5, 0, 2}, {1, 3, 4}, {2, 5, 1}}}, Init: tree.InitNormal, Seed: 3}, 5},
		{"estimator weights entmoid", TreeConfig{Kernel: tree.Config{Trees: 3, Depth: 2, Features: 3, Outputs: 1, Split: tree.Entmoid, Weights: tree.EstimatorWeights}, Init: tree.InitNormal, Seed: 4}, 5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := NewTree(c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			// larger random parameters than the init, so that the trees
			// route samples to many leaves
			r := rng.New(7)
			for _, p := range m.Params() {
				for i := range p.Value {
					p.Value[i] = float32(r.NormFloat64())
				}
			}
			n, C, B := m.In(), m.Out(), c.B
			x := normals(r, B*n)
			w := normals(r, B*C)
			ZeroGrad(m)
			y := append([]float32(nil), m.Forward(x, B, true)...)
			dx := append([]float32(nil), m.Backward(w)...)
			s := newTreeSurrogate(t, m.Kernel(), x)
			// the surrogate equals the hard output at the base point
			var hard float64
			for i := range y {
				hard += float64(w[i]) * float64(y[i])
			}
			x64 := append([]float64(nil), s.x0...)
			thr := append([]float64(nil), s.thr0...)
			if got := s.eval(x64, thr, B, n, w); math.Abs(got-hard) > 1e-5*(1+math.Abs(hard)) {
				t.Fatalf("surrogate %v at the base point, layer %v", got, hard)
			}
			const h = 1e-6
			fd := func(v []float64, i int) float64 {
				old := v[i]
				v[i] = old + h
				lp := s.eval(x64, thr, B, n, w)
				v[i] = old - h
				lm := s.eval(x64, thr, B, n, w)
				v[i] = old
				return (lp - lm) / (2 * h)
			}
			near := func(what string, i int, analytic, num float64) {
				if math.Abs(analytic-num) > 1e-4+1e-4*math.Abs(num) {
					t.Errorf("%s[%d]: straight-through %.7g, surrogate finite difference %.7g", what, i, analytic, num)
				}
			}
			nonzero := 0
			for i := range x64 {
				num := fd(x64, i)
				near("input", i, float64(dx[i]), num)
				if num != 0 {
					nonzero++
				}
			}
			if nonzero == 0 {
				t.Fatal("all input gradients are zero: the check is vacuous")
			}
			// selected thresholds T[e,i,k*]
			T := m.Params()[1]
			if T.Name != "threshold" {
				t.Fatalf("parameter 1 is %q", T.Name)
			}
			I := m.Kernel().Nodes()
			for j := range thr {
				e, i := j/I, j%I
				near("threshold", j, float64(T.Grad[(e*I+i)*s.ne+s.col[j]]), fd(thr, j))
			}
			// leaves and weights: the hard output is smooth in them, so
			// plain finite differences of the layer apply
			for _, p := range m.Params()[2:] {
				step := max(1, len(p.Value)/40)
				for i := 0; i < len(p.Value); i += step {
					old := p.Value[i]
					eval := func(v float32) float64 {
						p.Value[i] = v
						var l float64
						for j, u := range m.Forward(x, B, true) {
							l += float64(w[j]) * float64(u)
						}
						return l
					}
					const eps = 1e-2
					num := (eval(old+eps) - eval(old-eps)) / (float64(old+eps) - float64(old-eps))
					p.Value[i] = old
					if math.Abs(num-float64(p.Grad[i])) > 1e-3+1e-3*math.Abs(num) {
						t.Errorf("%s[%d]: analytic %v, finite difference %v", p.Name, i, p.Grad[i], num)
					}
				}
			}
		})
	}
}

// The layer accumulates (+=) unless told to overwrite, and its estimator
// dropout is reproducible from the seed.
func TestTreeLayerContract(t *testing.T) {
	cfg := TreeConfig{Kernel: tree.Config{Trees: 8, Depth: 3, Features: 5, Outputs: 2, Split: tree.Softsign, Weights: tree.LeafWeights},
		Init: tree.InitNormal, Dropout: 0.5, Seed: 9}
	a, b := must(NewTree(cfg)), must(NewTree(cfg))
	x := normals(rng.New(1), 6*5)
	dy := normals(rng.New(2), 6*2)
	ya := append([]float32(nil), a.Forward(x, 6, true)...)
	yb := b.Forward(x, 6, true)
	for i := range ya {
		if ya[i] != yb[i] {
			t.Fatal("same seed, different dropout outputs")
		}
	}
	a.Backward(dy)
	once := append([]float32(nil), a.Params()[2].Grad...)
	a.step-- // replay the same mask
	a.Forward(x, 6, true)
	a.Backward(dy)
	for i, g := range a.Params()[2].Grad {
		if math.Abs(float64(g-2*once[i])) > 1e-6 {
			t.Fatalf("leaf grad %d = %v after two passes, want %v", i, g, 2*once[i])
		}
	}
	a.SetOverwriteGrad(true)
	a.step--
	a.Forward(x, 6, true)
	a.Backward(dy)
	for i, g := range a.Params()[2].Grad {
		if g != once[i] {
			t.Fatalf("overwrite: leaf grad %d = %v, want %v", i, g, once[i])
		}
	}
	// evaluation mode: no dropout, equals the kernel's Predict
	ye := a.Forward(x, 6, false)
	yp := make([]float32, 12)
	ws := a.Kernel().NewWorkspace()
	if err := a.Kernel().Predict(ws, x, 6, yp); err != nil {
		t.Fatal(err)
	}
	for i := range yp {
		if ye[i] != yp[i] {
			t.Fatalf("eval output %d = %v, Predict %v", i, ye[i], yp[i])
		}
	}
	if _, err := NewTree(TreeConfig{Kernel: tree.Config{Trees: 1, Depth: 0, Features: 2, Outputs: 1}}); err == nil {
		t.Error("depth 0: no error")
	}
}

// A dense layer below the trees learns through the trees' input gradient.
func TestTreeLayerInNetwork(t *testing.T) {
	d := must(NewDense(3, 4, GlorotInit(), 1))
	tr := must(NewTree(TreeConfig{Kernel: tree.Config{Trees: 4, Depth: 2, Features: 4, Outputs: 2, Split: tree.Softsign, Weights: tree.LeafWeights},
		Init: tree.InitNormal, Seed: 1}))
	net := must(NewSequential(d, tr))
	x := normals(rng.New(3), 8*3)
	dy := normals(rng.New(4), 8*2)
	ZeroGrad(net)
	net.Forward(x, 8, true)
	net.Backward(dy)
	var s float64
	for _, g := range d.Params()[0].Grad {
		s += math.Abs(float64(g))
	}
	if s == 0 {
		t.Fatal("no gradient reached the dense layer below the trees")
	}
	names := map[string]bool{}
	for _, p := range net.Params() {
		names[p.Name] = true
	}
	for _, want := range []string{"0.weight", "1.index", "1.threshold", "1.leaf", "1.weight"} {
		if !names[want] {
			t.Errorf("missing parameter %q in %v", want, names)
		}
	}
}
