// Package export reads a trained model (model.Trained) as plain trees: the
// form that the ONNX writer (package export/onnx), the prediction server
// (package serve) and the HTML report (package report) work from.
//
// A single-tree model (GradTree, CART, and any learner with one plain
// interpret.Tree, such as SYMPOL's trees) becomes a Plain with Tree set
// and a LeafKind that says what the leaves hold; GRANDE becomes a Plain
// with Ensemble set (its trained form, package ensemble). Both keep the task,
// the class names, the fitted preprocessing pipeline and, for regression,
// the map from model outputs to target units.
package export

import (
	"fmt"

	"github.com/gdt-ml/gdt/cart"
	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/ensemble"
	"github.com/gdt-ml/gdt/gradtree"
	"github.com/gdt-ml/gdt/grande"
	"github.com/gdt-ml/gdt/interpret"
	"github.com/gdt-ml/gdt/loss"
	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/preprocess"
	"github.com/gdt-ml/gdt/train"
)

// LeafKind says what a plain tree's leaf values are.
type LeafKind int

const (
	// Logits: one logit (binary, σ gives p(class 1)) or one logit per
	// class (softmax), as GradTree's and GRANDE's leaves.
	Logits LeafKind = iota
	// Probabilities: one probability per class (CART classifiers).
	Probabilities
	// Values: regression outputs, mapped to target units by Target.
	Values
)

// String names the leaf kind.
func (k LeafKind) String() string {
	switch k {
	case Logits:
		return "logits"
	case Probabilities:
		return "probabilities"
	case Values:
		return "values"
	}
	return fmt.Sprintf("LeafKind(%d)", int(k))
}

// PlainTreer is implemented by learners that predict with exactly one plain
// tree whose leaves hold logits (classification) or standardised values
// (regression), as GradTree does (and SYMPOL's trees will).
type PlainTreer interface {
	PlainTree() (*interpret.Tree, error)
}

// Plain is a trained model in plain form.
type Plain struct {
	Kind     string    // learner kind, e.g. "gradtree"
	Task     data.Task // learning task
	Classes  []string  // class names (classification)
	Features int       // model-space input width
	// Pipeline is the fitted preprocessing from raw columns to model
	// space; Inputs the raw columns the model expects.
	Pipeline *preprocess.Pipeline
	Inputs   []InputColumn

	// Tree is the plain tree of a single-tree model and Leaves what its
	// leaves hold.
	Tree   *interpret.Tree
	Leaves LeafKind
	// Ensemble is GRANDE's trained form (nil for single trees): complete
	// trees stored breadth first. Its leaves hold logits (classification)
	// or standardised values.
	Ensemble *ensemble.Ensemble
	// Target maps regression outputs to target units (Values leaves of
	// GradTree and GRANDE); Identity is true when outputs are already in
	// target units (CART).
	Target   loss.Standardizer
	Identity bool

	// Runs are the training runs (restarts) with their per-epoch training
	// and validation losses, BestRun the index of the run kept (nil for
	// learners that do not train by epochs, such as CART).
	Runs    []train.RunReport
	BestRun int
	// Global holds GRANDE's globally most weighted trees (by mean
	// instance-wise weight over the training rows), pruned with the
	// training rows.
	Global []grande.TopTree

	importance []interpret.Importance // GRANDE: measured at the end of training
}

// InputColumn is one raw input column of the model.
type InputColumn struct {
	Name        string
	Categorical bool
	Levels      []string // training levels of a categorical column
}

