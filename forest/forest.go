// Package forest is a random forest baseline: bagged CART trees (package
// cart) as scikit-learn's RandomForestClassifier and RandomForestRegressor
// grow them. Tree t gets the seed s_t = RandomState(Seed).randint(2^31−1)
// (drawn in tree order), its bootstrap sample RandomState(s_t).randint(0,
// N, N) as integer sample weights (how often each row was drawn), and is
// grown by cart with random_state s_t and MaxFeatures features per node
// (default √n for classification, all for regression); predictions are the
// mean of the trees' class probabilities (or values) as the trained form
// (package ensemble) holds them, rounded to float32, summed in tree order
// in float64. With the same data and parameters the forest is the one
// scikit-learn 1.2 builds (the test checks its size and its predict_proba
// output, up to that float32 rounding of the leaf values). Trees are fitted in parallel; the result does not
// depend on the number of workers.
package forest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/gdt-ml/gdt/cart"
	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/ensemble"
	"github.com/gdt-ml/gdt/interpret"
	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/preprocess"
	"github.com/gdt-ml/gdt/rng"
)

// Config holds the forest's hyperparameters. Zero values are
// scikit-learn's defaults.
type Config struct {
	// Trees is n_estimators (default 100).
	Trees int
	// MaxFeatures is the number of features tried at each node: "sqrt"
	// (⌊√n⌋, the classifier default), "log2" (⌊log2 n⌋), "all" (the
	// regressor default), a count ("7") or a fraction of n ("0.5": ⌊0.5·n⌋,
	// at least 1). Empty means the task's default.
	MaxFeatures string
	// MaxDepth is the maximum tree depth; 0 means unlimited (sklearn's
	// default None).
	MaxDepth int
	// MinSamplesSplit and MinSamplesLeaf as cart.Config (0: 2 and 1).
	MinSamplesSplit int
	MinSamplesLeaf  int
	// Criterion is gini (default) or entropy for classification,
	// squared_error for regression.
	Criterion string
	// NoBootstrap grows every tree on all rows (sklearn bootstrap=False).
	NoBootstrap bool
	// ClassWeight is "" (none) or "balanced" (weights of the whole training
	// set, multiplied into every tree's bootstrap weights).
	ClassWeight string
	// Seed is random_state, in [0, 2^32−1].
	Seed int64
	// Workers is the number of trees fitted at once (0 = GOMAXPROCS).
	Workers int
}

// Forest is a fitted random forest. Its exported fields are its saved form.
type Forest struct {
	Config   Config
	Task     data.Task
	Classes  int // number of classes (0 for regression)
	Features int
	Trees    []*cart.Tree

	mu   sync.Mutex          // guards pred
	pred *ensemble.Predictor // the trees' compiled trained form
}

// New returns an unfitted forest.
func New(c Config) *Forest { return &Forest{Config: c} }

