package interpret

import (
	"fmt"
	"math"

	"github.com/gdt-ml/gdt/ensemble"
)

// Prune returns tree t of the trained form m pruned with the training rows
// X ([rows][m.Features] row-major, model space), as a display tree (spec
// §7.1, the published GradTree code): the rows are routed down the tree
// (ensemble routing, the models' one rule); then, in post-order, an
// internal node whose children are both reached by fewer than minSamples
// rows becomes a leaf holding the mean of the two leaf vectors (and of the
// two leaf weights); a node with only one child below minSamples is
// replaced by the other child (its leaf, or its split with both subtrees);
// after every change the rows reaching the node are routed again. Nodes
// are then renumbered breadth first, every Count holds the number of
// training rows reaching the node and Origin the node of tree t (numbered
// from its root) whose split or leaf it carries.
//
// minSamples ≥ 1 is a row count; 0 < minSamples < 1 a fraction of the rows
// (max(1, rows·minSamples)), as in the reference. The published runs use 1.
//
// Rows are routed with the models' rule (left iff x < τ), not the
// reference pruning code's "x ≤ τ", which differs only on exact equality
// and would break the guarantee: with minSamples ≤ 1 only branches no
// training row reaches are removed, so the pruned tree's output on every
// training row equals the unpruned tree's bit for bit. A row outside the
// training data that would have entered a removed branch now follows the
// surviving sibling, as in the reference, whose test predictions are made
// with the pruned tree.
func Prune(m *ensemble.Ensemble, t int, X []float32, rows int, minSamples float64) (*Tree, error) {
	if m == nil || t < 0 || t >= m.Trees() {
		return nil, fmt.Errorf("interpret: Prune: no tree %d", t)
	}
	if err := m.Validate(0); err != nil {
		return nil, fmt.Errorf("interpret: Prune: %w", err)
	}
	w := m.Tree(t)
	lo, hi := m.Span(t)
	origin := make([]int, hi-lo)
	for i := range origin {
		origin[i] = i
	}
	return prune(w, origin, X, rows, minSamples)
}

// Prune prunes the display tree t as the function Prune prunes a tree of
// a trained form (t.Ensemble; Origin is carried over from t's nodes).
func (t *Tree) Prune(X []float32, rows int, minSamples float64) (*Tree, error) {
	n, err := t.checkData("Prune", X, rows)
	if err != nil {
		return nil, err
	}
	w, err := t.Ensemble(n)
	if err != nil {
		return nil, err
	}
	origin := make([]int, len(t.Nodes))
	for i := range origin {
		origin[i] = t.Nodes[i].Origin
	}
	return prune(w, origin, X, rows, minSamples)
}

// prune prunes the one-tree ensemble w in place (its nodes keep their
// numbers; removed ones are left unreached) and returns the reachable part
// as a display tree. origin[n] is the Origin of node n.
func prune(w *ensemble.Ensemble, origin []int, X []float32, rows int, minSamples float64) (*Tree, error) {
	if rows < 1 {
		return nil, fmt.Errorf("interpret: Prune: %d rows: expected at least 1 training row", rows)
	}
	if len(X) != rows*w.Features {
		return nil, fmt.Errorf("interpret: Prune: X has %d values: expected rows (%d) × features (%d)", len(X), rows, w.Features)
	}
	if !(minSamples > 0) || math.IsInf(minSamples, 1) {
		return nil, fmt.Errorf("interpret: Prune: minSamples = %v: expected a row count ≥ 1 or a fraction in (0, 1)", minSamples)
	}
	if minSamples < 1 {
		minSamples = math.Max(1, float64(rows)*minSamples)
	}
	pr := pruner{w: w, X: X, min: minSamples, origin: origin, reach: make([][]int32, w.Nodes())}
	all := make([]int32, rows)
	for i := range all {
		all[i] = int32(i)
	}
	pr.route(0, all)
	pr.prune(0)
	return pr.flatten(), nil
}

// pruner holds a one-tree ensemble being pruned and, for every node, the
// training rows that reach it.
type pruner struct {
	w      *ensemble.Ensemble
	X      []float32
	min    float64
	origin []int
	reach  [][]int32
}

