package policy

import (
	"fmt"
	"math"

	"github.com/gdt-ml/gdt/ensemble"
	"github.com/gdt-ml/gdt/interpret"
)

// Ensemble returns the actor's trained form (package ensemble): one
// complete tree stored breadth first whose leaves hold the action logits
// (discrete) or action means (continuous). It routes every observation
// exactly as the actor does.
func (t *TreeActor) Ensemble() *ensemble.Ensemble { return t.k.Ensemble() }

// Plain returns the actor's tree as a plain decision tree (interpret.Tree
// of its trained form, the kernel's breadth-first numbering): it routes
// every observation exactly as the actor does, so its greedy action is
// the actor's.
func (t *TreeActor) Plain() (*interpret.Tree, error) {
	return interpret.FromEnsemble(t.Ensemble(), 0)
}

// Pruned returns the actor's tree pruned with the observation-space bounds
// low and high (spec §1.7; nil or infinite bounds do not prune); see
// PruneRanges. Discrete heads also merge sibling leaves with the same greedy
// action.
func (t *TreeActor) Pruned(low, high []float32) (*interpret.Tree, error) {
	p, err := t.Plain()
	if err != nil {
		return nil, err
	}
	return PruneRanges(p, low, high, t.dist.Discrete)
}

// PruneVisited prunes a plain tree without changing the leaf it reaches on
// any of the observations obs (rows × features, row-major; env.Visits):
// a split one side of which no observation reaches is replaced by its other
// side (interpret.Tree.Prune with one row), then PruneRanges' ancestor rule
// and, with mergeSame (discrete actions), its merge of sibling leaves with
// the same greedy action. On every row of obs the pruned tree reaches a
// leaf with the same values as before (with mergeSame, the same greedy
// action); elsewhere it may act differently. The result is renumbered
// breadth first.
func PruneVisited(t *interpret.Tree, obs []float32, rows int, mergeSame bool) (*interpret.Tree, error) {
	if t == nil || len(t.Nodes) == 0 {
		return nil, fmt.Errorf("policy: PruneVisited: empty tree")
	}
	r, err := t.Prune(obs, rows, 1)
	if err != nil {
		return nil, fmt.Errorf("policy: PruneVisited: %w", err)
	}
	return PruneRanges(r, nil, nil, mergeSame)
}

// PruneRanges prunes a plain tree without changing the action it takes on
// any observation inside the box [low, high] (spec §1.7):
//
//   - a node whose threshold τ ≤ low[f] always sends observations right and
//     is replaced by its right subtree; τ > high[f] always left;
//   - a node whose test is decided by an ancestor's test of the same feature
//     (the path already implies x < hi ≤ τ, or x ≥ lo ≥ τ) is replaced by the
//     subtree the path must take;
//   - with mergeSame (discrete actions), a node whose two children are leaves
//     with the same arg-max action is replaced by its left leaf, bottom-up.
//
// The rules are the reference's with the models' strict "x < τ" routing, so
// the pruned tree is exact: for every observation in the box it reaches a
// leaf with the same values as before (the same values, or with mergeSame
// the same greedy action). low and high may be nil (no range rule).
// The result is renumbered breadth first.
func PruneRanges(t *interpret.Tree, low, high []float32, mergeSame bool) (*interpret.Tree, error) {
	if t == nil || len(t.Nodes) == 0 {
		return nil, fmt.Errorf("policy: PruneRanges: empty tree")
	}
	maxF := 0
	for _, n := range t.Nodes {
		if n.Feature+1 > maxF {
			maxF = n.Feature + 1
		}
	}
	if low != nil && len(low) < maxF || high != nil && len(high) < maxF {
		return nil, fmt.Errorf("policy: PruneRanges: bounds for %d/%d features, the tree tests feature %d", len(low), len(high), maxF-1)
	}
	lo := make([]float64, maxF)
	hi := make([]float64, maxF)
	for i := range lo {
		lo[i], hi[i] = math.Inf(-1), math.Inf(1)
	}
	type pnode struct {
		src         int
		left, right *pnode
	}
	var rec func(i int) *pnode
	rec = func(i int) *pnode {
		n := &t.Nodes[i]
		if n.IsLeaf() {
			return &pnode{src: i}
		}
		f, tau := n.Feature, float64(n.Threshold)
		switch {
		case low != nil && tau <= float64(low[f]):
			return rec(n.Right)
		case high != nil && tau > float64(high[f]):
			return rec(n.Left)
		case tau <= lo[f]:
			return rec(n.Right)
		case tau >= hi[f]:
			return rec(n.Left)
		}
		old := hi[f]
		hi[f] = math.Min(tau, old)
		l := rec(n.Left)
		hi[f] = old
		old = lo[f]
		lo[f] = math.Max(tau, old)
		r := rec(n.Right)
		lo[f] = old
		if mergeSame && l.left == nil && r.left == nil &&
			Argmax(t.Nodes[l.src].Value) == Argmax(t.Nodes[r.src].Value) {
			return l
		}
		return &pnode{src: i, left: l, right: r}
	}
	root := rec(0)
	out := &interpret.Tree{Outputs: t.Outputs, Weighted: t.Weighted}
	type item struct {
		p     *pnode
		depth int
	}
	queue := []item{{root, 0}}
	for h := 0; h < len(queue); h++ {
		it := queue[h]
		n := t.Nodes[it.p.src]
		n.Depth = it.depth
		n.Count = 0
		if it.p.left == nil {
			n.Feature, n.Left, n.Right = -1, -1, -1
			n.Value = append([]float32(nil), n.Value...)
		} else {
			n.Left = len(queue)
			queue = append(queue, item{it.p.left, it.depth + 1})
			n.Right = len(queue)
			queue = append(queue, item{it.p.right, it.depth + 1})
		}
		out.Nodes = append(out.Nodes, n)
	}
	return out, nil
}
