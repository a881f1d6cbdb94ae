package export

import (
	"fmt"
	"sort"

	"github.com/gdt-ml/gdt/interpret"
)

// TreeShare is one tree of an ensemble and its instance-wise weight.
type TreeShare struct {
	Index int
	Share float64
}

// Shares returns GRANDE's instance-wise tree weights a(x) for one
// model-space row x (ensemble.Ensemble.Shares).
func (p *Plain) Shares(x []float32) ([]float64, error) {
	f := p.Ensemble
	if f == nil {
		return nil, fmt.Errorf("export: %s is not an ensemble", p.Kind)
	}
	if len(x) != p.Features {
		return nil, fmt.Errorf("export: a row of %d values for %d features", len(x), p.Features)
	}
	a := make([]float64, f.Trees())
	return a, f.Shares(x, a)
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

// EnsembleTree returns ensemble tree e as a plain tree
// (interpret.FromEnsemble: for GRANDE the kernel numbering, children of i
// are 2i+1 and 2i+2) with its leaf weights.
func (p *Plain) EnsembleTree(e int) (*interpret.Tree, error) {
	if p.Ensemble == nil {
		return nil, fmt.Errorf("export: no ensemble tree %d", e)
	}
	t, err := interpret.FromEnsemble(p.Ensemble, e)
	if err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	return t, nil
}
