// Package gdt is the library face of gdt: estimators that learn hard,
// axis-aligned decision trees and tree ensembles with gradient descent
// (GradTree, GRANDE) and their greedy baselines (CART, random forest), all
// behind one contract:
//
//   - a Config struct per estimator whose zero value means the published
//     defaults (every field documents its default and where it comes from),
//     and a DefaultXConfig function that spells those defaults out;
//   - Fit on a data.Dataset (a raw table with numeric and categorical
//     columns, labels, task and class names) or FitMatrix on plain float64
//     rows;
//   - Predict, PredictProba and PredictLabels on a data.Table, PredictMatrix
//     and PredictProbaMatrix on float64 rows;
//   - Save to a versioned model file (package modelfile), and the package
//     function Load that returns the right estimator for the file's kind.
//
// Raw tables go through the thesis's preprocessing (package preprocess, the
// protocol named by the Config or the kind's default: GT-paper for GradTree,
// GR-paper for GRANDE, none for CART and the forest), fitted on the training
// rows only, exactly as `gdt train` does: the estimators are thin wrappers
// around model.Train and model.Trained, and their Configs are the model
// packages' own, whose fields are the options each kind declares once
// (package option), so a Config and the CLI's `--set key=value` options
// mean the same thing.
//
// A saved file is the same file `gdt train` writes, so `gdt show`,
// `gdt predict` and `gdt serve` read what Save writes, and Load reads files
// written by the CLI.
package gdt

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/gdt-ml/gdt/cart"
	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/forest"
	"github.com/gdt-ml/gdt/gradtree"
	"github.com/gdt-ml/gdt/grande"
	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/modelfile"
)

// Estimator is the contract every estimator of this package follows. Fit
// replaces any previous fit; the prediction methods fail with ErrNotFitted
// before a Fit or Load.
type Estimator interface {
	// Kind returns the model kind the estimator trains ("gradtree",
	// "grande", "cart", "random-forest"), as registered in package model
	// and recorded in saved files.
	Kind() string
	// Fit trains on ds: a raw feature table (numeric and categorical
	// columns, NaN or Missing for missing values), labels (class indices
	// 0..C−1 or regression values), the task and the class names.
	Fit(ctx context.Context, ds *data.Dataset) error
	// FitMatrix trains on plain numeric rows X (NaN = missing) with labels
	// y: class indices 0..C−1 for Binary and Multiclass, values for
	// Regression. Columns are named x0, x1, …
	FitMatrix(ctx context.Context, X [][]float64, y []float64, task data.Task) error
	// Predict returns one prediction per row of X: a class index, or the
	// regression value. Columns are matched by name; extra columns are
	// ignored.
	Predict(X *data.Table) ([]float64, error)
	// PredictProba returns, per row of X, the probability of every class
	// (in Classes order), or a single column holding the regression value.
	PredictProba(X *data.Table) ([][]float64, error)
	// PredictLabels returns the predicted class names (regression: the
	// values as text).
	PredictLabels(X *data.Table) ([]string, error)
	// PredictMatrix is Predict on plain numeric rows in the column order
	// of training (models trained on a table with categorical columns
	// need Predict).
	PredictMatrix(X [][]float64) ([]float64, error)
	// PredictProbaMatrix is PredictProba on plain numeric rows.
	PredictProbaMatrix(X [][]float64) ([][]float64, error)
	// Save writes the fitted model to path atomically, in the current
	// model-file version (modelfile.Version).
	Save(path string) error
	// Task returns the learning task of the fitted model.
	Task() (data.Task, error)
	// Classes returns the class names by index (nil for regression).
	Classes() []string
	// NumNodes returns the size of the fitted model.
	NumNodes() int
	// String renders the fitted model as readable text.
	String() string
	// Render renders the fitted model in a format ("text", and for trees
	// and GRANDE "dot", "svg", "json", "go").
	Render(format string) ([]byte, error)
	// Trained returns the underlying fitted model (nil before Fit), for
	// everything this package does not wrap: explanations, the
	// preprocessing pipeline, the learner's own fields.
	Trained() *model.Trained
}

// ErrNotFitted is returned by the prediction and saving methods of an
// estimator that was neither fitted nor loaded.
var ErrNotFitted = errors.New("gdt: the estimator is not fitted (call Fit or Load first)")

// Model is the fitted part every estimator embeds: the trained model with
// its input schema and preprocessing pipeline. Its methods are those of
// Estimator that do not depend on the kind.
type Model struct {
	trained *model.Trained
}

// Trained returns the underlying fitted model, or nil before Fit.
func (m *Model) Trained() *model.Trained { return m.trained }

// Fitted reports whether the estimator was fitted or loaded.
func (m *Model) Fitted() bool { return m.trained != nil }

