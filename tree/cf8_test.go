package tree

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestCounterfactuals8 compares the eight-sample SIMD descents with the
// scalar counterfactuals on random trees of depths 1–12, with NaN, ±0 and
// threshold-equal inputs.
func TestCounterfactuals8(t *testing.T) {
	if !haveSIMD {
		t.Skip("no SIMD on this machine")
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct{ d, n int }{{1, 3}, {2, 1}, {3, 5}, {6, 14}, {10, 14}, {10, 50}, {12, 7}} {
		ni := 1<<c.d - 1
		feat, thr := make([]int32, ni), make([]float32, ni)
		for i := range feat {
			feat[i] = int32(r.IntN(c.n))
			thr[i] = float32(r.NormFloat64())
			if r.IntN(8) == 0 {
				thr[i] = 0
			}
		}
		const B = 20
		x := make([]float32, B*c.n)
		for i := range x {
			switch r.IntN(10) {
			case 0:
				x[i] = float32(math.NaN())
			case 1:
				x[i] = float32(math.Copysign(0, -1))
			case 2:
				x[i] = thr[r.IntN(ni)]
			default:
				x[i] = float32(r.NormFloat64())
			}
		}
		for trial := 0; trial < 20; trial++ {
			var off [8]int32
			var R, pos [8]int
			for l := range off {
				b := r.IntN(B)
				off[l], R[l], pos[l] = int32(b*c.n), r.IntN(ni+1), (l*5+trial)%8
			}
			z, cf := make([]float64, 8*c.d), make([]int, 8*c.d)
			counterfactuals8(feat, thr, x, c.n, &off, &R, &pos, z, cf, make([]int32, 8*c.d))
			for l := range off {
				wz, wcf := make([]float64, c.d), make([]int, c.d)
				b := int(off[l]) / c.n
				counterfactuals(feat, thr, x[b*c.n:(b+1)*c.n], R[l], wz, wcf)
				for j := 0; j < c.d; j++ {
					gz, gc := z[pos[l]*c.d+j], cf[pos[l]*c.d+j]
					if gc != wcf[j] || math.Float64bits(gz) != math.Float64bits(wz[j]) && !(math.IsNaN(gz) && math.IsNaN(wz[j])) {
						t.Fatalf("depth %d, lane %d, j %d: cf %d z %v, want cf %d z %v", c.d, l, j, gc, gz, wcf[j], wz[j])
					}
				}
			}
		}
	}
}
