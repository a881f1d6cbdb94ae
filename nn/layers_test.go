package nn

import (
	"math"
	"runtime"
	"testing"

	"github.com/gdt-ml/gdt/linalg"
	"github.com/gdt-ml/gdt/rng"
)

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// randomizeParams gives every parameter a random value (so that scale and
// shift parameters initialised to 1 and 0 are exercised).
func randomizeParams(m Module, seed uint32) Module {
	r := rng.New(seed)
	for _, p := range m.Params() {
		for i := range p.Value {
			p.Value[i] += float32(0.3 * r.NormFloat64())
		}
	}
	return m
}

func layerGradCases() []gradCase {
	img := Shape{C: 2, H: 6, W: 5}
	return []gradCase{
		{name: "dropout train", build: func() (Module, error) { return NewDropout(10, 0.4, 3) }, B: 4, train: true,
			eps: 1e-2, atol: 1e-3, rtol: 1e-3, before: func(m Module) { m.(*Dropout).step = 0 }},
		{name: "dropout eval", build: func() (Module, error) { return NewDropout(10, 0.4, 3) }, B: 4,
			eps: 1e-2, atol: 1e-3, rtol: 1e-3},
		{name: "layernorm", build: func() (Module, error) {
			return randomizeParams(must(NewLayerNorm(7, 0)), 1), nil
		}, B: 3, eps: 1e-2, atol: 2e-3, rtol: 2e-3},
		{name: "batchnorm1d train", build: func() (Module, error) {
			return randomizeParams(must(NewBatchNorm1D(5, 0, 0)), 2), nil
		}, B: 6, train: true, eps: 1e-2, atol: 2e-3, rtol: 2e-3},
		{name: "batchnorm1d eval", build: func() (Module, error) {
			m := must(NewBatchNorm1D(5, 0, 0))
			for i := range m.rmean {
				m.rmean[i], m.rvar[i] = 0.1*float32(i), 0.5+0.2*float32(i)
			}
			return randomizeParams(m, 3), nil
		}, B: 4, eps: 1e-2, atol: 1e-3, rtol: 1e-3},
		{name: "batchnorm2d train", build: func() (Module, error) {
			return randomizeParams(must(NewBatchNorm2D(Shape{C: 3, H: 2, W: 3}, 0, 0)), 4), nil
		}, B: 3, train: true, eps: 1e-2, atol: 2e-3, rtol: 2e-3},
		{name: "concat dense+tanh+identity", build: func() (Module, error) {
			return NewConcat(must(NewDense(3, 2, GlorotInit(), 1)), NewTanh(4), NewIdentity(2))
		}, B: 3, eps: 1e-2, atol: 1e-3, rtol: 1e-3},
		{name: "conv 3×3 s1 p1", build: func() (Module, error) {
			return randomizeParams(must(NewConv2D(img, 3, 3, 1, 1, HeInit(), 5)), 5), nil
		}, B: 2, eps: 1e-2, atol: 2e-3, rtol: 1e-3},
		{name: "conv 3×3 s2 p0", build: func() (Module, error) {
			return randomizeParams(must(NewConv2D(img, 4, 3, 2, 0, GlorotInit(), 6)), 6), nil
		}, B: 3, eps: 1e-2, atol: 2e-3, rtol: 1e-3},
		{name: "conv 2×2 s2 p1", build: func() (Module, error) {
			return randomizeParams(must(NewConv2D(img, 2, 2, 2, 1, OrthogonalInit(1), 7)), 7), nil
		}, B: 2, eps: 1e-2, atol: 2e-3, rtol: 1e-3},
		{name: "conv 1×1", build: func() (Module, error) {
			return NewConv2D(img, 3, 1, 1, 0, LeCunInit(), 8)
		}, B: 2, eps: 1e-2, atol: 2e-3, rtol: 1e-3},
		{name: "maxpool 2×2", build: func() (Module, error) { return NewMaxPool2D(img, 2, 0) }, B: 2,
			eps: 1e-3, atol: 1e-3, rtol: 1e-3},
		{name: "maxpool 3×3 s1", build: func() (Module, error) { return NewMaxPool2D(img, 3, 1) }, B: 2,
			eps: 1e-3, atol: 1e-3, rtol: 1e-3},
		{name: "avgpool 2×2", build: func() (Module, error) { return NewAvgPool2D(img, 2, 0) }, B: 2,
			eps: 1e-2, atol: 1e-3, rtol: 1e-3},
		{name: "avgpool 3×3 s2", build: func() (Module, error) { return NewAvgPool2D(img, 3, 2) }, B: 2,
			eps: 1e-2, atol: 1e-3, rtol: 1e-3},
		{name: "global avgpool", build: func() (Module, error) { return NewGlobalAvgPool(img) }, B: 3,
			eps: 1e-2, atol: 1e-3, rtol: 1e-3},
		{name: "small cnn", build: func() (Module, error) {
			c1 := must(NewConv2D(Shape{C: 3, H: 8, W: 8}, 4, 3, 1, 1, HeInit(), 1))
			bn := must(NewBatchNorm2D(c1.OutShape(), 0, 0))
			p1 := must(NewAvgPool2D(c1.OutShape(), 2, 0)) // max pooling: near-ties (gap 4e−4) would be crossed by the perturbation
			c2 := must(NewConv2D(p1.OutShape(), 5, 3, 1, 1, HeInit(), 2))
			g := must(NewGlobalAvgPool(c2.OutShape()))
			return NewSequential(c1, bn, NewGELU(bn.Out()), p1, c2, NewTanh(c2.Out()), g, must(NewDense(5, 3, GlorotInit(), 3)))
		}, B: 3, train: true, eps: 1e-2, atol: 3e-3, rtol: 3e-3},
	}
}

