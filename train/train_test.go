package train

import (
	"context"
	"errors"
	"math"
	"testing"
)

// quadRun minimises (w − target)² by gradient steps; its validation loss
// follows a scripted sequence when given one.
type quadRun struct {
	w, saved  float64
	target    float64
	lr        float64
	script    []float64
	epoch     int
	steps     int
	rowsSeen  map[int]int
	failAfter int
}

func (q *quadRun) Step(batch []int) (float64, error) {
	q.steps++
	if q.failAfter > 0 && q.steps > q.failAfter {
		return 0, errors.New("boom")
	}
	for _, i := range batch {
		q.rowsSeen[i]++
	}
	g := 2 * (q.w - q.target)
	q.w -= q.lr * g
	return (q.w - q.target) * (q.w - q.target), nil
}

func (q *quadRun) ValidLoss() (float64, error) {
	q.epoch++
	if q.script != nil {
		if q.epoch <= len(q.script) {
			return q.script[q.epoch-1], nil
		}
		return 100, nil
	}
	return (q.w - q.target) * (q.w - q.target), nil
}
func (q *quadRun) Snapshot() { q.saved = q.w }
func (q *quadRun) Restore()  { q.w = q.saved }

func TestEarlyStoppingRestoresBest(t *testing.T) {
	script := []float64{5, 4, 3, 3.5, 3.2, 3.1, 3.0, 3.05, 9}
	run, best, rep := fitScript(t, script, Config{Patience: 3, BatchSize: 4}, nil)
	r := rep.Runs[0]
	if r.BestEpoch != 3 || r.Epochs != 6 || !r.Stopped || r.BestLoss != 3 {
		t.Fatalf("report %+v", r)
	}
	if best.(*quadRun).w != best.(*quadRun).saved {
		t.Fatal("best weights not restored")
	}
	// Every row is seen once per epoch (batches 4, 4, 2).
	for i := 0; i < 10; i++ {
		if run.rowsSeen[i] != 6 {
			t.Fatalf("row %d seen %d times in 6 epochs", i, run.rowsSeen[i])
		}
	}
	if run.steps != 18 {
		t.Fatalf("%d steps, want 18", run.steps)
	}
}

