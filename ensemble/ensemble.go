// Package ensemble holds the trained form of every tree model: E hard,
// axis-aligned decision trees as flat arrays, with the way their leaves
// are weighted across trees. GradTree, CART and a SYMPOL tree policy are
// E = 1; a random forest is E trees averaged; GRANDE is E trees whose
// reached leaves are weighted by a softmax across the trees of their
// weight logits (or of one weight per tree).
//
// The package owns the only routing (Ensemble.Leaf and, for complete
// trees, its level-by-level form in the Predictor, tested equal), the only
// leaf weighting (Ensemble.Shares, and the Predictor's exponentiated
// tables built from the same rule) and the only predictor (Predictor).
// What the leaves hold (logits, probabilities, standardised values) is the
// model's business above; an Ensemble outputs the weighted leaf values.
//
// An Ensemble is plain data: it encodes with encoding/json (float and int
// arrays as compact base64, Float32s and Int32s) and Validate checks a
// decoded one as untrusted input.
package ensemble

import (
	"encoding/json"
	"fmt"
	"math"
)

// Weighting says how the values of the leaves a row reaches in the E
// trees combine into one output vector.
type Weighting string

const (
	// Mean is the uniform mean of the reached leaves' values (E = 1: the
	// leaf's value itself; a random forest's average).
	Mean Weighting = "mean"
	// LeafWeights is GRANDE's instance-wise weighting: the softmax, across
	// the trees, of the reached leaves' weight logits (LeafWeight).
	LeafWeights Weighting = "leaf"
	// TreeWeights is one weight per tree: the softmax of TreeWeight.
	TreeWeights Weighting = "tree"
)

// Ensemble is E trees in flat arrays over all their nodes. Tree t's nodes
// are the contiguous range Roots[t] … Roots[t+1]−1 (the last tree's ends
// at the node count), its root first. An internal node n sends a row x to
// Left[n] iff x[Feature[n]] < Threshold[n] (strict; a NaN value goes
// right), else to Right[n]; children lie after their parent inside the
// same tree. A leaf has Feature = Left = Right = −1 and holds the value
// vector Value[n·Outputs : (n+1)·Outputs] (zeros at internal nodes).
type Ensemble struct {
	// Features is the model-space input width every row must have.
	Features int `json:"features"`
	// Outputs is the length of every leaf's value vector.
	Outputs int `json:"outputs"`
	// Weighting combines the trees.
	Weighting Weighting `json:"weighting"`
	// Roots holds the first (root) node of every tree, increasing,
	// Roots[0] = 0.
	Roots Int32s `json:"roots,omitempty"`
	// Feature is the tested feature of every node, −1 at a leaf.
	Feature Int32s `json:"feature"`
	// Threshold is the threshold of every internal node (0 at a leaf).
	Threshold Float32s `json:"threshold"`
	// Left and Right are the children of every internal node, −1 at a
	// leaf.
	Left  Int32s `json:"left,omitempty"`
	Right Int32s `json:"right,omitempty"`
	// Value holds Outputs values per node: a leaf's output, zeros at an
	// internal node.
	Value Float32s `json:"value"`
	// LeafWeight is the weight logit of every node (used at leaves) for
	// LeafWeights, else nil.
	LeafWeight Float32s `json:"leaf_weight,omitempty"`
	// TreeWeight is the weight logit of every tree for TreeWeights, else
	// nil.
	TreeWeight Float32s `json:"tree_weight,omitempty"`
	// Count optionally holds the number of training rows that reached
	// every node (for display; nil when unknown).
	Count []int64 `json:"count,omitempty"`
}

// ensembleJSON is Ensemble without its JSON methods.
type ensembleJSON Ensemble

