package sdt

import (
	"math"
	"testing"

	"github.com/gdt-ml/gdt/interpret"

	"github.com/gdt-ml/gdt/rl/policy"
	"github.com/gdt-ml/gdt/rng"
	"github.com/gdt-ml/gdt/tree"
)

func TestEntmoidMatchesEntmax(t *testing.T) {
	for _, s := range []float64{-3, -2, -1.999, -1.2, -0.3, 0, 0.01, 0.7, 1.5, 1.99, 2, 5} {
		p := make([]float32, 2)
		tree.Entmax15(p, []float32{float32(s), 0})
		if got := Entmoid15(s); math.Abs(got-float64(p[0])) > 1e-6 {
			t.Errorf("entmoid15(%v) = %v, entmax15 gives %v", s, got, p[0])
		}
		const h = 1e-6
		if s > -1.99 && s < 1.99 {
			fd := (Entmoid15(s+h) - Entmoid15(s-h)) / (2 * h)
			if math.Abs(fd-entmoidGrad(s)) > 1e-6 {
				t.Errorf("entmoid15'(%v) = %v, finite difference %v", s, entmoidGrad(s), fd)
			}
		}
	}
}

// lossOf is Σ c·out over a batch, in float64.
func lossOf(t *testing.T, n *Tree, x []float32, B int, c []float32) float64 {
	out := make([]float32, B*n.Out())
	if err := n.Predict(x, B, out); err != nil {
		t.Fatal(err)
	}
	s := 0.0
	for i, v := range out {
		s += float64(v) * float64(c[i])
	}
	return s
}

func TestGradientsFiniteDifferences(t *testing.T) {
	cases := []struct {
		name  string
		F, A  int
		cfg   Config
		batch int
	}{
		{"depth2-T1", 3, 2, Config{Depth: 2, Temperature: 1}, 5},
		{"depth3-T0.5", 4, 3, Config{Depth: 3, Temperature: 0.5}, 7},
		{"critic-depth4", 5, 1, Config{Depth: 4, Temperature: 1}, 6},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var n *Tree
			var err error
			if tc.A == 1 {
				n, err = NewCritic(tc.F, tc.cfg, 3)
			} else {
				n, err = NewActor(tc.F, policy.Dist{Discrete: true, A: tc.A}, tc.cfg, 3)
			}
			if err != nil {
				t.Fatal(err)
			}
			r := rng.New(11)
			x := make([]float32, tc.batch*tc.F)
			for i := range x {
				x[i] = float32(0.8 * r.NormFloat64())
			}
			c := make([]float32, tc.batch*tc.A)
			for i := range c {
				c[i] = float32(r.NormFloat64())
			}
			out := make([]float32, tc.batch*tc.A)
			if err := n.Forward(x, tc.batch, out); err != nil {
				t.Fatal(err)
			}
			if err := n.Backward(c); err != nil {
				t.Fatal(err)
			}
			const h = 1e-2
			worst := 0.0
			for _, ts := range n.Tensors() {
				for i := range ts.Value {
					v := ts.Value[i]
					ts.Value[i] = v + h
					n.Changed()
					lp := lossOf(t, n, x, tc.batch, c)
					ts.Value[i] = v - h
					n.Changed()
					lm := lossOf(t, n, x, tc.batch, c)
					ts.Value[i] = v
					n.Changed()
					fd := (lp - lm) / (2 * h)
					g := float64(ts.Grad[i])
					e := math.Abs(fd-g) / math.Max(1, math.Abs(fd))
					worst = math.Max(worst, e)
					if e > 2e-3 {
						t.Errorf("%s[%d]: gradient %.6g, finite difference %.6g", ts.Name, i, g, fd)
					}
				}
			}
			t.Logf("worst relative error %.2g", worst)
		})
	}
}

