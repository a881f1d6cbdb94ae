package cart

import (
	"github.com/gdt-ml/gdt/pairwise"
	"sync/atomic"

	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/ensemble"
)

// Node is one node of a fitted tree. Nodes are numbered depth-first, left
// child first, as in sklearn's tree_ arrays; the root is node 0.
type Node struct {
	// Feature is the feature tested at an internal node, -1 at a leaf.
	Feature int32
	// Threshold: a row goes to Left iff float64(x[Feature]) <= Threshold.
	// It is 0 at a leaf.
	Threshold float64
	// Left and Right are the children's node indices, -1 at a leaf.
	Left, Right int32
	// Value holds, for a classifier, the class probabilities of the node
	// (its weighted class counts normalised to sum 1, as sklearn's
	// predict_proba); for a regressor, one entry: the weighted mean target.
	Value []float64
	// N is the number of training samples (with non-zero weight) that
	// reached the node.
	N int
	// WeightedN is their total weight (class weights included).
	WeightedN float64
	// Impurity is the node's impurity under the tree's criterion.
	Impurity float64
}

// IsLeaf reports whether the node is a leaf.
func (n *Node) IsLeaf() bool { return n.Feature < 0 }

// Tree is a fitted CART tree. Its fields are exported so that it can be
// stored (for instance as JSON) and inspected; call Check after loading one.
type Tree struct {
	// Nodes in depth-first order, root first.
	Nodes []Node
	// NumFeatures is the number of input columns the tree was fitted on.
	NumFeatures int
	// NumClasses is the number of classes of a classifier, 0 for a regressor.
	NumClasses int
	// Criterion is the impurity measure the tree was grown with.
	Criterion Criterion

	// trained is the tree's trained form (Ensemble), built on the first
	// routed row: every row goes down the tree through it, so CART routes
	// with the one routing of every tree model (package ensemble).
	trained atomic.Pointer[ensemble.Ensemble]
}

// IsClassifier reports whether the tree predicts classes.
func (t *Tree) IsClassifier() bool { return t.NumClasses > 0 }

// NumNodes returns the number of nodes (internal and leaves), sklearn's
// tree_.node_count.
func (t *Tree) NumNodes() int { return len(t.Nodes) }

// NumLeaves returns the number of leaves, sklearn's get_n_leaves().
func (t *Tree) NumLeaves() int {
	n := 0
	for i := range t.Nodes {
		if t.Nodes[i].IsLeaf() {
			n++
		}
	}
	return n
}

// Depth returns the depth of the deepest node (0 for a single leaf),
// sklearn's get_depth().
func (t *Tree) Depth() int {
	if len(t.Nodes) == 0 {
		return 0
	}
	depth := make([]int, len(t.Nodes))
	max := 0
	for i := range t.Nodes {
		n := &t.Nodes[i]
		if n.IsLeaf() {
			continue
		}
		for _, c := range [2]int32{n.Left, n.Right} {
			if c > 0 && int(c) < len(depth) {
				depth[c] = depth[i] + 1
				if depth[c] > max {
					max = depth[c]
				}
			}
		}
	}
	return max
}