// maxFeatures resolves Config.MaxFeatures for n features.
func (c Config) maxFeatures(n int, regression bool) (int, error) {
	s := strings.ToLower(strings.TrimSpace(c.MaxFeatures))
	if s == "" {
		s = "sqrt"
		if regression {
			s = "all"
		}
	}
	switch s {
	case "sqrt", "auto":
		return max(1, int(math.Sqrt(float64(n)))), nil
	case "log2":
		return max(1, int(math.Log2(float64(n)))), nil
	case "all", "none", "1.0":
		return n, nil
	}
	if k, err := strconv.Atoi(s); err == nil {
		if k < 1 || k > n {
			return 0, fmt.Errorf("forest: max_features = %d: expected a count in [1, %d]", k, n)
		}
		return k, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || !(f > 0 && f <= 1) {
		return 0, fmt.Errorf("forest: max_features = %q: expected sqrt, log2, all, a count or a fraction in (0, 1]", c.MaxFeatures)
	}
	return max(1, int(f*float64(n))), nil
}

// treeConfig returns the cart configuration of every tree (without seed
// and max features).
func (c Config) treeConfig(regression bool) (cart.Config, error) {
	var tc cart.Config
	if c.Trees < 0 || c.Trees > 1<<20 {
		return tc, fmt.Errorf("forest: n_estimators = %d: expected 1…1048576 (0: default 100)", c.Trees)
	}
	if c.MaxDepth < 0 {
		return tc, fmt.Errorf("forest: depth = %d: expected 0 (unlimited) or a positive depth", c.MaxDepth)
	}
	if c.Seed < 0 || c.Seed > math.MaxUint32 {
		return tc, fmt.Errorf("forest: seed %d: expected a value in [0, %d] (sklearn random_state)", c.Seed, uint32(math.MaxUint32))
	}
	if c.Workers < 0 {
		return tc, fmt.Errorf("forest: workers = %d: expected 0 (all cores) or more", c.Workers)
	}
	switch c.ClassWeight {
	case "", "none", "balanced":
	default:
		return tc, fmt.Errorf("forest: class_weight = %q: expected balanced or none", c.ClassWeight)
	}
	tc.MaxDepth, tc.MinSamplesSplit, tc.MinSamplesLeaf = c.MaxDepth, c.MinSamplesSplit, c.MinSamplesLeaf
	if c.Criterion != "" {
		cr, err := cart.ParseCriterion(c.Criterion)
		if err != nil {
			return tc, fmt.Errorf("forest: criterion: %w", err)
		}
		tc.Criterion = cr
	}
	return tc, nil
}

// Fit grows the forest on train (valid is not used).
func (f *Forest) Fit(ctx context.Context, p model.Problem, train, valid *model.Data) error {
	if train == nil || train.X == nil || train.X.Rows == 0 {
		return errors.New("forest: no training rows")
	}
	if err := train.X.Check(); err != nil {
		return fmt.Errorf("forest: %w", err)
	}
	if len(train.Y) != train.X.Rows {
		return fmt.Errorf("forest: %d training rows but %d labels", train.X.Rows, len(train.Y))
	}
	regression := p.Task == data.Regression
	c := f.Config
	if c.Trees == 0 {
		c.Trees = 100
	}
	tc, err := c.treeConfig(regression)
	if err != nil {
		return err
	}
	if tc.MaxFeatures, err = c.maxFeatures(train.X.Cols, regression); err != nil {
		return err
	}
	classes := 0
	if !regression {
		classes = p.NumClasses
		if classes < 2 {
			return fmt.Errorf("forest: %v task with %d classes: expected at least 2", p.Task, classes)
		}
		if c.ClassWeight == "balanced" {
			if tc.ClassWeight, err = cart.BalancedWeights(train.Y, classes); err != nil {
				return fmt.Errorf("forest: %w", err)
			}
		}
	} else if c.ClassWeight == "balanced" {
		return errors.New("forest: class_weight=balanced does not apply to regression")
	}
	n := train.X.Rows
	// tree seeds: RandomState(seed).randint(MAX_INT) once per tree
	master := rng.New(uint32(c.Seed))
	seeds := make([]uint32, c.Trees)
	for t := range seeds {
		seeds[t] = uint32(master.Interval(math.MaxInt32 - 1))
	}
	trees := make([]*cart.Tree, c.Trees)
	errs := make([]error, c.Trees)
	workers := c.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, c.Trees))
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			var weight []float64
			if !c.NoBootstrap {
				weight = make([]float64, n)
			}
			for t := w; t < c.Trees; t += workers {
				if ctx.Err() != nil {
					errs[t] = ctx.Err()
					return
				}
				cfg := tc
				cfg.Seed = uint64(seeds[t])
				if weight != nil {
					clear(weight)
					r := rng.New(seeds[t])
					for i := 0; i < n; i++ {
						weight[r.Interval(uint64(n-1))]++
					}
				}
				if regression {
					trees[t], errs[t] = cart.FitRegressor(train.X, train.Y, cfg, weight)
				} else {
					trees[t], errs[t] = cart.FitClassifier(train.X, train.Y, classes, cfg, weight)
				}
			}
		}(w)
	}
	wg.Wait()
	for t, err := range errs {
		if err != nil {
			return fmt.Errorf("forest: tree %d: %w", t, err)
		}
	}
	f.Config, f.Task, f.Classes, f.Features, f.Trees = c, p.Task, classes, train.X.Cols, trees
	f.mu.Lock()
	f.pred = nil
	f.mu.Unlock()
	return nil
}

