// Package train is gdt's generic fit loop: minibatches over shuffled rows,
// validation after every epoch (or every so many steps), early stopping
// with patience, restoring the best weights, and random restarts that keep the run with the lowest
// validation loss. It knows nothing about trees: a model plugs in through
// the Run interface. Restarts run in parallel; the result does not depend
// on how many run at once.
package train

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"
	"time"

	"github.com/gdt-ml/gdt/rng"
)

// Run is one training run (one restart) of a model.
type Run interface {
	// Step trains on the rows batch (indices into the training data) and
	// returns the batch's mean training loss.
	Step(batch []int) (float64, error)
	// ValidLoss returns the loss on the validation data in inference mode.
	ValidLoss() (float64, error)
	// Snapshot remembers the current parameters as this run's best.
	Snapshot()
	// Restore puts the remembered parameters back.
	Restore()
}

// Config controls the loop. Zero values take the documented defaults.
type Config struct {
	BatchSize int // rows per step (default 128); capped at ceil(N/2) as the reference does
	MaxEpochs int // default 10,000
	// Patience is the number of validation checks without improvement
	// before stopping (default 200): epochs, or with EvalEvery intervals of
	// EvalEvery steps — training stops once Patience·EvalEvery steps pass
	// without improvement, also where an epoch is shorter than EvalEvery
	// steps and the checks are more frequent.
	Patience int
	// EvalEvery > 0 checks the validation loss every EvalEvery training
	// steps, or every epoch when an epoch has fewer steps (steps counted
	// across epochs), instead of at the end of every epoch (0, the
	// default): a large training set is checked several times an epoch, so
	// early stopping and the restored best weights do not wait for the
	// ends of long epochs, and a small one still every epoch. A run that
	// ends on MaxEpochs gets a last check.
	EvalEvery int
	// MinDelta: a check improves when its validation loss is below
	// best − MinDelta (default 0: strictly lower).
	MinDelta float64
	Restarts int // number of runs (default 1); the best by validation loss is kept
	// Seed is the model seed. Restart r gets seed Seed + r(r+1)/2, as the
	// GradTree reference's cumulative "seed += r" (42, 43, 45, 48, 52 …).
	Seed uint64
	// DropRemainder drops the last partial batch of every epoch.
	DropRemainder bool
	// RestoreOnStopOnly restores the best weights only when early stopping
	// fires (the reference's Keras behaviour); otherwise a run that used all
	// MaxEpochs also ends with its best weights.
	RestoreOnStopOnly bool
	// Parallel is the number of restarts trained at once (default
	// GOMAXPROCS, capped at Restarts).
	Parallel int
	// Slots is the number of those runs that compute at any moment when
	// Parallel exceeds it (default GOMAXPROCS; negative: no limit, the Go
	// scheduler shares the cores among all Parallel runs). Between epochs
	// the runs with the fewest epochs since their last improvement (which
	// may train longest) take the slots first, so that the last runs rarely
	// end alone with cores idle. Results do not depend on it.
	Slots int
}

func (c Config) withDefaults(n int) Config {
	if c.BatchSize <= 0 {
		c.BatchSize = 128
	}
	if half := (n + 1) / 2; c.BatchSize > half && half > 0 {
		c.BatchSize = half
	}
	if c.MaxEpochs <= 0 {
		c.MaxEpochs = 10000
	}
	if c.Patience <= 0 {
		c.Patience = 200
	}
	if c.Restarts <= 0 {
		c.Restarts = 1
	}
	if c.Parallel <= 0 {
		c.Parallel = runtime.GOMAXPROCS(0)
	}
	if c.Parallel > c.Restarts {
		c.Parallel = c.Restarts
	}
	if c.Slots == 0 {
		c.Slots = runtime.GOMAXPROCS(0)
	}
	return c
}

// RestartSeed returns the seed of restart r.
func RestartSeed(seed uint64, r int) uint64 { return seed + uint64(r*(r+1)/2) }

// Epoch is the record of one validation check: of one epoch, or of the
// steps since the previous check with Config.EvalEvery.
type Epoch struct {
	TrainLoss float64 // mean of the batch losses since the previous check
	ValidLoss float64
	// Epoch and Step (1-based, steps counted across epochs) locate a check
	// made with Config.EvalEvery; both are 0 without it.
	Epoch int `json:",omitempty"`
	Step  int `json:",omitempty"`
}

// RunReport summarises one restart.
type RunReport struct {
	Restart   int
	Seed      uint64
	BestLoss  float64 // best validation loss
	BestEpoch int     // 1-based epoch of the best validation loss
	// BestStep is the 1-based step (across epochs) of the best validation
	// loss with Config.EvalEvery, else 0.
	BestStep int  `json:",omitempty"`
	Epochs   int  // epochs trained (the last one may be partial with EvalEvery)
	Stopped  bool // early stopping fired
	Seconds  float64
	History  []Epoch
}

// Report summarises a fit.
type Report struct {
	Best int // index of the kept restart
	Runs []RunReport
}

// Progress is passed to the progress callback after every epoch.
type Progress struct {
	Restart, Restarts int
	Epoch             int
	TrainLoss         float64
	ValidLoss         float64
	BestLoss          float64
	Wait              int // checks since the last improvement (epochs without EvalEvery)
	// Step is the training step (1-based, across epochs) of a check made
	// with Config.EvalEvery; 0 without it.
	Step int
}

// NewRun creates restart r's run with its seed.
type NewRun func(restart int, seed uint64) (Run, error)

