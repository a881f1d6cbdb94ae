package grande

import (
	"fmt"
	"math"
	"strconv"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/option"
	"github.com/gdt-ml/gdt/tree"
)

// Config holds GRANDE's hyperparameters. Zero values take the published
// defaults (spec §8.2, GR-paper column: the code that produced the
// thesis's GRANDE numbers).
type Config struct {
	Trees int // number of estimators E (n_estimators, default 2048)
	Depth int // depth of every tree (default 6)

	LRWeights float64 // learning rate of the leaf weights W (default 0.005)
	LRIndex   float64 // learning rate of the split-index logits Z (default 0.01)
	LRValues  float64 // learning rate of the split thresholds T (default 0.01)
	LRLeaf    float64 // learning rate of the leaf values Λ (default 0.01)
	// CosineDecaySteps > 0 applies cosine decay with restarts (Keras
	// CosineDecayRestarts, t_mul 2): a value ≤ 1 is a fraction of an epoch
	// (first decay after max(10, ⌊steps per epoch · c⌋) steps), a larger
	// value a step count (spec §5.3). 0 (default) keeps the rates constant.
	CosineDecaySteps float64

	// SelectedVariables is the feature subset of every tree (spec §2.8):
	// a value > 1 is a count (capped at n); a fraction f ≤ 1 gives
	// n_e = min(n, max(10, min(50, ⌊n·f⌋))) — note the floor of 10 and the
	// cap of 50 features, also for f = 1. Default 0.8.
	SelectedVariables float64
	// FeatureCoverage > 0 raises Trees where the feature subsets would
	// leave a feature in fewer trees on average: to
	// min(MaxCoverageTrees, ⌈FeatureCoverage·n/n_e⌉) (wide data such as
	// madelon, 500 features in subsets of 50). 0 (default) keeps Trees.
	FeatureCoverage float64 `json:",omitempty"`
	// DataSubsetFraction < 1 trains every tree on a fixed random fraction
	// of the training rows (spec §2.9; see the package documentation for
	// how this relates to the reference). Default 1 (off).
	DataSubsetFraction float64
	// Bootstrap draws every tree's rows with replacement.
	Bootstrap bool
	// Dropout is the estimator-dropout rate in [0, 1) (spec §2.7; default 0).
	Dropout float64

	// Split is the soft split function: softsign (default), sigmoid or
	// entmoid.
	Split string
	// Weights is "leaf" (default: instance-wise leaf weights, GRANDE) or
	// "estimator" (one weight per tree, the thesis's ablation).
	Weights string

	// Loss is "focal" (default for classification: focal loss with
	// FocalGamma; binary with Keras' α = 0.5 class balancing as GR-paper),
	// "crossentropy", or "mse" (regression, the only regression loss, on
	// the standardised target).
	Loss       string
	FocalGamma float64 // focal γ (default 2)
	// ClassWeights is "balanced" (default for classification: sklearn's
	// balanced weights of the training labels, per sample) or "none".
	ClassWeights string

	// Intercept is "auto" (default): on small training sets (SmallData)
	// the output intercept is fitted on the validation rows after
	// training; "validation" fits it always, "none" never. Regression
	// never fits it.
	Intercept string `json:",omitempty"`

	BatchSize int // default 64, then min(·, ⌈N/2⌉) and +1 while N mod B = 1
	MaxEpochs int // default 10,000
	// Patience is the early-stopping patience (default 25): epochs
	// without improvement, or with EvalEvery intervals of EvalEvery steps
	// (training stops Patience·EvalEvery steps after the best check, also
	// where epochs are shorter and checks more frequent).
	Patience int
	// EvalEvery > 0 checks the validation loss every EvalEvery training
	// steps (counted across epochs; at least every epoch) instead of after
	// every epoch (0, the default), so early stopping and the restored
	// best weights do not wait for the ends of long epochs
	// (train.Config.EvalEvery).
	EvalEvery int `json:",omitempty"`
	Restarts  int // random restarts, the best by validation loss is kept (default 1)

	Seed int64 // model seed (default 42); restart r uses Seed + r(r+1)/2
	// Workers is the number of goroutines of one training step and of
	// prediction (0 = GOMAXPROCS). Results do not depend on it.
	Workers int
	// Parallel is the number of restarts trained at once (default 1: the
	// kernel already uses every core).
	Parallel int
	// SaveDense keeps the full dense parameters (index logits and
	// thresholds of every feature of every node) in the saved model, e.g.
	// to continue training elsewhere; by default only what prediction
	// needs is saved (see Model).
	SaveDense bool
	// Precise computes the gradients of the split-index logits in float64
	// (tree.Config.Fast off), as GradTree does. By default they are
	// computed in float32 on vectors (tree.Config.Fast), several times
	// faster and equal up to float32 rounding of intermediate sums.
	Precise bool `json:",omitempty"`
}

