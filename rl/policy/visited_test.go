package policy

import (
	"testing"

	"github.com/gdt-ml/gdt/interpret"
	"github.com/gdt-ml/gdt/rl/env"
	"github.com/gdt-ml/gdt/rl/env/minigrid"
	"github.com/gdt-ml/gdt/rng"
)

// handTree is a depth-2 tree on two features with three actions:
//
//	x0 < 0.5 ? (x1 < 0.5 ? act 0 : act 1) : (x1 < 0.3 ? act 2 : act 2)
//
// Its right subtree's leaves share their greedy action but not their
// logits.
func handTree() *interpret.Tree {
	leaf := func(a int, d int, v float32) interpret.Node {
		val := []float32{0, 0, 0}
		val[a] = v
		return interpret.Node{Feature: -1, Left: -1, Right: -1, Value: val, Depth: d}
	}
	return &interpret.Tree{Outputs: 3, Nodes: []interpret.Node{
		{Feature: 0, Threshold: 0.5, Left: 1, Right: 2},
		{Feature: 1, Threshold: 0.5, Left: 3, Right: 4, Depth: 1},
		{Feature: 1, Threshold: 0.3, Left: 5, Right: 6, Depth: 1},
		leaf(0, 2, 1), leaf(1, 2, 1), leaf(2, 2, 1), leaf(2, 2, 2),
	}}
}

// TestPruneVisited checks the visited-states rule on a hand-made tree:
// which splits remain for which observations (strict "x < τ": an
// observation exactly at a threshold goes right), with and without the
// same-action merge, and that every observation keeps its leaf values
// (merge: its greedy action).
func TestPruneVisited(t *testing.T) {
	cases := []struct {
		name  string
		obs   [][2]float32
		merge bool
		nodes int
		root  int // feature tested at the root (−1 a leaf)
	}{
		{"one leaf reached", [][2]float32{{0, 0}, {0.4, 0.49}}, true, 1, -1},
		{"left subtree only", [][2]float32{{0, 0}, {0.1, 0.9}}, true, 3, 1},
		{"threshold goes right", [][2]float32{{0.5, 0.5}, {0.5, 0.3}}, false, 1, -1},
		{"right subtree, no merge", [][2]float32{{0.7, 0}, {0.9, 0.9}}, false, 3, 1},
		{"right subtree, merged", [][2]float32{{0.7, 0}, {0.9, 0.9}}, true, 1, -1},
		{"everywhere, no merge", [][2]float32{{0, 0}, {0, 1}, {1, 0}, {1, 1}}, false, 7, 0},
		{"everywhere, merged", [][2]float32{{0, 0}, {0, 1}, {1, 0}, {1, 1}}, true, 5, 0},
		{"left and one right leaf", [][2]float32{{0, 0}, {0, 1}, {1, 0.2}}, false, 5, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			full := handTree()
			var X []float32
			for _, o := range c.obs {
				X = append(X, o[0], o[1])
			}
			pr, err := PruneVisited(full, X, len(c.obs), c.merge)
			if err != nil {
				t.Fatal(err)
			}
			if err := pr.Validate(2); err != nil {
				t.Fatal(err)
			}
			if pr.NumNodes() != c.nodes || pr.Nodes[0].Feature != c.root {
				t.Fatalf("%d nodes, root tests %d; want %d nodes, root %d", pr.NumNodes(), pr.Nodes[0].Feature, c.nodes, c.root)
			}
			for _, o := range c.obs {
				a, _ := full.LeafOf(o[:])
				b, _ := pr.LeafOf(o[:])
				va, vb := full.Nodes[a].Value, pr.Nodes[b].Value
				if Argmax(va) != Argmax(vb) {
					t.Fatalf("x = %v: pruned acts %d, full %d", o, Argmax(vb), Argmax(va))
				}
				if !c.merge && (va[0] != vb[0] || va[1] != vb[1] || va[2] != vb[2]) {
					t.Fatalf("x = %v: pruned leaf %v, full %v", o, vb, va)
				}
			}
		})
	}
	if _, err := PruneVisited(handTree(), nil, 0, true); err == nil {
		t.Error("no observations: want an error")
	}
	if _, err := PruneVisited(handTree(), []float32{1, 2, 3}, 2, true); err == nil {
		t.Error("three values in two rows: want an error")
	}
}

// TestPruneVisitedGreedyEpisodes prunes random depth-6 tree actors with the
// observations of their greedy episodes on Empty-Random-6x6 from all 60
// starts (env.Visit): on every recorded observation the pruned tree takes
// the actor's greedy action, and replaying every episode with the pruned
// tree gives the actor's return.
func TestPruneVisitedGreedyEpisodes(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		e, _ := minigrid.New(minigrid.IDEmptyRandom6x6)
		F := e.Spec().Observation.Dim
		a, err := NewTreeActor(F, Dist{Discrete: true, A: 3}, 6, seed, 1)
		if err != nil {
			t.Fatal(err)
		}
		r := rng.New(uint32(seed))
		p := a.Kernel().Params()
		for k := range p.Thresholds {
			p.Thresholds[k] = float32(r.Float64())
		}
		for k := range p.Leaves {
			p.Leaves[k] = float32(r.NormFloat64())
		}
		a.Changed()
		out := make([]float32, 3)
		greedy := func(obs, action []float32) {
			if err := a.Predict(obs, 1, out); err != nil {
				t.Fatal(err)
			}
			action[0] = float32(Argmax(out))
		}
		v, err := env.Visit(e, 100, 5000, greedy)
		if err != nil {
			t.Fatal(err)
		}
		if !v.Complete() {
			t.Fatalf("seed %d: %s", seed, v)
		}
		full, _ := a.Plain()
		pr, err := PruneVisited(full, v.Obs, v.Rows, true)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < v.Rows; i++ {
			x := v.Obs[i*F : (i+1)*F]
			greedy(x, out[:1])
			l, _ := pr.LeafOf(x)
			if got := Argmax(pr.Nodes[l].Value); got != int(out[0]) {
				t.Fatalf("seed %d, row %d: pruned acts %d, actor %d", seed, i, got, int(out[0]))
			}
		}
		seeds := make([]uint64, v.Episodes)
		for i := range seeds {
			seeds[i] = v.FirstSeed + uint64(i)
		}
		want, _ := env.Evaluate(e, seeds, greedy)
		got, _ := env.Evaluate(e, seeds, func(obs, action []float32) {
			l, _ := pr.LeafOf(obs)
			action[0] = float32(Argmax(pr.Nodes[l].Value))
		})
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("seed %d, episode %d: pruned %+v, actor %+v", seed, i, got[i], want[i])
			}
		}
		rg, _ := a.Pruned(e.Spec().Observation.Low, e.Spec().Observation.High)
		t.Logf("seed %d: %s; %d nodes, ranges+merge %d, visited %d", seed, v, full.NumNodes(), rg.NumNodes(), pr.NumNodes())
	}
}
