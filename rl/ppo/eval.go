package ppo

import (
	"fmt"
	"math"
	"time"

	"github.com/gdt-ml/gdt/interpret"
	"github.com/gdt-ml/gdt/metrics"
	"github.com/gdt-ml/gdt/rl/env"
	"github.com/gdt-ml/gdt/rl/policy"
)

// Greedy returns the deterministic policy of an actor (arg-max of the
// logits, or the mean; spec §1.5) as an env.Policy. An actor error (only
// possible for malformed input) is kept in *errp.
func Greedy(a policy.Actor, errp *error) env.Policy {
	out := make([]float32, a.Out())
	d := a.Dist()
	return func(obs, action []float32) {
		if err := a.Predict(obs, 1, out); err != nil && *errp == nil {
			*errp = err
		}
		d.Greedy(out, action)
	}
}

// Returns plays one greedy episode of a fresh environment from m per seed
// first, first+1, …, first+n−1 (env.Evaluate: reseed, reset, act until a
// termination or the time limit) and returns the undiscounted returns.
// visit, if not nil, sees every observation the policy acts on.
func Returns(m env.Maker, first, n int, a policy.Actor, visit func(obs []float32)) ([]float64, error) {
	e := m()
	seeds := make([]uint64, n)
	for i := range seeds {
		seeds[i] = uint64(first + i)
	}
	var perr error
	pol := Greedy(a, &perr)
	if visit != nil {
		inner := pol
		pol = func(obs, action []float32) { visit(obs); inner(obs, action) }
	}
	eps, err := env.Evaluate(e, seeds, pol)
	if err == nil {
		err = perr
	}
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(eps))
	for i, ep := range eps {
		out[i] = ep.Return
	}
	return out, nil
}

// VisitEpisodes is the most greedy episodes Visited plays for a pruning by
// visited states. Where the environment has a finite set of start states
// (env.FiniteStarts) the episodes stop once they have started from all of
// them: Empty-Random-6x6's 60 starts are all drawn by 1000 uniform draws
// but with probability < 60·(59/60)^1000 ≈ 3·10⁻⁶, and env.Visits says
// whether they were.
const VisitEpisodes = 1000

// Visited plays greedy episodes of a on fresh environments from m, seeds
// first, first+1, … (env.Visit: at most maxEpisodes, fewer once every start
// state was drawn), and returns the distinct observations a acted on.
func Visited(m env.Maker, first, maxEpisodes int, a policy.Actor) (*env.Visits, error) {
	var perr error
	v, err := env.Visit(m(), uint64(first), maxEpisodes, Greedy(a, &perr))
	if err == nil {
		err = perr
	}
	if err != nil {
		return nil, err
	}
	return v, nil
}

// Visits returns the observations a's greedy episodes from the run's
// validation seeds meet (Visited, at most VisitEpisodes episodes): what a
// pruning by visited states prunes with.
func (t *Trainer) Visits(a policy.Actor) (*env.Visits, error) {
	return Visited(t.Maker(), t.cfg.ValidationSeed(), VisitEpisodes, a)
}

// PrunedTree returns tree actor a's tree as gdt shows, exports and counts
// it: pruned as mode says ("" = Config.Prune) — PruneFull (or "") with
// the observation bounds (PruneBounds, policy.TreeActor.Pruned), or
// PruneVisited with the observations of a's greedy episodes from the
// validation seeds (Visited, policy.PruneVisited), which it returns too.
func (t *Trainer) PrunedTree(a *policy.TreeActor, mode string) (*interpret.Tree, *env.Visits, error) {
	if mode == "" {
		mode = t.cfg.Prune
	}
	switch mode {
	case "", PruneFull:
		pr, err := a.Pruned(t.PruneBounds())
		return pr, nil, err
	case PruneVisited:
	default:
		return nil, nil, fmt.Errorf("pruning %q: expected %q or %q", mode, PruneFull, PruneVisited)
	}
	v, err := t.Visits(a)
	if err != nil {
		return nil, nil, err
	}
	plain, err := a.Plain()
	if err != nil {
		return nil, nil, err
	}
	pr, err := policy.PruneVisited(plain, v.Obs, v.Rows, a.Dist().Discrete)
	return pr, v, err
}

// selectionSD is the sample standard deviation of validation returns
// (EvalRecord.SelectionSD; 0 for fewer than two).
func selectionSD(x []float64) float64 {
	if len(x) < 2 {
		return 0
	}
	return metrics.Std(x, 1)
}

// plateauInput is the validation figure the plateau rule reads: the mean of
// the first EvalEpisodes validation episodes, or with PlateauAllVal the
// mean of all (the selection figure).
func (c *Config) plateauInput(rec EvalRecord) float64 {
	if c.PlateauAllVal {
		return rec.Selection
	}
	return rec.Validation
}

