package bench

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/folds"
	"github.com/gdt-ml/gdt/metrics"
)

// Result is one (dataset, model, trial) outcome: one CSV row.
type Result struct {
	Suite   string
	Dataset string
	Task    string
	Model   string
	Trial   int
	Seed    int
	F1Macro float64
	// ValidF1Macro is the macro F1 on the fold's validation rows, for
	// learners that early-stop on them (0 otherwise): a score a
	// configuration may be chosen by without looking at the test rows.
	ValidF1Macro     float64
	Accuracy         float64
	BalancedAccuracy float64
	ROCAUC           float64
	R2, MSE          float64 // regression tasks (the classification scores stay 0)
	FitSeconds       float64
	// FitCPUSeconds is the CPU time (user + system) the process spent
	// during the fit: a load-independent cost where the wall time depends
	// on what else the machine runs, but only with one job at a time
	// (--workers 1); with more it includes the other jobs' work.
	FitCPUSeconds  float64
	PredictSeconds float64
	NNodes         int
	NTrain         int
	NTest          int
	Err            string // non-empty when the fit or prediction failed
}

// Options configure a benchmark run.
type Options struct {
	Suite    string   // suite name, e.g. "gradtree-binary"
	Def      *Suite   // an ad-hoc suite to run instead of a named one (e.g. one user file)
	Models   []string // registered model names
	Trials   int      // trials (GradTree protocol: data seeds 42…42+Trials−1); 0 = protocol default
	Datasets []string // optional subset of the suite's datasets
	Root     string   // data root (see datasets.Root)
	Workers  int      // parallel jobs; 0 = GOMAXPROCS
	// Done lists results already computed (e.g. read back from an earlier
	// CSV); matching (dataset, model, trial) jobs are not run again.
	Done []Result
	// Progress, if set, is called after every finished (dataset, trial) job.
	Progress func(done, total int, last string)
	// OnResult, if set, is called once for every newly computed result (not
	// for those in Done), as soon as it is known, one call at a time. The
	// CLI uses it to checkpoint --out after every fit, so an interrupted run
	// loses at most the fits in progress.
	OnResult func(Result)
}

// The evaluation protocols live in package folds (the search in package
// hpo scores configurations with them too); the harness names them here.
type (
	// Fold is one train/validation/test partition of a dataset's rows.
	Fold = folds.Fold
	// Prepared is a fold after preprocessing: model-space matrices.
	Prepared = folds.Prepared
	// Protocol is an evaluation protocol: how rows are split and prepared.
	Protocol = folds.Protocol
	// GradTreeProtocol is the GradTree study's protocol (folds.GradTree).
	GradTreeProtocol = folds.GradTree
	// CVProtocol is (stratified) k-fold cross-validation (folds.CV).
	CVProtocol = folds.CV
	// HoldoutProtocol is one random split per trial (folds.Holdout).
	HoldoutProtocol = folds.Holdout
)

type job struct {
	dataset string
	fold    Fold
	ds      *data.Dataset
}

// Run executes the benchmark and returns the results in a deterministic
// order (suite dataset order, then trial, then model order), independent
// of the number of workers. Cancelled through ctx, it returns ctx's error
// and every row finished before the cancellation, also those of jobs that
// were cut short between two models.
func Run(ctx context.Context, opt Options) ([]Result, error) {
	suite := opt.Def
	var err error
	if suite == nil {
		if suite, err = LookupSuite(opt.Suite); err != nil {
			return nil, err
		}
	}
	if len(opt.Models) == 0 {
		return nil, errors.New("bench: no models given")
	}
	models := make([]Model, len(opt.Models))
	for i, name := range opt.Models {
		if models[i], err = Lookup(name); err != nil {
			return nil, err
		}
	}
	names, err := suite.Select(opt.Datasets)
	if err != nil {
		return nil, err
	}
	trials := opt.Trials
	if trials <= 0 {
		trials = suite.Protocol.DefaultTrials()
	}
	done := map[string]Result{}
	for _, r := range opt.Done {
		if r.Err == "" {
			done[resultKey(r.Dataset, r.Model, r.Trial)] = r
		}
	}

	var jobs []job
	for _, name := range names {
		ds, err := suite.Load(opt.Root, name)
		if err != nil {
			return nil, err
		}
		folds, err := suite.Protocol.Folds(ds, trials)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		for _, f := range folds {
			jobs = append(jobs, job{dataset: name, fold: f, ds: ds})
		}
	}

	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	results := make([][]Result, len(jobs))
	errs := make([]error, len(jobs))
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	finished := 0
	var report func(Result)
	if opt.OnResult != nil {
		var rmu sync.Mutex
		report = func(r Result) {
			rmu.Lock()
			defer rmu.Unlock()
			opt.OnResult(r)
		}
	}
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i], errs[i] = runJob(ctx, suite, models, jobs[i], done, report)
				mu.Lock()
				finished++
				if opt.Progress != nil {
					opt.Progress(finished, len(jobs), fmt.Sprintf("%s trial %d", jobs[i].dataset, jobs[i].fold.Trial))
				}
				mu.Unlock()
			}
		}()
	}
	for i := range jobs {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return flatten(results), err
	}
	for _, err := range errs {
		if err != nil {
			return flatten(results), err
		}
	}
	return flatten(results), nil
}

func flatten(rs [][]Result) []Result {
	var out []Result
	for _, r := range rs {
		out = append(out, r...)
	}
	return out
}

