package gdt

import (
	"context"
	"errors"

	"github.com/gdt-ml/gdt/cart"
	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/forest"
	"github.com/gdt-ml/gdt/gradtree"
	"github.com/gdt-ml/gdt/grande"
	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/option"
	"github.com/gdt-ml/gdt/train"
)

// The model kinds of the estimators (model.LookupKind names; the "kind"
// field of a model file).
const (
	KindGradTree     = "gradtree"
	KindGRANDE       = "grande"
	KindGRANDEFast   = "grande-fast"
	KindCART         = "cart"
	KindRandomForest = "random-forest"
)

// thesisSeed is the model seed of the thesis's runs and of `gdt train`.
const thesisSeed = 42

// The estimators' configurations are the model packages' own: every field
// is an option the kind declares once (key, default, range, meaning; `gdt
// models KIND` lists them), and a Config becomes the kind's text options
// through that declaration, so a Config and the CLI's `--set key=value`
// mean the same thing. Zero fields take the declared defaults.
type (
	// GradTreeConfig holds GradTree's hyperparameters (gradtree.Options).
	GradTreeConfig = gradtree.Config
	// GRANDEConfig holds GRANDE's hyperparameters (grande.Options).
	GRANDEConfig = grande.Config
	// CARTConfig holds a CART tree's hyperparameters (cart.Options); its
	// zero value is scikit-learn's default. ClassWeight (explicit weights
	// per class) has no option form and is refused by CART.Fit; use
	// Balanced.
	CARTConfig = cart.Config
	// RandomForestConfig holds a random forest's hyperparameters
	// (forest.Options); its zero value is scikit-learn's default, the
	// thesis's RandomForest baseline.
	RandomForestConfig = forest.Config
)

// Fitting holds what every estimator's fit needs besides the model's
// options: the preprocessing and the validation hold-out.
type Fitting struct {
	// Protocol is the preprocessing (preprocess.ProtocolNames). Default:
	// the kind's own ("gt-paper" for GradTree: leave-one-out encoding of
	// categoricals, quantile transform with noise 1e−3 and SMOTE, spec
	// §6.1; "gr-paper" for GRANDE, spec §6.2; "none" for CART and the
	// forest: no scaling, categoricals one-hot encoded).
	Protocol string
	// ValidFraction is the share of the fitted rows held out for early
	// stopping by the kinds that early-stop. Default 0.2 (model.Spec).
	ValidFraction float64
}

