package gdt

import (
	"context"
	"strconv"

	"github.com/gdt-ml/gdt/cart"
	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/forest"
	"github.com/gdt-ml/gdt/gradtree"
	"github.com/gdt-ml/gdt/grande"
	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/train"
)

// The model kinds of the estimators (model.LookupKind names; the "kind"
// field of a model file).
const (
	KindGradTree     = "gradtree"
	KindGRANDE       = "grande"
	KindCART         = "cart"
	KindRandomForest = "random-forest"
)

// thesisSeed is the model seed of the thesis's runs and of `gdt train`.
const thesisSeed = 42

// options writes config fields as a kind's text options, leaving zero
// fields out so the kind applies its own default.
type options map[string]string

func (o options) int(k string, v int) {
	if v != 0 {
		o[k] = strconv.Itoa(v)
	}
}

func (o options) float(k string, v float64) {
	if v != 0 {
		o[k] = strconv.FormatFloat(v, 'g', -1, 64)
	}
}

func (o options) str(k, v string) {
	if v != "" {
		o[k] = v
	}
}

// set writes k=value when on is true.
func (o options) set(k, value string, on bool) {
	if on {
		o[k] = value
	}
}

// fitMatrix is FitMatrix for every estimator.
func fitMatrix(ctx context.Context, e Estimator, X [][]float64, y []float64, task data.Task) error {
	t, err := TableOf(X, nil)
	if err != nil {
		return err
	}
	ds, err := NewDataset(t, y, task)
	if err != nil {
		return err
	}
	return e.Fit(ctx, ds)
}

// ---------------------------------------------------------------- GradTree

// GradTreeConfig holds GradTree's hyperparameters. The zero value means the
// published defaults of the GradTree study (thesis chapter "Learning
// Axis-Aligned Decision Trees with Gradient Descent", default-hyperparameter
// table; spec/gradtree-grande.md §8.1, GT-paper columns), which differ
// between binary and multiclass tasks where the paper's runs did.
// Field names follow gradtree.Config; the option key of each field (the
// CLI's `--set key=value`) is given in brackets.
type GradTreeConfig struct {
	// Depth is the tree depth d [depth]. Default 10.
	Depth int
	// LRIndex is the Adam learning rate of the split-index logits Z
	// [lr_index]. Default 0.05.
	LRIndex float64
	// LRValues is the learning rate of the split thresholds T [lr_values].
	// Default 0.01.
	LRValues float64
	// LRLeaf is the learning rate of the leaf values Λ [lr_leaf]. Default
	// 0.005 for binary and regression, 0.05 for multiclass tasks.
	LRLeaf float64
	// Split is the soft split function [split]: sigmoid (default),
	// softsign or entmoid.
	Split string
	// Init is the parameter initialiser [init]: glorot (default,
	// GlorotUniform as GT-paper) or normal (N(0, 0.05²), GT-pkg).
	Init string

	// BatchSize is the minibatch size [batch_size]. Default 128 (capped
	// at ⌈N/2⌉).
	BatchSize int
	// MaxEpochs is the epoch limit [epochs]. Default 10,000.
	MaxEpochs int
	// Patience is the early-stopping patience in epochs on the validation
	// loss [patience]. Default 200.
	Patience int
	// Restarts is the number of random restarts; the one with the best
	// validation loss is kept [restarts]. Default 5 for binary, 3 for
	// multiclass and regression tasks.
	Restarts int

	// Loss is the training loss [loss]: default binary cross-entropy for
	// binary tasks, focal loss with FocalGamma for multiclass tasks (the
	// GT-paper defaults) and MSE on the standardised target for regression;
	// "crossentropy" or "focal" for classification.
	Loss string
	// FocalGamma is the focal loss's γ [focal_gamma]. Default 3.
	FocalGamma float64
	// PolyLoss adds ε·(1 − p_t) to the loss (Poly-1) [poly_loss]. Default
	// off.
	PolyLoss bool
	// PolyEpsilon is PolyLoss's ε [poly_epsilon]. Default 2.
	PolyEpsilon float64
	// ClassWeights is "" or "none" (default: GT-paper balances classes by
	// SMOTE in its preprocessing instead) or "balanced" (sklearn's
	// balanced weights per sample) [class_weights].
	ClassWeights string
	// CosineDecaySteps > 0 applies cosine decay with restarts every that
	// many optimiser steps (spec §5.3) [cosine_decay_steps]. Default 0:
	// constant learning rates.
	CosineDecaySteps float64
	// NoPrune keeps the unpruned tree [prune=false]. Default: prune with
	// the training rows (GT-paper, spec §7.1).
	NoPrune bool
	// Parallel is the number of restarts trained at once [parallel].
	// Default 0: all of them. Results do not depend on it.
	Parallel int

	// Seed seeds the validation hold-out, the preprocessing and the model;
	// restart r uses Seed + r(r+1)/2. 0 means 42, the thesis's seed and
	// `gdt train`'s default.
	Seed int64
	// Protocol is the preprocessing (preprocess.ProtocolNames). Default
	// "gt-paper": leave-one-out encoding of categoricals, quantile
	// transform with noise 1e−3 and SMOTE (spec §6.1).
	Protocol string
	// ValidFraction is the share of the fitted rows held out for early
	// stopping. Default 0.2 (model.Spec).
	ValidFraction float64
}

