package policy

import (
	"testing"

	"github.com/gdt-ml/gdt/rng"
)

// TestPrunedActsLikeActor checks zero information loss of the export:
// the range-pruned plain tree takes the actor's greedy action (discrete) or
// returns its exact mean (continuous) on observations inside the bounds,
// including observations exactly at thresholds, and is smaller.
func TestPrunedActsLikeActor(t *testing.T) {
	const F = 4
	low := []float32{-1, -1, -0.2, -3}
	high := []float32{1, 1, 0.2, 3}
	for _, d := range []Dist{{Discrete: true, A: 3}, {Discrete: true, A: 2}, {A: 2}} {
		a, err := NewTreeActor(F, d, 6, 11, 1)
		if err != nil {
			t.Fatal(err)
		}
		r := rng.New(5)
		p := a.Kernel().Params()
		for k := range p.Thresholds {
			p.Thresholds[k] = float32(1.5 * r.NormFloat64())
		}
		for k := range p.Leaves {
			p.Leaves[k] = float32(r.NormFloat64())
		}
		a.Changed()
		full, err := a.Plain()
		if err != nil {
			t.Fatal(err)
		}
		pr, err := a.Pruned(low, high)
		if err != nil {
			t.Fatal(err)
		}
		if err := pr.Validate(F); err != nil {
			t.Fatal(err)
		}
		if pr.NumNodes() >= full.NumNodes() {
			t.Errorf("%+v: pruning kept %d of %d nodes", d, pr.NumNodes(), full.NumNodes())
		}
		x := make([]float32, F)
		out := make([]float32, d.A)
		var thr []float32
		for _, n := range full.Nodes {
			if !n.IsLeaf() {
				thr = append(thr, n.Threshold)
			}
		}
		for s := 0; s < 20000; s++ {
			for f := range x {
				x[f] = low[f] + float32(r.Float64())*(high[f]-low[f])
				if s%4 == 0 { // hit thresholds exactly
					v := thr[r.Intn(len(thr))]
					if v >= low[f] && v <= high[f] {
						x[f] = v
					}
				}
			}
			if err := a.Predict(x, 1, out); err != nil {
				t.Fatal(err)
			}
			l, err := pr.LeafOf(x)
			if err != nil {
				t.Fatal(err)
			}
			got := pr.Nodes[l].Value
			if d.Discrete {
				if Argmax(got) != Argmax(out) {
					t.Fatalf("%+v: x = %v: pruned tree acts %d, actor %d", d, x, Argmax(got), Argmax(out))
				}
				continue
			}
			for k := range out {
				if got[k] != out[k] {
					t.Fatalf("%+v: x = %v: pruned mean %v, actor %v", d, x, got, out)
				}
			}
		}
		t.Logf("%+v: %d → %d nodes", d, full.NumNodes(), pr.NumNodes())
	}
}
