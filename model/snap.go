package model

import (
	"fmt"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/ensemble"
	"github.com/gdt-ml/gdt/preprocess"
)

// Former is implemented by learners whose trained form is a tree
// ensemble over the model-space features (package ensemble): GradTree,
// GRANDE, CART and the random forest.
type Former interface {
	TrainedForm() (*ensemble.Ensemble, error)
}

// Snap returns the pipeline a trained learner ships with: p snapped
// (preprocess.Pipeline.Snap) to the splits of l's trained form, with X
// the raw training rows p was fitted on, so every numeric split routes at
// a short raw cut between two neighbouring training values and every
// training row's prediction is unchanged. A learner without a trained
// form (the MLP) keeps p.
func Snap(p *preprocess.Pipeline, X *data.Table, l Learner) (*preprocess.Pipeline, error) {
	f, ok := l.(Former)
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