// DefaultGradTreeConfig returns the published defaults for task spelled
// out (spec §8.1, GT-paper binary and multiclass columns; regression
// follows the binary column with the MSE loss). Fitting with it trains the
// same model as the zero GradTreeConfig.
func DefaultGradTreeConfig(task data.Task) GradTreeConfig {
	c := GradTreeConfig{Depth: 10, LRIndex: 0.05, LRValues: 0.01, LRLeaf: 0.005, Split: "sigmoid", Init: "glorot",
		BatchSize: 128, MaxEpochs: 10000, Patience: 200, Restarts: 3, Loss: "crossentropy", FocalGamma: 3, PolyEpsilon: 2,
		Seed: thesisSeed, Protocol: "gt-paper"}
	switch task {
	case data.Binary:
		c.Restarts = 5
	case data.Multiclass:
		c.LRLeaf, c.Loss = 0.05, "focal"
	case data.Regression:
		c.Loss = "mse"
	}
	return c
}

// Options returns the configuration as the gradtree kind's options (the
// CLI's --set key=value), leaving zero fields out. Seed, Protocol and
// ValidFraction are not options (they are model.Spec fields).
func (c GradTreeConfig) Options() map[string]string {
	o := options{}
	o.int("depth", c.Depth)
	o.float("lr_index", c.LRIndex)
	o.float("lr_values", c.LRValues)
	o.float("lr_leaf", c.LRLeaf)
	o.str("split", c.Split)
	o.str("init", c.Init)
	o.int("batch_size", c.BatchSize)
	o.int("epochs", c.MaxEpochs)
	o.int("patience", c.Patience)
	o.int("restarts", c.Restarts)
	o.str("loss", c.Loss)
	o.float("focal_gamma", c.FocalGamma)
	o.set("poly_loss", "true", c.PolyLoss)
	o.float("poly_epsilon", c.PolyEpsilon)
	o.str("class_weights", c.ClassWeights)
	o.float("cosine_decay_steps", c.CosineDecaySteps)
	o.set("prune", "false", c.NoPrune)
	o.int("parallel", c.Parallel)
	return o
}

// gradTreeConfigFromOptions reads saved options through the kind's parser.
func gradTreeConfigFromOptions(opts map[string]string) (GradTreeConfig, error) {
	k, err := gradtree.ParseOptions(opts)
	if err != nil {
		return GradTreeConfig{}, err
	}
	return GradTreeConfig{Depth: k.Depth, LRIndex: k.LRIndex, LRValues: k.LRValues, LRLeaf: k.LRLeaf, Split: k.Split, Init: k.Init,
		BatchSize: k.BatchSize, MaxEpochs: k.MaxEpochs, Patience: k.Patience, Restarts: k.Restarts, Loss: k.Loss,
		FocalGamma: k.FocalGamma, PolyLoss: k.PolyLoss, PolyEpsilon: k.PolyEpsilon, ClassWeights: k.ClassWeights,
		CosineDecaySteps: k.CosineDecaySteps, NoPrune: k.NoPrune, Parallel: k.Parallel}, nil
}

// GradTree is one hard, axis-aligned decision tree learned by gradient
// descent (package gradtree). After Fit it predicts with exactly the plain
// tree String prints.
type GradTree struct {
	Config GradTreeConfig
	// Progress, if set, is called after every training epoch.
	Progress func(train.Progress)
	Model
}

// Kind returns "gradtree".
func (e *GradTree) Kind() string { return KindGradTree }

