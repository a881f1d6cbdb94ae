package ppo

import (
	"fmt"
	"math"
)

// attempt is the state of one training attempt of a run: the first, and
// each restart of a training that had not learned (Config.RestartAfter).
// A restart is a fresh training with the rest of the budget; the run keeps
// its step and iteration counts, its evaluations and its best-validation
// policy (the validation episodes are the same for every attempt).
type attempt struct {
	n      int  // 0 for the first attempt
	seed   int  // training seed: Config.Seed for attempt 0, derived for restarts
	step   int  // run step at the attempt's start
	iter   int  // run iterations before the attempt's first
	rec    int  // index in the history of the attempt's first evaluation
	judged bool // the restart rule has decided on this attempt
	// bestTrain is the highest return of a finished training episode of
	// the attempt (−Inf before the first).
	bestTrain float64
}

// attemptSeed returns the training seed of attempt n of a run with seed:
// the seed itself for n = 0, else a seed derived from both.
func attemptSeed(seed, n int) int {
	if n == 0 {
		return seed
	}
	return int(streamSeed(seed, n, 4))
}

// Attempt returns the number of restarts so far (0: the first attempt is
// training).
func (t *Trainer) Attempt() int { return t.at.n }

// EvalSeconds returns the wall time spent in evaluations (validation and
// test episodes) in this process.
func (t *Trainer) EvalSeconds() float64 { return t.evalSec }

// attemptConfig returns the configuration attempt n trains with when it
// starts at run step start: the run's, with the attempt's training seed
// and the remaining budget; its validation episodes stay the run's.
func (t *Trainer) attemptConfig(n, start int) Config {
	c := t.cfg
	if n > 0 {
		c.ValSeed = t.cfg.ValidationSeed()
		c.Seed = attemptSeed(t.cfg.Seed, n)
		c.TotalSteps = t.cfg.TotalSteps - start
		if c.RestartFreshInit {
			c.InitSeed = int(streamSeed(c.Seed, t.cfg.InitSeed, 5))
		}
		if c.RestartCriticScale > 0 {
			c.LRCritic *= c.RestartCriticScale
		}
	}
	return c
}

// restartDue applies the restart rule once per attempt, at the first
// evaluation at least RestartAfter·TotalSteps steps after the attempt's
// start: it reports whether the attempt has not learned and may restart
// (fewer than Restarts restarts so far, and at least that many steps
// left).
func (t *Trainer) restartDue() bool {
	c := t.cfg
	if t.at.judged || c.RestartAfter <= 0 || c.EvalEpisodes < 1 {
		return false
	}
	budget := int(math.Ceil(c.RestartAfter * float64(c.TotalSteps)))
	if t.global-t.at.step < budget {
		return false
	}
	t.at.judged = true
	return t.mayRestart() && !learned(t.history[t.at.rec:], t.at.bestTrain, c.RestartMargin, c.RestartBelow)
}

// learned reports whether a training has learned by the evaluations recs
// (its own, the first one first) when its best training episode returned
// bestTrain: whether its best validation return (Selection) rose above
// the first by more than margin times the gain the training has shown
// possible, from the first validation return to the best return of any
// validation or (stochastic) training episode. The scale is the
// environment's own, so the rule needs no units: a training whose
// validation never moved (Acrobot's −500 at every evaluation) has not
// learned under any margin, nor one whose greedy policy gained a few
// points where its exploring episodes gained a hundred
// (MountainCarContinuous reaching the goal while exploring, not greedily).
// A level below (0: none) also requires the best validation return to
// reach it (Config.RestartBelow).
func learned(recs []EvalRecord, bestTrain, margin, below float64) bool {
	if len(recs) == 0 {
		return false
	}
	first := recs[0].Selection
	best := first
	for _, r := range recs[1:] {
		best = max(best, r.Selection)
	}
	if below != 0 && best < below {
		return false
	}
	return best-first > margin*(max(best, bestTrain)-first)
}

// Restart reasons (Restart.Reason).
const (
	// RestartNotLearned: the restart rule found that the attempt had not
	// learned (Config.RestartAfter, RestartMargin, RestartBelow).
	RestartNotLearned = "not learned"
	// RestartDiverged: the attempt's update made a parameter non-finite
	// (see Divergence).
	RestartDiverged = "diverged"
)

// Restart records one restart of a run.
type Restart struct {
	Step   int    // run step at which the next attempt started
	Reason string // RestartNotLearned or RestartDiverged
}

// Restarts returns the run's restarts, oldest first (as many as Attempt).
func (t *Trainer) Restarts() []Restart { return append([]Restart(nil), t.restarts...) }

// mayRestart reports whether the restart machinery allows another attempt
// now: restarts are on (RestartAfter > 0), fewer than Restarts so far, and
// at least RestartAfter·TotalSteps steps left.
func (t *Trainer) mayRestart() bool {
	c := t.cfg
	if c.RestartAfter <= 0 || t.at.n >= c.Restarts {
		return false
	}
	return c.TotalSteps-t.global >= int(math.Ceil(c.RestartAfter*float64(c.TotalSteps)))
}

// restart starts the next attempt at the current step (see attempt),
// recording why.
func (t *Trainer) restart(reason string) error {
	if err := t.become(attempt{n: t.at.n + 1, step: t.global, iter: t.iter, rec: len(t.history), bestTrain: math.Inf(-1)}); err != nil {
		return err
	}
	t.restarts = append(t.restarts, Restart{Step: t.global, Reason: reason})
	return nil
}

// become replaces the trainer's training state (environments, networks,
// optimisers, schedules, buffers) by a fresh one for attempt a, keeping the
// run's counts, evaluations and best-validation policy.
func (t *Trainer) become(a attempt) error {
	c := t.attemptConfig(a.n, a.step)
	n, err := New(c, t.nets)
	if err != nil {
		return fmt.Errorf("restart %d: %w", a.n, err)
	}
	run := *t
	*t = *n
	t.cfg = run.cfg
	t.iter, t.global, t.trainSec, t.rolloutSec, t.evalSec = run.iter, run.global, run.trainSec, run.rolloutSec, run.evalSec
	t.history, t.looks, t.best, t.restarts = run.history, run.looks, run.best, run.restarts
	t.recent, t.recentN, t.episodes = run.recent, run.recentN, run.episodes
	a.seed = c.Seed
	t.at = a
	return nil
}