// route sets the rows reaching the nodes of the subtree at node n from the
// rows idx that reach n: every row is routed from the root by the
// ensemble (the nodes above n have not changed, so its path passes n).
func (pr *pruner) route(n int, idx []int32) {
	idx = append([]int32(nil), idx...)
	stack := []int{n}
	for len(stack) > 0 {
		k := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		pr.reach[k] = pr.reach[k][:0]
		if !pr.w.IsLeaf(k) {
			stack = append(stack, int(pr.w.Left[k]), int(pr.w.Right[k]))
		}
	}
	F := pr.w.Features
	for _, r := range idx {
		path := pr.w.Path(0, pr.X[int(r)*F:(int(r)+1)*F])
		k := 0
		for path[k] != n {
			k++
		}
		for _, q := range path[k:] {
			pr.reach[q] = append(pr.reach[q], r)
		}
	}
}

// prune prunes the subtree at node p in post-order. Nodes above p do not
// change while p's subtree is pruned, so the rows reaching p stay the
// same; a change at p alters the rows reaching nodes of p's subtree only,
// which are routed again.
func (pr *pruner) prune(p int) {
	w := pr.w
	if w.IsLeaf(p) {
		return
	}
	pr.prune(int(w.Left[p]))
	pr.prune(int(w.Right[p]))
	l, r := int(w.Left[p]), int(w.Right[p])
	lowL := float64(len(pr.reach[l])) < pr.min
	lowR := float64(len(pr.reach[r])) < pr.min
	switch {
	case lowL && lowR:
		// A subtree reached by fewer than min rows has collapsed into a
		// leaf by now (each of its children is below min as well).
		if !w.IsLeaf(l) || !w.IsLeaf(r) {
			return // unreachable; the reference also leaves the node alone
		}
		v, lv, rv := w.LeafValue(p), w.LeafValue(l), w.LeafValue(r)
		for c := range v {
			v[c] = (lv[c] + rv[c]) / 2
		}
		if w.LeafWeight != nil {
			w.LeafWeight[p] = (w.LeafWeight[l] + w.LeafWeight[r]) / 2
		}
		w.Feature[p], w.Threshold[p], w.Left[p], w.Right[p] = -1, 0, -1, -1
	case lowL:
		pr.replaceBy(p, r)
	case lowR:
		pr.replaceBy(p, l)
	default:
		return
	}
	pr.route(p, pr.reach[p])
}

// replaceBy makes node p a copy of its child c (c's leaf, or c's split
// with c's children).
func (pr *pruner) replaceBy(p, c int) {
	w := pr.w
	w.Feature[p], w.Threshold[p], w.Left[p], w.Right[p] = w.Feature[c], w.Threshold[c], w.Left[c], w.Right[c]
	copy(w.LeafValue(p), w.LeafValue(c))
	if w.LeafWeight != nil {
		w.LeafWeight[p] = w.LeafWeight[c]
	}
	pr.origin[p] = pr.origin[c]
}

// flatten returns the nodes reachable from the root, numbered breadth
// first, as a display tree with counts.
func (pr *pruner) flatten() *Tree {
	w := pr.w
	t := &Tree{Outputs: w.Outputs, Weighted: w.Weighting != ensemble.Mean, Counted: true}
	queue := []int{0}
	depth := []int{0}
	for q := 0; q < len(queue); q++ {
		k := queue[q]
		n := Node{Feature: -1, Left: -1, Right: -1, Count: len(pr.reach[k]), Depth: depth[q], Origin: pr.origin[k]}
		if w.IsLeaf(k) {
			n.Value = append([]float32(nil), w.LeafValue(k)...)
			if t.Weighted {
				n.Weight = w.LeafWeight[k]
			}
		} else {
			n.Feature, n.Threshold = int(w.Feature[k]), w.Threshold[k]
			n.Left, n.Right = len(queue), len(queue)+1
			queue = append(queue, int(w.Left[k]), int(w.Right[k]))
			depth = append(depth, depth[q]+1, depth[q]+1)
		}
		t.Nodes = append(t.Nodes, n)
	}
	return t
}
