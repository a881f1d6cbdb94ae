package optim

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestOptaxAVX512MatchesScalar checks that the AVX-512 Optax loop (whose
// divisions by the bias corrections use the reciprocal and Markstein's
// correction) gives the scalar Optax update's bits, for the bias
// corrections of many steps t, with and without weight decay, on values
// spread over the float32 range: moments at and around the flush
// threshold, zeros of both signs, huge values, infinities and NaN
// gradients (compared as "both NaN"), and vectors mixing them with
// ordinary entries.
func TestOptaxAVX512MatchesScalar(t *testing.T) {
	if !useAVX512 {
		t.Skip("no AVX-512 on this machine")
	}
	r := rand.New(rand.NewPCG(1, 2))
	special := []float32{0, float32(math.Copysign(0, -1)), 0x1p-126, -0x1p-126, 0x1p-100, 0x1.fffffep-101, 0x1p-120, 3e38, -3e38,
		float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN())}
	value := func(rare float64) float32 {
		if r.Float64() < rare {
			return special[r.IntN(len(special))]
		}
		// log-uniform magnitude over most of the float32 range
		x := float32(math.Ldexp(1+r.Float64(), r.IntN(250)-130))
		if r.IntN(2) == 0 {
			x = -x
		}
		return x
	}
	steps := []int64{1, 2, 3, 4, 5, 7, 10, 30, 100, 1000, 5000, 20000, 100000, 1_000_000}
	for i := 0; i < 40; i++ {
		steps = append(steps, 1+r.Int64N(300000))
	}
	const n = 256
	mismatches := 0
	for _, wd := range []float64{0, 1e-4} {
		for _, lr := range []float64{3e-4, 0.1} {
			for _, st := range steps {
				g := NewGroup(Optax, "w", lr)
				g.WeightDecay = wd
				c := newCoef(&g, lr, st)
				for rep := 0; rep < 40; rep++ {
					rare := []float64{0, 0.01, 0.3}[rep%3]
					p, gr, m, v := make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n)
					for k := range p {
						p[k], gr[k], m[k] = value(rare), value(rare), value(rare)
						v[k] = float32(math.Abs(float64(value(rare))))
						if rep%5 == 4 { // decayed moments around the flush threshold
							m[k] = float32(math.Ldexp(1+r.Float64(), -126+r.IntN(40))) * float32(1-2*r.IntN(2))
							gr[k] = float32(math.Ldexp(1+r.Float64(), -140+r.IntN(40)))
						}
					}
					p2, m2, v2 := append([]float32(nil), p...), append([]float32(nil), m...), append([]float32(nil), v...)
					c.denseOptax(p, gr, m, v)
					for k := range p2 {
						p2[k], m2[k], v2[k] = c.elem(p2[k], gr[k], m2[k], v2[k])
					}
					for k := range p {
						if !sameBits(p[k], p2[k]) || !sameBits(m[k], m2[k]) || !sameBits(v[k], v2[k]) {
							mismatches++
							if mismatches < 5 {
								t.Errorf("t=%d wd=%g lr=%g entry %d: AVX-512 (%g %g %g), scalar (%g %g %g)", st, wd, lr, k, p[k], m[k], v[k], p2[k], m2[k], v2[k])
							}
						}
					}
				}
			}
		}
	}
	if mismatches > 0 {
		t.Errorf("%d mismatching entries", mismatches)
	}
}

// sameBits reports whether a and b are the same float32 bits, or both NaN.
func sameBits(a, b float32) bool {
	if a != a && b != b {
		return true
	}
	return math.Float32bits(a) == math.Float32bits(b)
}

// BenchmarkOptaxDense times one Optax AdamW step over 66,817 entries (the
// SYMPOL critic 4→256→256→1) with the AVX-512 loop and with the AVX2 one.
func BenchmarkOptaxDense(b *testing.B) {
	const n = 66817
	r := rand.New(rand.NewPCG(3, 4))
	p, g, m, v := make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range p {
		p[i], g[i] = float32(r.NormFloat64()), float32(r.NormFloat64()*1e-3)
	}
	grp := NewGroup(Optax, "w", 3e-4)
	grp.WeightDecay = 1e-4
	c := newCoef(&grp, 3e-4, 1000)
	for _, k := range []struct {
		name string
		on   bool
	}{{"avx512", true}, {"avx2", false}} {
		if k.on && !useAVX512 {
			continue
		}
		b.Run(k.name, func(b *testing.B) {
			old := useAVX512
			useAVX512 = k.on
			defer func() { useAVX512 = old }()
			cpu := processCPU()
			for range b.N {
				c.denseOptax(p, g, m, v)
			}
			b.ReportMetric((processCPU()-cpu)*1e9/float64(b.N), "cpu-ns/op")
		})
	}
}