// MarshalJSON encodes m; when every tree is a complete tree stored breadth
// first (CompleteDepth d > 0) it writes "complete_depth": d and, tree after
// tree, the features and thresholds of the internal nodes only and the
// values and leaf weights of the leaves only, without the roots and child
// links that the layout implies.
func (m *Ensemble) MarshalJSON() ([]byte, error) {
	d := m.CompleteDepth()
	if d == 0 {
		return json.Marshal((*ensembleJSON)(m))
	}
	ni, nl, C := 1<<d-1, 1<<d, m.Outputs
	c := *(*ensembleJSON)(m)
	c.Roots, c.Left, c.Right = nil, nil, nil
	c.Feature, c.Threshold, c.Value = nil, nil, nil
	if m.LeafWeight != nil {
		c.LeafWeight = nil
	}
	for _, r := range m.Roots {
		r := int(r)
		c.Feature = append(c.Feature, m.Feature[r:r+ni]...)
		c.Threshold = append(c.Threshold, m.Threshold[r:r+ni]...)
		c.Value = append(c.Value, m.Value[(r+ni)*C:(r+ni+nl)*C]...)
		if m.LeafWeight != nil {
			c.LeafWeight = append(c.LeafWeight, m.LeafWeight[r+ni:r+ni+nl]...)
		}
	}
	return json.Marshal(struct {
		CompleteDepth int `json:"complete_depth"`
		*ensembleJSON
	}{d, &c})
}

// UnmarshalJSON decodes what MarshalJSON writes. With "complete_depth" d
// (1…30) the arrays hold, tree after tree, the internal nodes' features
// and thresholds and the leaves' values and weights; the full per-node
// arrays, roots and child links are rebuilt (roots and links must not be
// given).
func (m *Ensemble) UnmarshalJSON(b []byte) error {
	var w struct {
		CompleteDepth int `json:"complete_depth"`
		*ensembleJSON
	}
	w.ensembleJSON = (*ensembleJSON)(m)
	*m = Ensemble{}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	d := w.CompleteDepth
	if d == 0 {
		return nil
	}
	if d < 0 || d > 30 {
		return fmt.Errorf("ensemble: complete_depth %d: expected 1…30", d)
	}
	if m.Roots != nil || m.Left != nil || m.Right != nil {
		return fmt.Errorf("ensemble: complete_depth %d with roots or child links: expected one or the other", d)
	}
	ni, nl, C := 1<<d-1, 1<<d, m.Outputs
	E := len(m.Feature) / ni
	if E < 1 || C < 1 || C > len(m.Value) || len(m.Feature) != E*ni || len(m.Threshold) != E*ni || len(m.Value) != E*nl*C ||
		(m.LeafWeight != nil && len(m.LeafWeight) != E*nl) {
		return fmt.Errorf("ensemble: complete_depth %d: %d features, %d thresholds, %d values, %d leaf weights with %d outputs: expected whole trees (%d internal nodes, %d leaves each)",
			d, len(m.Feature), len(m.Threshold), len(m.Value), len(m.LeafWeight), C, ni, nl)
	}
	f := NewComplete(m.Features, C, E, d, Mean)
	if m.LeafWeight != nil {
		f.LeafWeight = make(Float32s, len(f.Feature))
	}
	for t, r := range f.Roots {
		r := int(r)
		copy(f.Feature[r:r+ni], m.Feature[t*ni:(t+1)*ni])
		copy(f.Threshold[r:r+ni], m.Threshold[t*ni:(t+1)*ni])
		copy(f.Value[(r+ni)*C:(r+ni+nl)*C], m.Value[t*nl*C:(t+1)*nl*C])
		if m.LeafWeight != nil {
			copy(f.LeafWeight[r+ni:r+ni+nl], m.LeafWeight[t*nl:(t+1)*nl])
		}
	}
	m.Roots, m.Left, m.Right, m.Feature, m.Threshold, m.Value, m.LeafWeight = f.Roots, f.Left, f.Right, f.Feature, f.Threshold, f.Value, f.LeafWeight
	return nil
}

// Trees returns E, the number of trees.
func (m *Ensemble) Trees() int { return len(m.Roots) }

// Nodes returns the total number of nodes.
func (m *Ensemble) Nodes() int { return len(m.Feature) }

// Span returns tree t's node range [lo, hi).
func (m *Ensemble) Span(t int) (lo, hi int) {
	lo = int(m.Roots[t])
	if t+1 < len(m.Roots) {
		return lo, int(m.Roots[t+1])
	}
	return lo, len(m.Feature)
}

