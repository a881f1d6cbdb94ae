package gradtree

import (
	"fmt"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/interpret"
)

// prune prunes the trained tree with the training rows (spec §7.1,
// min_samples = 1) and writes the pruned tree back into the dense
// parameters, as the GT-paper code does: from then on the kernel and the
// plain tree route every input identically (a leaf that now sits above
// full depth becomes a chain of splits whose every branch ends in a copy of
// that leaf).
func (m *Model) prune(X *data.Matrix) error {
	pruned, err := interpret.Prune(m.kernel.Ensemble(), 0, X.Data, X.Rows, 1)
	if err != nil {
		return err
	}
	if err := m.writeBack(pruned); err != nil {
		return err
	}
	m.Ensemble, err = pruned.Ensemble(m.Features)
	return err
}

// writeBack encodes t in the dense parameters of the kernel.
func (m *Model) writeBack(t *interpret.Tree) error {
	p := m.kernel.Params()
	d, n, C := m.Config.Depth, m.Features, m.Outputs
	internal := 1<<d - 1
	var walk func(pos, node, depth int) error
	walk = func(pos, node, depth int) error {
		nd := &t.Nodes[node]
		if depth == d {
			if !nd.IsLeaf() {
				return fmt.Errorf("gradtree: pruned tree deeper than %d", d)
			}
			copy(p.Leaves[(pos-internal)*C:(pos-internal+1)*C], nd.Value)
			return nil
		}
		row := p.IndexLogits[pos*n : (pos+1)*n]
		clear(row)
		thr := p.Thresholds[pos*n : (pos+1)*n]
		if nd.IsLeaf() {
			row[0] = 1
			thr[0] = 0
			if err := walk(2*pos+1, node, depth+1); err != nil {
				return err
			}
			return walk(2*pos+2, node, depth+1)
		}
		row[nd.Feature] = 1
		thr[nd.Feature] = nd.Threshold
		if err := walk(2*pos+1, nd.Left, depth+1); err != nil {
			return err
		}
		return walk(2*pos+2, nd.Right, depth+1)
	}
	if err := walk(0, 0, 0); err != nil {
		return err
	}
	m.Params = *p
	return nil
}

// PlainTree returns the tree the model predicts with: its trained form
// (the pruned tree, or with NoPrune the full tree) as a plain tree.
func (m *Model) PlainTree() (*interpret.Tree, error) {
	p, err := m.predictor()
	if err != nil {
		return nil, err
	}
	return interpret.FromEnsemble(p.Ensemble(), 0)
}