// Check verifies that the tree is well formed: children point forward to
// existing nodes, features lie in [0, NumFeatures), every node holds a
// value of the right length (for a classifier class probabilities in
// [0, 1] summing to 1; finite for a regressor), every node but the root
// has one parent.
// Trees returned by FitClassifier and FitRegressor always pass; call it on
// trees read from storage before predicting with them.
func (t *Tree) Check() error {
	if len(t.Nodes) == 0 {
		return fmt.Errorf("cart: tree has no nodes")
	}
	if t.NumFeatures < 1 || t.NumClasses < 0 {
		return fmt.Errorf("cart: tree has %d features and %d classes", t.NumFeatures, t.NumClasses)
	}
	want := t.NumClasses
	if want == 0 {
		want = 1
	}
	parents := make([]int, len(t.Nodes))
	for i := range t.Nodes {
		n := &t.Nodes[i]
		if len(n.Value) != want {
			return fmt.Errorf("cart: node %d holds %d values, expected %d", i, len(n.Value), want)
		}
		if err := t.checkValue(i, n.Value); err != nil {
			return err
		}
		if n.N < 0 || !(n.WeightedN >= 0) || math.IsInf(n.WeightedN, 0) || math.IsNaN(n.Impurity) || math.IsInf(n.Impurity, 0) {
			return fmt.Errorf("cart: node %d has n = %d, weighted n = %v, impurity %v: expected counts ≥ 0 and finite values", i, n.N, n.WeightedN, n.Impurity)
		}
		if n.IsLeaf() {
			if n.Left != -1 || n.Right != -1 {
				return fmt.Errorf("cart: leaf %d has children %d, %d", i, n.Left, n.Right)
			}
			continue
		}
		if int(n.Feature) >= t.NumFeatures {
			return fmt.Errorf("cart: node %d tests feature %d of %d", i, n.Feature, t.NumFeatures)
		}
		if math.IsNaN(n.Threshold) {
			return fmt.Errorf("cart: node %d has a NaN threshold", i)
		}
		for _, c := range [2]int32{n.Left, n.Right} {
			if int(c) <= i || int(c) >= len(t.Nodes) {
				return fmt.Errorf("cart: node %d has child %d (expected an index in %d..%d)", i, c, i+1, len(t.Nodes)-1)
			}
			parents[c]++
		}
	}
	for i := 1; i < len(parents); i++ {
		if parents[i] != 1 {
			return fmt.Errorf("cart: node %d has %d parents, expected 1", i, parents[i])
		}
	}
	return nil
}

// checkValue checks node i's value: finite, and for a classifier class
// probabilities (each in [0, 1], summing to 1).
func (t *Tree) checkValue(i int, v []float64) error {
	sum := 0.0
	for c, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("cart: node %d value[%d] = %v: expected a finite value", i, c, x)
		}
		if t.NumClasses > 0 && (x < 0 || x > 1) {
			return fmt.Errorf("cart: node %d value[%d] = %v: expected a class probability in [0, 1]", i, c, x)
		}
		sum += x
	}
	if t.NumClasses > 0 && math.Abs(sum-1) > 1e-6 {
		return fmt.Errorf("cart: node %d values %v sum to %v: expected class probabilities summing to 1", i, v, sum)
	}
	return nil
}

// leaf routes one row (at least NumFeatures values) to its leaf through
// the tree's trained form: its thresholds (ensemble.LessOrEqual) send
// every float32 value the way scikit-learn's float64(x) <= t does, and its
// nodes are the tree's, index for index.
func (t *Tree) leaf(row []float32) (int32, error) {
	m := t.trained.Load()
	if m == nil {
		var err error
		if m, err = t.Ensemble(); err != nil {
			return 0, err
		}
		t.trained.Store(m)
	}
	return int32(m.Leaf(0, row)), nil
}

// LeafOf returns the index of the leaf that row x reaches. x must hold
// NumFeatures values; a NaN goes right (the comparison x <= t is false).
// It does not allocate, for per-step use (policy distillation).
func (t *Tree) LeafOf(x []float32) (int, error) {
	if len(x) != t.NumFeatures {
		return 0, fmt.Errorf("cart: row has %d features, the tree expects %d", len(x), t.NumFeatures)
	}
	k, err := t.leaf(x)
	return int(k), err
}

func (t *Tree) checkInput(X *data.Matrix) error {
	if X == nil {
		return fmt.Errorf("cart: X is nil")
	}
	if err := X.Check(); err != nil {
		return fmt.Errorf("cart: X: %w", err)
	}
	if X.Cols != t.NumFeatures {
		return fmt.Errorf("cart: X has %d columns, the tree was fitted on %d", X.Cols, t.NumFeatures)
	}
	if len(t.Nodes) == 0 {
		return fmt.Errorf("cart: tree has no nodes")
	}
	return checkFinite(X)
}