// Fit trains on ds; see Estimator.
func (e *GradTree) Fit(ctx context.Context, ds *data.Dataset) error {
	seed := e.Config.Seed
	if seed == 0 {
		seed = thesisSeed
	}
	return e.fit(ctx, ds, model.Spec{Kind: KindGradTree, Options: e.Config.Options(), Protocol: e.Config.Protocol,
		Seed: seed, ValidFraction: e.Config.ValidFraction, Progress: e.Progress})
}

// FitMatrix trains on plain numeric rows; see Estimator.
func (e *GradTree) FitMatrix(ctx context.Context, X [][]float64, y []float64, task data.Task) error {
	return fitMatrix(ctx, e, X, y, task)
}

// ------------------------------------------------------------------ GRANDE

// GRANDEConfig holds GRANDE's hyperparameters. The zero value means the
// published defaults of the GRANDE study (thesis chapter "Gradient-Based
// Decision Tree Ensembles", default-parameter tables; spec/gradtree-grande.md
// §8.2, GR-paper column). Field names follow grande.Config; the option key of
// each field is given in brackets.
type GRANDEConfig struct {
	// Trees is the number of estimators E [n_estimators]. Default 2048.
	Trees int
	// Depth is the depth of every tree [depth]. Default 6.
	Depth int

	// LRWeights is the learning rate of the leaf weights W [lr_weights].
	// Default 0.005.
	LRWeights float64
	// LRIndex is the learning rate of the split-index logits Z [lr_index].
	// Default 0.01.
	LRIndex float64
	// LRValues is the learning rate of the split thresholds T [lr_values].
	// Default 0.01.
	LRValues float64
	// LRLeaf is the learning rate of the leaf values Λ [lr_leaf]. Default
	// 0.01.
	LRLeaf float64
	// CosineDecaySteps > 0 applies cosine decay with restarts (a value ≤ 1
	// is a fraction of an epoch, a larger value a step count; spec §5.3)
	// [cosine_decay_steps]. Default 0: constant rates.
	CosineDecaySteps float64

	// SelectedVariables is every tree's feature subset [selected_variables]:
	// a fraction f ≤ 1 gives min(n, max(10, min(50, ⌊n·f⌋))) features, a
	// value > 1 a count (spec §2.8). Default 0.8.
	SelectedVariables float64
	// DataSubsetFraction < 1 trains every tree on a fixed random fraction
	// of the rows [data_subset_fraction] (spec §2.9). Default 1 (off).
	DataSubsetFraction float64
	// Bootstrap draws every tree's rows with replacement [bootstrap].
	// Default off.
	Bootstrap bool
	// Dropout is the estimator-dropout rate in [0, 1) [dropout] (spec
	// §2.7). Default 0.
	Dropout float64

	// Split is the soft split function [split]: softsign (default),
	// sigmoid or entmoid.
	Split string
	// Weights is "leaf" (default: instance-wise leaf weights, GRANDE) or
	// "estimator" (one weight per tree, the thesis's ablation)
	// [estimator_weights].
	Weights string

	// Loss is "focal" (default for classification: focal loss with γ =
	// FocalGamma, binary with α = 0.5 balancing as GR-paper),
	// "crossentropy", or "mse" (regression's only loss, the default there)
	// [loss].
	Loss string
	// FocalGamma is the focal loss's γ [focal_gamma]. Default 2.
	FocalGamma float64
	// ClassWeights is "balanced" (default for classification: sklearn's
	// balanced weights per sample) or "none" (regression's default)
	// [class_weights].
	ClassWeights string

	// BatchSize is the minibatch size [batch_size]. Default 64, then
	// min(·, ⌈N/2⌉), +1 while N mod B = 1.
	BatchSize int
	// MaxEpochs is the epoch limit [epochs]. Default 10,000.
	MaxEpochs int
	// Patience is the early-stopping patience in epochs [patience].
	// Default 25.
	Patience int
	// Restarts is the number of random restarts [restarts]. Default 1.
	Restarts int

	// Workers is the number of goroutines of a training step and of
	// prediction [workers]. Default 0: GOMAXPROCS. Results do not depend on
	// it.
	Workers int
	// Parallel is the number of restarts trained at once [parallel].
	// Default 1.
	Parallel int
	// SaveDense also saves the dense parameters [save_dense]. Default off:
	// only what prediction and explanation need.
	SaveDense bool

	// Seed seeds the validation hold-out, the preprocessing and the model;
	// restart r uses Seed + r(r+1)/2. 0 means 42, the thesis's seed and
	// `gdt train`'s default.
	Seed int64
	// Protocol is the preprocessing (preprocess.ProtocolNames). Default
	// "gr-paper": label, one-hot or leave-one-out encoding by the number of
	// levels, quantile transform with noise 1e−3 (spec §6.2).
	Protocol string
	// ValidFraction is the share of the fitted rows held out for early
	// stopping. Default 0.2 (model.Spec; GR-paper's benchmark protocol
	// holds out a stratified 10 % inside each fold, which `gdt bench`
	// reproduces).
	ValidFraction float64
}

