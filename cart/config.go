package cart

import (
	"fmt"
	"math"
)

// Config holds the hyperparameters of a tree. The zero value is sklearn's
// DecisionTreeClassifier()/DecisionTreeRegressor() with random_state=0:
// Gini (classifier) or squared error (regressor), unlimited depth,
// min_samples_split=2, min_samples_leaf=1, all features at every node.
type Config struct {
	// Criterion is the impurity measure; DefaultCriterion picks Gini for
	// classifiers and SquaredError for regressors.
	Criterion Criterion
	// MaxDepth is the maximum depth (the root has depth 0); 0 means
	// unlimited (sklearn max_depth=None).
	MaxDepth int
	// MinSamplesSplit is the minimum number of samples a node needs to be
	// split; 0 means the default 2. Values below 2 are rejected.
	MinSamplesSplit int
	// MinSamplesLeaf is the minimum number of samples on each side of a
	// split; 0 means the default 1.
	MinSamplesLeaf int
	// MinWeightFractionLeaf is the minimum fraction of the total sample
	// weight each side of a split must keep (sklearn
	// min_weight_fraction_leaf), in [0, 0.5].
	MinWeightFractionLeaf float64
	// MinImpurityDecrease: a node is split only if the weighted impurity
	// decrease N_t/N·(I − N_tR/N_t·I_R − N_tL/N_t·I_L) is at least this.
	MinImpurityDecrease float64
	// ClassWeight multiplies the weight of every sample of class c by
	// ClassWeight[c] (classifiers only); nil means no class weights. Use
	// BalancedWeights for sklearn's class_weight="balanced".
	ClassWeight []float64
	// Balanced asks for sklearn's class_weight="balanced": weights
	// n_samples / (n_classes · count(c)) computed on the training rows
	// (classifiers only). ClassWeight must then be nil.
	Balanced bool
	// MaxFeatures is the number of features drawn (without replacement)
	// at each node; 0 means all. As in sklearn, the search goes on past
	// MaxFeatures draws until at least one non-constant feature was seen.
	MaxFeatures int
	// Seed plays the role of sklearn's integer random_state and must lie in
	// [0, 2^32−1]. It decides the order in which features are visited at
	// each node, which breaks ties between equally good splits on different
	// features (the first visited wins), and which features are drawn when
	// MaxFeatures is set. The stream is sklearn's, so Seed s gives the tree
	// sklearn builds with random_state=s.
	Seed uint64
}

// params is a validated, resolved Config.
type params struct {
	crit          Criterion
	maxDepth      int
	minSplit      int
	minLeaf       int
	minWeightFrac float64
	minDecrease   float64
	maxFeatures   int
}