func TestLayerGradients(t *testing.T) {
	for _, c := range layerGradCases() {
		t.Run(c.name, func(t *testing.T) { runGradCase(t, c) })
	}
}

// Conv2D against a direct (nested-loop) convolution.
func TestConvDirect(t *testing.T) {
	in := Shape{C: 3, H: 7, W: 6}
	for _, c := range []struct{ K, k, s, p int }{{4, 3, 1, 1}, {2, 3, 2, 0}, {5, 2, 2, 1}, {3, 5, 1, 2}} {
		conv := must(NewConv2D(in, c.K, c.k, c.s, c.p, GlorotInit(), 1))
		randomizeParams(conv, 2)
		const B = 2
		x := normals(rng.New(3), B*in.Size())
		y := conv.Forward(x, B, false)
		o := conv.OutShape()
		for b := 0; b < B; b++ {
			for k := 0; k < c.K; k++ {
				for oy := 0; oy < o.H; oy++ {
					for ox := 0; ox < o.W; ox++ {
						s := float64(conv.b[k])
						for ch := 0; ch < in.C; ch++ {
							for ki := 0; ki < c.k; ki++ {
								for kj := 0; kj < c.k; kj++ {
									iy, ix := oy*c.s-c.p+ki, ox*c.s-c.p+kj
									if iy < 0 || iy >= in.H || ix < 0 || ix >= in.W {
										continue
									}
									s += float64(conv.w[((k*in.C+ch)*c.k+ki)*c.k+kj]) * float64(x[b*in.Size()+(ch*in.H+iy)*in.W+ix])
								}
							}
						}
						got := y[b*o.Size()+(k*o.H+oy)*o.W+ox]
						if math.Abs(float64(got)-s) > 1e-4*(1+math.Abs(s)) {
							t.Fatalf("%+v: y[%d,%d,%d,%d] = %v, want %v", c, b, k, oy, ox, got, s)
						}
					}
				}
			}
		}
	}
}

func TestBatchNormRunningStats(t *testing.T) {
	m := must(NewBatchNorm1D(2, 0, 0.5))
	x := []float32{1, 10, 3, 20, 5, 30}
	m.Forward(x, 3, true)
	// batch mean (3, 20), unbiased variance (4, 100)
	want := []float32{1.5, 10, 2.5, 50.5}
	got := []float32{m.rmean[0], m.rmean[1], m.rvar[0], m.rvar[1]}
	for i := range want {
		if math.Abs(float64(got[i]-want[i])) > 1e-5 {
			t.Fatalf("running stats %v, want %v", got, want)
		}
	}
	y := m.Forward([]float32{1.5, 10}, 1, false)
	if y[0] != 0 || y[1] != 0 {
		t.Fatalf("eval at the running mean gives %v, want 0", y)
	}
	if b := Buffers(must(NewSequential(NewIdentity(2), m))); len(b) != 2 || b[0].Name != "1.running_mean" {
		t.Fatalf("buffers %v", b)
	}
}

