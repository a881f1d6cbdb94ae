package interpret

import (
	"fmt"
	"math"

	"github.com/gdt-ml/gdt/ensemble"
	"github.com/gdt-ml/gdt/tree"
)

// Node is one node of a plain tree. An internal node's row x goes to Left
// iff x[Feature] < Threshold (the models' rule, package ensemble, which
// alone routes rows), else to Right. A leaf has Feature = Left = Right =
// −1 and holds the raw leaf output Value.
type Node struct {
	// Feature is the model-space column an internal node tests, −1 at a
	// leaf.
	Feature int `json:"feature"`
	// Threshold is the model-space threshold of an internal node.
	Threshold float32 `json:"threshold"`
	// Left and Right are the children's node indices, −1 at a leaf.
	Left  int `json:"left"`
	Right int `json:"right"`
	// Value is a leaf's raw output: one logit (binary), C logits
	// (multiclass) or the value(s) in standardised target units
	// (regression). Nil at an internal node.
	Value []float32 `json:"value,omitempty"`
	// Weight is a leaf's weight logit W (GRANDE's instance-wise weights);
	// meaningful only when Tree.Weighted.
	Weight float32 `json:"weight,omitempty"`
	// Count is the number of training rows that reach the node; valid
	// only when Tree.Counted.
	Count int `json:"count"`
	// Depth is the node's depth (root 0).
	Depth int `json:"depth"`
	// Origin is the breadth-first index, in the full tree the kernel
	// trained (internal nodes 0…2^d−2, leaf l at 2^d−1+l), of the node
	// whose split or leaf this node carries. A leaf made by merging two
	// empty leaves carries its former parent's index.
	Origin int `json:"origin"`
}

// IsLeaf reports whether n is a leaf.
func (n *Node) IsLeaf() bool { return n.Feature < 0 }

// Tree is a display tree: one tree of a trained form (package ensemble)
// with what its renderings need — depths, training counts, the origin of
// every node, pruning (spec §7.2). It is derived data and does not route
// rows: PathOf, LeafOf and CountRows route through its trained form
// (Tree.Ensemble), whose routing is the models' only one. Nodes[0] is the
// root; nodes are numbered breadth first (for a tree made by FromEnsemble
// from a complete tree the numbering is the kernel's: children of i are
// 2i+1 and 2i+2; after Prune it is compacted). Its fields are exported so
// that it can be stored (encoding/json) and inspected; call Validate after
// loading one.
type Tree struct {
	// Nodes holds the nodes breadth first, root first.
	Nodes []Node `json:"nodes"`
	// Outputs is the length of every leaf's Value.
	Outputs int `json:"outputs"`
	// Weighted tells that leaves carry weight logits (GRANDE).
	Weighted bool `json:"weighted,omitempty"`
	// Counted tells that every node's Count holds the number of training
	// rows reaching it (CountRows, Prune).
	Counted bool `json:"counted,omitempty"`
}

// FromEnsemble converts tree t of the trained form m into a Tree: node n
// of the tree's range becomes node n − root (Origin the same: for a
// complete tree stored breadth first, the kernel's numbering, internal
// node i with children 2i+1 and 2i+2, leaf l at 2^d−1+l). Leaves carry
// their values, and their weight logits (the tree's own for tree
// weighting) unless m weighs trees uniformly; node counts when m has
// them. Routed by its trained form, the tree sends every row where m.Leaf(t, ·)
// does.
func FromEnsemble(m *ensemble.Ensemble, t int) (*Tree, error) {
	if m == nil || t < 0 || t >= m.Trees() {
		return nil, fmt.Errorf("interpret: FromEnsemble: no tree %d", t)
	}
	lo, hi := m.Span(t)
	tr := &Tree{Nodes: make([]Node, hi-lo), Outputs: m.Outputs, Weighted: m.Weighting != ensemble.Mean, Counted: m.Count != nil}
	for n := lo; n < hi; n++ {
		nd := &tr.Nodes[n-lo]
		nd.Origin = n - lo
		if m.Count != nil {
			nd.Count = int(m.Count[n])
		}
		if !m.IsLeaf(n) {
			nd.Feature, nd.Threshold = int(m.Feature[n]), m.Threshold[n]
			nd.Left, nd.Right = int(m.Left[n])-lo, int(m.Right[n])-lo
			continue
		}
		nd.Feature, nd.Left, nd.Right = -1, -1, -1
		nd.Value = append([]float32(nil), m.LeafValue(n)...)
		nd.Weight = m.Weight(t, n)
	}
	for i := range tr.Nodes { // children follow their parent
		if nd := &tr.Nodes[i]; !nd.IsLeaf() {
			tr.Nodes[nd.Left].Depth, tr.Nodes[nd.Right].Depth = nd.Depth+1, nd.Depth+1
		}
	}
	return tr, tr.Validate(m.Features)
}

