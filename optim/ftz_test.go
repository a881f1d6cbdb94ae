package optim

import (
	"math"
	"testing"
)

// The AVX2 Keras loop runs with denormals flushed to zero; the scalar path
// mirrors it operation by operation, so both agree bit for bit even when
// moments decay into the denormal range.
func TestKerasDenormalsFlushedIdentically(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2 on this machine")
	}
	n := 64
	tiny := []float32{1e-39, -3e-40, 1e-45, 0, 1.1754944e-38, 2e-38, -1e-38, 5e-3}
	mk := func() (p, g, m, v []float32) {
		p, g, m, v = make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n)
		for i := range p {
			p[i] = tiny[i%len(tiny)] * float32(i%3)
			g[i] = tiny[(i+1)%len(tiny)]
			m[i] = tiny[(i+2)%len(tiny)]
			v[i] = float32(math.Abs(float64(tiny[(i+3)%len(tiny)])))
		}
		return
	}
	c := coef{c1: 0.1, c2: 0.001, alpha: 0.01, eps: 1e-7}
	p1, g1, m1, v1 := mk()
	kerasAVX2(&p1[0], &g1[0], &m1[0], &v1[0], n, c.c1, c.c2, c.alpha, c.eps)
	p2, g2, m2, v2 := mk()
	for i := range p2 {
		p2[i], m2[i], v2[i] = kerasFTZ(p2[i], g2[i], m2[i], v2[i], c.c1, c.c2, c.alpha, c.eps)
	}
	for i := range p1 {
		if math.Float32bits(p1[i]) != math.Float32bits(p2[i]) || math.Float32bits(m1[i]) != math.Float32bits(m2[i]) || math.Float32bits(v1[i]) != math.Float32bits(v2[i]) {
			t.Fatalf("entry %d: AVX2 (%g %g %g) vs scalar (%g %g %g)", i, p1[i], m1[i], v1[i], p2[i], m2[i], v2[i])
		}
		if b := math.Float32bits(m1[i]); b&0x7f800000 == 0 && b&0x7fffff != 0 {
			t.Fatalf("entry %d: m = %g is denormal", i, m1[i])
		}
	}
}

// Optax moments that decay towards zero under a zero gradient end at zero,
// never in the subnormal range (XLA's FTZ behaviour; subnormal arithmetic
// made PPO's critic sweep ~25× slower).
func TestOptaxMomentsFlushToZero(t *testing.T) {
	for _, wd := range []float64{0, 1e-4} {
		p := []float32{0.5, -0.25}
		g := []float32{1, -1}
		grp := NewGroup(Optax, "w", 1e-3, Param{Name: "w", Value: p, Grad: g})
		grp.WeightDecay = wd
		opt, err := NewAdam(grp)
		if err != nil {
			t.Fatal(err)
		}
		opt.Step()
		g[0], g[1] = 0, 0
		for range 2000 {
			opt.Step()
		}
		st := opt.State()
		for _, gs := range st.Groups {
			for _, ps := range gs.Params {
				for i, m := range ps.M {
					if m != 0 {
						t.Errorf("wd=%g: m[%d] = %g after 2000 zero-gradient steps, want 0", wd, i, m)
					}
				}
				for i, v := range ps.V {
					if v != 0 && math.Abs(float64(v)) < 0x1p-126 {
						t.Errorf("wd=%g: v[%d] = %g is subnormal", wd, i, v)
					}
				}
			}
		}
	}
}
