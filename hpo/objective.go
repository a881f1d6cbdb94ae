package hpo

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/folds"
	"github.com/gdt-ml/gdt/metrics"
	"github.com/gdt-ml/gdt/model"
)

// Objective evaluates one configuration (the model kind's options): it
// returns the validation score to maximise and calls report after every
// part of the evaluation (for example every cross-validation fold) with the
// score so far, so that poor trials can be stopped early; report returns
// goptuna.ErrTrialPruned when the trial should stop, and the objective must
// then return that error.
type Objective func(ctx context.Context, opts map[string]string, report func(step int, value float64) error) (float64, error)

// Protocol is how a configuration is scored on a dataset without touching
// the rows the benchmark tests on: the folds (row indices into the dataset:
// training, validation for early stopping, and the scored part) and how a
// fold is preprocessed.
type Protocol struct {
	Name string
	Help string
	// Folds returns the scored folds of ds.
	Folds func(ds *data.Dataset) ([]folds.Fold, error)
	// Prepare preprocesses one fold (the pipeline fitted on its training
	// rows).
	Prepare func(ds *data.Dataset, f folds.Fold) (*folds.Prepared, error)
}

// protocols by name.
var protocols = map[string]*Protocol{
	"gradtree-cv3": {
		Name: "gradtree-cv3",
		Help: "GradTree study (spec §8.1/§9.1): 3-fold stratified CV on train+validation of the seed-42 split, 10 % of each CV-training part for early stopping, GT-paper preprocessing; score = mean CV macro F1",
		Folds: func(ds *data.Dataset) ([]folds.Fold, error) {
			train, valid, _ := data.GradTreeSplit(len(ds.Y), 42)
			pool := append(append([]int(nil), train...), valid...)
			return innerCV(ds, pool, 3, 0.1, 42)
		},
		Prepare: folds.GradTree{}.Prepare,
	},
	"grande-5x2": {
		Name: "grande-5x2",
		Help: "GRANDE study (spec §9.2): for each of the 5 outer stratified folds (seed 42) a 2-fold stratified CV on the outer training part, 10 % of each inner training part for early stopping, GR-paper preprocessing; score = mean of the 10 inner macro F1",
		Folds: func(ds *data.Dataset) ([]folds.Fold, error) {
			outer, err := folds.CV{K: 5, Seed: 42}.Folds(ds, 5)
			if err != nil {
				return nil, err
			}
			var out []folds.Fold
			for _, o := range outer {
				in, err := innerCV(ds, o.Train, 2, 0.1, 42)
				if err != nil {
					return nil, fmt.Errorf("outer fold %d: %w", o.Trial, err)
				}
				out = append(out, in...)
			}
			for i := range out {
				out[i].Trial = i
			}
			return out, nil
		},
		Prepare: folds.CV{Pipeline: "gr-paper"}.Prepare,
	},
	"holdout": {
		Name: "holdout",
		Help: "quick: one stratified 75/25 split of train+validation of the seed-42 GradTree split (10 % of the training part for early stopping), GT-paper preprocessing; score = macro F1 on the 25 %",
		Folds: func(ds *data.Dataset) ([]folds.Fold, error) {
			train, valid, _ := data.GradTreeSplit(len(ds.Y), 42)
			pool := append(append([]int(nil), train...), valid...)
			folds, err := innerCV(ds, pool, 4, 0.1, 42)
			if err != nil {
				return nil, err
			}
			return folds[:1], nil
		},
		Prepare: folds.GradTree{}.Prepare,
	},
}

