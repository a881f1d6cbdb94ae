package grande

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/interpret"
	"github.com/gdt-ml/gdt/preprocess"
)

// topTrees is the number of globally most weighted trees kept (pruned) in
// the model for renderings.
const topTrees = 3

// summarise computes, after training, the trained form (from the unpruned
// plain trees), the mean instance-wise weights and the feature usage on
// the training rows X, and the pruned top trees.
func (m *Model) summarise(X *data.Matrix) error {
	k := m.kernel
	E := k.Trees()
	f := k.Ensemble()
	m.Ensemble, m.pred = f, nil
	mean, err := m.meanWeights(X)
	if err != nil {
		return err
	}
	m.MeanWeights = mean
	// training counts of every node, routed by the trained form
	if err := f.CountRows(X.Data, X.Rows, m.Config.Workers); err != nil {
		return err
	}
	trees := make([]*interpret.Tree, E)
	for e := range trees {
		t, err := interpret.FromEnsemble(f, e)
		if err != nil {
			return err
		}
		trees[e] = t
	}
	w := make([]float64, E)
	for e, v := range mean {
		w[e] = float64(v)
	}
	names := make([]string, m.Features)
	for j := range names {
		names[j] = strconv.Itoa(j)
	}
	imp, err := interpret.FeatureImportance(trees, w, &interpret.Options{FeatureNames: names})
	if err != nil {
		return err
	}
	m.Usage = m.Usage[:0]
	for _, im := range imp {
		m.Usage = append(m.Usage, FeatureUse{Feature: im.Features[0], Splits: im.Splits, Usage: im.Usage})
	}
	m.TopTrees = m.TopTrees[:0]
	for _, e := range rankTrees(mean)[:min(topTrees, E)] {
		p, err := interpret.Prune(f, e, X.Data, X.Rows, 1)
		if err != nil {
			return err
		}
		m.TopTrees = append(m.TopTrees, TopTree{Index: e, MeanWeight: float64(mean[e]), Tree: p})
	}
	return nil
}

// rankTrees returns the tree indices by weight, largest first (ties: lower
// index first).
func rankTrees(w []float32) []int {
	order := make([]int, len(w))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return w[order[a]] > w[order[b]] })
	return order
}

// meanWeights averages the instance-wise tree weights a(x) of the trained
// form over the rows of X (in blocks, summing in row order in float64).
func (m *Model) meanWeights(X *data.Matrix) (Float32s, error) {
	p, err := m.predictor()
	if err != nil {
		return nil, err
	}
	E := m.Config.Trees
	block := max(1, min(X.Rows, 65536/E))
	buf := make([]float32, block*E)
	sum := make([]float64, E)
	for lo := 0; lo < X.Rows; lo += block {
		hi := min(lo+block, X.Rows)
		w := buf[:(hi-lo)*E]
		if err := p.Shares(X.Data[lo*X.Cols:hi*X.Cols], hi-lo, w, m.Config.Workers); err != nil {
			return nil, err
		}
		for b := 0; b < hi-lo; b++ {
			for e, v := range w[b*E : (b+1)*E] {
				sum[e] += float64(v)
			}
		}
	}
	out := make(Float32s, E)
	for e, s := range sum {
		out[e] = float32(s / float64(X.Rows))
	}
	return out, nil
}

// Explain is GRANDE's local explanation of one instance x (model space,
// spec §7.4): the topK trees with the largest instance-wise weights a_e(x),
// each pruned with the training rows trainX (nil: unpruned), with their
// shares. Render it with Explanation.Text(m.ViewOptions(pipeline, classes)).
func (m *Model) Explain(x []float32, topK int, trainX *data.Matrix) (*interpret.Explanation, error) {
	if _, err := m.predictor(); err != nil {
		return nil, err
	}
	if len(x) != m.Features {
		return nil, fmt.Errorf("grande: Explain: instance has %d values: expected %d (the model's features)", len(x), m.Features)
	}
	if topK < 1 {
		return nil, fmt.Errorf("grande: Explain: topK = %d: expected at least 1", topK)
	}
	cfg := interpret.ExplainConfig{TopK: topK}
	if trainX != nil {
		if trainX.Check() != nil || trainX.Cols != m.Features || trainX.Rows == 0 {
			return nil, fmt.Errorf("grande: Explain: training rows are %d×%d: expected at least one row of %d features", trainX.Rows, trainX.Cols, m.Features)
		}
		cfg.TrainX, cfg.Rows = trainX.Data, trainX.Rows
	}
	return interpret.ExplainEnsemble(m.Ensemble, x, cfg)
}

// TreeWeights returns the instance-wise weights a(x) ([rows][E]) of the
// rows of X, computed by the trained form (ensemble.Predictor.Shares).
func (m *Model) TreeWeights(X *data.Matrix) ([]float32, error) {
	if err := m.checkInput(X); err != nil {
		return nil, err
	}
	p, err := m.predictor()
	if err != nil {
		return nil, err
	}
	out := make([]float32, X.Rows*m.Config.Trees)
	return out, p.Shares(X.Data, X.Rows, out, m.Config.Workers)
}

// FeatureImportance returns the global feature importance measured on the
// training rows at the end of Fit, grouped by raw column through the
// pipeline p (nil: per model-space feature, named by names or x0, x1, …):
// Splits counts the internal nodes testing the column over all trees;
// Usage is Σ_e w̄_e · (average number of times a training row's path in
// tree e tests the column), with w̄_e the tree's instance-wise weight
// averaged over the training rows (MeanWeights). Sorted by usage, then
// splits (descending), then name.
func (m *Model) FeatureImportance(p *preprocess.Pipeline, names []string) []interpret.Importance {
	byCol := map[string]*interpret.Importance{}
	for _, u := range m.Usage {
		col := ""
		switch {
		case p != nil && u.Feature < p.NumFeatures():
			col = p.Source(u.Feature).Column
		case u.Feature < len(names):
			col = names[u.Feature]
		default:
			col = "x" + strconv.Itoa(u.Feature)
		}
		imp := byCol[col]
		if imp == nil {
			imp = &interpret.Importance{Column: col}
			byCol[col] = imp
		}
		imp.Splits += u.Splits
		imp.Usage += u.Usage
		imp.Features = append(imp.Features, u.Feature)
	}
	out := make([]interpret.Importance, 0, len(byCol))
	for _, imp := range byCol {
		sort.Ints(imp.Features)
		out = append(out, *imp)
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].Usage != out[b].Usage {
			return out[a].Usage > out[b].Usage
		}
		if out[a].Splits != out[b].Splits {
			return out[a].Splits > out[b].Splits
		}
		return out[a].Column < out[b].Column
	})
	return out
}
