package ppo

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/gdt-ml/gdt/rl/policy"
)

// ErrDiverged marks a training whose parameters stopped being finite
// before the run had a policy to deliver (no evaluation yet), or a call to
// Iterate after the run ended diverged.
var ErrDiverged = errors.New("training diverged")

// Divergence describes an update that made a parameter NaN or infinite.
// Such an attempt cannot recover: the run restarts a fresh attempt when
// the restart machinery allows one (Config.RestartAfter, Restarts: the
// same bounds as a restart of a training that has not learned), else it
// ends at that step and delivers its best-validation policy. Its final
// policy then does not exist (Trainer.Actor holds the non-finite
// parameters).
type Divergence struct {
	Attempt   int    // the attempt that diverged (0: the first)
	Iteration int    // the run iteration whose update diverged
	Step      int    // run steps after that iteration
	Cause     string // the first non-finite parameter, e.g. "actor tensor leaves[3] = NaN"
}

// Diverged returns the divergence that ended the run and whether there was
// one. A run that ended so is Done; its delivered policy is the
// best-validation one (Delivered, BestActor, whose test returns are
// played), and its final policy (Actor) holds non-finite parameters: it
// is not a policy to evaluate or export.
func (t *Trainer) Diverged() (Divergence, bool) {
	if t.diverged == nil {
		return Divergence{}, false
	}
	return *t.diverged, true
}

// nonFinite returns the first NaN or infinite parameter of the actor or
// the critic after an update (nil if there is none): without the check a
// diverged run would train on to its budget reporting NaN returns.
func (t *Trainer) nonFinite() *Divergence {
	for _, net := range []struct {
		name string
		n    policy.Net
	}{{"actor", t.actor}, {"critic", t.critic}} {
		for _, ts := range net.n.Tensors() {
			for i, v := range ts.Value {
				if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
					return &Divergence{Attempt: t.at.n, Iteration: t.iter, Step: t.global,
						Cause: fmt.Sprintf("%s tensor %s[%d] = %v", net.name, ts.Name, i, v)}
				}
			}
		}
	}
	return nil
}

// diverge handles an iteration whose update diverged (d): it restarts a
// fresh attempt if the restart machinery allows one; else, with a
// best-validation policy, it ends the run there and plays that policy's
// test episodes (as the final evaluation would have); else it returns
// ErrDiverged naming the tensor, the iteration and the step. p is the
// iteration's progress so far.
func (t *Trainer) diverge(p Progress, d *Divergence) (Progress, error) {
	p.Diverged = d
	if t.mayRestart() {
		if err := t.restart(RestartDiverged); err != nil {
			return p, err
		}
		p.Restarted, p.Attempt = true, t.at.n
		return p, nil
	}
	p.Attempt = t.at.n
	if t.best == nil {
		after := ""
		switch n := len(t.restarts); n {
		case 0:
		case 1:
			after = ", after 1 restart"
		default:
			after = fmt.Sprintf(", after %d restarts", n)
		}
		return p, fmt.Errorf("%w: %s after iteration %d (step %d%s), with no best-validation policy to deliver yet; lower the learning rates or the entropy coefficient",
			ErrDiverged, d.Cause, d.Iteration, d.Step, after)
	}
	if t.cfg.EvalEpisodes > 0 {
		rets, err := t.timedReturns(t.cfg.TestSeed, t.cfg.EvalEpisodes, t.best.actor)
		if err != nil {
			return p, err
		}
		t.best.info.Test = rets
	}
	t.diverged = d
	return p, nil
}

// timedReturns is Returns on the trainer's maker, counted as evaluation
// time.
func (t *Trainer) timedReturns(first, n int, a policy.Actor) ([]float64, error) {
	start := time.Now()
	defer func() { t.evalSec += time.Since(start).Seconds() }()
	return Returns(t.maker, first, n, a, nil)
}
