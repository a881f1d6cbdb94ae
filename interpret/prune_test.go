package interpret

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/ensemble"
	"github.com/gdt-ml/gdt/rng"
	"github.com/gdt-ml/gdt/tree"
)

// fullTree builds a full tree of the given depth from BFS features,
// thresholds and leaf values (one output).
func fullTree(t *testing.T, depth int, feat []int, thr []float32, leaves []float32, weights []float32) *Tree {
	t.Helper()
	tr, err := fromComplete(depth, 1, feat, thr, leaves, weights)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// fromComplete builds one complete tree of the given depth (a trained
// form with one tree, ensemble.NewComplete) from breadth-first features,
// thresholds, leaf values and optional leaf weights, and converts it.
func fromComplete(depth, outputs int, feat []int, thr, values, weights []float32) (*Tree, error) {
	w := ensemble.Mean
	if weights != nil {
		w = ensemble.LeafWeights
	}
	features := 1
	for _, f := range feat {
		features = max(features, f+1)
	}
	ni := 1<<depth - 1
	if len(feat) != ni || len(thr) != ni || len(values) != (ni+1)*outputs || (weights != nil && len(weights) != ni+1) {
		return nil, fmt.Errorf("fromComplete: %d features, %d thresholds, %d values, %d weights for depth %d", len(feat), len(thr), len(values), len(weights), depth)
	}
	m := ensemble.NewComplete(features, outputs, 1, depth, w)
	for i := 0; i < ni; i++ {
		m.Feature[i], m.Threshold[i] = int32(feat[i]), thr[i]
	}
	copy(m.Value[ni*outputs:], values)
	if weights != nil {
		copy(m.LeafWeight[ni:], weights)
	}
	return FromEnsemble(m, 0)
}

// rowsOf flattens rows of equal width.
func rowsOf(rows ...[]float32) ([]float32, int) {
	var X []float32
	for _, r := range rows {
		X = append(X, r...)
	}
	return X, len(rows)
}

// shape is a compact description of a node for table tests.
type shape struct {
	feature   int
	threshold float32
	left      int
	right     int
	value     float32 // leaves
	count     int
	depth     int
	origin    int
}

func shapeOf(tr *Tree) []shape {
	s := make([]shape, len(tr.Nodes))
	for i, n := range tr.Nodes {
		s[i] = shape{n.Feature, n.Threshold, n.Left, n.Right, 0, n.Count, n.Depth, n.Origin}
		if n.IsLeaf() {
			s[i].value = n.Value[0]
		}
	}
	return s
}

func leaf(v float32, count, depth, origin int) shape {
	return shape{-1, 0, -1, -1, v, count, depth, origin}
}

func TestPruneByHand(t *testing.T) {
	// depth 2 on one feature: root x<0, node 1 x<−1, node 2 x<1; leaves 10…13
	d2 := func() *Tree {
		return fullTree(t, 2, []int{0, 0, 0}, []float32{0, -1, 1}, []float32{10, 11, 12, 13}, nil)
	}
	// depth 3 on three features: root f0<0, level 1 f1<0, level 2 f2<0;
	// leaves 100…107
	d3 := func() *Tree {
		return fullTree(t, 3, []int{0, 1, 1, 2, 2, 2, 2}, make([]float32, 7), []float32{100, 101, 102, 103, 104, 105, 106, 107}, nil)
	}
	row := func(v ...float32) []float32 { return v }
	A, B, C, D := row(1, -1, -1), row(1, -1, 1), row(1, 1, -1), row(1, 1, 1)
	cases := []struct {
		name string
		tree *Tree
		rows [][]float32
		min  float64
		want []shape
	}{
		{"no empty branch", d2(), [][]float32{{-2}, {-0.5}, {0.5}, {2}}, 1, []shape{
			{0, 0, 1, 2, 0, 4, 0, 0}, {0, -1, 3, 4, 0, 2, 1, 1}, {0, 1, 5, 6, 0, 2, 1, 2},
			leaf(10, 1, 2, 3), leaf(11, 1, 2, 4), leaf(12, 1, 2, 5), leaf(13, 1, 2, 6)}},
		{"one side empty: node becomes the other leaf", d2(), [][]float32{{-2}, {2}}, 1, []shape{
			{0, 0, 1, 2, 0, 2, 0, 0}, leaf(10, 1, 1, 3), leaf(13, 1, 1, 6)}},
		{"both empty: merged, then dropped", d2(), [][]float32{{2}, {3}}, 1, []shape{
			leaf(13, 2, 0, 6)}},
		{"tie goes right", fullTree(t, 1, []int{0}, []float32{0}, []float32{10, 11}, nil), [][]float32{{0}}, 1, []shape{
			leaf(11, 1, 0, 2)}},
		{"root takes over its right child's split", d3(), [][]float32{A, C, D}, 1, []shape{
			{1, 0, 1, 2, 0, 3, 0, 2}, leaf(104, 1, 1, 11), {2, 0, 3, 4, 0, 2, 1, 6},
			leaf(106, 1, 2, 13), leaf(107, 1, 2, 14)}},
		{"min 2: counts recomputed after a take-over", d3(), [][]float32{{-1, -1, -1}, A, A, B, B, C, C, D, D}, 2, []shape{
			{1, 0, 1, 2, 0, 9, 0, 2}, {2, 0, 3, 4, 0, 5, 1, 5}, {2, 0, 5, 6, 0, 4, 1, 6},
			leaf(104, 3, 2, 11), leaf(105, 2, 2, 12), leaf(106, 2, 2, 13), leaf(107, 2, 2, 14)}},
		{"fraction: 0.5 of 4 rows = 2", d2(), [][]float32{{-2}, {-1.5}, {0.5}, {2}}, 0.5, []shape{
			{0, 0, 1, 2, 0, 4, 0, 0}, leaf(10, 2, 1, 3), leaf(12.5, 2, 1, 2)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			X, n := rowsOf(c.rows...)
			p, err := c.tree.Prune(X, n, c.min)
			if err != nil {
				t.Fatal(err)
			}
			if got := shapeOf(p); !reflect.DeepEqual(got, c.want) {
				t.Errorf("pruned tree\n got %v\nwant %v", got, c.want)
			}
			if !p.Counted {
				t.Error("pruned tree not marked Counted")
			}
			if err := p.Validate(len(c.rows[0])); err != nil {
				t.Error(err)
			}
			in, lv := p.Size()
			if in+lv != len(c.want) || lv != in+1 {
				t.Errorf("Size() = %d, %d for %d nodes", in, lv, len(c.want))
			}
		})
	}
}

// A merged leaf holds the mean of the two leaf vectors and weights.
func TestPruneMergeValuesAndWeights(t *testing.T) {
	tr, err := fromComplete(1, 2, []int{0}, []float32{0}, []float32{1, 2, 3, 6}, []float32{1, 3})
	if err != nil {
		t.Fatal(err)
	}
	// one row, min 5: both children below min → one merged leaf
	p, err := tr.Prune([]float32{-1}, 1, 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Nodes) != 1 {
		t.Fatalf("got %d nodes, want 1", len(p.Nodes))
	}
	n := p.Nodes[0]
	if !reflect.DeepEqual(n.Value, []float32{2, 4}) || n.Weight != 2 || n.Count != 1 || n.Origin != 0 || !p.Weighted {
		t.Errorf("merged leaf = %+v, want value [2 4], weight 2, count 1, origin 0", n)
	}
	// the original is untouched
	if len(tr.Nodes) != 3 || tr.Counted {
		t.Error("Prune modified its receiver")
	}
}

func TestPruneErrors(t *testing.T) {
	tr := fullTree(t, 1, []int{2}, []float32{0}, []float32{1, 2}, nil)
	cases := []struct {
		name string
		X    []float32
		rows int
		min  float64
		want string
	}{
		{"no rows", nil, 0, 1, "at least 1 training row"},
		{"ragged", []float32{1, 2, 3, 4}, 3, 1, "X has 4 values"},
		{"feature outside rows", []float32{1, 2}, 1, 1, "tests feature 2"},
		{"min zero", []float32{1, 2, 3}, 1, 0, "minSamples"},
		{"min NaN", []float32{1, 2, 3}, 1, math.NaN(), "minSamples"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := tr.Prune(c.X, c.rows, c.min)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

// randomRows returns rows×n standard normal values rounded to a grid of
// 1/8 (so that ties with data-aware thresholds occur).
func randomRows(seed uint32, rows, n int) []float32 {
	r := rng.New(seed)
	X := make([]float32, rows*n)
	for i := range X {
		X[i] = float32(math.Round(r.NormFloat64()*8) / 8)
	}
	return X
}

// TestPrunedEqualsKernelOnTrainingRows is the "no information loss"
// contract: on every training row the pruned tree's output equals the
// dense kernel's bit for bit; rows outside the training data may differ
// only where they enter a branch no training row reached.
func TestPrunedEqualsKernelOnTrainingRows(t *testing.T) {
	differ := 0
	for depth := 1; depth <= 8; depth++ {
		for seed := uint64(1); seed <= 4; seed++ {
			n, C := 5, 1+int(seed%3)
			rows := 20 + int(seed)*15*depth
			X := randomRows(uint32(seed*100)+uint32(depth), rows, n)
			k, err := tree.New(tree.Config{Trees: 1, Depth: depth, Features: n, Outputs: C, Split: tree.Sigmoid})
			if err != nil {
				t.Fatal(err)
			}
			switch seed % 3 {
			case 0:
				err = k.Init(tree.InitGlorot, seed)
			case 1:
				err = k.InitDataAware(X, rows, seed) // thresholds equal to data values: ties
			default:
				err = k.Init(tree.InitNormal, seed)
			}
			if err != nil {
				t.Fatal(err)
			}
			k.Prepare()
			out := make([]float32, rows*C)
			if err := k.Predict(k.NewWorkspace(), X, rows, out); err != nil {
				t.Fatal(err)
			}
			full, err := FromKernel(k, 0)
			if err != nil {
				t.Fatal(err)
			}
			p, err := full.Prune(X, rows, 1)
			if err != nil {
				t.Fatal(err)
			}
			if depth >= 6 && seed == 1 {
				in, lv := p.Size()
				t.Logf("depth %d, %d rows: pruned to %d internal + %d leaves", depth, rows, in, lv)
			}
			for r := 0; r < rows; r++ {
				got := predictOf(p, X[r*n:(r+1)*n])
				for c := 0; c < C; c++ {
					if math.Float32bits(got[c]) != math.Float32bits(out[r*C+c]) {
						t.Fatalf("depth %d seed %d row %d output %d: pruned %v, kernel %v", depth, seed, r, c, got[c], out[r*C+c])
					}
				}
			}
			// every surviving node is reached by a training row; the
			// counts add up
			for i, nd := range p.Nodes {
				if nd.Count < 1 {
					t.Fatalf("depth %d seed %d: node %d has count %d", depth, seed, i, nd.Count)
				}
				if !nd.IsLeaf() && p.Nodes[nd.Left].Count+p.Nodes[nd.Right].Count != nd.Count {
					t.Fatalf("depth %d seed %d: node %d count %d ≠ %d + %d", depth, seed, i, nd.Count, p.Nodes[nd.Left].Count, p.Nodes[nd.Right].Count)
				}
			}
			if err := full.CountRows(X, rows); err != nil {
				t.Fatal(err)
			}
			// new rows: identical unless their path in the full tree
			// enters an empty node
			test := randomRows(uint32(seed*100)+uint32(depth)+50, 200, n)
			for r := 0; r < 200; r++ {
				x := test[r*n : (r+1)*n]
				empty := false
				for _, i := range pathOf(full, x) {
					empty = empty || full.Nodes[i].Count == 0
				}
				a, b := predictOf(p, x), predictOf(full, x)
				same := reflect.DeepEqual(a, b)
				if !empty && !same {
					t.Fatalf("depth %d seed %d test row %d: non-empty path but pruned %v ≠ full %v", depth, seed, r, a, b)
				}
				if !same {
					differ++
				}
			}
		}
	}
	t.Logf("%d test rows entered emptied branches", differ)
	if differ == 0 {
		t.Error("no test row reached an emptied branch: the test does not exercise the difference")
	}
}

// GRANDE trees: pruned per tree on feature subsets with leaf weights; the
// pruned leaf (value and weight) equals the kernel's route on training rows.
func TestPrunedEnsembleTrees(t *testing.T) {
	const n, E, depth, rows = 8, 6, 4, 60
	subsets := make([][]int, E)
	for e := range subsets {
		subsets[e] = []int{e % n, (e + 2) % n, (e + 5) % n}
	}
	k, err := tree.New(tree.Config{Trees: E, Depth: depth, Features: n, Outputs: 1, Subsets: subsets, Split: tree.Softsign, Weights: tree.LeafWeights})
	if err != nil {
		t.Fatal(err)
	}
	X := randomRows(7, rows, n)
	if err := k.InitDataAware(X, rows, 3); err != nil {
		t.Fatal(err)
	}
	k.Prepare()
	leaves := make([]int32, rows*E)
	if err := k.Route(k.NewWorkspace(), X, rows, leaves); err != nil {
		t.Fatal(err)
	}
	m := k.Ensemble()
	for e := 0; e < E; e++ {
		full, err := FromEnsemble(m, e)
		if err != nil {
			t.Fatal(err)
		}
		p, err := full.Prune(X, rows, 1)
		if err != nil {
			t.Fatal(err)
		}
		for r := 0; r < rows; r++ {
			l := int(leaves[r*E+e])
			nd := p.Nodes[leafOf(p, X[r*n:(r+1)*n])]
			kn := int(m.Roots[e]) + (1<<depth - 1) + l
			if nd.Value[0] != m.Value[kn] || nd.Weight != m.LeafWeight[kn] || nd.Origin != (1<<depth)-1+l {
				t.Fatalf("tree %d row %d: pruned leaf %+v, kernel leaf %d (value %v, weight %v)", e, r, nd, l, m.Value[kn], m.LeafWeight[kn])
			}
		}
	}
}

func TestFromEnsembleAndValidate(t *testing.T) {
	m := ensemble.NewComplete(2, 1, 2, 2, ensemble.Mean)
	copy(m.Feature, []int32{0, 1, 0, -1, -1, -1, -1, 1, 0, 0})
	copy(m.Threshold, []float32{0, 1, 2, 0, 0, 0, 0, 3, 4, 5})
	copy(m.Value, []float32{0, 0, 0, 1, 2, 3, 4, 0, 0, 0, 5, 6, 7, 8})
	if err := m.Validate(2); err != nil {
		t.Fatal(err)
	}
	tr, err := FromEnsemble(m, 0)
	if err != nil {
		t.Fatal(err)
	}
	tr1, err := FromEnsemble(m, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range [][]float32{{-1, 0}, {-1, 1}, {0, 0}, {2, 0}, {9, 9}} {
		for e, tr := range []*Tree{tr, tr1} {
			if got, want := leafOf(tr, x), m.Leaf(e, x)-int(m.Roots[e]); got != want {
				t.Errorf("tree %d row %d: Leaf = %d, want %d", e, i, got, want)
			}
			if got, want := predictOf(tr, x)[0], m.LeafValue(m.Leaf(e, x))[0]; got != want {
				t.Errorf("tree %d row %d: Predict = %v, want %v", e, i, got, want)
			}
		}
	}
	if d := tr.Depth(); d != 2 {
		t.Errorf("Depth = %d", d)
	}
	for _, c := range []struct {
		m    *ensemble.Ensemble
		tree int
	}{{nil, 0}, {m, 2}, {m, -1}} {
		if _, err := FromEnsemble(c.m, c.tree); err == nil || !strings.Contains(err.Error(), "no tree") {
			t.Errorf("tree %d: error %v, want no tree", c.tree, err)
		}
	}
	if _, err := fromComplete(1, 1, []int{-1}, []float32{0}, []float32{1, 2}, nil); err == nil {
		t.Error("a negative feature was accepted")
	}
	broken := tr.Clone()
	broken.Nodes[1].Left = 0
	if err := broken.Validate(0); err == nil {
		t.Error("Validate accepted a cycle")
	}
	broken = tr.Clone()
	broken.Nodes[4].Value = nil
	if err := broken.Validate(0); err == nil {
		t.Error("Validate accepted a leaf without values")
	}
	broken = tr.Clone()
	broken.Nodes[2].Right = 5
	if err := broken.Validate(0); err == nil {
		t.Error("Validate accepted a node with two parents")
	}
}

// BenchmarkPrune prunes a depth-10 tree with 100 000 training rows.
func BenchmarkPrune(b *testing.B) {
	const rows, n, depth = 100000, 10, 10
	X := randomRows(1, rows, n)
	k, err := tree.New(tree.Config{Trees: 1, Depth: depth, Features: n, Outputs: 1})
	if err != nil {
		b.Fatal(err)
	}
	if err := k.InitDataAware(X, rows, 1); err != nil {
		b.Fatal(err)
	}
	full, err := FromKernel(k, 0)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if _, err := full.Prune(X, rows, 1); err != nil {
			b.Fatal(err)
		}
	}
}