// Of returns the plain form of t. It supports GradTree, CART, GRANDE and
// any learner implementing PlainTreer (leaves: logits or standardised
// values as GradTree's, with identity target mapping).
func Of(t *model.Trained) (*Plain, error) {
	if t == nil || t.Learner == nil || t.Pipeline == nil {
		return nil, fmt.Errorf("export: the model is empty (no learner or pipeline)")
	}
	p := &Plain{Kind: t.Spec.Kind, Task: t.Task, Classes: t.Classes, Pipeline: t.Pipeline, Features: t.Pipeline.NumFeatures()}
	for _, c := range t.Inputs {
		p.Inputs = append(p.Inputs, InputColumn{Name: c.Name, Categorical: c.Kind == "categorical", Levels: c.Levels})
	}
	switch l := t.Learner.(type) {
	case *grande.Model:
		if l.Features == 0 {
			return nil, fmt.Errorf("export: the GRANDE model is not fitted")
		}
		p.Ensemble = l.Ensemble
		p.Target = l.Target
		p.Runs, p.BestRun, p.Global = l.Restarts, l.BestRestart, l.TopTrees
		p.importance = l.FeatureImportance(t.Pipeline, nil)
		p.Leaves = Logits
		if t.Task == data.Regression {
			p.Leaves = Values
		}
	case *cart.Learner:
		if l.Tree == nil {
			return nil, fmt.Errorf("export: the CART model is not fitted")
		}
		m, err := l.Tree.Ensemble()
		if err != nil {
			return nil, fmt.Errorf("export: CART tree: %w", err)
		}
		tr, err := interpret.FromEnsemble(m, 0)
		if err != nil {
			return nil, err
		}
		p.Tree, p.Identity = tr, true
		p.Leaves = Probabilities
		if !l.Tree.IsClassifier() {
			p.Leaves = Values
		}
	case *gradtree.Model:
		tr, err := l.PlainTree()
		if err != nil {
			return nil, err
		}
		p.Tree, p.Target = tr, l.Target
		p.Runs, p.BestRun = l.Restarts, l.BestRestart
		p.Leaves = Logits
		if t.Task == data.Regression {
			p.Leaves = Values
		}
	case PlainTreer:
		tr, err := l.PlainTree()
		if err != nil {
			return nil, err
		}
		p.Tree, p.Identity = tr, true
		p.Leaves = Logits
		if t.Task == data.Regression {
			p.Leaves = Values
		}
	default:
		return nil, fmt.Errorf("export: %s models have no plain-tree form (supported: gradtree, cart, grande and plain-tree learners)", t.Spec.Kind)
	}
	if p.Tree != nil {
		if err := p.Tree.Validate(p.Features); err != nil {
			return nil, fmt.Errorf("export: %s tree: %w", p.Kind, err)
		}
	}
	return p, nil
}

// Denormalize maps a regression output to target units (nil when the
// outputs are already in target units).
func (p *Plain) Denormalize() func(float64) float64 {
	if p.Task != data.Regression || p.Identity {
		return nil
	}
	return p.Target.Inverse
}

// ViewOptions returns interpret display options for the model's trees:
// the head, class names, raw-unit conditions and target units.
func (p *Plain) ViewOptions() *interpret.Options {
	return &interpret.Options{Task: p.Task, ClassNames: p.Classes, Pipeline: p.Pipeline, Denormalize: p.Denormalize(),
		Probabilities: p.Leaves == Probabilities}
}

// FeatureImportance returns how the model uses every raw column
// (interpret.Importance): for GRANDE the importance measured on the
// training rows at the end of training (weighted by the trees' mean
// weights); for a single tree its splits and training-row-weighted usage.
// A tree without training counts is counted with the rows of X (model
// space; nil: only split counts are meaningful).
func (p *Plain) FeatureImportance(X *data.Matrix) ([]interpret.Importance, error) {
	if p.Ensemble != nil {
		return p.importance, nil
	}
	t := p.Tree
	if !t.Counted {
		if X == nil || X.Rows == 0 {
			return nil, fmt.Errorf("export: the %s tree holds no training counts and no rows were given", p.Kind)
		}
		t = t.Clone()
		if err := t.CountRows(X.Data, X.Rows); err != nil {
			return nil, err
		}
	}
	return interpret.FeatureImportance([]*interpret.Tree{t}, nil, p.ViewOptions())
}