// IsLeaf reports whether node n is a leaf.
func (m *Ensemble) IsLeaf(n int) bool { return m.Feature[n] < 0 }

// GoesLeft is the split rule of every node: a row goes left iff its value
// v of the node's feature is below the threshold (a NaN goes right).
func GoesLeft(v, threshold float32) bool { return v < threshold }

// LessOrEqual returns the threshold τ of the rule x < τ that sends the
// same float32 values left as the rule float64(x) ≤ t (scikit-learn's and
// CART's): the smallest float32 above t. A t at or above the largest
// float32 gives +Inf (every number goes left).
func LessOrEqual(t float64) float32 {
	f := float32(t)
	if float64(f) > t {
		f = math.Nextafter32(f, float32(math.Inf(-1)))
	}
	return math.Nextafter32(f, float32(math.Inf(1)))
}

// Join returns the trees of parts (each one or more trees over the same
// features and outputs, weighed uniformly) as one ensemble weighed by
// their uniform mean, as a random forest predicts.
func Join(parts []*Ensemble) (*Ensemble, error) {
	if len(parts) == 0 || parts[0] == nil {
		return nil, fmt.Errorf("ensemble: Join: no ensembles")
	}
	m := &Ensemble{Features: parts[0].Features, Outputs: parts[0].Outputs, Weighting: Mean}
	counted := true
	for _, q := range parts {
		counted = counted && q != nil && q.Count != nil
	}
	for i, q := range parts {
		if q == nil || q.Features != m.Features || q.Outputs != m.Outputs || q.Weighting != Mean {
			return nil, fmt.Errorf("ensemble: Join: part %d is not a uniformly weighed ensemble over %d features with %d outputs", i, m.Features, m.Outputs)
		}
		off := int32(len(m.Feature))
		for _, r := range q.Roots {
			m.Roots = append(m.Roots, r+off)
		}
		m.Feature = append(m.Feature, q.Feature...)
		m.Threshold = append(m.Threshold, q.Threshold...)
		for n := range q.Left {
			l, r := q.Left[n], q.Right[n]
			if l >= 0 {
				l, r = l+off, r+off
			}
			m.Left, m.Right = append(m.Left, l), append(m.Right, r)
		}
		m.Value = append(m.Value, q.Value...)
		if counted {
			m.Count = append(m.Count, q.Count...)
		}
	}
	return m, m.Validate(0)
}

// Leaf returns the leaf node that row x (at least Features values)
// reaches in tree t: the only routing of an Ensemble row by row (the
// Predictor's level-by-level descent of complete trees is tested equal
// to it).
func (m *Ensemble) Leaf(t int, x []float32) int { return m.descend(t, x, nil) }

// descend routes row x down tree t, calling visit (when not nil) with
// every node it passes, root first, and returns the leaf: the one descent
// row by row, behind Leaf and Path.
func (m *Ensemble) descend(t int, x []float32, visit func(int)) int {
	n := m.Roots[t]
	for {
		if visit != nil {
			visit(int(n))
		}
		if m.Feature[n] < 0 {
			return int(n)
		}
		if GoesLeft(x[m.Feature[n]], m.Threshold[n]) {
			n = m.Left[n]
		} else {
			n = m.Right[n]
		}
	}
}

// Path returns the nodes row x visits in tree t, root first, its leaf
// last.
func (m *Ensemble) Path(t int, x []float32) []int {
	var path []int
	m.descend(t, x, func(n int) { path = append(path, n) })
	return path
}

// LeafValue returns the value vector of node n (shared with m.Value).
func (m *Ensemble) LeafValue(n int) []float32 {
	return m.Value[n*m.Outputs : (n+1)*m.Outputs]
}

// Weight returns the weight logit that decides tree t's share when a row
// reaches its node n: the leaf's logit (LeafWeights), the tree's
// (TreeWeights), or 0 (Mean: all trees weigh the same).
func (m *Ensemble) Weight(t, n int) float32 {
	switch m.Weighting {
	case LeafWeights:
		return m.LeafWeight[n]
	case TreeWeights:
		return m.TreeWeight[t]
	}
	return 0
}

