package ppo

import (
	"math"

	"github.com/gdt-ml/gdt/metrics"
	"github.com/gdt-ml/gdt/rl/policy"
)

// BestPolicy describes the best-validation policy of a run: the actor's
// parameters at the last evaluation whose validation return was at least
// that of every earlier evaluation (the first evaluation always counts):
// the policy Stable-Baselines3's EvalCallback(best_model_save_path) keeps,
// except that of evaluations validating alike the later, longer-trained
// one wins (a return at its cap — CartPole's 500 — validates alike at
// many evaluations; BENCHMARKS.md "Ties on validation"). It is an extra: the figure a run reports (the thesis protocol) is the
// final policy's test return.
type BestPolicy struct {
	Iteration  int     // iteration of the evaluation
	Step       int     // environment steps at the evaluation
	Validation float64 // its mean validation return over Config.ValidationEpisodes episodes (EvalRecord.Selection)
	// Test holds the returns of this policy on the test episodes (seeds
	// TestSeed+0…, the final policy's episodes), played at the final
	// evaluation; nil before it.
	Test []float64
	// Polish, with Config.Polish, records how the policy's leaf actions
	// were polished on the validation episodes before its test (nil
	// otherwise). Validation stays the figure it was chosen on.
	Polish *Polish
	// Recheck, with Config.Recheck, records the policies the final
	// evaluation rechecked and their mean returns there (nil otherwise).
	// Validation stays the figure the policy was kept on.
	Recheck *Recheck
}

// Recheck records a recheck (Config.Recheck): the steps of the
// best-validation policies kept, oldest first, each one's mean return on
// the recheck episodes and the standard deviation of those returns (SDs;
// nil in records written before it); the delivered policy is the highest
// (the later on a tie).
type Recheck struct {
	Steps   []int     `json:"steps"`
	Returns []float64 `json:"returns"`
	SDs     []float64 `json:"sds,omitempty"`
}

// bestState is a trainer's best-validation policy: its record and a
// separate actor holding a copy of its parameters.
type bestState struct {
	info  BestPolicy
	actor policy.Actor
}

// Best returns the record of the best-validation policy so far and whether
// there is one (none before the first evaluation, without validation
// episodes, or after resuming a checkpoint written before gdt kept the best
// until an evaluation beats every earlier one).
func (t *Trainer) Best() (BestPolicy, bool) {
	if t.best == nil {
		return BestPolicy{}, false
	}
	b := t.best.info
	b.Test = append([]float64(nil), b.Test...)
	if len(b.Test) == 0 {
		b.Test = nil
	}
	return b, true
}

// BestActor returns the best-validation policy as an actor of its own (not
// the one being trained; a later improvement replaces it with a new actor
// rather than changing it), its record, and whether there is one (see
// Best). Use it for inference only.
func (t *Trainer) BestActor() (policy.Actor, BestPolicy, bool) {
	b, ok := t.Best()
	if !ok {
		return nil, b, false
	}
	return t.best.actor, b, true
}

// Delivered returns the policy a run delivers, the one gdt rl train
// reports and eval, show and export use unless asked for the final one:
// the best-validation policy (BestActor) when the run has one, else the
// final policy (Actor); best reports which. Validation and test episodes
// have disjoint seeds (Config.Validate), so the delivered policy's test
// return is an estimate independent of its selection, except on an
// environment with one fixed layout (env.Spec.OneEpisode), where both are
// the same episode.
func (t *Trainer) Delivered() (a policy.Actor, best bool) {
	if a, _, ok := t.BestActor(); ok {
		return a, true
	}
	return t.Actor(), false
}

// copyActor returns a new actor of the configured method holding the
// values of src's tensors (which must have the trainer's layout), ready
// for inference.
func (t *Trainer) copyActor(src policy.Actor) (policy.Actor, error) {
	a, err := t.newActor()
	if err != nil {
		return nil, err
	}
	dst := a.Tensors()
	for i, x := range src.Tensors() {
		copy(dst[i].Value, x.Value)
	}
	t.prepareBest(a)
	return a, nil
}

// prepareBest readies a best-policy actor whose tensors were just written:
// derived state and the same helper-pool setting as the trained actor (the
// outputs do not depend on it).
func (t *Trainer) prepareBest(a policy.Actor) {
	if p, ok := a.(interface{ SetPool(bool) }); ok && !t.cfg.Serial {
		p.SetPool(true)
	}
	a.Changed()
}

// trackBest makes a copy of judged, the actor just validated (see
// Trainer.Judged), the best-validation policy when its validation return
// val (EvalRecord.Selection) is at least that of every earlier evaluation
// in the history and every earlier look (Config.ValEvery), of every
// attempt (ties go to the later one), so a run resumed from a checkpoint
// without a best never names a policy worse than an earlier evaluation.
// It touches no random stream or training state.
func (t *Trainer) trackBest(judged policy.Actor, val float64) error {
	for _, r := range t.history {
		if !(val >= r.Selection) {
			return nil
		}
	}
	for _, l := range t.looks {
		if !(val >= l.Selection) {
			return nil
		}
	}
	a, err := t.copyActor(judged)
	if err != nil {
		return err
	}
	t.best = &bestState{info: BestPolicy{Iteration: t.iter, Step: t.global, Validation: val}, actor: a}
	t.keepCandidate(t.best)
	return nil
}

// keepCandidate adds b to the policies Config.Recheck rechecks, dropping
// the oldest beyond Config.Recheck.
func (t *Trainer) keepCandidate(b *bestState) {
	if t.cfg.Recheck <= 0 {
		return
	}
	t.cands = append(t.cands, b)
	if n := len(t.cands) - t.cfg.Recheck; n > 0 {
		t.cands = append(t.cands[:0:0], t.cands[n:]...)
	}
}

// recheck plays each kept best-validation policy (Config.Recheck) on the
// recheck episodes, seeds ValidationSeed()+ValidationEpisodes()+0…, and
// makes the one with the highest mean there the best-validation policy
// (the later on a tie), recording what it played in its Recheck.
func (t *Trainer) recheck() error {
	r := &Recheck{}
	pick, top := t.best, math.Inf(-1)
	play := t.cfg.RecheckEpisodes
	if t.spec.OneEpisode {
		play = 1
	}
	first := t.cfg.ValidationSeed() + t.cfg.ValidationEpisodes()
	for _, c := range t.cands {
		ret, err := Returns(t.maker, first, play, c.actor, nil)
		if err != nil {
			return err
		}
		m := metrics.Mean(ret)
		r.Steps, r.Returns, r.SDs = append(r.Steps, c.info.Step), append(r.Returns, m), append(r.SDs, selectionSD(ret))
		if m >= top {
			pick, top = c, m
		}
	}
	info := pick.info
	info.Recheck = r
	t.best = &bestState{info: info, actor: pick.actor}
	return nil
}
