// Package folds holds the evaluation protocols of the benchmarks and of the
// hyperparameter search: how a dataset's rows are split into folds
// (training, validation for early stopping, test) and how a fold is
// preprocessed, with the pipeline fitted on its training rows only.
package folds

import (
	"fmt"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/preprocess"
)

// Fold is one train/validation/test partition of a dataset's rows.
type Fold struct {
	Trial int
	Seed  int // data seed of this trial
	Train []int
	Valid []int
	Test  []int
}

// Prepared is a fold after preprocessing: model-space matrices.
type Prepared struct {
	Problem model.Problem
	Train   *model.Data // training rows as the protocol fits on (may include synthetic SMOTE rows)
	Valid   *model.Data
	Test    *model.Data

	// Pipeline is the fitted preprocessing (nil when the protocol has
	// none); ds and fold give the raw rows for Snap.
	Pipeline *preprocess.Pipeline
	ds       *data.Dataset
	fold     Fold
}

// Snap returns the test and validation rows as the learner l, fitted on
// the fold's training rows (and on its validation rows when
// withValid: learners without early stopping train on both), ships
// them: transformed by the fold's pipeline snapped to l's splits
// (model.Snap; the training rows keep their values). Without a pipeline,
// or for a learner without a trained form, they are Test and Valid.
func (p *Prepared) Snap(l model.Learner, withValid bool) (test, valid *model.Data, err error) {
	if p.Pipeline == nil || p.ds == nil {
		return p.Test, p.Valid, nil
	}
	rows := p.fold.Train
	if withValid {
		rows = append(append([]int(nil), rows...), p.fold.Valid...)
	}
	q, err := model.Snap(p.Pipeline, p.ds.X.Subset(rows), l)
	if err != nil || q == p.Pipeline {
		return p.Test, p.Valid, err
	}
	redo := func(d *model.Data, idx []int) (*model.Data, error) {
		if len(idx) == 0 {
			return d, nil
		}
		m, err := q.Transform(p.ds.X.Subset(idx))
		if err != nil {
			return nil, err
		}
		return &model.Data{X: m, Y: d.Y}, nil
	}
	if test, err = redo(p.Test, p.fold.Test); err != nil {
		return nil, nil, err
	}
	if valid, err = redo(p.Valid, p.fold.Valid); err != nil {
		return nil, nil, err
	}
	return test, valid, nil
}

// Protocol is an evaluation protocol: how rows are split and prepared.
type Protocol interface {
	Name() string
	DefaultTrials() int
	Folds(ds *data.Dataset, trials int) ([]Fold, error)
	Prepare(ds *data.Dataset, f Fold) (*Prepared, error)
}

// GradTree is the evaluation protocol of the GradTree study (spec
// §9.1 with the preprocessing of §6.1, as the reference code ran it): for
// trial t the data seed is 42+t; test = int(0.2·N) rows and validation =
// int(0.2·N) of the rest, drawn exactly as scikit-learn's train_test_split
// with that seed (no stratification); leave-one-out encoding and the
// quantile transform fitted on the training rows; SMOTE on the training
// rows when the minority share is at most 0.25/(C−1). Models without early
// stopping train on train+validation.
type GradTree struct{}

// Name returns "gt-paper".
func (GradTree) Name() string { return "gt-paper" }

// DefaultTrials returns 10, the thesis's number of trials.
func (GradTree) DefaultTrials() int { return 10 }

// Folds returns one 60/20/20 split per trial.
func (GradTree) Folds(ds *data.Dataset, trials int) ([]Fold, error) {
	n := len(ds.Y)
	if n < 5 {
		return nil, fmt.Errorf("dataset %s has %d rows; the protocol needs at least 5", ds.Name, n)
	}
	out := make([]Fold, trials)
	for t := range out {
		seed := 42 + t
		train, valid, test := data.GradTreeSplit(n, uint32(seed))
		out[t] = Fold{Trial: t, Seed: seed, Train: train, Valid: valid, Test: test}
	}
	return out, nil
}