func TestDropoutStatistics(t *testing.T) {
	d := must(NewDropout(1000, 0.3, 9))
	x := make([]float32, 10*1000)
	for i := range x {
		x[i] = 1
	}
	y := d.Forward(x, 10, true)
	zeros, sum := 0, 0.0
	for _, v := range y {
		if v == 0 {
			zeros++
		}
		sum += float64(v)
	}
	if f := float64(zeros) / float64(len(y)); math.Abs(f-0.3) > 0.02 {
		t.Errorf("dropped fraction %v, want 0.3", f)
	}
	if mean := sum / float64(len(y)); math.Abs(mean-1) > 0.03 {
		t.Errorf("mean %v, want 1 (inverted scaling)", mean)
	}
	first := append([]float32(nil), y...)
	again := must(NewDropout(1000, 0.3, 9)).Forward(x, 10, true)
	for i := range first {
		if first[i] != again[i] {
			t.Fatal("same seed, different mask")
		}
	}
	second := d.Forward(x, 10, true)
	same := true
	for i := range first {
		same = same && first[i] == second[i]
	}
	if same {
		t.Error("two training steps drew the same mask")
	}
	for i, v := range d.Forward(x, 10, false) {
		if v != 1 {
			t.Fatalf("eval output %d = %v, want 1", i, v)
		}
	}
	if _, err := NewDropout(3, 1, 1); err == nil {
		t.Error("rate 1: no error")
	}
}

func TestShapeErrors(t *testing.T) {
	s := Shape{C: 1, H: 4, W: 4}
	if _, err := NewConv2D(s, 2, 7, 1, 1, HeInit(), 1); err == nil {
		t.Error("kernel larger than the padded input: no error")
	}
	if _, err := NewConv2D(Shape{}, 2, 3, 1, 1, HeInit(), 1); err == nil {
		t.Error("empty shape: no error")
	}
	if _, err := NewMaxPool2D(s, 5, 0); err == nil {
		t.Error("window larger than the image: no error")
	}
	c := must(NewConv2D(Shape{C: 3, H: 64, W: 64}, 16, 3, 2, 1, HeInit(), 1))
	if c.OutShape() != (Shape{C: 16, H: 32, W: 32}) {
		t.Errorf("out shape %v", c.OutShape())
	}
}

// Ties: the first maximal value of a window (row-major) takes the gradient,
// in the 2×2 fast path and in the general path.
func TestMaxPoolTies(t *testing.T) {
	for _, c := range []struct{ k, s int }{{2, 2}, {2, 1}, {3, 3}} {
		in := Shape{C: 1, H: c.k, W: c.k}
		m := must(NewMaxPool2D(in, c.k, c.s))
		x := make([]float32, in.Size())
		for i := range x {
			x[i] = 1
		}
		x[0] = 0
		m.Forward(x, 1, true)
		dx := m.Backward([]float32{5})
		for i, v := range dx {
			want := float32(0)
			if i == 1 {
				want = 5
			}
			if v != want {
				t.Fatalf("k=%d s=%d: dx = %v, want the gradient on index 1 only", c.k, c.s, dx)
			}
		}
	}
}

// Convolution results do not depend on the number of cores: work is split
// in fixed sample chunks whose partial gradients are added in order.
func TestConvDeterministicAcrossCores(t *testing.T) {
	run := func(procs int) ([]float32, []float32, []float32) {
		old := runtime.GOMAXPROCS(procs)
		defer runtime.GOMAXPROCS(old)
		c := must(NewConv2D(Shape{C: 3, H: 32, W: 32}, 8, 3, 1, 1, HeInit(), 1))
		const B = 13
		x := normals(rng.New(1), B*c.In())
		dy := normals(rng.New(2), B*c.Out())
		y := append([]float32(nil), c.Forward(x, B, true)...)
		dx := append([]float32(nil), c.Backward(dy)...)
		return y, dx, append([]float32(nil), c.Params()[0].Grad...)
	}
	y1, dx1, g1 := run(1)
	y2, dx2, g2 := run(4)
	for _, p := range [][2][]float32{{y1, y2}, {dx1, dx2}, {g1, g2}} {
		for i := range p[0] {
			if p[0][i] != p[1][i] {
				t.Fatalf("value %d differs between 1 and 4 workers: %v vs %v", i, p[0][i], p[1][i])
			}
		}
	}
}

