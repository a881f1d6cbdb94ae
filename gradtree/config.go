// Package gradtree is the GradTree estimator: one hard, axis-aligned
// decision tree whose split features, thresholds and leaf values are learned
// jointly by gradient descent through straight-through operators (thesis
// chapter "Learning Axis-Aligned Decision Trees with Gradient Descent").
// It trains on package tree's kernel with E = 1, prunes the tree with the
// training rows, and predicts with exactly the plain tree it prints.
package gradtree

import (
	"fmt"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/option"
)

// Config holds GradTree's hyperparameters. Zero values mean the published
// defaults of the GradTree study (spec §8.1, GT-paper column), which depend
// on the task where the paper's binary and multiclass runs differed.
type Config struct {
	Depth    int     // tree depth d (default 10)
	LRIndex  float64 // learning rate of the split-index logits (default 0.05)
	LRValues float64 // learning rate of the split thresholds (default 0.01)
	LRLeaf   float64 // learning rate of the leaves (default 0.005 binary/regression, 0.05 multiclass)
	Split    string  // split function: sigmoid (default), softsign, entmoid
	Init     string  // glorot (default, GT-paper) or normal (N(0, 0.05²))

	BatchSize int // default 128 (capped at ceil(N/2))
	MaxEpochs int // default 10,000
	Patience  int // early-stopping patience in epochs (default 200)
	Restarts  int // random restarts (default 5 binary, 3 multiclass and regression)

	// Loss: "" (default: binary cross-entropy for binary, focal with
	// FocalGamma for multiclass — the GT-paper defaults; MSE on the
	// standardised target for regression), "crossentropy", or "focal".
	Loss        string
	FocalGamma  float64 // focal γ (default 3)
	PolyLoss    bool    // add ε·(1 − p_t) (Poly-1)
	PolyEpsilon float64 // default 2

	ClassWeights string // "" (none; the GT-paper balanced with SMOTE) or "balanced"

	// CosineDecaySteps > 0 applies cosine decay with restarts (Keras
	// CosineDecayRestarts, t_mul 2): a value ≤ 1 is a fraction of an epoch
	// (first decay after max(10, ⌊steps per epoch · c⌋) steps), a larger
	// value a step count (spec §5.3), as in GRANDE. 0 (default) keeps the
	// rates constant.
	CosineDecaySteps float64

	NoPrune bool  // keep the unpruned tree (default: prune with the training rows, min 1 sample)
	Seed    int64 // model seed (default 42); restart r uses Seed + r(r+1)/2
	// Parallel is the number of restarts trained at once (0 = all of them:
	// restarts stop after different numbers of epochs, so keeping them all
	// in progress, with train's slots giving the cores between epochs to the
	// runs that improved most recently, keeps every core busy until the
	// last one ends).
	Parallel int
}

// withDefaults fills the zero fields with the declared defaults for the
// task.
func (c Config) withDefaults(task data.Task) Config {
	return Options.Defaults(c, task.String())
}

func (c Config) validate(task data.Task) error {
	if err := Options.CheckConfig(c); err != nil {
		return err
	}
	if (task == data.Regression) != (c.Loss == "mse") {
		want := "crossentropy or focal for classification"
		if task == data.Regression {
			want = "mse for regression"
		}
		return fmt.Errorf("gradtree: loss = %v: expected %s", c.Loss, want)
	}
	return nil
}

// ParseOptions reads GradTree options given as text (CLI --set key=value).
func ParseOptions(opts map[string]string) (Config, error) { return Options.Parse(opts) }

// Defaults returns the published defaults for task spelled out (spec §8.1,
// GT-paper binary and multiclass columns; regression follows the binary
// column with the MSE loss). Training with it trains the same model as the
// zero Config.
func Defaults(task data.Task) Config { return Options.Defaults(Config{}, task.String()) }