// Ensemble returns t as the trained form of one tree over features
// model-space columns: the same nodes in the same order with their splits
// and leaf values, the leaf weights when t.Weighted (ensemble.LeafWeights;
// else ensemble.Mean) and the training counts when t.Counted.
func (t *Tree) Ensemble(features int) (*ensemble.Ensemble, error) {
	return t.ensemble(features, true)
}

// ensemble builds t's trained form; without leaves only its splits (zero
// leaf values, no weights, no counts: what routing reads, also for a tree
// whose leaves hold non-finite display values such as log 0).
func (t *Tree) ensemble(features int, leaves bool) (*ensemble.Ensemble, error) {
	if err := t.Validate(features); err != nil {
		return nil, err
	}
	N, C := len(t.Nodes), t.Outputs
	m := &ensemble.Ensemble{Features: features, Outputs: C, Weighting: ensemble.Mean, Roots: ensemble.Int32s{0},
		Feature: make(ensemble.Int32s, N), Threshold: make(ensemble.Float32s, N),
		Left: make(ensemble.Int32s, N), Right: make(ensemble.Int32s, N), Value: make(ensemble.Float32s, N*C)}
	if t.Counted && leaves {
		m.Count = make([]int64, N)
	}
	if t.Weighted && leaves {
		m.Weighting, m.LeafWeight = ensemble.LeafWeights, make(ensemble.Float32s, N)
	}
	for i := range t.Nodes {
		nd := &t.Nodes[i]
		m.Feature[i], m.Threshold[i], m.Left[i], m.Right[i] = int32(nd.Feature), nd.Threshold, int32(nd.Left), int32(nd.Right)
		if nd.IsLeaf() && leaves {
			copy(m.Value[i*C:(i+1)*C], nd.Value)
			if t.Weighted {
				m.LeafWeight[i] = nd.Weight
			}
		}
		if m.Count != nil {
			m.Count[i] = int64(nd.Count)
		}
	}
	return m, m.Validate(features)
}

// FromKernel converts tree e of the kernel's current parameters
// (tree.Kernel.Ensemble) with FromEnsemble. It builds the whole trained
// form: to convert many trees, build it once and call FromEnsemble.
func FromKernel(k *tree.Kernel, e int) (*Tree, error) {
	return FromEnsemble(k.Ensemble(), e)
}