// Fit trains cfg.Restarts runs on n training rows and returns the run with
// the lowest best validation loss (ties: the lower restart index), already
// restored to its best weights. progress may be nil; it is called from the
// goroutines training the restarts, one call at a time.
func Fit(ctx context.Context, n int, cfg Config, newRun NewRun, progress func(Progress)) (Run, *Report, error) {
	if n <= 0 {
		return nil, nil, errors.New("train: no training rows")
	}
	cfg = cfg.withDefaults(n)
	runs := make([]Run, cfg.Restarts)
	reports := make([]RunReport, cfg.Restarts)
	errs := make([]error, cfg.Restarts)
	var progMu sync.Mutex
	report := func(p Progress) {
		if progress != nil {
			progMu.Lock()
			progress(p)
			progMu.Unlock()
		}
	}
	var sl *slots
	if cfg.Slots > 0 && cfg.Parallel > cfg.Slots {
		sl = newSlots(cfg.Slots, cfg.Restarts, max(1, cfg.Patience/40))
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < cfg.Parallel; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range next {
				runs[r], reports[r], errs[r] = fitOne(ctx, n, cfg, r, newRun, report, sl)
			}
		}()
	}
	for r := 0; r < cfg.Restarts; r++ {
		if ctx.Err() != nil {
			break
		}
		next <- r
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	best := -1
	for r, err := range errs {
		if err != nil {
			return nil, nil, fmt.Errorf("restart %d: %w", r, err)
		}
		if best < 0 || reports[r].BestLoss < reports[best].BestLoss {
			best = r
		}
	}
	return runs[best], &Report{Best: best, Runs: reports}, nil
}

func fitOne(ctx context.Context, n int, cfg Config, r int, newRun NewRun, progress func(Progress), sl *slots) (Run, RunReport, error) {
	start := time.Now()
	seed := RestartSeed(cfg.Seed, r)
	rep := RunReport{Restart: r, Seed: seed, BestLoss: math.Inf(1)}
	if sl != nil {
		if err := sl.acquire(ctx, r, 0); err != nil {
			return nil, rep, err
		}
		defer sl.release(r)
	}
	run, err := newRun(r, seed)
	if err != nil {
		return nil, rep, err
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	shuffler := rng.New(uint32(seed ^ seed>>32))
	wait := 0
	snapshotted := false
	every := 0 // steps between checks (0: at epoch ends)
	if cfg.EvalEvery > 0 {
		perEpoch := (n + cfg.BatchSize - 1) / cfg.BatchSize
		if cfg.DropRemainder && n > cfg.BatchSize {
			perEpoch = n / cfg.BatchSize
		}
		every = min(cfg.EvalEvery, perEpoch)
	}
	var sum float64 // batch losses since the last check
	batches, steps, bestStep := 0, 0, 0
	// check validates, records the check and reports whether to stop.
	check := func(epoch int) (bool, error) {
		vl, err := run.ValidLoss()
		if err != nil {
			return false, fmt.Errorf("epoch %d: validation: %w", epoch, err)
		}
		if math.IsNaN(vl) {
			return false, fmt.Errorf("epoch %d: validation loss is NaN (diverged; try smaller learning rates)", epoch)
		}
		e := Epoch{TrainLoss: sum / float64(batches), ValidLoss: vl}
		if cfg.EvalEvery > 0 {
			e.Epoch, e.Step = epoch, steps
		}
		sum, batches = 0, 0
		rep.History = append(rep.History, e)
		if vl < rep.BestLoss-cfg.MinDelta {
			rep.BestLoss, rep.BestEpoch = vl, epoch
			if cfg.EvalEvery > 0 {
				rep.BestStep = steps
			}
			run.Snapshot()
			snapshotted = true
			wait, bestStep = 0, steps
		} else {
			wait++
		}
		progress(Progress{Restart: r, Restarts: cfg.Restarts, Epoch: epoch, TrainLoss: e.TrainLoss,
			ValidLoss: vl, BestLoss: rep.BestLoss, Wait: wait, Step: e.Step})
		if cfg.EvalEvery > 0 {
			rep.Stopped = steps-bestStep >= cfg.Patience*cfg.EvalEvery
		} else {
			rep.Stopped = wait >= cfg.Patience
		}
		return rep.Stopped, nil
	}
	for epoch := 1; epoch <= cfg.MaxEpochs && !rep.Stopped; epoch++ {
		if err := ctx.Err(); err != nil {
			return nil, rep, err
		}
		shuffler.Shuffle(order)
		rep.Epochs = epoch
		for lo := 0; lo < n; lo += cfg.BatchSize {
			hi := lo + cfg.BatchSize
			if hi > n {
				if cfg.DropRemainder && lo > 0 {
					break
				}
				hi = n
			}
			loss, err := run.Step(order[lo:hi])
			if err != nil {
				return nil, rep, fmt.Errorf("epoch %d: %w", epoch, err)
			}
			sum += loss
			batches++
			steps++
			if every > 0 && steps%every == 0 {
				if stop, err := check(epoch); err != nil {
					return nil, rep, err
				} else if stop {
					break
				}
			}
		}
		if every == 0 || (epoch == cfg.MaxEpochs && batches > 0) {
			if _, err := check(epoch); err != nil {
				return nil, rep, err
			}
		}
		if sl != nil && epoch < cfg.MaxEpochs && !rep.Stopped {
			if err := sl.offer(ctx, r, wait); err != nil {
				return nil, rep, err
			}
		}
	}
	if snapshotted && (rep.Stopped || !cfg.RestoreOnStopOnly) {
		run.Restore()
	}
	if !rep.Stopped && cfg.RestoreOnStopOnly && len(rep.History) > 0 {
		// The kept weights are the last epoch's; report their loss.
		rep.BestLoss = rep.History[len(rep.History)-1].ValidLoss
	}
	rep.Seconds = time.Since(start).Seconds()
	return run, rep, nil
}