func TestForwardPredictAgree(t *testing.T) {
	n, err := NewActor(3, policy.Dist{A: 2}, Config{Depth: 3, Temperature: 0.1}, 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(n.Tensors()) != 4 || n.Tensors()[3].Group != policy.GroupLogStd {
		t.Fatalf("continuous actor tensors: %+v", n.Tensors())
	}
	x := []float32{0.1, -0.4, 2, 1, 1, 1, -3, 0, 0.5}
	a, b := make([]float32, 6), make([]float32, 6)
	if err := n.Forward(x, 3, a); err != nil {
		t.Fatal(err)
	}
	if err := n.Predict(x, 3, b); err != nil {
		t.Fatal(err)
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("forward %v, predict %v", a, b)
		}
	}
	if err := n.Forward(x, 4, a); err == nil {
		t.Error("short input accepted")
	}
}

func TestConfigErrors(t *testing.T) {
	for _, c := range []Config{{0, 1}, {17, 1}, {3, 0}, {3, math.Inf(1)}, {3, math.NaN()}} {
		if _, err := NewCritic(2, c, 1); err == nil {
			t.Errorf("config %+v accepted", c)
		}
	}
	if _, err := NewCritic(0, Config{2, 1}, 1); err == nil {
		t.Error("0 features accepted")
	}
}

