package grande

import (
	"fmt"
	"math"
	"strconv"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/model"
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

	BatchSize int // default 64, then min(·, ⌈N/2⌉) and +1 while N mod B = 1
	MaxEpochs int // default 10,000
	Patience  int // early-stopping patience in epochs (default 25)
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
// task.
func (c Config) Defaults(task data.Task) Config {
	setI := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	setF := func(v *float64, d float64) {
		if *v == 0 {
			*v = d
		}
	}
	setI(&c.Trees, 2048)
	setI(&c.Depth, 6)
	setF(&c.LRWeights, 0.005)
	setF(&c.LRIndex, 0.01)
	setF(&c.LRValues, 0.01)
	setF(&c.LRLeaf, 0.01)
	setF(&c.SelectedVariables, 0.8)
	setF(&c.DataSubsetFraction, 1)
	setF(&c.FocalGamma, 2)
	setI(&c.BatchSize, 64)
	setI(&c.MaxEpochs, 10000)
	setI(&c.Patience, 25)
	setI(&c.Restarts, 1)
	setI(&c.Parallel, 1)
	if c.Seed == 0 {
		c.Seed = 42
	}
	if c.Split == "" {
		c.Split = "softsign"
	}
	if c.Weights == "" {
		c.Weights = "leaf"
	}
	if c.Loss == "" {
		c.Loss = "focal"
		if task == data.Regression {
			c.Loss = "mse"
		}
	}
	if c.ClassWeights == "" {
		c.ClassWeights = "balanced"
		if task == data.Regression {
			c.ClassWeights = "none"
		}
	}
	return c
}

// validate checks a configuration with defaults filled in.
func (c Config) validate(task data.Task) error {
	bad := func(name string, v any, want string) error {
		return fmt.Errorf("grande: %s = %v: expected %s", name, v, want)
	}
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	switch {
	case c.Trees < 1 || c.Trees > 1<<20:
		return bad("n_estimators", c.Trees, "1…1048576")
	case c.Depth < 1 || c.Depth > 16:
		return bad("depth", c.Depth, "1…16")
	case !(c.LRWeights >= 0) || !finite(c.LRWeights):
		return bad("lr_weights", c.LRWeights, "a finite value ≥ 0")
	case !(c.LRIndex >= 0) || !finite(c.LRIndex):
		return bad("lr_index", c.LRIndex, "a finite value ≥ 0")
	case !(c.LRValues >= 0) || !finite(c.LRValues):
		return bad("lr_values", c.LRValues, "a finite value ≥ 0")
	case !(c.LRLeaf >= 0) || !finite(c.LRLeaf):
		return bad("lr_leaf", c.LRLeaf, "a finite value ≥ 0")
	case !(c.CosineDecaySteps >= 0) || !finite(c.CosineDecaySteps):
		return bad("cosine_decay_steps", c.CosineDecaySteps, "0 (off), a fraction of an epoch ≤ 1, or a step count > 1")
	case !(c.SelectedVariables > 0) || !finite(c.SelectedVariables):
		return bad("selected_variables", c.SelectedVariables, "a fraction in (0, 1] or a feature count > 1")
	case c.SelectedVariables > 1 && c.SelectedVariables != math.Trunc(c.SelectedVariables):
		return bad("selected_variables", c.SelectedVariables, "a fraction in (0, 1] or a whole feature count > 1")
	case !(c.DataSubsetFraction > 0 && c.DataSubsetFraction <= 1):
		return bad("data_subset_fraction", c.DataSubsetFraction, "a fraction in (0, 1]")
	case !(c.Dropout >= 0 && c.Dropout < 1):
		return bad("dropout", c.Dropout, "a rate in [0, 1)")
	case !(c.FocalGamma >= 0) || !finite(c.FocalGamma):
		return bad("focal_gamma", c.FocalGamma, "a finite value ≥ 0")
	case c.BatchSize < 1:
		return bad("batch_size", c.BatchSize, "at least 1")
	case c.MaxEpochs < 1:
		return bad("epochs", c.MaxEpochs, "at least 1")
	case c.Patience < 1:
		return bad("patience", c.Patience, "at least 1")
	case c.Restarts < 1:
		return bad("restarts", c.Restarts, "at least 1")
	case c.Seed < 0:
		return bad("seed", c.Seed, "≥ 0")
	case c.Workers < 0:
		return bad("workers", c.Workers, "0 (all cores) or more")
	case c.Parallel < 1:
		return bad("parallel", c.Parallel, "at least 1")
	}
	if _, err := tree.ParseSplitFunc(c.Split); err != nil {
		return bad("split", strconv.Quote(c.Split), "softsign, sigmoid or entmoid")
	}
	if _, err := c.weightMode(); err != nil {
		return err
	}
	switch c.ClassWeights {
	case "balanced", "none":
		if task == data.Regression && c.ClassWeights == "balanced" {
			return bad("class_weights", c.ClassWeights, "none for regression")
		}
	default:
		return bad("class_weights", strconv.Quote(c.ClassWeights), "balanced or none")
	}
	switch c.Loss {
	case "focal", "crossentropy":
		if task == data.Regression {
			return bad("loss", c.Loss, "mse for regression")
		}
	case "mse":
		if task != data.Regression {
			return bad("loss", c.Loss, "focal or crossentropy for classification")
		}
	default:
		return bad("loss", strconv.Quote(c.Loss), "focal, crossentropy or mse")
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

// optionNames lists the keys ParseOptions accepts (canonical spellings):
// the shared training options (model.TreeTrainingNames) and GRANDE's own.
var optionNames = append([]string{"n_estimators", "learning_rate", "lr_weights"}, append(append([]string{}, model.TreeTrainingNames...),
	"selected_variables", "data_subset_fraction", "bootstrap", "dropout", "estimator_weights", "estimator_leaf_weights",
	"focal_factor", "seed", "workers", "save_dense")...)

// ParseOptions reads GRANDE options given as text (CLI --set key=value).
// Keys (dashes or underscores): n_estimators, depth, learning_rate (all
// four rates at once, the thesis's reduced grid), lr_weights, lr_index,
// lr_values, lr_leaf (also learning_rate_weights, …), cosine_decay_steps,
// selected_variables, data_subset_fraction, bootstrap, dropout, split
// (split_function), estimator_weights (leaf|estimator),
// estimator_leaf_weights (true|false, GR-paper's switch), loss,
// focal_factor (0 = cross-entropy, γ > 0 = focal loss with γ, as the
// thesis's HPO tables), focal_gamma, class_weights, batch_size, epochs
// (max_epochs), patience (early_stopping_epochs), restarts, seed, workers,
// parallel, save_dense.
func ParseOptions(opts map[string]string) (Config, error) {
	var c Config
	shared := model.TreeTraining{Depth: &c.Depth, LRIndex: &c.LRIndex, LRValues: &c.LRValues, LRLeaf: &c.LRLeaf,
		Split: &c.Split, BatchSize: &c.BatchSize, MaxEpochs: &c.MaxEpochs, Patience: &c.Patience, Restarts: &c.Restarts,
		Loss: &c.Loss, FocalGamma: &c.FocalGamma, ClassWeights: &c.ClassWeights, CosineDecaySteps: &c.CosineDecaySteps,
		Parallel: &c.Parallel}
	err := model.EachOption("grande", opts, optionNames, func(o *model.Option) error {
		if shared.Set(o) {
			return nil
		}
		switch o.Key {
		case "n_estimators", "trees", "estimators":
			c.Trees = o.NonZeroInt()
		case "learning_rate", "lr":
			lr := o.NonZeroFloat()
			c.LRWeights, c.LRIndex, c.LRValues, c.LRLeaf = lr, lr, lr, lr
		case "lr_weights", "learning_rate_weights":
			c.LRWeights = o.NonZeroFloat()
		case "selected_variables":
			c.SelectedVariables = o.NonZeroFloat()
		case "data_subset_fraction":
			c.DataSubsetFraction = o.NonZeroFloat()
		case "bootstrap":
			c.Bootstrap = o.Bool()
		case "dropout":
			c.Dropout = o.Float()
		case "estimator_weights", "weights":
			c.Weights = o.Lower()
		case "estimator_leaf_weights":
			if o.Bool() {
				c.Weights = "leaf"
			} else {
				c.Weights = "estimator"
			}
		case "focal_factor":
			if g := o.Float(); g == 0 {
				c.Loss = "crossentropy"
			} else {
				c.Loss, c.FocalGamma = "focal", g
			}
		case "seed", "random_seed":
			c.Seed = o.NonZeroInt64()
		case "workers":
			c.Workers = o.Int()
		case "save_dense":
			c.SaveDense = o.Bool()
		default:
			return model.ErrUnknownOption
		}
		return nil
	})
	return c, err
}