func TestRestartsKeepLowestLoss(t *testing.T) {
	losses := map[uint64][]float64{}
	for _, par := range []int{1, 3} {
		_, rep, err := Fit(context.Background(), 8, Config{Restarts: 4, Patience: 2, MaxEpochs: 20, Seed: 42, Parallel: par},
			func(r int, seed uint64) (Run, error) {
				// Restart 2 reaches the lowest loss.
				s := []float64{3, 2, 2.5, 2.6}
				if r == 2 {
					s = []float64{3, 1, 1.5, 1.6}
				}
				return &quadRun{script: s, rowsSeen: map[int]int{}}, nil
			}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Best != 2 {
			t.Fatalf("parallel %d: kept restart %d, want 2", par, rep.Best)
		}
		var seeds []float64
		for _, r := range rep.Runs {
			seeds = append(seeds, float64(r.Seed))
		}
		losses[uint64(par)] = seeds
	}
	want := []float64{42, 43, 45, 48}
	for par, s := range losses {
		for i := range want {
			if s[i] != want[i] {
				t.Fatalf("parallel %d: restart seeds %v, want %v", par, s, want)
			}
		}
	}
}

func TestConvergesAndCaps(t *testing.T) {
	best, rep, err := Fit(context.Background(), 100, Config{BatchSize: 500, MaxEpochs: 50, Patience: 1000},
		func(r int, seed uint64) (Run, error) {
			return &quadRun{target: 3, lr: 0.2, rowsSeen: map[int]int{}}, nil
		}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Runs[0].Epochs != 50 || rep.Runs[0].Stopped {
		t.Fatalf("report %+v", rep.Runs[0])
	}
	if w := best.(*quadRun).w; math.Abs(w-3) > 1e-6 {
		t.Fatalf("w = %v", w)
	}
}

func TestErrorsAndCancel(t *testing.T) {
	_, _, err := Fit(context.Background(), 10, Config{MaxEpochs: 5},
		func(r int, seed uint64) (Run, error) {
			return &quadRun{rowsSeen: map[int]int{}, failAfter: 3}, nil
		}, nil)
	if err == nil {
		t.Fatal("step error not reported")
	}
	ctx, cancel := context.WithCancel(context.Background())
	_, _, err = Fit(ctx, 10, Config{MaxEpochs: 1000, Patience: 1000},
		func(r int, seed uint64) (Run, error) {
			return &quadRun{rowsSeen: map[int]int{}, lr: 0.01}, nil
		}, func(p Progress) {
			if p.Epoch == 3 {
				cancel()
			}
		})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancel: %v", err)
	}
	if _, _, err := Fit(context.Background(), 0, Config{}, nil, nil); err == nil {
		t.Fatal("no rows accepted")
	}
}

func TestEvalEveryChecksBetweenEpochs(t *testing.T) {
	// 10 rows in batches of 4, 4, 2: three steps per epoch, a check every
	// two steps (steps 2, 4, 6, …), so checks fall inside and at the ends
	// of epochs.
	script := []float64{5, 4, 3, 3.5, 3.2, 3.1, 9}
	var progress []Progress
	run, best, rep := fitScript(t, script, Config{Patience: 3, BatchSize: 4, EvalEvery: 2}, func(p Progress) { progress = append(progress, p) })
	r := rep.Runs[0]
	if r.BestStep != 6 || r.BestEpoch != 2 || r.Epochs != 4 || !r.Stopped || r.BestLoss != 3 || len(r.History) != 6 {
		t.Fatalf("report %+v", r)
	}
	if h := r.History[3]; h.Epoch != 3 || h.Step != 8 {
		t.Fatalf("check 4 at epoch %d step %d, want epoch 3 step 8", h.Epoch, h.Step)
	}
	if run.steps != 12 {
		t.Fatalf("%d steps, want 12 (stop right after the sixth check)", run.steps)
	}
	// progress reports every check with its step and the checks waited
	if len(progress) != 6 || progress[3].Step != 8 || progress[3].Epoch != 3 || progress[5].Step != 12 || progress[5].Wait != 3 {
		t.Fatalf("progress %+v", progress)
	}
	if best.(*quadRun).w != best.(*quadRun).saved {
		t.Fatal("best weights not restored")
	}
}

func TestEvalEveryAtLeastEveryEpoch(t *testing.T) {
	// 3 steps per epoch and EvalEvery 5: a check every epoch (every 3
	// steps), as an epoch is shorter than 5 steps.
	_, rep, err := Fit(context.Background(), 10, Config{Patience: 10, BatchSize: 4, EvalEvery: 5, MaxEpochs: 2},
		func(r int, seed uint64) (Run, error) {
			return &quadRun{target: 1, lr: 0.1, rowsSeen: map[int]int{}}, nil
		}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Runs[0]
	if len(r.History) != 2 || r.History[0].Step != 3 || r.History[1].Step != 6 || r.Stopped {
		t.Fatalf("report %+v", r)
	}
}

func TestEvalEveryLastCheckAtMaxEpochs(t *testing.T) {
	// 5 steps per epoch, a check every 2 steps, one epoch: checks after
	// steps 2 and 4, and a last one for step 5.
	_, rep, err := Fit(context.Background(), 10, Config{Patience: 10, BatchSize: 2, EvalEvery: 2, MaxEpochs: 1},
		func(r int, seed uint64) (Run, error) {
			return &quadRun{target: 1, lr: 0.1, rowsSeen: map[int]int{}}, nil
		}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Runs[0]
	if len(r.History) != 3 || r.History[1].Step != 4 || r.History[2].Step != 5 || r.BestStep != 5 {
		t.Fatalf("report %+v", r)
	}
}

func TestEvalEveryPatienceCountsSteps(t *testing.T) {
	// 3 steps per epoch and EvalEvery 5: a check every 3 steps. Patience 2
	// means 2·5 = 10 steps without improvement, not 2 checks: the best
	// check is at step 6, so the run stops at the check of step 18 (12
	// steps later), not at step 12.
	script := []float64{5, 4, 9, 9, 9, 9, 9, 9}
	run, _, rep := fitScript(t, script, Config{Patience: 2, BatchSize: 4, EvalEvery: 5}, nil)
	r := rep.Runs[0]
	if !r.Stopped || r.BestStep != 6 || len(r.History) != 6 || run.steps != 18 {
		t.Fatalf("report %+v after %d steps: want the best at step 6 and a stop after 18 steps (6 checks)", r, run.steps)
	}
}

// fitScript fits one quadRun whose validation losses follow script with
// cfg, failing the test on an error; it returns the run, the best run Fit
// kept and the report.
func fitScript(t *testing.T, script []float64, cfg Config, progress func(Progress)) (*quadRun, Run, *Report) {
	t.Helper()
	var run *quadRun
	best, rep, err := Fit(context.Background(), 10, cfg, func(r int, seed uint64) (Run, error) {
		run = &quadRun{target: 1, lr: 0.1, script: script, rowsSeen: map[int]int{}}
		return run, nil
	}, progress)
	if err != nil {
		t.Fatal(err)
	}
	return run, best, rep
}