// Validate checks m as untrusted input: every shape, every index, the
// child links (each tree's nodes form one tree rooted at its first node,
// children after their parent, every node reached exactly once), that
// every tested feature is below features (when features > 0, and below
// m.Features), that no threshold is NaN (±Inf sends every number one
// way) and that every value and weight is finite. The error names the
// field and the index.
func (m *Ensemble) Validate(features int) error {
	if m == nil {
		return fmt.Errorf("ensemble: no ensemble")
	}
	if m.Features < 1 {
		return fmt.Errorf("ensemble: features %d: expected at least 1", m.Features)
	}
	if features > 0 && m.Features != features {
		return fmt.Errorf("ensemble: features %d: expected %d (the model-space width)", m.Features, features)
	}
	if m.Outputs < 1 {
		return fmt.Errorf("ensemble: outputs %d: expected at least 1", m.Outputs)
	}
	E, N := len(m.Roots), len(m.Feature)
	if E < 1 {
		return fmt.Errorf("ensemble: no trees (roots is empty)")
	}
	if N > math.MaxInt32/max(m.Outputs, 1) {
		return fmt.Errorf("ensemble: %d nodes × %d outputs: too many", N, m.Outputs)
	}
	for _, a := range []struct {
		name string
		n    int
	}{{"threshold", len(m.Threshold)}, {"left", len(m.Left)}, {"right", len(m.Right)}} {
		if a.n != N {
			return fmt.Errorf("ensemble: %s has %d entries: expected one per node (%d)", a.name, a.n, N)
		}
	}
	if len(m.Value) != N*m.Outputs {
		return fmt.Errorf("ensemble: value has %d entries: expected %d nodes × %d outputs = %d", len(m.Value), N, m.Outputs, N*m.Outputs)
	}
	if m.Count != nil && len(m.Count) != N {
		return fmt.Errorf("ensemble: count has %d entries: expected one per node (%d) or none", len(m.Count), N)
	}
	switch m.Weighting {
	case Mean:
		if m.LeafWeight != nil || m.TreeWeight != nil {
			return fmt.Errorf("ensemble: weighting %q with leaf or tree weights: expected none", m.Weighting)
		}
	case LeafWeights:
		if len(m.LeafWeight) != N || m.TreeWeight != nil {
			return fmt.Errorf("ensemble: weighting %q: leaf_weight has %d entries (expected %d, one per node), tree_weight %d (expected none)", m.Weighting, len(m.LeafWeight), N, len(m.TreeWeight))
		}
	case TreeWeights:
		if len(m.TreeWeight) != E || m.LeafWeight != nil {
			return fmt.Errorf("ensemble: weighting %q: tree_weight has %d entries (expected %d, one per tree), leaf_weight %d (expected none)", m.Weighting, len(m.TreeWeight), E, len(m.LeafWeight))
		}
	default:
		return fmt.Errorf("ensemble: weighting %q: expected %q, %q or %q", m.Weighting, Mean, LeafWeights, TreeWeights)
	}
	if m.Roots[0] != 0 {
		return fmt.Errorf("ensemble: roots[0] = %d: expected 0", m.Roots[0])
	}
	for t := 1; t < E; t++ {
		if m.Roots[t] <= m.Roots[t-1] || int(m.Roots[t]) >= N {
			return fmt.Errorf("ensemble: roots[%d] = %d: expected increasing root nodes in (%d, %d)", t, m.Roots[t], m.Roots[t-1], N)
		}
	}
	if N < 1 {
		return fmt.Errorf("ensemble: no nodes")
	}
	parents := make([]int32, N) // number of parents of every node
	for t := 0; t < E; t++ {
		lo, hi := m.Span(t)
		for n := lo; n < hi; n++ {
			f, l, r := m.Feature[n], m.Left[n], m.Right[n]
			if f < 0 {
				if f != -1 || l != -1 || r != -1 {
					return fmt.Errorf("ensemble: tree %d node %d: feature %d, left %d, right %d: expected a leaf (−1, −1, −1) or an internal node (feature ≥ 0, both children)", t, n, f, l, r)
				}
				for c, v := range m.LeafValue(n) {
					if !finite(v) {
						return fmt.Errorf("ensemble: tree %d node %d: value[%d] = %v: expected a finite number", t, n, c, v)
					}
				}
				if m.Weighting == LeafWeights && !finite(m.LeafWeight[n]) {
					return fmt.Errorf("ensemble: tree %d node %d: leaf_weight %v: expected a finite number", t, n, m.LeafWeight[n])
				}
				continue
			}
			if int(f) >= m.Features {
				return fmt.Errorf("ensemble: tree %d node %d tests feature %d: expected 0…%d", t, n, f, m.Features-1)
			}
			if math.IsNaN(float64(m.Threshold[n])) {
				return fmt.Errorf("ensemble: tree %d node %d: threshold NaN: expected a number", t, n)
			}
			for _, c := range []int32{l, r} {
				if int(c) <= n || int(c) >= hi {
					return fmt.Errorf("ensemble: tree %d node %d: child %d: expected a node after it in its tree (%d…%d)", t, n, c, n+1, hi-1)
				}
				parents[c]++
			}
			if l == r {
				return fmt.Errorf("ensemble: tree %d node %d: both children are node %d", t, n, l)
			}
		}
		for n := lo; n < hi; n++ {
			if want := int32(1); n == lo {
				want = 0
				if parents[n] != want {
					return fmt.Errorf("ensemble: tree %d: root node %d is some node's child", t, n)
				}
			} else if parents[n] != want {
				return fmt.Errorf("ensemble: tree %d node %d has %d parents: expected exactly 1", t, n, parents[n])
			}
		}
	}
	if m.Weighting == TreeWeights {
		for t, v := range m.TreeWeight {
			if !finite(v) {
				return fmt.Errorf("ensemble: tree_weight[%d] = %v: expected a finite number", t, v)
			}
		}
	}
	return nil
}