// ProtocolNames lists the protocols.
func ProtocolNames() []string {
	out := make([]string, 0, len(protocols))
	for n := range protocols {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// LookupProtocol returns the protocol called name.
func LookupProtocol(name string) (*Protocol, error) {
	p, ok := protocols[name]
	if !ok {
		return nil, fmt.Errorf("hpo: unknown protocol %q (known: %s)", name, strings.Join(ProtocolNames(), ", "))
	}
	return p, nil
}

// DefaultProtocol is the thesis's search protocol for a model kind: GRANDE's
// 5×2 nested CV for grande, GradTree's 3-fold CV otherwise.
func DefaultProtocol(kind string) string {
	if kind == "grande" || kind == "grande-fast" {
		return "grande-5x2"
	}
	return "gradtree-cv3"
}

// innerCV splits the rows pool into k (stratified for classification) folds
// and takes validFraction of each training part for early stopping.
func innerCV(ds *data.Dataset, pool []int, k int, validFraction float64, seed uint32) ([]folds.Fold, error) {
	return folds.CV{K: k, ValidFraction: validFraction, Seed: seed}.FoldsOf(ds, pool)
}

// ModelObjective scores a model kind's options on ds under protocol p: one
// fit per fold with model seed seed, the score (macro F1, or R² for
// regression) averaged over the folds; the running mean is reported after
// every fold. The preprocessed folds are computed once and shared by all
// trials of the process.
func ModelObjective(ds *data.Dataset, kind string, p *Protocol, seed int64) (Objective, error) {
	k, err := model.LookupKind(kind)
	if err != nil {
		return nil, err
	}
	fs, err := p.Folds(ds)
	if err != nil {
		return nil, fmt.Errorf("hpo: %s folds of %s: %w", p.Name, ds.Name, err)
	}
	prepared := make([]*folds.Prepared, len(fs))
	merged := make([]*model.Data, len(fs))
	var mu sync.Mutex
	prepare := func(i int) (*folds.Prepared, *model.Data, error) {
		mu.Lock()
		defer mu.Unlock()
		if prepared[i] == nil {
			pr, err := p.Prepare(ds, fs[i])
			if err != nil {
				return nil, nil, fmt.Errorf("hpo: %s fold %d: %w", ds.Name, i, err)
			}
			prepared[i] = pr
			merged[i] = concat(pr.Train, pr.Valid)
		}
		return prepared[i], merged[i], nil
	}
	return func(ctx context.Context, opts map[string]string, report func(int, float64) error) (float64, error) {
		sum := 0.0
		for i := range fs {
			if err := ctx.Err(); err != nil {
				return 0, err
			}
			pr, all, err := prepare(i)
			if err != nil {
				return 0, err
			}
			l, err := k.New(opts, seed)
			if err != nil {
				return 0, err
			}
			train, valid := pr.Train, pr.Valid
			if !k.UsesValidation {
				train, valid = all, nil
			}
			if err := l.Fit(ctx, pr.Problem, train, valid); err != nil {
				return 0, fmt.Errorf("fold %d: %w", i, err)
			}
			test, _, err := pr.Snap(l, !k.UsesValidation) // the rows as the model ships them
			if err != nil {
				return 0, fmt.Errorf("fold %d: %w", i, err)
			}
			proba, err := l.PredictProba(test.X)
			if err != nil {
				return 0, fmt.Errorf("fold %d: %w", i, err)
			}
			sum += Score(pr.Problem, test.Y, proba)
			if err := report(i, sum/float64(i+1)); err != nil {
				return sum / float64(i+1), err
			}
		}
		return sum / float64(len(fs)), nil
	}, nil
}

// Score is the search's validation score: macro F1 for classification
// (binary: p(class 1) > 0.5), R² for regression.
func Score(p model.Problem, y []float64, proba *data.Matrix) float64 {
	if p.Task == data.Regression {
		yp := make([]float64, proba.Rows)
		for i := range yp {
			yp[i] = float64(proba.At(i, 0))
		}
		return metrics.R2(y, yp)
	}
	var pred []float64
	if p.Task == data.Binary {
		p1 := make([]float32, proba.Rows)
		for i := range p1 {
			p1[i] = proba.At(i, 1)
		}
		pred = metrics.BinaryPredict(p1)
	} else {
		pred = metrics.Argmax(proba.Data, proba.Cols)
	}
	return metrics.F1Macro(y, pred, p.NumClasses)
}

func concat(a, b *model.Data) *model.Data {
	if b == nil || len(b.Y) == 0 {
		return a
	}
	x := data.NewMatrix(a.X.Rows+b.X.Rows, a.X.Cols)
	copy(x.Data, a.X.Data)
	copy(x.Data[len(a.X.Data):], b.X.Data)
	y := make([]float64, 0, len(a.Y)+len(b.Y))
	y = append(append(y, a.Y...), b.Y...)
	return &model.Data{X: x, Y: y}
}