// Task returns the learning task of the fitted model.
func (m *Model) Task() (data.Task, error) {
	if m.trained == nil {
		return 0, ErrNotFitted
	}
	return m.trained.Task, nil
}

// Classes returns the class names by index (nil for regression or before
// Fit).
func (m *Model) Classes() []string {
	if m.trained == nil {
		return nil
	}
	return m.trained.Classes
}

// Inputs returns the raw input columns the fitted model expects.
func (m *Model) Inputs() []modelfile.Column {
	if m.trained == nil {
		return nil
	}
	return m.trained.Inputs
}

// NumNodes returns the size of the fitted model (internal and leaf nodes,
// summed over the trees of an ensemble), or 0 before Fit.
func (m *Model) NumNodes() int {
	if m.trained == nil {
		return 0
	}
	return m.trained.Learner.NumNodes()
}

// String renders the fitted model as readable text, thresholds in raw
// feature units where the kind supports it.
func (m *Model) String() string {
	if m.trained == nil {
		return "unfitted gdt model"
	}
	return m.trained.Describe()
}

// Render renders the fitted model: "text" for every kind; GradTree, GRANDE
// and CART also "dot", "svg", "json" and (trees) "go".
func (m *Model) Render(format string) ([]byte, error) {
	if m.trained == nil {
		return nil, ErrNotFitted
	}
	return m.trained.Render(format)
}

// Save writes the fitted model to path atomically.
func (m *Model) Save(path string) error {
	if m.trained == nil {
		return ErrNotFitted
	}
	return m.trained.Save(path)
}

func (m *Model) proba(X *data.Table) (*data.Matrix, error) {
	if m.trained == nil {
		return nil, ErrNotFitted
	}
	if X == nil {
		return nil, errors.New("gdt: predict: the input table is nil")
	}
	return m.trained.PredictProba(X)
}

// Predict returns one prediction per row of X: the class index (binary:
// p(class 1) > 0.5; multiclass: the most probable class) or the regression
// value.
func (m *Model) Predict(X *data.Table) ([]float64, error) {
	p, err := m.proba(X)
	if err != nil {
		return nil, err
	}
	return model.Decide(m.trained.Task, p), nil
}

// PredictProba returns, per row of X, the probability of every class in
// Classes order (binary: two columns), or for regression one column
// holding the prediction.
func (m *Model) PredictProba(X *data.Table) ([][]float64, error) {
	p, err := m.proba(X)
	if err != nil {
		return nil, err
	}
	return rows(p), nil
}

// PredictLabels returns the predicted class names, or for regression the
// predicted values formatted as text.
func (m *Model) PredictLabels(X *data.Table) ([]string, error) {
	pred, err := m.Predict(X)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(pred))
	for i, v := range pred {
		if m.trained.Task == data.Regression || int(v) >= len(m.trained.Classes) {
			out[i] = strconv.FormatFloat(v, 'g', -1, 64)
		} else {
			out[i] = m.trained.Classes[int(v)]
		}
	}
	return out, nil
}

// PredictMatrix is Predict on plain numeric rows whose columns are the
// model's inputs in training order.
func (m *Model) PredictMatrix(X [][]float64) ([]float64, error) {
	t, err := m.matrixTable(X)
	if err != nil {
		return nil, err
	}
	return m.Predict(t)
}

// PredictProbaMatrix is PredictProba on plain numeric rows whose columns
// are the model's inputs in training order.
func (m *Model) PredictProbaMatrix(X [][]float64) ([][]float64, error) {
	t, err := m.matrixTable(X)
	if err != nil {
		return nil, err
	}
	return m.PredictProba(t)
}

// matrixTable names the columns of X after the model's inputs.
func (m *Model) matrixTable(X [][]float64) (*data.Table, error) {
	if m.trained == nil {
		return nil, ErrNotFitted
	}
	names := make([]string, len(m.trained.Inputs))
	for j, c := range m.trained.Inputs {
		if c.Kind != data.Numeric.String() {
			return nil, fmt.Errorf("gdt: input column %q is %s: predict with a data.Table (Predict, PredictProba) instead of float64 rows", c.Name, c.Kind)
		}
		names[j] = c.Name
	}
	return TableOf(X, names)
}

// rows copies a float32 matrix into float64 rows.
func rows(p *data.Matrix) [][]float64 {
	out := make([][]float64, p.Rows)
	flat := make([]float64, len(p.Data))
	for i, v := range p.Data {
		flat[i] = float64(v)
	}
	for i := range out {
		out[i] = flat[i*p.Cols : (i+1)*p.Cols : (i+1)*p.Cols]
	}
	return out
}

