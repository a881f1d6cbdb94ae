package nn

import (
	"fmt"
	"math"
	"testing"

	"github.com/gdt-ml/gdt/rng"
)

// gradCase is one finite-difference gradient check: the loss is
// L = Σ r ⊙ Forward(x) with fixed random r, evaluated in float64 from the
// float32 outputs, and every parameter entry (or a sample of at most
// maxEntries of each tensor) and every input entry is perturbed by ±eps.
type gradCase struct {
	name  string
	build func() (Module, error)
	B     int
	// input draws x; nil means N(0,1).
	input func(r *rng.MT19937, n int) []float32
	// skipInput lists input entries whose derivative does not exist or is
	// not compared (nil: compare all).
	skipInput func(x []float32, i int) bool
	eps       float64
	atol      float64
	rtol      float64
	train     bool
	// before is called before every Forward (e.g. to freeze random masks).
	before func(m Module)
}

func normals(r *rng.MT19937, n int) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(r.NormFloat64())
	}
	return x
}

// awayFromZero draws N(0,1) values with |v| ≥ 0.05, so ReLU-like kinks are
// not crossed by small perturbations.
func awayFromZero(r *rng.MT19937, n int) []float32 {
	x := make([]float32, n)
	for i := range x {
		v := r.NormFloat64()
		for math.Abs(v) < 0.05 {
			v = r.NormFloat64()
		}
		x[i] = float32(v)
	}
	return x
}

const maxEntries = 60

func runGradCase(t *testing.T, c gradCase) {
	t.Helper()
	m, err := c.build()
	if err != nil {
		t.Fatal(err)
	}
	r := rng.New(12345)
	in := c.input
	if in == nil {
		in = normals
	}
	x := in(r, c.B*m.In())
	w := normals(r, c.B*m.Out())
	loss := func() float64 {
		if c.before != nil {
			c.before(m)
		}
		y := m.Forward(x, c.B, c.train)
		var s float64
		for i, v := range y[:c.B*m.Out()] {
			s += float64(w[i]) * float64(v)
		}
		return s
	}
	ZeroGrad(m)
	loss()
	dx := append([]float32(nil), m.Backward(w)...)
	var grads [][]float32
	for _, p := range m.Params() {
		grads = append(grads, append([]float32(nil), p.Grad...))
	}
	check := func(what string, v []float32, i int, analytic float64) {
		old := v[i]
		v[i] = float32(float64(old) + c.eps)
		hp := float64(v[i]) - float64(old)
		lp := loss()
		v[i] = float32(float64(old) - c.eps)
		hm := float64(old) - float64(v[i])
		lm := loss()
		v[i] = old
		num := (lp - lm) / (hp + hm)
		if d := math.Abs(num - analytic); d > c.atol+c.rtol*math.Max(math.Abs(num), math.Abs(analytic)) {
			t.Errorf("%s[%d]: analytic %.6g, finite difference %.6g (diff %.3g)", what, i, analytic, num, d)
		}
	}
	for k, p := range m.Params() {
		step := max(1, len(p.Value)/maxEntries)
		for i := 0; i < len(p.Value); i += step {
			check("param "+p.Name, p.Value, i, float64(grads[k][i]))
		}
	}
	if dx == nil {
		t.Fatalf("Backward returned nil dx")
	}
	step := max(1, len(x)/(2*maxEntries))
	for i := 0; i < len(x); i += step {
		if c.skipInput != nil && c.skipInput(x, i) {
			continue
		}
		check("input", x, i, float64(dx[i]))
	}
}

func denseCase(in, out int, init Init) func() (Module, error) {
	return func() (Module, error) {
		d, err := NewDense(in, out, init, 7)
		if err != nil {
			return nil, err
		}
		// Non-zero biases so that their gradient path is exercised.
		for i := range d.Bias() {
			d.Bias()[i] = 0.1 * float32(i%5-2)
		}
		return d, nil
	}
}

func actCase(name string, n int) func() (Module, error) {
	return func() (Module, error) { return NewActivation(name, n) }
}