// evaluate runs the validation episodes (seeds ValidationSeed()+0…,
// ValidationEpisodes of them: one on an environment with one fixed layout,
// where it stands for all), feeds the plateau scheduler the mean of the
// first EvalEpisodes (the thesis's evaluation, so the training does not
// depend on ValEpisodes; with PlateauAllVal the mean of all), keeps the
// best-validation policy on the mean of all (trackBest) and, with test,
// plays the test episodes (seeds TestSeed+0…) with the current actor and
// with the best-validation policy.
func (t *Trainer) evaluate(test bool) (EvalRecord, error) {
	start := time.Now()
	defer func() { t.evalSec += time.Since(start).Seconds() }()
	cfg := t.cfg
	rec := EvalRecord{Iteration: t.iter, Step: t.global, LRScale: t.plat.Scale(), Attempt: t.at.n}
	if cfg.EvalEpisodes > 0 {
		a := t.Judged()
		val, err := t.validate(a, nil)
		if err != nil {
			return rec, err
		}
		rec.Validation, rec.Selection = metrics.Mean(val[:cfg.EvalEpisodes]), metrics.Mean(val)
		if !t.spec.OneEpisode {
			rec.SelectionSD = selectionSD(val)
		}
		if cfg.ReduceLR {
			if t.plat.Step(cfg.plateauInput(rec)) {
				if err := t.aOpt.SetLRScale(t.plat.Scale()); err != nil {
					return rec, err
				}
			}
			rec.LRScale = t.plat.Scale()
		}
		if err := t.trackBest(a, rec.Selection); err != nil {
			return rec, err
		}
		if test {
			if rec.Test, err = Returns(t.maker, cfg.TestSeed, cfg.EvalEpisodes, a, nil); err != nil {
				return rec, err
			}
			if t.best != nil {
				if cfg.Recheck > 0 && t.best.info.Recheck == nil {
					if err := t.recheck(); err != nil {
						return rec, err
					}
				}
				if cfg.Polish && t.best.info.Polish == nil {
					p, err := t.polish(t.best.actor)
					if err != nil {
						return rec, err
					}
					t.best.info.Polish = &p
				}
				if t.best.info.Test, err = Returns(t.maker, cfg.TestSeed, cfg.EvalEpisodes, t.best.actor, nil); err != nil {
					return rec, err
				}
			}
		}
	}
	t.history = append(t.history, rec)
	return rec, nil
}

// Judged returns the actor evaluations and looks judge: the averaged
// actor with Config.EvalAverage (once the attempt has updated), else the
// current one (Actor).
func (t *Trainer) Judged() policy.Actor {
	if t.avg != nil {
		return t.avg
	}
	return t.actor
}

// average moves the averaged actor (Config.EvalAverage) towards the
// current parameters after an iteration of n environment steps; the first
// call of an attempt starts it at them.
func (t *Trainer) average(n int) error {
	h := t.cfg.EvalAverage
	if h <= 0 {
		return nil
	}
	if t.avg == nil {
		a, err := t.copyActor(t.actor)
		t.avg = a
		return err
	}
	w := float32(-math.Expm1(-float64(n) / float64(h)))
	dst := t.avg.Tensors()
	for i, x := range t.actor.Tensors() {
		d := dst[i].Value
		for k, v := range x.Value {
			d[k] += w * (v - d[k])
		}
	}
	t.avg.Changed()
	return nil
}

// Look is a validation between evaluations (Config.ValEvery): the policy
// at Step validated at Selection over the validation episodes.
type Look struct {
	Step      int
	Selection float64
	Attempt   int
}

// Looks returns the run's validations between evaluations, oldest first.
func (t *Trainer) Looks() []Look { return append([]Look(nil), t.looks...) }

// validate plays the validation episodes with actor a and returns their
// returns (as many as ValidationEpisodes; a task with one fixed layout
// plays one and repeats it); visit, when not nil, sees every observation a
// acts on (Returns).
func (t *Trainer) validate(a policy.Actor, visit func(obs []float32)) ([]float64, error) {
	cfg := t.cfg
	n := cfg.ValidationEpisodes()
	play := n
	if t.spec.OneEpisode {
		play = 1
	}
	val, err := Returns(t.maker, cfg.ValidationSeed(), play, a, visit)
	if err != nil {
		return nil, err
	}
	for len(val) < n {
		val = append(val, val[0])
	}
	return val, nil
}

// look validates the current policy between evaluations (Config.ValEvery)
// for the delivered-policy choice only.
func (t *Trainer) look() error {
	if t.cfg.EvalEpisodes <= 0 {
		return nil
	}
	start := time.Now()
	defer func() { t.evalSec += time.Since(start).Seconds() }()
	a := t.Judged()
	val, err := t.validate(a, nil)
	if err != nil {
		return err
	}
	sel := metrics.Mean(val)
	if err := t.trackBest(a, sel); err != nil {
		return err
	}
	t.looks = append(t.looks, Look{Step: t.global, Selection: sel, Attempt: t.at.n})
	return nil
}
