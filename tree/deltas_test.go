package tree

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestTreeDeltasMatchGo: the vector pass of a tree's γ and δ
// (treeDeltasVec) gives the bits of treeWeights and pathDeltas, for every
// depth it takes, batches that are not a multiple of sixteen, with and
// without a keep mask, and with NaN, ±0 and threshold-equal inputs, zero
// weights, zero sums M and zero output gradients.
func TestTreeDeltasMatchGo(t *testing.T) {
	if !haveDeltasAVX512 {
		t.Skip("no AVX-512 on this machine")
	}
	for ci, c := range []gradCase{
		{trees: 5, depth: 1, features: 3, outputs: 1, batch: 7, dropout: 0.3},
		{trees: 9, depth: 2, features: 4, subset: 3, outputs: 1, batch: 16, dropout: 0},
		{trees: 7, depth: 3, features: 11, outputs: 1, batch: 33},
		{trees: 6, depth: 4, features: 20, subset: 8, outputs: 1, batch: 61, dropout: 0.5},
		{trees: 12, depth: 5, features: 32, subset: 25, outputs: 1, batch: 256, dropout: 0.2},
		{trees: 8, depth: 5, features: 70, subset: 30, outputs: 1, batch: 45, dropout: 0.9},
		{trees: 6, depth: 6, features: 46, subset: 36, outputs: 1, batch: 77, dropout: 0.2},
		{trees: 5, depth: 6, features: 10, outputs: 1, batch: 256},
	} {
		c.split, c.mode, c.logitScale = Softsign, LeafWeights, 1
		t.Run(fmt.Sprint(c), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(ci), 17))
			k := randomKernel(t, c, r)
			k.cfg.Fast = true
			B := c.batch
			x := randomSlice(r, B*c.features)
			for i := range x {
				switch r.IntN(12) {
				case 0:
					x[i] = float32(math.NaN())
				case 1:
					x[i] = float32(math.Copysign(0, -1))
				case 2:
					x[i] = k.selThr[r.IntN(len(k.selThr))]
				}
			}
			dy := randomSlice(r, B)
			for i := range dy {
				if r.IntN(10) == 0 {
					dy[i] = 0
				}
			}
			for _, masked := range []bool{false, true} {
				var keep []bool
				if masked {
					keep = make([]bool, B*c.trees)
					for i := range keep {
						keep[i] = r.Float64() >= c.dropout
					}
				}
				ws := k.NewWorkspace()
				out := make([]float32, B)
				if err := k.Forward(ws, x, B, keep, out); err != nil {
					t.Fatal(err)
				}
				// zero weights and sums the softmax rarely gives
				for i := 0; i < c.trees*B; i++ {
					switch r.IntN(20) {
					case 0:
						ws.aw[i] = 0
					case 1:
						ws.a[i], ws.aw[i] = 0, 0
					case 2:
						ws.a[i] = 0
					}
				}
				if masked {
					ws.msum[r.IntN(B)] = 0
				}
				ws.dOut, ws.fused = dy, true
				ws.growWorkers(1)
				if !ws.vecDeltas() {
					t.Fatal("vecDeltas is false")
				}
				ws.weightSums(0, B)
				s := &ws.scratch[0]
				d := c.depth
				for e := 0; e < c.trees; e++ {
					s.th, s.tg, s.td = make([]float64, B), make([]float64, B), make([]float64, B*d)
					ws.treeWeights(e, 0, B, s.th, s.tg)
					ws.pathDeltas(e, 0, B, s.td, nil, s)
					g, td := make([]float64, B+1), make([]float64, B*d+1)
					g[B], td[B*d] = 7, 7 // past the end: untouched
					ws.treeDeltasVec(e, g[:B], td[:B*d])
					if g[B] != 7 || td[B*d] != 7 {
						t.Fatalf("tree %d: wrote past the end", e)
					}
					for b := 0; b < B; b++ {
						if !sameBits(g[b], s.tg[b]) {
							t.Fatalf("keep %v, tree %d, sample %d: γ = %v, Go %v", masked, e, b, g[b], s.tg[b])
						}
						for j := 0; j < d; j++ {
							if got, want := td[j*B+b], s.td[b*d+j]; !sameBits(got, want) {
								t.Fatalf("keep %v, tree %d, sample %d, depth %d: δ = %v, Go %v", masked, e, b, j, got, want)
							}
						}
					}
				}
			}
		})
	}
}

// sameBits reports whether a and b have the same bits (any two NaNs
// count as equal).
func sameBits(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
}