func TestSkipInputGrad(t *testing.T) {
	d := must(NewDense(3, 2, GlorotInit(), 1))
	seq := must(NewSequential(d, NewTanh(2)))
	seq.SetSkipInputGrad(true)
	x := normals(rng.New(1), 4*3)
	seq.Forward(x, 4, true)
	if dx := seq.Backward(normals(rng.New(2), 4*2)); dx != nil {
		t.Fatalf("dx = %v, want nil", dx)
	}
	var s float32
	for _, g := range d.Params()[0].Grad {
		s += g * g
	}
	if s == 0 {
		t.Fatal("no weight gradient with the input gradient skipped")
	}
	// a branch without input gradient contributes zeros to Concat's dx
	c := must(NewConv2D(Shape{C: 1, H: 3, W: 3}, 1, 3, 1, 1, HeInit(), 1))
	c.SetSkipInputGrad(true)
	cat := must(NewConcat(c, NewIdentity(2)))
	xc := normals(rng.New(3), 2*11)
	cat.Forward(xc, 2, true)
	dy := normals(rng.New(4), 2*11)
	dx := cat.Backward(dy)
	for r := 0; r < 2; r++ {
		for j := 0; j < 11; j++ {
			want := float32(0)
			if j >= 9 {
				want = dy[r*11+j]
			}
			if dx[r*11+j] != want {
				t.Fatalf("dx[%d][%d] = %v, want %v", r, j, dx[r*11+j], want)
			}
		}
	}
}

// TestOverwriteGradAndPool checks that a network whose layers overwrite
// their gradients, or run their products on linalg's pool, gives the bits
// of the default (zeroed gradients, accumulation, one goroutine), for the
// critic's shapes (on the pool the first layer's gradients are computed in
// the second layer's split backward) and for ragged ones (a first layer
// that splits too).
func TestOverwriteGradAndPool(t *testing.T) {
	defer linalg.SetAdaptive(linalg.SetAdaptive(false))
	for _, sh := range []struct{ in, B int }{{4, 64}, {27, 64}, {5, 13}, {8, 0}, {64, 64}, {128, 40}} {
		run := func(overwrite, pool bool) [][]float32 {
			m := must(NewMLP(sh.in, []int{256, 256}, 1, "relu", LeCunInit(), LeCunInit(), 7))
			m.SetSkipInputGrad(true)
			m.SetOverwriteGrad(overwrite)
			m.SetPool(pool)
			var out [][]float32
			for step := 0; step < 3; step++ {
				if !overwrite {
					ZeroGrad(m)
				} else {
					for _, p := range m.Params() { // garbage the overwrite must replace
						for i := range p.Grad {
							p.Grad[i] = float32(i%5) - 2
						}
					}
				}
				x := normals(rng.New(uint32(10+step)), sh.B*sh.in)
				y := m.Forward(x, sh.B, true)
				out = append(out, append([]float32(nil), y...))
				m.Backward(normals(rng.New(uint32(20+step)), sh.B))
				for _, p := range m.Params() {
					out = append(out, append([]float32(nil), p.Grad...))
				}
			}
			return out
		}
		want := run(false, false)
		for _, c := range [][2]bool{{true, false}, {false, true}, {true, true}} {
			got := run(c[0], c[1])
			for i := range want {
				for j := range want[i] {
					if math.Float32bits(got[i][j]) != math.Float32bits(want[i][j]) {
						t.Fatalf("in %d B %d overwrite=%v pool=%v: array %d entry %d = %v, want %v", sh.in, sh.B, c[0], c[1], i, j, got[i][j], want[i][j])
					}
				}
			}
		}
	}
}