// Prepare fits the GT-paper pipeline on the fold's training rows.
func (GradTree) Prepare(ds *data.Dataset, f Fold) (*Prepared, error) {
	p := preprocess.GTPaper(preprocess.Options{Task: ds.Task, Seed: uint32(f.Seed)})
	return preparePipeline(p, ds, f)
}

// preparePipeline fits p on the fold's training rows and transforms the
// validation and test rows.
func preparePipeline(p *preprocess.Pipeline, ds *data.Dataset, f Fold) (*Prepared, error) {
	sub := func(idx []int) (*data.Table, []float64) {
		y := make([]float64, len(idx))
		for i, j := range idx {
			y[i] = ds.Y[j]
		}
		return ds.X.Subset(idx), y
	}
	xtr, ytr := sub(f.Train)
	mtr, ytr2, err := p.FitTransform(xtr, ytr)
	if err != nil {
		return nil, fmt.Errorf("preprocessing training rows: %w", err)
	}
	prep := &Prepared{
		Problem:  model.Problem{Task: ds.Task, NumClasses: ds.NumClasses(), Features: p.FeatureNames()},
		Train:    &model.Data{X: mtr, Y: ytr2},
		Pipeline: p, ds: ds, fold: f,
	}
	for _, part := range []struct {
		idx []int
		dst **model.Data
	}{{f.Valid, &prep.Valid}, {f.Test, &prep.Test}} {
		if len(part.idx) == 0 {
			*part.dst = &model.Data{X: data.NewMatrix(0, p.NumFeatures())}
			continue
		}
		x, y := sub(part.idx)
		m, err := p.Transform(x)
		if err != nil {
			return nil, fmt.Errorf("preprocessing: %w", err)
		}
		*part.dst = &model.Data{X: m, Y: y}
	}
	return prep, nil
}

// CV is k-fold cross-validation (stratified by class for
// classification) with a validation split of ValidFraction taken inside
// each training fold (stratified as well), and the preprocessing protocol
// Pipeline fitted on each fold's training part. With K = 5, ValidFraction
// = 0.1, Seed = 42 and Pipeline "gr-paper" it is the GRANDE study's
// protocol (spec §9.2). Trials beyond K are not meaningful: Folds returns K.
type CV struct {
	K             int
	ValidFraction float64
	Seed          uint32
	Pipeline      string
}

// Name describes the protocol.
func (p CV) Name() string {
	return fmt.Sprintf("%d-fold CV (seed %d, %g validation, %s preprocessing)", p.K, p.Seed, p.ValidFraction, p.Pipeline)
}

// DefaultTrials returns K.
func (p CV) DefaultTrials() int { return p.K }

// Folds returns the K folds (trials is capped at K).
func (p CV) Folds(ds *data.Dataset, trials int) ([]Fold, error) {
	out, err := p.FoldsOf(ds, nil)
	if err != nil {
		return nil, err
	}
	if trials <= 0 || trials > p.K {
		trials = p.K
	}
	return out[:trials], nil
}