// DefaultGRANDEConfig returns the published defaults for task spelled out
// (spec §8.2, GR-paper column; regression with the MSE loss and no class
// weights), as grande.Config.Defaults fills them. Fitting with it trains the
// same model as the zero GRANDEConfig.
func DefaultGRANDEConfig(task data.Task) GRANDEConfig {
	c := fromGrandeConfig(grande.Config{}.Defaults(task))
	c.Seed, c.Protocol = thesisSeed, "gr-paper"
	return c
}

// Options returns the configuration as the grande kind's options, leaving
// zero fields out. Seed, Protocol and ValidFraction are model.Spec fields.
func (c GRANDEConfig) Options() map[string]string {
	o := options{}
	o.int("n_estimators", c.Trees)
	o.int("depth", c.Depth)
	o.float("lr_weights", c.LRWeights)
	o.float("lr_index", c.LRIndex)
	o.float("lr_values", c.LRValues)
	o.float("lr_leaf", c.LRLeaf)
	o.float("cosine_decay_steps", c.CosineDecaySteps)
	o.float("selected_variables", c.SelectedVariables)
	o.float("data_subset_fraction", c.DataSubsetFraction)
	o.set("bootstrap", "true", c.Bootstrap)
	o.float("dropout", c.Dropout)
	o.str("split", c.Split)
	o.str("estimator_weights", c.Weights)
	o.str("loss", c.Loss)
	o.float("focal_gamma", c.FocalGamma)
	o.str("class_weights", c.ClassWeights)
	o.int("batch_size", c.BatchSize)
	o.int("epochs", c.MaxEpochs)
	o.int("patience", c.Patience)
	o.int("restarts", c.Restarts)
	o.int("workers", c.Workers)
	o.int("parallel", c.Parallel)
	o.set("save_dense", "true", c.SaveDense)
	return o
}

func fromGrandeConfig(k grande.Config) GRANDEConfig {
	return GRANDEConfig{Trees: k.Trees, Depth: k.Depth, LRWeights: k.LRWeights, LRIndex: k.LRIndex, LRValues: k.LRValues,
		LRLeaf: k.LRLeaf, CosineDecaySteps: k.CosineDecaySteps, SelectedVariables: k.SelectedVariables,
		DataSubsetFraction: k.DataSubsetFraction, Bootstrap: k.Bootstrap, Dropout: k.Dropout, Split: k.Split,
		Weights: k.Weights, Loss: k.Loss, FocalGamma: k.FocalGamma, ClassWeights: k.ClassWeights, BatchSize: k.BatchSize,
		MaxEpochs: k.MaxEpochs, Patience: k.Patience, Restarts: k.Restarts, Workers: k.Workers, Parallel: k.Parallel,
		SaveDense: k.SaveDense}
}

// grandeConfigFromOptions reads saved options through the kind's parser.
func grandeConfigFromOptions(opts map[string]string) (GRANDEConfig, error) {
	k, err := grande.ParseOptions(opts)
	if err != nil {
		return GRANDEConfig{}, err
	}
	return fromGrandeConfig(k), nil
}

// GRANDE is an ensemble of hard, axis-aligned trees learned jointly by
// gradient descent whose outputs are combined with instance-wise leaf
// weights (package grande).
type GRANDE struct {
	Config GRANDEConfig
	// Progress, if set, is called after every training epoch.
	Progress func(train.Progress)
	Model
}

// Kind returns "grande".
func (e *GRANDE) Kind() string { return KindGRANDE }

// Fit trains on ds; see Estimator.
func (e *GRANDE) Fit(ctx context.Context, ds *data.Dataset) error {
	seed := e.Config.Seed
	if seed == 0 {
		seed = thesisSeed
	}
	return e.fit(ctx, ds, model.Spec{Kind: KindGRANDE, Options: e.Config.Options(), Protocol: e.Config.Protocol,
		Seed: seed, ValidFraction: e.Config.ValidFraction, Progress: e.Progress})
}

