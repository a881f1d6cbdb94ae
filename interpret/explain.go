package interpret

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/gdt-ml/gdt/ensemble"
	"github.com/gdt-ml/gdt/tree"
)

// Estimator is one tree of an ensemble in a local explanation.
type Estimator struct {
	// Index is the tree's index e in the ensemble.
	Index int `json:"index"`
	// Share is the tree's instance-wise weight a_e(x) (softmax across the
	// trees of the reached leaves' weight logits).
	Share float64 `json:"share"`
	// Tree is the tree, pruned with the training rows when they were
	// given (spec §7.4).
	Tree *Tree `json:"tree"`
	// Leaf is the node of Tree that the instance reaches.
	Leaf int `json:"leaf"`
}

// Explanation is GRANDE's local explanation of one instance (spec §7.4):
// the estimators with the largest instance-wise weights.
type Explanation struct {
	// X is the instance (model space).
	X []float32 `json:"x"`
	// Trees is the ensemble's number of trees E.
	Trees int `json:"trees"`
	// Estimators are the top-k trees by share, largest first (ties: lower
	// index first).
	Estimators []Estimator `json:"estimators"`
	// Covered is the total share of the listed estimators.
	Covered float64 `json:"covered"`
}

// ExplainConfig configures Explain.
type ExplainConfig struct {
	// TopK is the number of estimators reported (default 1; at most E).
	TopK int
	// TrainX ([Rows][n], model space) are the training rows the reported
	// trees are pruned with (Tree.Prune); nil reports them unpruned.
	TrainX []float32
	Rows   int
	// MinSamples is Prune's threshold (default 1).
	MinSamples float64
}

// Explain ranks the trees of an ensemble by their weights for one
// instance x: weights[e] = a_e(x) (ensemble.Ensemble.Shares for this
// instance), trees[e] the plain tree e (FromEnsemble). The top-k trees are
// pruned with the training rows (if given) and reported with their shares.
func Explain(x []float32, weights []float32, trees []*Tree, cfg ExplainConfig) (*Explanation, error) {
	if len(weights) != len(trees) {
		return nil, fmt.Errorf("interpret: Explain: %d weights for %d trees: expected one weight per tree", len(weights), len(trees))
	}
	return explain(x, weights, func(e int, minSamples float64) (*Tree, error) {
		t := trees[e]
		if t == nil {
			return nil, fmt.Errorf("interpret: Explain: tree %d is nil", e)
		}
		if err := t.Validate(len(x)); err != nil {
			return nil, fmt.Errorf("interpret: Explain: tree %d for an instance of %d features: %w", e, len(x), err)
		}
		if cfg.TrainX == nil {
			return t, nil
		}
		return t.Prune(cfg.TrainX, cfg.Rows, minSamples)
	}, cfg)
}

// ExplainKernel explains instance x (one model-space row) with the
// trained form of kernel k (ExplainEnsemble of k.Ensemble()).
func ExplainKernel(k *tree.Kernel, x []float32, cfg ExplainConfig) (*Explanation, error) {
	return ExplainEnsemble(k.Ensemble(), x, cfg)
}

// ExplainEnsemble explains instance x (one model-space row) with the trees
// of the trained form m and their shares a(x) (m.Shares); only the top-k
// trees are converted.
func ExplainEnsemble(m *ensemble.Ensemble, x []float32, cfg ExplainConfig) (*Explanation, error) {
	a := make([]float64, m.Trees())
	if err := m.Shares(x, a); err != nil {
		return nil, fmt.Errorf("interpret: Explain: %w", err)
	}
	w := make([]float32, len(a))
	for e, v := range a {
		w[e] = float32(v)
	}
	return explain(x, w, func(e int, minSamples float64) (*Tree, error) {
		if cfg.TrainX == nil {
			return FromEnsemble(m, e)
		}
		return Prune(m, e, cfg.TrainX, cfg.Rows, minSamples)
	}, cfg)
}

// explain reports the top trees by weight; get(e, minSamples) returns tree
// e, pruned with cfg's training rows when there are any.
func explain(x []float32, weights []float32, get func(e int, minSamples float64) (*Tree, error), cfg ExplainConfig) (*Explanation, error) {
	E := len(weights)
	if E == 0 {
		return nil, fmt.Errorf("interpret: Explain: no trees")
	}
	for e, w := range weights {
		if !(w >= 0) || math.IsInf(float64(w), 1) {
			return nil, fmt.Errorf("interpret: Explain: weight of tree %d is %v: expected a finite share ≥ 0", e, w)
		}
	}
	k := cfg.TopK
	if k == 0 {
		k = 1
	}
	if k < 0 {
		return nil, fmt.Errorf("interpret: Explain: TopK = %d: expected 0 (one tree) or more", cfg.TopK)
	}
	k = min(k, E)
	minSamples := cfg.MinSamples
	if minSamples == 0 {
		minSamples = 1
	}
	order := make([]int, E)
	for e := range order {
		order[e] = e
	}
	sort.SliceStable(order, func(a, b int) bool { return weights[order[a]] > weights[order[b]] })
	ex := &Explanation{X: append([]float32(nil), x...), Trees: E}
	for _, e := range order[:k] {
		t, err := get(e, minSamples)
		if err != nil {
			return nil, fmt.Errorf("interpret: Explain: tree %d: %w", e, err)
		}
		leaf, err := t.LeafOf(x)
		if err != nil {
			return nil, fmt.Errorf("interpret: Explain: tree %d for an instance of %d features: %w", e, len(x), err)
		}
		ex.Estimators = append(ex.Estimators, Estimator{Index: e, Share: float64(weights[e]), Tree: t, Leaf: leaf})
		ex.Covered += float64(weights[e])
	}
	return ex, nil
}

// Text renders the explanation: a summary line, then every reported
// estimator with its share, size and tree (Options as for View; the
// instance's path is marked).
func (ex *Explanation) Text(o *Options) (string, error) {
	var opts Options
	if o != nil {
		opts = *o
	}
	opts.Highlight = ex.X
	var b strings.Builder
	fmt.Fprintf(&b, "The top %d of %d estimators carry %s of this instance's weight.\n", len(ex.Estimators), ex.Trees, percent(ex.Covered))
	for r, est := range ex.Estimators {
		v, err := NewView(est.Tree, &opts)
		if err != nil {
			return "", fmt.Errorf("interpret: Explanation.Text: estimator %d: %w", est.Index, err)
		}
		in, lv := est.Tree.Size()
		fmt.Fprintf(&b, "\n#%d estimator %d: %s of the weight (%d internal nodes, %d leaves); this instance: %s\n",
			r+1, est.Index, percent(est.Share), in, lv, v.LeafText(est.Leaf))
		for _, line := range strings.Split(strings.TrimRight(v.Text(), "\n"), "\n") {
			b.WriteString("    " + line + "\n")
		}
	}
	return b.String(), nil
}

func percent(p float64) string {
	return strconv.FormatFloat(100*p, 'f', 1, 64) + " %"
}