// fit trains spec on ds and stores the result in m.
func (m *Model) fit(ctx context.Context, ds *data.Dataset, spec model.Spec) error {
	if err := checkDataset(ds); err != nil {
		return err
	}
	t, err := model.Train(ctx, ds, spec)
	if err != nil {
		return err
	}
	m.trained = t
	return nil
}

// checkDataset reports user errors model.Train would meet late or not at all.
func checkDataset(ds *data.Dataset) error {
	switch {
	case ds == nil:
		return errors.New("gdt: fit: the dataset is nil")
	case ds.X == nil || ds.X.NumCols() == 0:
		return errors.New("gdt: fit: the dataset has no feature columns")
	case ds.X.NumRows() != len(ds.Y):
		return fmt.Errorf("gdt: fit: %d feature rows but %d labels", ds.X.NumRows(), len(ds.Y))
	}
	if err := ds.X.Validate(); err != nil {
		return fmt.Errorf("gdt: fit: %w", err)
	}
	return checkLabels(ds.Y, ds.Task, len(ds.Classes))
}

// checkLabels verifies that y holds class indices below classes (when
// classes > 0, else any) for classification, and finite values otherwise.
func checkLabels(y []float64, task data.Task, classes int) error {
	for i, v := range y {
		switch {
		case math.IsNaN(v) || math.IsInf(v, 0):
			return fmt.Errorf("gdt: label %d is %v: labels must be finite", i, v)
		case task == data.Regression:
		case v < 0 || v != math.Trunc(v):
			return fmt.Errorf("gdt: label %d is %v: expected a class index 0, 1, … for %s", i, v, task)
		case classes > 0 && int(v) >= classes:
			return fmt.Errorf("gdt: label %d is %v: expected a class index below %d (the number of class names)", i, v, classes)
		case task == data.Binary && v > 1:
			return fmt.Errorf("gdt: label %d is %v: expected 0 or 1 for a binary task", i, v)
		}
	}
	return nil
}

// Load reads a model file written by Save or by `gdt train` and returns the
// estimator of its kind (*GradTree, *GRANDE, *CART or *RandomForest), with
// its Config restored from the options recorded in the file. Files of an
// older model-file version are read (see package modelfile); files of a
// newer version or of a kind this package has no estimator for are errors.
func Load(path string) (Estimator, error) {
	t, err := model.Load(path)
	if err != nil {
		return nil, err
	}
	return fromTrained(t, path)
}

// FromTrained wraps a fitted model (from model.Train or model.Load) in the
// estimator of its kind.
func FromTrained(t *model.Trained) (Estimator, error) {
	if t == nil {
		return nil, errors.New("gdt: FromTrained: nil model")
	}
	return fromTrained(t, "")
}

func fromTrained(t *model.Trained, name string) (Estimator, error) {
	seed := savedSeed(t)
	where := func(err error) error {
		if name == "" {
			return err
		}
		return fmt.Errorf("model file %s: %w", name, err)
	}
	fit := Fitting{Protocol: t.Spec.Protocol}
	switch t.Spec.Kind {
	case KindGradTree:
		c, err := gradtree.ParseOptions(t.Spec.Options)
		if err != nil {
			return nil, where(err)
		}
		c.Seed = seed
		return &GradTree{Config: c, Fitting: fit, Model: Model{t}}, nil
	case KindGRANDE, KindGRANDEFast:
		c, err := grande.ParseOptions(t.Spec.Options)
		if err != nil {
			return nil, where(err)
		}
		c.Seed = seed
		return &GRANDE{Config: c, Fast: t.Spec.Kind == KindGRANDEFast, Fitting: fit, Model: Model{t}}, nil
	case KindCART:
		c, err := cart.ParseOptions(t.Spec.Options)
		if err != nil {
			return nil, where(err)
		}
		c.Seed = uint64(max(seed, 0))
		return &CART{Config: c, Fitting: fit, Model: Model{t}}, nil
	case KindRandomForest:
		c, err := forest.ParseOptions(t.Spec.Options)
		if err != nil {
			return nil, where(err)
		}
		c.Seed = seed
		return &RandomForest{Config: c, Fitting: fit, Model: Model{t}}, nil
	}
	return nil, where(fmt.Errorf("model kind %q has no estimator in package gdt (known: %s, %s, %s, %s); read it with model.Load",
		t.Spec.Kind, KindGradTree, KindGRANDE, KindCART, KindRandomForest))
}

// savedSeed returns the model seed recorded in a saved model's facts.
func savedSeed(t *model.Trained) int64 {
	if t.Spec.Seed != 0 {
		return t.Spec.Seed
	}
	switch v := t.Info["seed"].(type) {
	case float64:
		return int64(v)
	case int64:
		return v
	case int:
		return int64(v)
	}
	return 0
}