// Options declares GradTree's options (spec §8.1, GT-paper column): the
// CLI's --set, the library's Config, `gdt models gradtree` and tune's
// search spaces all read it.
var Options = &option.List[Config]{Kind: "gradtree", Options: []option.Option[Config]{
	option.IntOpt("depth", "10", 1, 16, model.MeaningDepth, func(c *Config) any { return &c.Depth }),
	option.FloatOpt("lr_index", "0.05", 0, option.Unbounded, model.MeaningLRIndex, func(c *Config) any { return &c.LRIndex }).
		Open(true, false).LogScale().Also("learning_rate_index"),
	option.FloatOpt("lr_values", "0.01", 0, option.Unbounded, model.MeaningLRValues, func(c *Config) any { return &c.LRValues }).
		Open(true, false).LogScale().Also("learning_rate_values"),
	option.FloatOpt("lr_leaf", "0.005", 0, option.Unbounded, model.MeaningLRLeaf, func(c *Config) any { return &c.LRLeaf }).
		Open(true, false).LogScale().Also("learning_rate_leaf").ByTask(map[string]string{"multiclass": "0.05"}),
	option.ChoiceOpt("split", "sigmoid", model.SplitFunctions, model.MeaningSplit, func(c *Config) any { return &c.Split }).Also("split_function"),
	option.ChoiceOpt("init", "glorot", []string{"glorot", "normal"}, "parameter initialiser: glorot (GlorotUniform, GT-paper) or normal (N(0, 0.05²), GT-pkg)",
		func(c *Config) any { return &c.Init }).Also("initializer"),
	option.IntOpt("batch_size", "128", 1, option.Unbounded, model.MeaningBatchSize, func(c *Config) any { return &c.BatchSize }).
		Note("capped at ⌈N/2⌉"),
	option.IntOpt("epochs", "10000", 1, option.Unbounded, model.MeaningEpochs, func(c *Config) any { return &c.MaxEpochs }).Also("max_epochs"),
	option.IntOpt("patience", "200", 1, option.Unbounded, model.MeaningPatience, func(c *Config) any { return &c.Patience }).
		Also("early_stopping_epochs"),
	option.IntOpt("restarts", "3", 1, option.Unbounded, model.MeaningRestarts, func(c *Config) any { return &c.Restarts }).
		ByTask(map[string]string{"binary": "5"}),
	option.ChoiceOpt("loss", "", []string{"crossentropy", "focal", "mse"}, model.MeaningLoss, func(c *Config) any { return &c.Loss }).
		ByTask(map[string]string{"binary": "crossentropy", "multiclass": "focal", "regression": "mse"}),
	option.FloatOpt("focal_gamma", "3", 0, option.Unbounded, model.MeaningFocalGamma, func(c *Config) any { return &c.FocalGamma }),
	option.BoolOpt("poly_loss", "false", "add ε·(1 − p_t) to the loss (Poly-1)", func(c *Config) any { return &c.PolyLoss }),
	option.FloatOpt("poly_epsilon", "2", 0, option.Unbounded, "PolyLoss's ε", func(c *Config) any { return &c.PolyEpsilon }),
	option.ChoiceOpt("class_weights", "none", []string{"none", "balanced"}, model.MeaningClassWeights,
		func(c *Config) any { return &c.ClassWeights }).Also("class_weight").Note("GT-paper balances classes by SMOTE in its preprocessing instead"),
	option.FloatOpt("cosine_decay_steps", "0", 0, option.Unbounded, model.MeaningCosineDecaySteps,
		func(c *Config) any { return &c.CosineDecaySteps }),
	option.BoolOpt("prune", "true", "prune the trained tree with the training rows (GT-paper, spec §7.1)", func(c *Config) any { return &c.NoPrune }).Inverted(),
	option.IntOpt("parallel", "0", 0, option.Unbounded, "restarts trained at once (0: all of them); results do not depend on it",
		func(c *Config) any { return &c.Parallel }),
	option.IntOpt("seed", "42", 0, option.Unbounded, model.MeaningSeed, func(c *Config) any { return &c.Seed }).Also("random_seed"),
}}