// resolve checks cfg against the data shape and fills in defaults. nClasses
// is 0 for regression.
func (cfg *Config) resolve(nFeatures, nClasses int) (params, error) {
	var p params
	p.crit = cfg.Criterion
	if nClasses > 0 {
		switch p.crit {
		case DefaultCriterion:
			p.crit = Gini
		case Gini, Entropy:
		default:
			return p, fmt.Errorf("cart: Config.Criterion %v cannot be used by a classifier (expected gini or entropy)", p.crit)
		}
	} else {
		switch p.crit {
		case DefaultCriterion, SquaredError:
			p.crit = SquaredError
		case Gini, Entropy:
			return p, fmt.Errorf("cart: Config.Criterion %v cannot be used by a regressor (expected squared_error)", p.crit)
		default:
			return p, fmt.Errorf("cart: Config.Criterion %v is unknown (expected squared_error)", p.crit)
		}
	}
	switch {
	case cfg.MaxDepth < 0:
		return p, fmt.Errorf("cart: Config.MaxDepth = %d: expected 0 (unlimited) or a positive depth", cfg.MaxDepth)
	case cfg.MaxDepth == 0 || cfg.MaxDepth > math.MaxInt32:
		p.maxDepth = math.MaxInt32
	default:
		p.maxDepth = cfg.MaxDepth
	}
	switch {
	case cfg.MinSamplesSplit == 0:
		p.minSplit = 2
	case cfg.MinSamplesSplit < 2:
		return p, fmt.Errorf("cart: Config.MinSamplesSplit = %d: expected 0 (default 2) or at least 2", cfg.MinSamplesSplit)
	default:
		p.minSplit = cfg.MinSamplesSplit
	}
	switch {
	case cfg.MinSamplesLeaf == 0:
		p.minLeaf = 1
	case cfg.MinSamplesLeaf < 0:
		return p, fmt.Errorf("cart: Config.MinSamplesLeaf = %d: expected 0 (default 1) or a positive count", cfg.MinSamplesLeaf)
	default:
		p.minLeaf = cfg.MinSamplesLeaf
	}
	// sklearn: min_samples_split = max(min_samples_split, 2*min_samples_leaf).
	if p.minSplit < 2*p.minLeaf {
		p.minSplit = 2 * p.minLeaf
	}
	if !(cfg.MinWeightFractionLeaf >= 0 && cfg.MinWeightFractionLeaf <= 0.5) {
		return p, fmt.Errorf("cart: Config.MinWeightFractionLeaf = %v: expected a value in [0, 0.5]", cfg.MinWeightFractionLeaf)
	}
	p.minWeightFrac = cfg.MinWeightFractionLeaf
	if !(cfg.MinImpurityDecrease >= 0) || math.IsInf(cfg.MinImpurityDecrease, 1) {
		return p, fmt.Errorf("cart: Config.MinImpurityDecrease = %v: expected a finite value >= 0", cfg.MinImpurityDecrease)
	}
	p.minDecrease = cfg.MinImpurityDecrease
	switch {
	case cfg.MaxFeatures == 0:
		p.maxFeatures = nFeatures
	case cfg.MaxFeatures < 0 || cfg.MaxFeatures > nFeatures:
		return p, fmt.Errorf("cart: Config.MaxFeatures = %d: expected 0 (all) or a count in [1, %d]", cfg.MaxFeatures, nFeatures)
	default:
		p.maxFeatures = cfg.MaxFeatures
	}
	if cfg.Seed > math.MaxUint32 {
		return p, fmt.Errorf("cart: Config.Seed = %d: expected a value in [0, %d] (sklearn random_state range)", cfg.Seed, uint64(math.MaxUint32))
	}
	if cfg.ClassWeight != nil {
		if nClasses == 0 {
			return p, fmt.Errorf("cart: Config.ClassWeight is set but a regressor has no classes")
		}
		if len(cfg.ClassWeight) != nClasses {
			return p, fmt.Errorf("cart: Config.ClassWeight has %d entries, expected one per class (%d)", len(cfg.ClassWeight), nClasses)
		}
		for c, w := range cfg.ClassWeight {
			if !(w >= 0) || math.IsInf(w, 1) {
				return p, fmt.Errorf("cart: Config.ClassWeight[%d] = %v: expected a finite weight >= 0", c, w)
			}
		}
	}
	return p, nil
}

// BalancedWeights returns sklearn's class_weight="balanced" weights for the
// labels y: w_c = N / (K · N_c), where N = len(y), N_c the number of
// samples of class c and K the number of classes present in y (sklearn
// counts only present classes). Classes absent from y get weight 1; they
// weigh no sample anyway. Labels must be integers in [0, nClasses).
func BalancedWeights(y []float64, nClasses int) ([]float64, error) {
	if nClasses < 1 {
		return nil, fmt.Errorf("cart: BalancedWeights: nClasses = %d, expected at least 1", nClasses)
	}
	if len(y) == 0 {
		return nil, fmt.Errorf("cart: BalancedWeights: y is empty")
	}
	counts := make([]int, nClasses)
	for i, v := range y {
		c, err := classLabel(v, nClasses)
		if err != nil {
			return nil, fmt.Errorf("cart: BalancedWeights: y[%d]: %w", i, err)
		}
		counts[c]++
	}
	present := 0
	for _, n := range counts {
		if n > 0 {
			present++
		}
	}
	w := make([]float64, nClasses)
	for c, n := range counts {
		if n == 0 {
			w[c] = 1
			continue
		}
		w[c] = float64(len(y)) / (float64(present) * float64(n))
	}
	return w, nil
}

// classLabel converts a float label to a class index, or explains why it
// cannot.
func classLabel(v float64, nClasses int) (int, error) {
	if !(v >= 0 && v < float64(nClasses)) || v != math.Trunc(v) {
		return 0, fmt.Errorf("label %v is not a class index in 0..%d", v, nClasses-1)
	}
	return int(v), nil
}