// FitMatrix trains on plain numeric rows; see Estimator.
func (e *GRANDE) FitMatrix(ctx context.Context, X [][]float64, y []float64, task data.Task) error {
	return fitMatrix(ctx, e, X, y, task)
}

// -------------------------------------------------------------------- CART

// CARTConfig holds the hyperparameters of a greedy CART tree (package cart,
// scikit-learn's DecisionTreeClassifier/Regressor tree for tree). The zero
// value is scikit-learn's default (unlimited depth, random_state 0);
// DefaultCARTConfig is the thesis's CART baseline. The option key of each
// field is given in brackets.
type CARTConfig struct {
	// Criterion is gini (default for classification), entropy or
	// squared_error (regression's default) [criterion].
	Criterion string
	// MaxDepth is the maximum depth [max_depth]. Default 0: unlimited
	// (sklearn max_depth=None); the thesis's CART uses 10.
	MaxDepth int
	// MinSamplesSplit is the minimum number of rows a node needs to be
	// split [min_samples_split]. Default 2.
	MinSamplesSplit int
	// MinSamplesLeaf is the minimum number of rows on each side of a split
	// [min_samples_leaf]. Default 1.
	MinSamplesLeaf int
	// MaxFeatures is the number of features drawn at each node
	// [max_features]. Default 0: all.
	MaxFeatures int
	// MinImpurityDecrease is the weighted impurity decrease a split needs
	// [min_impurity_decrease]. Default 0.
	MinImpurityDecrease float64
	// ClassWeight is "" (none, the default) or "balanced" [class_weight].
	ClassWeight string
	// Seed is sklearn's random_state, in [0, 2^32−1]: it orders the
	// features visited at each node, which breaks ties. Default 0; the
	// thesis's CART uses 42.
	Seed int64
	// Protocol is the preprocessing (preprocess.ProtocolNames). Default
	// "none": no scaling, categoricals one-hot encoded.
	Protocol string
}

// DefaultCARTConfig returns the thesis's CART baseline: sklearn's
// DecisionTreeClassifier(max_depth=10, random_state=42), the CART column of
// the GradTree study (spec §9.1, §10.2; `gdt bench --models cart`).
func DefaultCARTConfig() CARTConfig {
	return CARTConfig{MaxDepth: 10, Seed: thesisSeed}
}

// Options returns the configuration as the cart kind's options, leaving
// zero fields out. Seed and Protocol are model.Spec fields.
func (c CARTConfig) Options() map[string]string {
	o := options{}
	o.str("criterion", c.Criterion)
	o.int("max_depth", c.MaxDepth)
	o.int("min_samples_split", c.MinSamplesSplit)
	o.int("min_samples_leaf", c.MinSamplesLeaf)
	o.int("max_features", c.MaxFeatures)
	o.float("min_impurity_decrease", c.MinImpurityDecrease)
	o.str("class_weight", c.ClassWeight)
	return o
}

// cartConfigFromOptions reads saved options through the kind's parser.
func cartConfigFromOptions(opts map[string]string) (CARTConfig, error) {
	k, err := cart.ParseOptions(opts)
	if err != nil {
		return CARTConfig{}, err
	}
	c := CARTConfig{MaxDepth: k.MaxDepth, MinSamplesSplit: k.MinSamplesSplit, MinSamplesLeaf: k.MinSamplesLeaf,
		MaxFeatures: k.MaxFeatures, MinImpurityDecrease: k.MinImpurityDecrease}
	if k.Criterion != cart.DefaultCriterion {
		c.Criterion = k.Criterion.String()
	}
	if k.Balanced {
		c.ClassWeight = "balanced"
	}
	return c, nil
}

// CART is a greedy CART decision tree (package cart), the thesis's
// baseline for GradTree.
type CART struct {
	Config CARTConfig
	Model
}

// Kind returns "cart".
func (e *CART) Kind() string { return KindCART }

// Fit trains on ds; see Estimator.
func (e *CART) Fit(ctx context.Context, ds *data.Dataset) error {
	return e.fit(ctx, ds, model.Spec{Kind: KindCART, Options: e.Config.Options(), Protocol: e.Config.Protocol, Seed: e.Config.Seed})
}

// FitMatrix trains on plain numeric rows; see Estimator.
func (e *CART) FitMatrix(ctx context.Context, X [][]float64, y []float64, task data.Task) error {
	return fitMatrix(ctx, e, X, y, task)
}

// ------------------------------------------------------------ RandomForest