// FoldsOf returns the K folds of the rows pool of ds (all rows when pool
// is nil), as row indices of ds: the nested cross-validation of a search
// runs it on an outer fold's training rows.
func (p CV) FoldsOf(ds *data.Dataset, pool []int) ([]Fold, error) {
	if p.K < 2 {
		return nil, fmt.Errorf("cross-validation needs at least 2 folds, got %d", p.K)
	}
	if pool == nil {
		pool = make([]int, len(ds.Y))
		for i := range pool {
			pool[i] = i
		}
	}
	yp := make([]float64, len(pool))
	for i, r := range pool {
		yp[i] = ds.Y[r]
	}
	n := len(pool)
	var tests [][]int
	var err error
	if ds.Task == data.Regression {
		tests, err = data.KFold(n, p.K, true, p.Seed)
	} else {
		tests, err = data.StratifiedKFold(yp, p.K, true, p.Seed)
	}
	if err != nil {
		return nil, fmt.Errorf("%d-fold split of %d rows: %w", p.K, n, err)
	}
	out := make([]Fold, p.K)
	for k := range out {
		rest := data.Complement(n, tests[k])
		f := Fold{Trial: k, Seed: int(p.Seed), Test: Pick(pool, tests[k]), Train: Pick(pool, rest)}
		if p.ValidFraction > 0 {
			y := make([]float64, len(rest))
			for i, j := range rest {
				y[i] = yp[j]
			}
			var tr, va []int
			if ds.Task == data.Regression {
				nv := int(p.ValidFraction*float64(len(rest)) + 0.999999)
				tr, va = data.TrainTestSplit(len(rest), nv, p.Seed)
			} else if tr, va, err = data.StratifiedTrainTestSplit(y, p.ValidFraction, p.Seed); err != nil {
				return nil, fmt.Errorf("fold %d: validation split: %w", k, err)
			}
			f.Train, f.Valid = Pick(pool, Pick(rest, tr)), Pick(pool, Pick(rest, va))
		}
		out[k] = f
	}
	return out, nil
}

// Pick returns from[idx[0]], from[idx[1]], …: indices into a subset mapped
// back to the rows of the whole.
func Pick(from, idx []int) []int {
	out := make([]int, len(idx))
	for i, j := range idx {
		out[i] = from[j]
	}
	return out
}

// Prepare fits the protocol's pipeline on the fold's training rows.
func (p CV) Prepare(ds *data.Dataset, f Fold) (*Prepared, error) {
	newPipe, err := preprocess.Protocol(p.Pipeline)
	if err != nil {
		return nil, err
	}
	return preparePipeline(newPipe(preprocess.Options{Task: ds.Task, Seed: uint32(f.Seed)}), ds, f)
}

// Holdout is one random train/validation/test split per trial
// (trial t uses seed Seed+t), with the preprocessing protocol Pipeline.
type Holdout struct {
	TestFraction, ValidFraction float64
	Seed                        uint32
	Pipeline                    string
}

// Name describes the protocol.
func (p Holdout) Name() string {
	return fmt.Sprintf("holdout (%g test, %g validation, seeds from %d, %s preprocessing)", p.TestFraction, p.ValidFraction, p.Seed, p.Pipeline)
}

// DefaultTrials returns 1.
func (Holdout) DefaultTrials() int { return 1 }

// Folds draws one split per trial.
func (p Holdout) Folds(ds *data.Dataset, trials int) ([]Fold, error) {
	n := len(ds.Y)
	nt := int(p.TestFraction * float64(n))
	if p.TestFraction <= 0 || p.TestFraction >= 1 || nt < 1 {
		return nil, fmt.Errorf("test fraction %g leaves no test rows out of %d", p.TestFraction, n)
	}
	out := make([]Fold, trials)
	for t := range out {
		seed := p.Seed + uint32(t)
		rest, test := data.TrainTestSplit(n, nt, seed)
		f := Fold{Trial: t, Seed: int(seed), Train: rest, Test: test}
		if nv := int(p.ValidFraction * float64(len(rest))); nv > 0 {
			tr, va := data.TrainTestSplit(len(rest), nv, seed)
			f.Train, f.Valid = Pick(rest, tr), Pick(rest, va)
		}
		out[t] = f
	}
	return out, nil
}

// Prepare fits the protocol's pipeline on the fold's training rows.
func (p Holdout) Prepare(ds *data.Dataset, f Fold) (*Prepared, error) {
	newPipe, err := preprocess.Protocol(p.Pipeline)
	if err != nil {
		return nil, err
	}
	return preparePipeline(newPipe(preprocess.Options{Task: ds.Task, Seed: uint32(f.Seed)}), ds, f)
}