// Validate checks the structure of t: every node but the root has exactly
// one parent, children follow their parent (so routing terminates), leaves
// carry Outputs values, and internal nodes test features below features
// (features ≤ 0 skips that check).
func (t *Tree) Validate(features int) error {
	if t == nil || len(t.Nodes) == 0 {
		return fmt.Errorf("interpret: tree has no nodes: expected at least a root")
	}
	if t.Outputs < 1 {
		return fmt.Errorf("interpret: tree has %d outputs: expected at least 1", t.Outputs)
	}
	parents := make([]int, len(t.Nodes))
	for i := range t.Nodes {
		n := &t.Nodes[i]
		if n.IsLeaf() {
			if n.Left != -1 || n.Right != -1 {
				return fmt.Errorf("interpret: tree node %d is a leaf (feature −1) with children %d, %d: expected −1, −1", i, n.Left, n.Right)
			}
			if len(n.Value) != t.Outputs {
				return fmt.Errorf("interpret: tree node %d is a leaf with %d values: expected %d", i, len(n.Value), t.Outputs)
			}
			continue
		}
		if features > 0 && n.Feature >= features {
			return fmt.Errorf("interpret: tree node %d tests feature %d: expected a feature index below %d", i, n.Feature, features)
		}
		if math.IsNaN(float64(n.Threshold)) {
			return fmt.Errorf("interpret: tree node %d has a NaN threshold", i)
		}
		for _, c := range []int{n.Left, n.Right} {
			if c <= i || c >= len(t.Nodes) {
				return fmt.Errorf("interpret: tree node %d has child %d: expected an index in (%d, %d)", i, c, i, len(t.Nodes))
			}
			parents[c]++
		}
	}
	for i := 1; i < len(parents); i++ {
		if parents[i] != 1 {
			return fmt.Errorf("interpret: tree node %d has %d parents: expected exactly 1", i, parents[i])
		}
	}
	return nil
}

// Size returns the number of internal and leaf nodes (spec §7.1: the
// effective size of a pruned tree is internal + leaves).
func (t *Tree) Size() (internal, leaves int) {
	for i := range t.Nodes {
		if t.Nodes[i].IsLeaf() {
			leaves++
		} else {
			internal++
		}
	}
	return internal, leaves
}

// NumNodes returns internal + leaf nodes.
func (t *Tree) NumNodes() int { return len(t.Nodes) }

// Depth returns the depth of the deepest leaf (0 for a single leaf).
func (t *Tree) Depth() int {
	d := 0
	for i := range t.Nodes {
		d = max(d, t.Nodes[i].Depth)
	}
	return d
}

// Clone returns a deep copy of t.
func (t *Tree) Clone() *Tree {
	c := *t
	c.Nodes = append([]Node(nil), t.Nodes...)
	for i := range c.Nodes {
		if c.Nodes[i].Value != nil {
			c.Nodes[i].Value = append([]float32(nil), c.Nodes[i].Value...)
		}
	}
	return &c
}

// CountRows stores in every node's Count how many rows of X ([rows][n]
// row-major, model space) reach it, routed by the trained form of t
// (Tree.Ensemble, ensemble.Ensemble.CountRows); it sets Counted.
func (t *Tree) CountRows(X []float32, rows int) error {
	n, err := t.checkData("CountRows", X, rows)
	if err != nil {
		return err
	}
	m, err := t.ensemble(n, false)
	if err != nil {
		return err
	}
	if err := m.CountRows(X, rows, 1); err != nil {
		return err
	}
	for i := range t.Nodes {
		t.Nodes[i].Count = int(m.Count[i])
	}
	t.Counted = true
	return nil
}

// LeafOf returns the node of t that row x (model space, every feature t
// tests) reaches, routed by t's trained form (Tree.Ensemble): a display
// tree does not route by itself.
func (t *Tree) LeafOf(x []float32) (int, error) {
	p, err := t.PathOf(x)
	if err != nil {
		return 0, err
	}
	return p[len(p)-1], nil
}

// PathOf returns the nodes of t that row x visits, root first, its leaf
// last, routed by t's trained form (Tree.Ensemble).
func (t *Tree) PathOf(x []float32) ([]int, error) {
	m, err := t.ensemble(len(x), false)
	if err != nil {
		return nil, err
	}
	return m.Path(0, x), nil
}

// checkData validates t and the shape of X and returns the row width.
func (t *Tree) checkData(what string, X []float32, rows int) (int, error) {
	if rows < 1 {
		return 0, fmt.Errorf("interpret: %s: %d rows: expected at least 1 training row", what, rows)
	}
	if len(X)%rows != 0 || len(X) == 0 {
		return 0, fmt.Errorf("interpret: %s: X has %d values: expected rows (%d) × features", what, len(X), rows)
	}
	n := len(X) / rows
	if err := t.Validate(n); err != nil {
		return 0, fmt.Errorf("%w (in %s)", err, what)
	}
	return n, nil
}