// TestDiscretize checks the D-SDT construction and that its plain tree acts
// exactly like it, thresholds included.
func TestDiscretize(t *testing.T) {
	for _, discrete := range []bool{true, false} {
		dist := policy.Dist{Discrete: discrete, A: 3}
		n, err := NewActor(4, dist, Config{Depth: 4, Temperature: 0.5}, 9)
		if err != nil {
			t.Fatal(err)
		}
		d, err := n.Discretize()
		if err != nil {
			t.Fatal(err)
		}
		// Construction: argmax of β and b/β.
		for i := range d.Feature {
			z := make([]float32, 4)
			for k := range z {
				z[k] = n.w[i*4+k] / 0.5
			}
			p := make([]float32, 4)
			tree.Entmax15(p, z)
			j := policy.Argmax(p)
			if d.Feature[i] != j || d.Threshold[i] != n.b[i]/p[j] {
				t.Fatalf("node %d: feature %d threshold %v, expected %d %v", i, d.Feature[i], d.Threshold[i], j, n.b[i]/p[j])
			}
		}
		if discrete {
			for l, row := range d.Leaves {
				if row[policy.Argmax(n.k[l*3:(l+1)*3])] != 1 {
					t.Fatalf("leaf %d: %v is not one-hot of the arg-max", l, row)
				}
			}
		}
		// Near-zero temperature: the soft SDT with the D-SDT parameters routes
		// like the hard D-SDT away from the thresholds.
		pl := d.Plain()
		if err := pl.Validate(4); err != nil {
			t.Fatal(err)
		}
		r := rng.New(2)
		x := make([]float32, 4)
		act1, act2 := make([]float32, dist.ActionDim()), make([]float32, dist.ActionDim())
		for trial := 0; trial < 3000; trial++ {
			for k := range x {
				x[k] = float32(2 * r.NormFloat64())
			}
			if trial%3 == 0 { // put one coordinate exactly on a threshold
				i := r.Intn(len(d.Feature))
				x[d.Feature[i]] = d.Threshold[i]
			}
			// the D-SDT's defining rule: left (2i+1) iff x[f] > τ
			i := 0
			for i < len(d.Feature) {
				if x[d.Feature[i]] > d.Threshold[i] {
					i = 2*i + 1
				} else {
					i = 2*i + 2
				}
			}
			if want := i - len(d.Feature); d.Leaf(x) != want {
				t.Fatalf("x=%v: D-SDT leaf %d, the definition's %d", x, d.Leaf(x), want)
			}
			leaf := d.Leaves[d.Leaf(x)]
			got := leafValue(t, pl, x)
			for a := range leaf {
				if got[a] != leaf[a] {
					t.Fatalf("x=%v: plain tree leaf %v, D-SDT leaf %v", x, got, leaf)
				}
			}
			d.Act(x, act1)
			dist.Greedy(got, act2)
			for a := range act1 {
				if act1[a] != act2[a] {
					t.Fatalf("x=%v: actions %v vs %v", x, act1, act2)
				}
			}
		}
		// Pruning keeps the action inside the bounds.
		low, high := []float32{-1, -1, -1, -1}, []float32{1, 1, 1, 1}
		pr, err := d.Pruned(low, high)
		if err != nil {
			t.Fatal(err)
		}
		for trial := 0; trial < 2000; trial++ {
			for k := range x {
				x[k] = float32(2*r.Float64() - 1)
			}
			d.Act(x, act1)
			dist.Greedy(leafValue(t, pr, x), act2)
			for a := range act1 {
				if act1[a] != act2[a] {
					t.Fatalf("pruned tree acts %v, D-SDT %v at %v", act2, act1, x)
				}
			}
		}
		size, err := d.Size(low, high, false)
		if err != nil || size != pr.NumNodes() || size > 31 {
			t.Fatalf("size %d (pruned %d), err %v", size, pr.NumNodes(), err)
		}
		if _, err := d.Size(low, high, true); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSoftApproachesHard(t *testing.T) {
	// An SDT whose β are one-hot and whose temperature is tiny routes like
	// its D-SDT: left iff x_j > threshold.
	n, err := NewActor(2, policy.Dist{Discrete: true, A: 2}, Config{Depth: 1, Temperature: 1e-3}, 1)
	if err != nil {
		t.Fatal(err)
	}
	n.w[0], n.w[1], n.b[0] = 1, -1, 0.3e-3 // β = one-hot(0) at T = 1e-3, threshold 0.3e-3... scaled below
	n.k[0], n.k[1], n.k[2], n.k[3] = 1, 0, 0, 1
	n.Changed()
	d, err := n.Discretize()
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float32, 2)
	for _, v := range []float32{-1, -0.01, 0.01, 1} {
		x := []float32{v, 5}
		if err := n.Predict(x, 1, out); err != nil {
			t.Fatal(err)
		}
		a := make([]float32, 1)
		d.Act(x, a)
		if int(a[0]) != policy.Argmax(out) {
			t.Errorf("x=%v: SDT output %v, D-SDT action %v", x, out, a)
		}
	}
}

func TestBest(t *testing.T) {
	h, ok := Best("LunarLander-v2")
	if !ok || h.Depth != 8 || h.Temperature != 1 || h.NEnvs != 7 || h.LRActor != 0.000610802 || h.Critic != "mlp" {
		t.Errorf("LunarLander: %+v %v", h, ok)
	}
	h, ok = Best("MiniGrid-DistShift1-v0")
	if !ok || h.Critic != "sdt" || h.MaxGradNorm != 1000 || h.VfCoef != 0.75 {
		t.Errorf("DistShift1: %+v %v", h, ok)
	}
	if h, ok := Best("MiniGrid-DistShift4-v0"); ok || h.Depth != 7 || h.NSteps != 256 {
		t.Errorf("untuned env: %+v %v", h, ok)
	}
}

// BenchmarkForwardBackward times one PPO minibatch (128 rows) through a
// depth-7 SDT on CartPole-sized inputs.
func BenchmarkForwardBackward(b *testing.B) {
	n, err := NewActor(4, policy.Dist{Discrete: true, A: 2}, Config{Depth: 7, Temperature: 1}, 1)
	if err != nil {
		b.Fatal(err)
	}
	const B = 128
	r := rng.New(3)
	x := make([]float32, B*4)
	for i := range x {
		x[i] = float32(r.NormFloat64())
	}
	out := make([]float32, B*2)
	g := make([]float32, B*2)
	for i := range g {
		g[i] = float32(r.NormFloat64())
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := n.Forward(x, B, out); err != nil {
			b.Fatal(err)
		}
		if err := n.Backward(g); err != nil {
			b.Fatal(err)
		}
		n.Changed()
	}
}

// leafValue is the value of the leaf of tr that x reaches (routed by the
// tree's trained form).
func leafValue(t testing.TB, tr *interpret.Tree, x []float32) []float32 {
	t.Helper()
	l, err := tr.LeafOf(x)
	if err != nil {
		t.Fatal(err)
	}
	return tr.Nodes[l].Value
}
