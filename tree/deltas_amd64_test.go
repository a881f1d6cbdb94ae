//go:build amd64 && !purego

package tree

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestVecBackwardMatchesGo: Forward and Backward with the AVX-512 passes
// (forwardVec, weightSumsVec, treeDeltasVec, accumulateTreeVec) give the
// bits of the Go passes, on 1 and 2 workers, with and without input
// gradients (fused and plain backward), for depths 1–6, rows of one to
// four vectors and wider inputs, with and without dropout, with
// threshold-equal inputs (and NaN ones in some cases), and with weight
// logits outside math.Exp's plain range (the forward's fallback).
func TestVecBackwardMatchesGo(t *testing.T) {
	if !haveDeltasAVX512 {
		t.Skip("no AVX-512 on this machine")
	}
	defer func(v, f bool) { haveDeltasAVX512, haveForwardAVX512 = v, f }(haveDeltasAVX512, haveForwardAVX512)
	for ci, c := range []gradCase{
		{trees: 8, depth: 1, features: 3, outputs: 1, batch: 7, dropout: 0.3},
		{trees: 9, depth: 2, features: 17, subset: 12, outputs: 1, batch: 16},
		{trees: 10, depth: 3, features: 40, subset: 30, outputs: 1, batch: 33, dropout: 0.5},
		{trees: 12, depth: 4, features: 64, subset: 60, outputs: 1, batch: 61},
		{trees: 16, depth: 5, features: 32, subset: 25, outputs: 1, batch: 256, dropout: 0.2},
		{trees: 8, depth: 5, features: 70, subset: 30, outputs: 1, batch: 45, dropout: 0.9},
		{trees: 8, depth: 5, features: 46, subset: 12, outputs: 1, batch: 50},
		{trees: 3, depth: 6, features: 20, subset: 10, outputs: 1, batch: 41, dropout: 0.4},
		{trees: 8, depth: 6, features: 46, subset: 36, outputs: 1, batch: 64, dropout: 0.2},
		{trees: 9, depth: 6, features: 20, outputs: 1, batch: 100},
		{trees: 6, depth: 3, features: 9, outputs: 1, batch: 30, dropout: 0.3}, // wide weight logits
	} {
		c.split, c.mode, c.logitScale = Softsign, LeafWeights, []float64{0.05, 1, 4}[ci%3]
		t.Run(fmt.Sprint(c), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(ci), 23))
			k := randomKernel(t, c, r)
			k.cfg.Fast = true
			if c.trees == 6 && c.depth == 3 {
				w := k.Params().LeafWeights
				w[3], w[10], w[20] = 800, -900, float32(math.Inf(-1))
			}
			B := c.batch
			x := randomSlice(r, B*c.features)
			for i := range x {
				switch r.IntN(15) {
				case 0:
					// a NaN input makes the node sums NaN: a few cases only
					if ci%3 == 2 {
						x[i] = float32(math.NaN())
					}
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
					var want []float32
					for _, vec := range []bool{false, true} {
						haveDeltasAVX512, haveForwardAVX512 = vec, vec
						out, grad, dX := runKernel(t, k, x, B, keep, dy, wantDX)
						all := append(append(out, dX...), grad.IndexLogits...)
						all = append(append(append(all, grad.Thresholds...), grad.Leaves...), grad.LeafWeights...)
						if want == nil {
							want = all
							continue
						}
						for i := range all {
							if math.Float32bits(all[i]) != math.Float32bits(want[i]) {
								t.Fatalf("%d workers, dX %v: value %d (outputs, dX, gradients) = %v, Go passes %v", w, wantDX, i, all[i], want[i])
							}
						}
					}
				}
			}
		})
	}
}
