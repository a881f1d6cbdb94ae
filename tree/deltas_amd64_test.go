//go:build amd64 && !purego

package tree

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestVecBackwardMatchesGo: Backward with the AVX-512 tree passes
// (treeDeltasVec, accumulateTreeVec) gives the bits of the Go passes, on 1
// and 2 workers, for depths 1–5, rows of one to four vectors and wider
// inputs, with and without dropout, with NaN and threshold-equal inputs.
func TestVecBackwardMatchesGo(t *testing.T) {
	if !haveDeltasAVX512 {
		t.Skip("no AVX-512 on this machine")
	}
	defer func(v bool) { haveDeltasAVX512 = v }(haveDeltasAVX512)
	for ci, c := range []gradCase{
		{trees: 8, depth: 1, features: 3, outputs: 1, batch: 7, dropout: 0.3},
		{trees: 9, depth: 2, features: 17, subset: 12, outputs: 1, batch: 16},
		{trees: 10, depth: 3, features: 40, subset: 30, outputs: 1, batch: 33, dropout: 0.5},
		{trees: 12, depth: 4, features: 64, subset: 60, outputs: 1, batch: 61},
		{trees: 16, depth: 5, features: 32, subset: 25, outputs: 1, batch: 256, dropout: 0.2},
		{trees: 8, depth: 5, features: 70, subset: 30, outputs: 1, batch: 45, dropout: 0.9},
		{trees: 8, depth: 5, features: 46, subset: 12, outputs: 1, batch: 50},
		{trees: 3, depth: 6, features: 20, subset: 10, outputs: 1, batch: 41, dropout: 0.4},
	} {
		c.split, c.mode, c.logitScale = Softsign, LeafWeights, []float64{0.05, 1, 4}[ci%3]
		t.Run(fmt.Sprint(c), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(ci), 23))
			k := randomKernel(t, c, r)
			k.cfg.Fast = true
			B := c.batch
			x := randomSlice(r, B*c.features)
			for i := range x {
				switch r.IntN(15) {
				case 0:
					x[i] = float32(math.NaN())
				case 1:
					x[i] = k.selThr[r.IntN(len(k.selThr))]
				}
			}
			dy := randomSlice(r, B)
			var keep []bool
			if c.dropout > 0 {
				keep = make([]bool, B*c.trees)
				for i := range keep {
					keep[i] = r.Float64() >= c.dropout
				}
			}
			for _, w := range []int{1, 2} {
				if err := k.SetWorkers(w); err != nil {
					t.Fatal(err)
				}
				for _, wantDX := range []bool{false, true} {
					var want *Params
					var wantX []float32
					for _, vec := range []bool{false, true} {
						haveDeltasAVX512 = vec
						_, grad, dX := runKernel(t, k, x, B, keep, dy, wantDX)
						if want == nil {
							want, wantX = grad, dX
							continue
						}
						for i := range dX {
							if math.Float32bits(dX[i]) != math.Float32bits(wantX[i]) {
								t.Fatalf("%d workers: dX[%d] = %v, Go passes %v", w, i, dX[i], wantX[i])
							}
						}
						wt, gt := want.Tensors(), grad.Tensors()
						for i := range wt {
							for j := range wt[i].Data {
								if math.Float32bits(wt[i].Data[j]) != math.Float32bits(gt[i].Data[j]) {
									t.Fatalf("%d workers, dX %v: %s[%d] = %v, Go passes %v", w, wantDX, wt[i].Name, j, gt[i].Data[j], wt[i].Data[j])
								}
							}
						}
					}
				}
			}
		})
	}
}