func coreGradCases() []gradCase {
	return []gradCase{
		{name: "dense 5→3 glorot", build: denseCase(5, 3, GlorotInit()), B: 4, eps: 1e-2, atol: 1e-3, rtol: 1e-3},
		{name: "dense 7→1 orthogonal", build: denseCase(7, 1, OrthogonalInit(1)), B: 6, eps: 1e-2, atol: 1e-3, rtol: 1e-3},
		{name: "dense 40→33 he (vek parallel path)", build: denseCase(40, 33, HeInit()), B: 80, eps: 1e-2, atol: 2e-3, rtol: 1e-3},
		{name: "dense 3→9 lecun", build: denseCase(3, 9, LeCunInit()), B: 1, eps: 1e-2, atol: 1e-3, rtol: 1e-3},
		{name: "relu", build: actCase("relu", 6), B: 5, input: awayFromZero, eps: 1e-3, atol: 1e-3, rtol: 1e-3},
		{name: "tanh", build: actCase("tanh", 6), B: 5, eps: 1e-2, atol: 1e-3, rtol: 1e-3},
		{name: "gelu", build: actCase("gelu", 6), B: 5, eps: 1e-2, atol: 1e-3, rtol: 1e-3},
		{name: "sigmoid", build: actCase("sigmoid", 6), B: 5, eps: 1e-2, atol: 1e-3, rtol: 1e-3},
		{name: "identity", build: actCase("identity", 6), B: 5, eps: 1e-2, atol: 1e-3, rtol: 1e-3},
		{name: "mlp 4→8→8→2 tanh", build: func() (Module, error) {
			return NewMLP(4, []int{8, 8}, 2, "tanh", OrthogonalInit(math.Sqrt2), OrthogonalInit(1), 3)
		}, B: 7, eps: 1e-2, atol: 2e-3, rtol: 2e-3},
		{name: "mlp 4→16→3 gelu", build: func() (Module, error) {
			return NewMLP(4, []int{16}, 3, "gelu", GlorotInit(), GlorotInit(), 4)
		}, B: 5, eps: 1e-2, atol: 2e-3, rtol: 2e-3},
		{name: "mlp 5→12→12→1 relu", build: func() (Module, error) {
			return NewMLP(5, []int{12, 12}, 1, "relu", HeInit(), OrthogonalInit(1), 5)
		}, B: 6, eps: 1e-3, atol: 2e-3, rtol: 2e-3},
	}
}

func TestGradients(t *testing.T) {
	for _, c := range coreGradCases() {
		t.Run(c.name, func(t *testing.T) { runGradCase(t, c) })
	}
}

// Dense's gradient accumulates (+=) across Backward calls.
func TestDenseAccumulates(t *testing.T) {
	d, err := NewDense(3, 2, GlorotInit(), 1)
	if err != nil {
		t.Fatal(err)
	}
	x := []float32{1, 2, 3, -1, 0.5, 2}
	dy := []float32{1, -1, 0.5, 2}
	d.Forward(x, 2, true)
	d.Backward(dy)
	once := append([]float32(nil), d.Params()[0].Grad...)
	d.Forward(x, 2, true)
	d.Backward(dy)
	for i, g := range d.Params()[0].Grad {
		if g != 2*once[i] {
			t.Fatalf("weight grad[%d] = %v after two passes, want %v", i, g, 2*once[i])
		}
	}
}

func ExampleNewMLP() {
	critic, err := NewMLP(8, []int{256, 256}, 1, "relu", OrthogonalInit(math.Sqrt2), OrthogonalInit(1), 42)
	if err != nil {
		panic(err)
	}
	x := make([]float32, 64*8)
	v := critic.Forward(x, 64, true) // 64 values
	dv := make([]float32, 64)
	for i := range dv {
		dv[i] = v[i] / 64 // d(½·mean v²)/dv
	}
	ZeroGrad(critic)
	critic.Backward(dv)
	fmt.Println(len(v), NumParams(critic), critic.Params()[0].Name)
	// Output: 64 68353 0.weight
}

func TestReLUEdges(t *testing.T) {
	negZero := float32(math.Copysign(0, -1))
	nan := float32(math.NaN())
	for _, c := range []struct{ x, y, dx float32 }{
		{2, 2, 3}, {-2, 0, 0}, {0, 0, 0}, {negZero, 0, 0}, {1e-40, 1e-40, 3}, {-1e-40, 0, 0},
		{float32(math.Inf(1)), float32(math.Inf(1)), 3}, {float32(math.Inf(-1)), 0, 0},
	} {
		r := NewReLU(1)
		y := r.Forward([]float32{c.x}, 1, true)[0]
		dx := r.Backward([]float32{3})[0]
		if y != c.y || dx != c.dx {
			t.Errorf("x = %v: y = %v, dx = %v; want %v, %v", c.x, y, dx, c.y, c.dx)
		}
	}
	r := NewReLU(1)
	r.Forward([]float32{nan}, 1, true)
	_ = r.Backward([]float32{3}) // must not panic
}
