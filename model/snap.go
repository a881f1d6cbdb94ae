package model

import (
	"fmt"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/ensemble"
	"github.com/gdt-ml/gdt/preprocess"
)

// Snappable is implemented by learners whose split thresholds are
// learned by gradient descent (GradTree, GRANDE): any point between two
// neighbouring training values fits the training rows equally, so where
// their cut lands inside that gap is noise of the optimiser and of the
// quantile transform, and Snap moves it to a short decimal. TrainedForm
// returns the ensemble the learner predicts with.
//
// CART and the random forest do not implement it: they cut at the
// midpoint between neighbouring training values in model space
// (scikit-learn's rule), and keep that cut so they stay scikit-learn
// exact (the thesis's CART column is reproduced to three decimals).
type Snappable interface {
	TrainedForm() (*ensemble.Ensemble, error)
}

// Snap returns the pipeline a trained learner ships with: for a
// Snappable learner, p snapped (preprocess.Pipeline.Snap) to the splits
// of its trained form, with X the raw rows the learner was trained on,
// so every numeric split routes at a short raw cut between two
// neighbouring training values and every training row's prediction is
// unchanged; any other learner keeps p.
func Snap(p *preprocess.Pipeline, X *data.Table, l Learner) (*preprocess.Pipeline, error) {
	f, ok := l.(Snappable)
	if !ok {
		return p, nil
	}
	m, err := f.TrainedForm()
	if err != nil {
		return nil, err
	}
	var splits []preprocess.Split
	for n, ft := range m.Feature {
		if ft >= 0 {
			splits = append(splits, preprocess.Split{Feature: int(ft), Threshold: m.Threshold[n]})
		}
	}
	q, err := p.Snap(X, splits)
	if err != nil {
		return nil, fmt.Errorf("snapping the thresholds to the training values: %w", err)
	}
	return q, nil
}