// Ensemble returns the tree as the trained form (package ensemble, one
// tree, the same nodes in the same order): thresholds become the float32
// τ with x < τ ⇔ float64(x) ≤ Threshold (ensemble.LessOrEqual), so every
// float32 row reaches the same leaf; leaf values (class probabilities or
// the mean target) are rounded to float32, as the model's predictions
// are; counts are the training samples per node.
func (t *Tree) Ensemble() (*ensemble.Ensemble, error) {
	if err := t.Check(); err != nil {
		return nil, err
	}
	N, C := len(t.Nodes), max(t.NumClasses, 1)
	m := &ensemble.Ensemble{Features: t.NumFeatures, Outputs: C, Weighting: ensemble.Mean, Roots: ensemble.Int32s{0},
		Feature: make(ensemble.Int32s, N), Threshold: make(ensemble.Float32s, N), Left: make(ensemble.Int32s, N),
		Right: make(ensemble.Int32s, N), Value: make(ensemble.Float32s, N*C), Count: make([]int64, N)}
	for i := range t.Nodes {
		n := &t.Nodes[i]
		m.Feature[i], m.Left[i], m.Right[i], m.Count[i] = n.Feature, n.Left, n.Right, int64(n.N)
		if n.IsLeaf() {
			m.Feature[i], m.Left[i], m.Right[i] = -1, -1, -1
			for c, v := range n.Value {
				m.Value[i*C+c] = float32(v)
			}
			continue
		}
		m.Threshold[i] = ensemble.LessOrEqual(n.Threshold)
	}
	if err := m.Validate(t.NumFeatures); err != nil {
		return nil, fmt.Errorf("cart: %w", err)
	}
	return m, nil
}

// Apply returns the index of the leaf each row of X reaches (sklearn
// apply). Like sklearn it rejects NaN and infinite inputs.
func (t *Tree) Apply(X *data.Matrix) ([]int32, error) {
	if err := t.checkInput(X); err != nil {
		return nil, err
	}
	out := make([]int32, X.Rows)
	for i := range out {
		k, err := t.leaf(X.Data[i*X.Cols : (i+1)*X.Cols])
		if err != nil {
			return nil, err
		}
		out[i] = k
	}
	return out, nil
}

// PredictProba returns the class probabilities of each row of X, row-major
// with NumClasses entries per row (sklearn predict_proba). It fails for a
// regressor.
func (t *Tree) PredictProba(X *data.Matrix) ([]float64, error) {
	if !t.IsClassifier() {
		return nil, fmt.Errorf("cart: PredictProba needs a classifier; this tree is a regressor")
	}
	if err := t.checkInput(X); err != nil {
		return nil, err
	}
	C := t.NumClasses
	out := make([]float64, X.Rows*C)
	for i := 0; i < X.Rows; i++ {
		k, err := t.leaf(X.Data[i*X.Cols : (i+1)*X.Cols])
		if err != nil {
			return nil, err
		}
		copy(out[i*C:(i+1)*C], t.Nodes[k].Value)
	}
	return out, nil
}

// Predict returns, for a classifier, the most probable class of each row
// (ties go to the lowest class index, as numpy's argmax) and, for a
// regressor, the leaf mean.
func (t *Tree) Predict(X *data.Matrix) ([]float64, error) {
	if err := t.checkInput(X); err != nil {
		return nil, err
	}
	out := make([]float64, X.Rows)
	for i := range out {
		k, err := t.leaf(X.Data[i*X.Cols : (i+1)*X.Cols])
		if err != nil {
			return nil, err
		}
		out[i] = t.leafPrediction(k)
	}
	return out, nil
}

// leafPrediction is the prediction stored at node k.
func (t *Tree) leafPrediction(k int32) float64 {
	v := t.Nodes[k].Value
	if !t.IsClassifier() {
		return v[0]
	}
	return float64(argmax(v))
}