// spec builds the model.Spec of a fit: the configuration as the kind's
// declared options, and seed (0 means 42, the thesis's seed and `gdt
// train`'s default).
func spec[C any](kind string, decl *option.List[C], c C, seed int64, f Fitting, progress func(train.Progress)) model.Spec {
	if seed == 0 {
		seed = thesisSeed
	}
	return model.Spec{Kind: kind, Options: decl.Format(c), Protocol: f.Protocol, Seed: seed,
		ValidFraction: f.ValidFraction, Progress: progress}
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

// DefaultGradTreeConfig returns the published defaults for task spelled
// out (spec §8.1, GT-paper binary and multiclass columns; regression
// follows the binary column with the MSE loss). Fitting with it trains the
// same model as the zero GradTreeConfig.
func DefaultGradTreeConfig(task data.Task) GradTreeConfig { return gradtree.Defaults(task) }

// GradTree is one hard, axis-aligned decision tree learned by gradient
// descent (package gradtree). After Fit it predicts with exactly the plain
// tree String prints.
type GradTree struct {
	// Config's Seed seeds the validation hold-out, the preprocessing and
	// the model (0: 42).
	Config GradTreeConfig
	Fitting
	// Progress, if set, is called after every training epoch.
	Progress func(train.Progress)
	Model
}

// Kind returns "gradtree".
func (e *GradTree) Kind() string { return KindGradTree }

// Fit trains on ds; see Estimator.
func (e *GradTree) Fit(ctx context.Context, ds *data.Dataset) error {
	return e.fit(ctx, ds, spec(KindGradTree, gradtree.Options, e.Config, e.Config.Seed, e.Fitting, e.Progress))
}

// FitMatrix trains on plain numeric rows; see Estimator.
func (e *GradTree) FitMatrix(ctx context.Context, X [][]float64, y []float64, task data.Task) error {
	return fitMatrix(ctx, e, X, y, task)
}

// ------------------------------------------------------------------ GRANDE

// DefaultGRANDEConfig returns the published defaults for task spelled out
// (spec §8.2, GR-paper column; regression with the MSE loss and no class
// weights). Fitting with it trains the same model as the zero GRANDEConfig.
func DefaultGRANDEConfig(task data.Task) GRANDEConfig { return grande.Config{}.Defaults(task) }

// GRANDE is an ensemble of hard, axis-aligned trees learned jointly by
// gradient descent whose outputs are combined with instance-wise leaf
// weights (package grande).
type GRANDE struct {
	// Config's Seed seeds the validation hold-out, the preprocessing and
	// the model (0: 42).
	Config GRANDEConfig
	// Fast trains the grande-fast kind: zero Config fields take its
	// defaults (grande.FastOptions, chosen for time to quality on CPUs)
	// instead of the published ones.
	Fast bool
	Fitting
	// Progress, if set, is called after every training epoch.
	Progress func(train.Progress)
	Model
}

// Kind returns "grande", or "grande-fast" with Fast.
func (e *GRANDE) Kind() string {
	if e.Fast {
		return KindGRANDEFast
	}
	return KindGRANDE
}

// Fit trains on ds; see Estimator.
func (e *GRANDE) Fit(ctx context.Context, ds *data.Dataset) error {
	decl := grande.Options
	if e.Fast {
		decl = grande.FastOptions
	}
	return e.fit(ctx, ds, spec(e.Kind(), decl, e.Config, e.Config.Seed, e.Fitting, e.Progress))
}

// FitMatrix trains on plain numeric rows; see Estimator.
func (e *GRANDE) FitMatrix(ctx context.Context, X [][]float64, y []float64, task data.Task) error {
	return fitMatrix(ctx, e, X, y, task)
}

// -------------------------------------------------------------------- CART

// DefaultCARTConfig returns the thesis's CART baseline: sklearn's
// DecisionTreeClassifier(max_depth=10, random_state=42), the CART column of
// the GradTree study (spec §9.1, §10.2; `gdt bench --models cart`).
func DefaultCARTConfig() CARTConfig {
	return CARTConfig{MaxDepth: 10, Seed: thesisSeed}
}

// CART is a greedy CART decision tree (package cart), the thesis's
// baseline for GradTree. Config.Seed is sklearn's random_state (default 0).
type CART struct {
	Config CARTConfig
	Fitting
	Model
}

// Kind returns "cart".
func (e *CART) Kind() string { return KindCART }

// Fit trains on ds; see Estimator.
func (e *CART) Fit(ctx context.Context, ds *data.Dataset) error {
	if e.Config.ClassWeight != nil {
		return errors.New("gdt: CART: Config.ClassWeight (explicit class weights) cannot be recorded in a model file; use Config.Balanced")
	}
	s := spec(KindCART, cart.Options, e.Config, 0, e.Fitting, nil)
	s.Seed = int64(e.Config.Seed)
	return e.fit(ctx, ds, s)
}

// FitMatrix trains on plain numeric rows; see Estimator.
func (e *CART) FitMatrix(ctx context.Context, X [][]float64, y []float64, task data.Task) error {
	return fitMatrix(ctx, e, X, y, task)
}

// ------------------------------------------------------------ RandomForest

// DefaultRandomForestConfig returns the thesis's RandomForest baseline
// spelled out where it does not depend on the task: scikit-learn's
// defaults, 100 fully grown trees on bootstrap samples (spec §10.7).
func DefaultRandomForestConfig() RandomForestConfig {
	return RandomForestConfig{Trees: 100}
}

// RandomForest is a random forest of bagged CART trees (package forest),
// the thesis's ensemble baseline for GRANDE. Config.Seed is sklearn's
// random_state (default 0).
type RandomForest struct {
	Config RandomForestConfig
	Fitting
	Model
}

// Kind returns "random-forest".
func (e *RandomForest) Kind() string { return KindRandomForest }

// Fit trains on ds; see Estimator.
func (e *RandomForest) Fit(ctx context.Context, ds *data.Dataset) error {
	s := spec(KindRandomForest, forest.Options, e.Config, 0, e.Fitting, nil)
	s.Seed = e.Config.Seed
	return e.fit(ctx, ds, s)
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