// Defaults returns c with every zero field set to the published default for
// task (the declared defaults, Options).
func (c Config) Defaults(task data.Task) Config {
	return Options.Defaults(c, task.String())
}

// validate checks a configuration with defaults filled in.
func (c Config) validate(task data.Task) error {
	bad := func(name string, v any, want string) error {
		return fmt.Errorf("grande: %s = %v: expected %s", name, v, want)
	}
	if err := Options.CheckConfig(c); err != nil {
		return err
	}
	if c.SelectedVariables > 1 && c.SelectedVariables != math.Trunc(c.SelectedVariables) {
		return bad("selected_variables", c.SelectedVariables, "a fraction in (0, 1] or a whole feature count > 1")
	}
	if _, err := c.weightMode(); err != nil {
		return err
	}
	if task == data.Regression && c.ClassWeights != "none" {
		return bad("class_weights", c.ClassWeights, "none for regression")
	}
	if (task == data.Regression) != (c.Loss == "mse") {
		want := "focal or crossentropy for classification"
		if task == data.Regression {
			want = "mse for regression"
		}
		return bad("loss", c.Loss, want)
	}
	return nil
}

// weightMode maps Config.Weights to the kernel's weight mode.
func (c Config) weightMode() (tree.WeightMode, error) {
	switch c.Weights {
	case "leaf", "":
		return tree.LeafWeights, nil
	case "estimator":
		return tree.EstimatorWeights, nil
	}
	return 0, fmt.Errorf("grande: estimator_weights = %q: expected leaf (instance-wise leaf weights) or estimator (one weight per tree)", c.Weights)
}

// SubsetSize returns n_e, the number of features each tree sees, for
// selected_variables v and n features (spec §2.8).
func SubsetSize(v float64, n int) int {
	if v > 1 {
		return min(int(v), n)
	}
	ne := int(math.Floor(float64(n) * v))
	ne = min(ne, 50)
	ne = max(ne, 10)
	return min(ne, n)
}

// MaxCoverageTrees bounds the trees Config.FeatureCoverage adds (grande's
// published count).
const MaxCoverageTrees = 2048

// CoveredTrees returns the number of trees for t configured trees, feature
// coverage c, n features and subsets of n_e: t, raised to
// min(MaxCoverageTrees, ⌈c·n/n_e⌉) when that is larger.
func CoveredTrees(t int, c float64, n, ne int) int {
	if c <= 0 || ne < 1 {
		return t
	}
	want := int(math.Min(MaxCoverageTrees, math.Ceil(c*float64(n)/float64(ne))))
	return max(t, want)
}

// BatchSize returns the batch size GR-paper uses for n training rows and
// a configured size bs: min(bs, ⌈n/2⌉), then +1 while n mod B = 1 (so that
// no batch of one row is left over).
func BatchSize(bs, n int) int {
	b := max(1, min(bs, (n+1)/2))
	for b < n && n%b == 1 {
		b++
	}
	return b
}