// PredictProba returns the mean of the trees' class probabilities (binary:
// 2 columns), or for regression the mean prediction (1 column), computed
// by the trained form (Ensemble): the leaf values rounded to float32,
// summed in tree order in float64. Like scikit-learn it rejects NaN and
// infinite inputs.
func (f *Forest) PredictProba(X *data.Matrix) (*data.Matrix, error) {
	if len(f.Trees) == 0 {
		return nil, errors.New("forest: model is not fitted")
	}
	if X == nil || X.Check() != nil {
		return nil, errors.New("forest: malformed input matrix")
	}
	if X.Cols != f.Features {
		return nil, fmt.Errorf("forest: input has %d columns: expected %d", X.Cols, f.Features)
	}
	for i, v := range X.Data {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return nil, fmt.Errorf("forest: input row %d column %d is %v: expected a finite number", i/X.Cols, i%X.Cols, v)
		}
	}
	p, err := f.predictor()
	if err != nil {
		return nil, err
	}
	out := data.NewMatrix(X.Rows, max(f.Classes, 1))
	return out, p.Predict(X.Data, X.Rows, out.Data, f.Config.Workers)
}

// Ensemble returns the forest's trained form: its trees (cart.Tree.Ensemble)
// weighed by their uniform mean.
func (f *Forest) Ensemble() (*ensemble.Ensemble, error) {
	parts := make([]*ensemble.Ensemble, len(f.Trees))
	for t, tr := range f.Trees {
		m, err := tr.Ensemble()
		if err != nil {
			return nil, fmt.Errorf("forest: tree %d: %w", t, err)
		}
		parts[t] = m
	}
	m, err := ensemble.Join(parts)
	if err != nil {
		return nil, fmt.Errorf("forest: %w", err)
	}
	return m, nil
}

// predictor returns the compiled trained form.
func (f *Forest) predictor() (*ensemble.Predictor, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.pred != nil {
		return f.pred, nil
	}
	m, err := f.Ensemble()
	if err != nil {
		return nil, err
	}
	if f.pred, err = m.Compile(f.Features); err != nil {
		return nil, fmt.Errorf("forest: %w", err)
	}
	return f.pred, nil
}

// NumNodes returns the total number of nodes of all trees.
func (f *Forest) NumNodes() int {
	n := 0
	for _, t := range f.Trees {
		n += t.NumNodes()
	}
	return n
}

// FeatureImportances returns the mean of the trees' impurity-based feature
// importances (sklearn's feature_importances_).
func (f *Forest) FeatureImportances() []float64 {
	out := make([]float64, f.Features)
	if len(f.Trees) == 0 {
		return out
	}
	for _, t := range f.Trees {
		for j, v := range t.FeatureImportances() {
			out[j] += v
		}
	}
	for j := range out {
		out[j] /= float64(len(f.Trees))
	}
	return out
}

// Describe summarises the forest with model-space feature names: its size
// and the features with the largest mean impurity decrease.
func (f *Forest) Describe(features, classes []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "random forest: %d trees, %d nodes in total\n", len(f.Trees), f.NumNodes())
	imp := f.FeatureImportances()
	order := make([]int, len(imp))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return imp[order[a]] > imp[order[b]] })
	for _, j := range order[:min(10, len(order))] {
		if imp[j] == 0 {
			break
		}
		name := "x" + strconv.Itoa(j)
		if j < len(features) {
			name = features[j]
		}
		fmt.Fprintf(&b, "    %-30s importance %.4f\n", name, imp[j])
	}
	return strings.TrimRight(b.String(), "\n")
}

// Formats lists the renderings Render supports.
var Formats = []string{"text", "go"}

// Render renders the forest: text (Describe, with the pipeline's feature
// names) or go (generated Go source of every tree and their mean,
// interpret.EnsembleGoSource, with raw-unit conditions through p and the
// unseen-level rule of package interpret; classification only).
func (f *Forest) Render(format string, p *preprocess.Pipeline, classes []string) ([]byte, error) {
	switch format {
	case "text":
		var names []string
		if p != nil {
			names = p.FeatureNames()
		}
		return []byte(f.Describe(names, classes)), nil
	case "go":
		m, err := f.Ensemble()
		if err != nil {
			return nil, err
		}
		o := &interpret.Options{Task: data.Regression, ClassNames: classes, Pipeline: p}
		if f.Classes > 0 {
			o.Task, o.Probabilities = data.Multiclass, true
		}
		return interpret.EnsembleGoSource(m, o, "model")
	}
	return nil, fmt.Errorf("forest: unknown format %q (want one of %s)", format, strings.Join(Formats, ", "))
}