// RandomForestConfig holds the hyperparameters of a random forest of CART
// trees (package forest, scikit-learn's RandomForestClassifier/Regressor).
// The zero value is scikit-learn's default, which is the thesis's
// RandomForest baseline of the GRANDE study (spec §10.7). The option key of
// each field is given in brackets.
type RandomForestConfig struct {
	// Trees is n_estimators [n_estimators]. Default 100.
	Trees int
	// MaxFeatures is the number of features tried at each node
	// [max_features]: "sqrt" (classification's default), "log2", "all"
	// (regression's default), a count ("7") or a fraction ("0.5").
	MaxFeatures string
	// MaxDepth is the maximum depth [max_depth]. Default 0: unlimited.
	MaxDepth int
	// MinSamplesSplit [min_samples_split] (default 2) and MinSamplesLeaf
	// [min_samples_leaf] (default 1) as in CARTConfig.
	MinSamplesSplit int
	MinSamplesLeaf  int
	// Criterion is gini (default), entropy, or squared_error (regression)
	// [criterion].
	Criterion string
	// NoBootstrap grows every tree on all rows [bootstrap=false]. Default:
	// bootstrap samples.
	NoBootstrap bool
	// ClassWeight is "" (none, the default) or "balanced" [class_weight].
	ClassWeight string
	// Workers is the number of trees fitted at once [workers]. Default 0:
	// GOMAXPROCS. Results do not depend on it.
	Workers int
	// Seed is sklearn's random_state, in [0, 2^32−1]. Default 0.
	Seed int64
	// Protocol is the preprocessing (preprocess.ProtocolNames). Default
	// "none".
	Protocol string
}

// DefaultRandomForestConfig returns the thesis's RandomForest baseline
// spelled out where it does not depend on the task: scikit-learn's
// defaults, 100 fully grown trees on bootstrap samples (spec §10.7).
func DefaultRandomForestConfig() RandomForestConfig {
	return RandomForestConfig{Trees: 100}
}

// Options returns the configuration as the random-forest kind's options,
// leaving zero fields out. Seed and Protocol are model.Spec fields.
func (c RandomForestConfig) Options() map[string]string {
	o := options{}
	o.int("n_estimators", c.Trees)
	o.str("max_features", c.MaxFeatures)
	o.int("max_depth", c.MaxDepth)
	o.int("min_samples_split", c.MinSamplesSplit)
	o.int("min_samples_leaf", c.MinSamplesLeaf)
	o.str("criterion", c.Criterion)
	o.set("bootstrap", "false", c.NoBootstrap)
	o.str("class_weight", c.ClassWeight)
	o.int("workers", c.Workers)
	return o
}

// forestConfigFromOptions reads saved options through the kind's parser.
func forestConfigFromOptions(opts map[string]string) (RandomForestConfig, error) {
	k, err := forest.ParseOptions(opts)
	if err != nil {
		return RandomForestConfig{}, err
	}
	return RandomForestConfig{Trees: k.Trees, MaxFeatures: k.MaxFeatures, MaxDepth: k.MaxDepth, MinSamplesSplit: k.MinSamplesSplit,
		MinSamplesLeaf: k.MinSamplesLeaf, Criterion: k.Criterion, NoBootstrap: k.NoBootstrap, ClassWeight: k.ClassWeight,
		Workers: k.Workers}, nil
}

// RandomForest is a random forest of bagged CART trees (package forest),
// the thesis's ensemble baseline for GRANDE.
type RandomForest struct {
	Config RandomForestConfig
	Model
}

// Kind returns "random-forest".
func (e *RandomForest) Kind() string { return KindRandomForest }

// Fit trains on ds; see Estimator.
func (e *RandomForest) Fit(ctx context.Context, ds *data.Dataset) error {
	return e.fit(ctx, ds, model.Spec{Kind: KindRandomForest, Options: e.Config.Options(), Protocol: e.Config.Protocol, Seed: e.Config.Seed})
}

// FitMatrix trains on plain numeric rows; see Estimator.
func (e *RandomForest) FitMatrix(ctx context.Context, X [][]float64, y []float64, task data.Task) error {
	return fitMatrix(ctx, e, X, y, task)
}

// Compile-time checks that every estimator follows the contract.
var (
	_ Estimator = (*GradTree)(nil)
	_ Estimator = (*GRANDE)(nil)
	_ Estimator = (*CART)(nil)
	_ Estimator = (*RandomForest)(nil)
)