// ParseOptions reads GRANDE options given as text (CLI --set key=value;
// `gdt models grande` lists them).
func ParseOptions(opts map[string]string) (Config, error) { return Options.Parse(opts) }

// Options declares GRANDE's options (spec §8.2, GR-paper column): the
// CLI's --set, the library's Config, `gdt models grande` and tune's search
// spaces all read it.
var Options = &option.List[Config]{Kind: "grande", Options: []option.Option[Config]{
	option.IntOpt("n_estimators", "2048", 1, 1<<20, model.MeaningEstimators, func(c *Config) any { return &c.Trees }).Also("trees", "estimators"),
	option.IntOpt("depth", "6", 1, 16, model.MeaningDepth, func(c *Config) any { return &c.Depth }),
	option.ShortcutOpt(option.Spec{Key: "learning_rate", Type: option.Float, Min: 0, MinOpen: true, Max: option.Unbounded, Log: true,
		Meaning: "sets lr_weights, lr_index, lr_values and lr_leaf to one value (the thesis's reduced grid)"},
		func(c *Config, v string) error {
			lr, err := strconv.ParseFloat(v, 64)
			c.LRWeights, c.LRIndex, c.LRValues, c.LRLeaf = lr, lr, lr, lr
			return err
		}),
	option.FloatOpt("lr_weights", "0.005", 0, option.Unbounded, "Adam learning rate of the leaf weights (the estimator weighting)",
		func(c *Config) any { return &c.LRWeights }).Open(true, false).LogScale().Also("learning_rate_weights"),
	option.FloatOpt("lr_index", "0.01", 0, option.Unbounded, model.MeaningLRIndex, func(c *Config) any { return &c.LRIndex }).
		Open(true, false).LogScale().Also("learning_rate_index"),
	option.FloatOpt("lr_values", "0.01", 0, option.Unbounded, model.MeaningLRValues, func(c *Config) any { return &c.LRValues }).
		Open(true, false).LogScale().Also("learning_rate_values"),
	option.FloatOpt("lr_leaf", "0.01", 0, option.Unbounded, model.MeaningLRLeaf, func(c *Config) any { return &c.LRLeaf }).
		Open(true, false).LogScale().Also("learning_rate_leaf"),
	option.FloatOpt("cosine_decay_steps", "0", 0, option.Unbounded, model.MeaningCosineDecaySteps,
		func(c *Config) any { return &c.CosineDecaySteps }),
	option.FloatOpt("selected_variables", "0.8", 0, option.Unbounded,
		"features of every tree: a fraction f ≤ 1 gives min(n, max(10, min(50, ⌊n·f⌋))), a whole number > 1 a count (spec §2.8)",
		func(c *Config) any { return &c.SelectedVariables }).Open(true, false),
	option.FloatOpt("feature_coverage", "0", 0, option.Unbounded,
		"raise n_estimators so that every feature is in this many trees' subsets on average: ⌈c·n/n_e⌉ trees, at most 2048 (0: off)",
		func(c *Config) any { return &c.FeatureCoverage }),
	option.FloatOpt("data_subset_fraction", "1", 0, 1, "every tree trains on a fixed random fraction of the rows (spec §2.9; 1: all rows)",
		func(c *Config) any { return &c.DataSubsetFraction }).Open(true, false),
	option.BoolOpt("bootstrap", "false", model.MeaningBootstrap, func(c *Config) any { return &c.Bootstrap }),
	option.FloatOpt("dropout", "0", 0, 1, model.MeaningDropout, func(c *Config) any { return &c.Dropout }).Open(false, true),
	option.ChoiceOpt("split", "softsign", model.SplitFunctions, model.MeaningSplit, func(c *Config) any { return &c.Split }).Also("split_function"),
	option.ChoiceOpt("estimator_weights", "leaf", []string{"leaf", "estimator"},
		"leaf: instance-wise leaf weights (GRANDE); estimator: one weight per tree (the thesis's ablation)",
		func(c *Config) any { return &c.Weights }).Also("weights"),
	option.ShortcutOpt(option.Spec{Key: "estimator_leaf_weights", Type: option.Bool,
		Meaning: "GR-paper's switch: true sets estimator_weights=leaf, false estimator_weights=estimator"},
		func(c *Config, v string) error {
			on, err := strconv.ParseBool(v)
			c.Weights = map[bool]string{true: "leaf", false: "estimator"}[on]
			return err
		}),
	option.ChoiceOpt("loss", "focal", []string{"focal", "crossentropy", "mse"}, model.MeaningLoss, func(c *Config) any { return &c.Loss }).
		ByTask(map[string]string{"regression": "mse"}).Note("binary focal loss with Keras' α = 0.5 balancing, as GR-paper"),
	option.ShortcutOpt(option.Spec{Key: "focal_factor", Type: option.Float, Min: 0, Max: option.Unbounded,
		Meaning: "the thesis's HPO switch: 0 sets loss=crossentropy, γ > 0 sets loss=focal with focal_gamma=γ"},
		func(c *Config, v string) error {
			g, err := strconv.ParseFloat(v, 64)
			if g == 0 {
				c.Loss = "crossentropy"
			} else {
				c.Loss, c.FocalGamma = "focal", g
			}
			return err
		}),
	option.FloatOpt("focal_gamma", "2", 0, option.Unbounded, model.MeaningFocalGamma, func(c *Config) any { return &c.FocalGamma }),
	option.ChoiceOpt("class_weights", "balanced", []string{"none", "balanced"}, model.MeaningClassWeights,
		func(c *Config) any { return &c.ClassWeights }).Also("class_weight").ByTask(map[string]string{"regression": "none"}),
	option.IntOpt("batch_size", "64", 1, option.Unbounded, model.MeaningBatchSize, func(c *Config) any { return &c.BatchSize }).
		Note("then min(·, ⌈N/2⌉), +1 while N mod B = 1"),
	option.IntOpt("epochs", "10000", 1, option.Unbounded, model.MeaningEpochs, func(c *Config) any { return &c.MaxEpochs }).Also("max_epochs"),
	option.IntOpt("patience", "25", 1, option.Unbounded, model.MeaningPatience, func(c *Config) any { return &c.Patience }).
		Also("early_stopping_epochs"),
	option.IntOpt("eval_every", "0", 0, option.Unbounded,
		"check the validation loss every so many training steps (at least every epoch; training then stops patience·eval_every steps after the best check); 0: after every epoch",
		func(c *Config) any { return &c.EvalEvery }),
	option.ChoiceOpt("intercept", "auto", []string{"auto", "validation", "none"},
		"fit the output intercept on the validation rows after training: auto below 256 training rows (grande.SmallData), validation always, none never",
		func(c *Config) any { return &c.Intercept }),
	option.IntOpt("restarts", "1", 1, option.Unbounded, model.MeaningRestarts, func(c *Config) any { return &c.Restarts }),
	option.IntOpt("seed", "42", 0, option.Unbounded, model.MeaningSeed, func(c *Config) any { return &c.Seed }).Also("random_seed"),
	option.IntOpt("workers", "0", 0, option.Unbounded, model.MeaningWorkers, func(c *Config) any { return &c.Workers }),
	option.IntOpt("parallel", "1", 1, option.Unbounded, "restarts trained at once (the kernel already uses every core); results do not depend on it",
		func(c *Config) any { return &c.Parallel }),
	option.BoolOpt("save_dense", "false", "also save the dense parameters (to continue training elsewhere); by default only what prediction needs",
		func(c *Config) any { return &c.SaveDense }),
	option.BoolOpt("precise", "false", "compute the split-index gradients in float64 instead of float32 vectors (slower; equal up to float32 rounding)",
		func(c *Config) any { return &c.Precise }),
}}