func finite(v float32) bool {
	return !math.IsNaN(float64(v)) && !math.IsInf(float64(v), 0)
}

// NewComplete returns an ensemble of trees complete trees of depth d ≥ 0
// stored breadth first (node i of tree t is t·(2^(d+1)−1) + i; internal
// node i has children 2i+1 and 2i+2, leaf l is node 2^d−1+l), with its
// links set, every internal node testing feature 0 at threshold 0 and
// zero values and weights: the producer fills Feature, Threshold, Value
// and LeafWeight (leaf weighting) or TreeWeight (tree weighting).
func NewComplete(features, outputs, trees, depth int, w Weighting) *Ensemble {
	N := trees * (2<<depth - 1)
	m := &Ensemble{Features: features, Outputs: outputs, Weighting: w,
		Feature: make(Int32s, N), Threshold: make(Float32s, N), Value: make(Float32s, N*outputs)}
	m.Roots, m.Left, m.Right = completeLinks(trees, depth)
	switch w {
	case LeafWeights:
		m.LeafWeight = make(Float32s, N)
	case TreeWeights:
		m.TreeWeight = make(Float32s, trees)
	}
	for n, l := range m.Left {
		if l < 0 {
			m.Feature[n] = -1
		}
	}
	return m
}

// completeLinks returns the roots and child links of trees complete trees
// of depth d stored breadth first one after the other.
func completeLinks(trees, depth int) (roots, left, right Int32s) {
	ni, size := 1<<depth-1, 2<<depth-1
	roots, left, right = make(Int32s, trees), make(Int32s, trees*size), make(Int32s, trees*size)
	for t := 0; t < trees; t++ {
		r := t * size
		roots[t] = int32(r)
		for i := 0; i < size; i++ {
			if i < ni {
				left[r+i], right[r+i] = int32(r+2*i+1), int32(r+2*i+2)
			} else {
				left[r+i], right[r+i] = -1, -1
			}
		}
	}
	return roots, left, right
}