func argmax(v []float64) int {
	best := 0
	for c := 1; c < len(v); c++ {
		if v[c] > v[best] {
			best = c
		}
	}
	return best
}

// PredictRow predicts one row without allocating: the class index (as
// float64) or the regression value.
func (t *Tree) PredictRow(x []float32) (float64, error) {
	k, err := t.LeafOf(x)
	if err != nil {
		return 0, err
	}
	return t.leafPrediction(int32(k)), nil
}

// FeatureImportances returns sklearn's feature_importances_: for each
// feature, the total weighted impurity decrease
// W_t·I_t − W_L·I_L − W_R·I_R over the nodes that split on it, divided by
// the root weight and normalised to sum to 1 (all zeros for a single leaf).
func (t *Tree) FeatureImportances() []float64 {
	imp := make([]float64, t.NumFeatures)
	if len(t.Nodes) == 0 {
		return imp
	}
	for i := range t.Nodes {
		n := &t.Nodes[i]
		if n.IsLeaf() {
			continue
		}
		l, r := &t.Nodes[n.Left], &t.Nodes[n.Right]
		imp[n.Feature] += n.WeightedN*n.Impurity - l.WeightedN*l.Impurity - r.WeightedN*r.Impurity
	}
	root := t.Nodes[0].WeightedN
	for f := range imp {
		imp[f] /= root
	}
	if sum := pairwise.Sum(imp); sum > 0 {
		for f := range imp {
			imp[f] /= sum
		}
	}
	return imp
}

// Text renders the tree as indented if/else rules, for example
//
//	if petal_width <= 0.8:
//	    class: setosa (p=1.00, n=50)
//	else:  # petal_width > 0.8
//	    ...
//
// featureNames and classNames may be nil (then "feature_3" and the class
// index are shown); a regressor's leaves read "value: 2.5 (n=12)".
// Thresholds are printed with 6 significant digits.
func (t *Tree) Text(featureNames, classNames []string) string {
	var b strings.Builder
	if len(t.Nodes) == 0 {
		return ""
	}
	fname := func(f int32) string {
		if int(f) < len(featureNames) {
			return featureNames[f]
		}
		return "feature_" + strconv.Itoa(int(f))
	}
	var walk func(k int32, depth int)
	walk = func(k int32, depth int) {
		indent := strings.Repeat("    ", depth)
		n := &t.Nodes[k]
		if n.IsLeaf() {
			b.WriteString(indent)
			if t.IsClassifier() {
				c := argmax(n.Value)
				name := strconv.Itoa(c)
				if c < len(classNames) {
					name = classNames[c]
				}
				fmt.Fprintf(&b, "class: %s (p=%.2f, n=%d)\n", name, n.Value[c], n.N)
			} else {
				fmt.Fprintf(&b, "value: %s (n=%d)\n", strconv.FormatFloat(n.Value[0], 'g', 6, 64), n.N)
			}
			return
		}
		thr := strconv.FormatFloat(n.Threshold, 'g', 6, 64)
		fmt.Fprintf(&b, "%sif %s <= %s:\n", indent, fname(n.Feature), thr)
		walk(n.Left, depth+1)
		fmt.Fprintf(&b, "%selse:  # %s > %s\n", indent, fname(n.Feature), thr)
		walk(n.Right, depth+1)
	}
	walk(0, 0)
	return b.String()
}

// checkFinite rejects NaN and infinite entries, naming the first one.
func checkFinite(X *data.Matrix) error {
	for k, v := range X.Data {
		if v != v || v > math.MaxFloat32 || v < -math.MaxFloat32 {
			what := "NaN"
			if v == v {
				what = "infinite"
			}
			return fmt.Errorf("cart: X row %d column %d is %s; CART accepts finite values only (impute or drop missing values first)", k/X.Cols, k%X.Cols, what)
		}
	}
	return nil
}