// Merge returns old with every row replaced by the row of fresh with the
// same (dataset, model, trial), followed by the rows of fresh that replace
// none, in their order. A resumed run writes Merge(rows read back, rows
// computed), so rows of datasets or models outside the run are kept.
func Merge(old, fresh []Result) []Result {
	idx := make(map[string]int, len(fresh))
	for i, r := range fresh {
		idx[resultKey(r.Dataset, r.Model, r.Trial)] = i
	}
	used := make([]bool, len(fresh))
	out := make([]Result, 0, len(old)+len(fresh))
	for _, r := range old {
		if i, ok := idx[resultKey(r.Dataset, r.Model, r.Trial)]; ok {
			if !used[i] {
				out = append(out, fresh[i])
				used[i] = true
			}
			continue
		}
		out = append(out, r)
	}
	for i, r := range fresh {
		if !used[i] {
			out = append(out, r)
		}
	}
	return out
}

func resultKey(dataset, model string, trial int) string {
	return fmt.Sprintf("%s\x00%s\x00%d", dataset, model, trial)
}

func runJob(ctx context.Context, suite *Suite, models []Model, j job, done map[string]Result, report func(Result)) ([]Result, error) {
	out := make([]Result, len(models))
	todo := false
	for i, m := range models {
		if r, ok := done[resultKey(j.dataset, m.Name, j.fold.Trial)]; ok {
			out[i] = r
		} else {
			todo = true
		}
	}
	if !todo {
		return out, nil
	}
	prep, err := suite.Protocol.Prepare(j.ds, j.fold)
	if err != nil {
		return nil, fmt.Errorf("%s trial %d: %w", j.dataset, j.fold.Trial, err)
	}
	var merged *Data
	for i, m := range models {
		if _, ok := done[resultKey(j.dataset, m.Name, j.fold.Trial)]; ok {
			continue
		}
		if err := ctx.Err(); err != nil {
			return finished(out), err
		}
		r := Result{Suite: suite.Name, Dataset: j.dataset, Task: prep.Problem.Task.String(), Model: m.Name,
			Trial: j.fold.Trial, Seed: j.fold.Seed, NTest: len(prep.Test.Y)}
		learner := m.New(int64(suite.ModelSeed))
		train, valid := prep.Train, prep.Valid
		if !m.UsesValidation {
			if merged == nil {
				merged = concat(prep.Train, prep.Valid)
			}
			train, valid = merged, nil
		}
		r.NTrain = len(train.Y)
		start, cpu := time.Now(), cpuSeconds()
		err := learner.Fit(ctx, prep.Problem, train, valid)
		r.FitSeconds = time.Since(start).Seconds()
		r.FitCPUSeconds = cpuSeconds() - cpu
		if err != nil {
			if ctx.Err() != nil {
				return finished(out), ctx.Err()
			}
			r.Err = err.Error()
			out[i] = r
			if report != nil {
				report(r)
			}
			continue
		}
		// The rows to score go through the pipeline the model ships
		// with: snapped to its splits (model.Snap).
		testRows, validRows, err := prep.Snap(learner, !m.UsesValidation)
		if err != nil {
			r.Err = err.Error()
			out[i] = r
			if report != nil {
				report(r)
			}
			continue
		}
		start = time.Now()
		proba, err := learner.PredictProba(testRows.X)
		r.PredictSeconds = time.Since(start).Seconds()
		if err != nil {
			r.Err = err.Error()
			out[i] = r
			if report != nil {
				report(r)
			}
			continue
		}
		score(&r, prep.Problem, testRows.Y, proba)
		if valid != nil && prep.Problem.Task != data.Regression {
			vp, err := learner.PredictProba(validRows.X)
			if err != nil {
				r.Err = fmt.Sprintf("validation rows: %v", err)
			} else {
				var v Result
				score(&v, prep.Problem, valid.Y, vp)
				r.ValidF1Macro = v.F1Macro
			}
		}
		r.NNodes = learner.NumNodes()
		out[i] = r
		if report != nil {
			report(r)
		}
	}
	return out, nil
}

// finished returns the rows of out that are set (read back or computed):
// what a cancelled job returns, so that the models it finished before the
// cancellation keep their rows.
func finished(out []Result) []Result {
	var done []Result
	for _, r := range out {
		if r.Model != "" {
			done = append(done, r)
		}
	}
	return done
}

func concat(a, b *Data) *Data {
	x := data.NewMatrix(a.X.Rows+b.X.Rows, a.X.Cols)
	copy(x.Data, a.X.Data)
	copy(x.Data[len(a.X.Data):], b.X.Data)
	y := make([]float64, 0, len(a.Y)+len(b.Y))
	y = append(append(y, a.Y...), b.Y...)
	return &Data{X: x, Y: y}
}

// score fills the metrics of r from test labels and predicted probabilities.
// ROC-AUC follows the thesis's code: when it is undefined (a class missing
// from the test rows) it counts as 0.5.
func score(r *Result, p Problem, y []float64, proba *data.Matrix) {
	if p.Task == data.Regression {
		yp := make([]float64, proba.Rows)
		for i := range yp {
			yp[i] = float64(proba.At(i, 0))
		}
		r.R2 = metrics.R2(y, yp)
		r.MSE = metrics.MSE(y, yp)
		return
	}
	var pred []float64
	var auc float64
	var err error
	if p.Task == data.Binary {
		p1 := make([]float32, proba.Rows)
		for i := range p1 {
			p1[i] = proba.At(i, 1)
		}
		pred = metrics.BinaryPredict(p1)
		auc, err = metrics.ROCAUC(y, p1)
	} else {
		pred = metrics.Argmax(proba.Data, proba.Cols)
		auc, err = metrics.ROCAUCOvR(y, proba.Data, proba.Cols)
	}
	if err != nil {
		auc = 0.5
	}
	r.ROCAUC = auc
	r.F1Macro = metrics.F1Macro(y, pred, p.NumClasses)
	r.Accuracy = metrics.Accuracy(y, pred)
	r.BalancedAccuracy = metrics.BalancedAccuracy(y, pred, p.NumClasses)
}
