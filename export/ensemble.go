package export

import (
	"fmt"
	"math"
	"sort"

	"github.com/gdt-ml/gdt/interpret"
)

// TreeShare is one tree of an ensemble and its instance-wise weight.
type TreeShare struct {
	Index int
	Share float64
}

// Shares returns GRANDE's instance-wise tree weights a(x) for one
// model-space row x, with the model's operations (grande.Flat.Predict):
// the softmax across the trees of the reached leaves' weight logits (or of
// the per-tree logits), in float64.
func (p *Plain) Shares(x []float32) ([]float64, error) {
	f := p.Ensemble
	if f == nil {
		return nil, fmt.Errorf("export: %s is not an ensemble", p.Kind)
	}
	if len(x) != p.Features {
		return nil, fmt.Errorf("export: a row of %d values for %d features", len(x), p.Features)
	}
	E := f.Trees
	ni, nl := 1<<f.Depth-1, 1<<f.Depth
	a := make([]float64, E)
	for e := 0; e < E; e++ {
		if f.Weighting == "estimator" {
			a[e] = float64(f.Weights[e])
			continue
		}
		a[e] = float64(f.Weights[e*nl+p.EnsembleLeaf(e, x)-ni])
	}
	mx := math.Inf(-1)
	for _, v := range a {
		mx = math.Max(mx, v)
	}
	var sum float64
	for e, v := range a {
		a[e] = math.Exp(v - mx)
		sum += a[e]
	}
	for e := range a {
		a[e] /= sum
	}
	return a, nil
}

// EnsembleLeaf returns the node (breadth-first index, leaves from 2^d − 1)
// that row x reaches in ensemble tree e.
func (p *Plain) EnsembleLeaf(e int, x []float32) int {
	f := p.Ensemble
	ni := 1<<f.Depth - 1
	node := 0
	for d := 0; d < f.Depth; d++ {
		j := e*ni + node
		if x[f.Feature[j]] < f.Threshold[j] {
			node = 2*node + 1
		} else {
			node = 2*node + 2
		}
	}
	return node
}

// TopTrees returns the k trees with the largest shares for row x,
// largest first (ties: lower index first).
func (p *Plain) TopTrees(x []float32, k int) ([]TreeShare, error) {
	a, err := p.Shares(x)
	if err != nil {
		return nil, err
	}
	order := make([]int, len(a))
	for e := range order {
		order[e] = e
	}
	sort.SliceStable(order, func(i, j int) bool { return a[order[i]] > a[order[j]] })
	out := make([]TreeShare, 0, min(k, len(a)))
	for _, e := range order[:min(k, len(a))] {
		out = append(out, TreeShare{Index: e, Share: a[e]})
	}
	return out, nil
}

// EnsembleTree returns ensemble tree e as a full plain tree (kernel
// numbering: children of i are 2i+1 and 2i+2) with its leaf weights.
func (p *Plain) EnsembleTree(e int) (*interpret.Tree, error) {
	f := p.Ensemble
	if f == nil || e < 0 || e >= f.Trees {
		return nil, fmt.Errorf("export: no ensemble tree %d", e)
	}
	ni, nl, C := 1<<f.Depth-1, 1<<f.Depth, f.Outputs
	t := &interpret.Tree{Outputs: C, Weighted: true, Nodes: make([]interpret.Node, ni+nl)}
	depth := 0
	for i := range t.Nodes {
		if i+1 >= 1<<(depth+1) {
			depth++
		}
		n := &t.Nodes[i]
		n.Depth, n.Origin = depth, i
		if i < ni {
			n.Feature, n.Threshold, n.Left, n.Right = int(f.Feature[e*ni+i]), f.Threshold[e*ni+i], 2*i+1, 2*i+2
			continue
		}
		l := i - ni
		n.Feature, n.Left, n.Right = -1, -1, -1
		n.Value = append([]float32(nil), f.Leaves[(e*nl+l)*C:(e*nl+l+1)*C]...)
		if f.Weighting == "estimator" {
			n.Weight = f.Weights[e]
		} else {
			n.Weight = f.Weights[e*nl+l]
		}
	}
	return t, t.Validate(p.Features)
}
