package ppo

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/gdt-ml/gdt/linalg"
	"github.com/gdt-ml/gdt/optim"
	"github.com/gdt-ml/gdt/rl/env"
	"github.com/gdt-ml/gdt/rl/policy"
	"github.com/gdt-ml/gdt/rng"
)

// Progress is what a trainer reports after every iteration.
type Progress struct {
	Iteration    int
	Step         int // environment steps so far
	Total        int // budget
	StepsPerSec  float64
	RecentReturn float64 // mean return of the last (up to) 20 finished training episodes; NaN before the first
	Episodes     int     // finished training episodes
	Eval         *EvalRecord
	// Restarted reports that the training restarted after this iteration
	// (Config.RestartAfter): its evaluation found that the training had not
	// learned, or, with Diverged, its update made a parameter non-finite.
	// The next iteration is the first of attempt Attempt.
	Restarted bool
	// Diverged, when not nil, reports that this iteration's update made a
	// parameter NaN or infinite: with Restarted the run goes on with a
	// fresh attempt, otherwise it has ended there and delivers its
	// best-validation policy (Trainer.Diverged).
	Diverged *Divergence
	// LastActor, with Restarted after an evaluation (not a divergence), is
	// the actor the attempt's last evaluation judged (Trainer.Judged),
	// which the restart replaced (for studies: the trainer's Actor is
	// already the new attempt's). The training no longer uses it.
	LastActor policy.Actor
	Attempt   int
}

// EvalRecord is one evaluation (spec §3.7).
type EvalRecord struct {
	Iteration  int
	Step       int
	Validation float64   // mean greedy return over the first EvalEpisodes validation episodes (the thesis's evaluation; the plateau's input)
	Test       []float64 // test-episode returns (only at the final evaluation)
	LRScale    float64   // actor learning-rate scale after the plateau step
	// Selection is the mean greedy return over all validation episodes
	// (Config.ValidationEpisodes): the figure the delivered policy and the
	// restart rule compare.
	Selection float64
	// SelectionSD is the standard deviation of the validation returns
	// behind Selection (0 with one episode, or on a task with one fixed
	// layout): with it a study can judge rules that treat evaluations
	// within noise of each other alike. Checkpoints written before it
	// existed read as 0.
	SelectionSD float64
	Attempt     int // the training attempt (0 unless restarted)
}

// Trainer runs PPO (or A2C) with a SYMPOL, MLP or SDT actor and a
// separate critic (MLP by default) on one environment. It is not safe for
// concurrent use; independent trainers may run in parallel.
type Trainer struct {
	// stepTimes, when a test sets it, receives the wall time of every
	// minibatch step (the speed probes' distributions).
	stepTimes *[]time.Duration

	cfg    Config
	nets   Builder
	spec   env.Spec
	maker  env.Maker
	actor  policy.Actor
	critic policy.Net
	aOpt   *optim.Adam
	cOpt   netOpt
	plat   *optim.Plateau
	sched  Schedule
	evalr  Evaluator
	vec    *env.Vec
	dist   policy.Dist

	iter, global int
	lastN        int     // rows of the last rollout
	logitScale   float64 // the current iteration's logit scale (logitScaleAt)
	trainSec     float64
	rolloutSec   float64
	evalSec      float64
	at           attempt // the current training attempt (restarts)
	history      []EvalRecord
	looks        []Look       // validations between evaluations (Config.ValEvery)
	restarts     []Restart    // the run's restarts, oldest first (len = at.n)
	diverged     *Divergence  // the divergence that ended the run; nil while it has not
	best         *bestState   // best-validation policy (see Best); nil while there is none
	cands        []*bestState // the last Config.Recheck best-validation policies, oldest first
	avg          policy.Actor // the attempt's averaged actor (Config.EvalAverage); nil before its first update
	recent       []float64    // ring of recent episode returns
	recentN      int
	episodes     int

	E, F, A, AD int
	// rollout buffers ([T][E] step-major)
	obs, act, logp, val, rew, boot, adv, ret []float32
	ended                                    []bool
	out, sendAct, vals                       []float32
	epBuf                                    []env.Episode
	finIdx                                   []int
	finObs, finVal                           []float32
	// minibatch buffers
	perm                                      []int
	mbObs, mbOut, dOut, mbRet, dV, mbAdv, mbA []float32
	mbLogp                                    []float32
	acc                                       [][]float32
}

// Builder builds the networks a Trainer trains, for its configuration and
// initialised from cfg.InitSeed. PPO is handed them: it does not choose or
// construct a method's actor or critic (package rl/methods builds those of
// every method).
type Builder interface {
	// Actor returns a new actor for observations of f features and the
	// action distribution d; it is called again for the copies that hold
	// the best-validation policy, which must have the same layout.
	Actor(cfg Config, f int, d policy.Dist) (policy.Actor, error)
	// Critic returns a new critic for observations of f features.
	Critic(cfg Config, f int) (policy.Net, error)
}

// New builds a trainer for cfg: the environments, the actor and critic
// built by nets, the optimisers (spec §1.6) and buffers for the longest
// rollout.
func New(cfg Config, nets Builder) (*Trainer, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if nets == nil {
		return nil, errors.New("ppo: no network builder (rl/methods builds every method's)")
	}
	maker, err := cfg.Maker()
	if err != nil {
		return nil, err
	}
	v, err := env.NewVecFrom(maker, cfg.NEnvs, uint64(cfg.Seed))
	if err != nil {
		return nil, err
	}
	spec := v.Spec()
	t := &Trainer{cfg: cfg, nets: nets, spec: spec, maker: maker, vec: v, E: cfg.NEnvs, F: spec.Observation.Dim}
	t.dist = policy.Dist{Discrete: spec.Action.Discrete(), A: spec.Action.N}
	if !t.dist.Discrete {
		t.dist.A = spec.Action.Dim
	}
	t.A, t.AD = t.dist.Outputs(), t.dist.ActionDim()
	if t.actor, err = t.newActor(); err != nil {
		return nil, err
	}
	if t.critic, err = nets.Critic(cfg, t.F); err != nil {
		return nil, err
	}
	if err := t.buildOptimisers(); err != nil {
		return nil, err
	}
	if !cfg.Serial {
		for _, n := range []any{t.actor, t.critic} {
			if p, ok := n.(interface{ SetPool(bool) }); ok {
				p.SetPool(true)
			}
		}
	}
	t.at.seed, t.at.bestTrain = cfg.Seed, math.Inf(-1)
	t.sched = NewSchedule(cfg.NEnvs, cfg.NSteps, cfg.Minibatch, cfg.TotalSteps, cfg.DynamicBuffer, cfg.StaticBatch)
	t.evalr = Evaluator{Every: cfg.EvalFreq, Total: cfg.TotalSteps}
	t.alloc()
	return t, nil
}

// newActor builds an actor of the configured method (the trained one, and
// the copies that hold the best-validation policy).
func (t *Trainer) newActor() (policy.Actor, error) {
	return t.nets.Actor(t.cfg, t.F, t.dist)
}

// buildOptimisers makes one Optax Adam(W) per network with a group per
// tensor group (spec §1.6): no weight decay on the thresholds, AdamW's
// decay on the other actor groups and the critic when cfg.AdamW.
func (t *Trainer) buildOptimisers() error {
	cfg := t.cfg
	wd := 0.0
	if cfg.AdamW {
		wd = cfg.WeightDecay
	}
	lr := map[string]float64{
		policy.GroupSplitValues: cfg.LRSplitValues,
		policy.GroupSplitIndex:  cfg.LRSplitIndex,
		policy.GroupLeaves:      cfg.LRLeaves,
		policy.GroupLogStd:      cfg.LRLogStd,
		"actor":                 cfg.LRActor,
		"critic":                cfg.LRCritic,
	}
	groupsOf := func(ts []policy.Tensor) []optim.Group {
		var groups []optim.Group
		idx := map[string]int{}
		for _, x := range ts {
			i, ok := idx[x.Group]
			if !ok {
				i = len(groups)
				idx[x.Group] = i
				g := optim.NewGroup(optim.Optax, x.Group, lr[x.Group])
				if x.Group != policy.GroupSplitValues {
					g.WeightDecay = wd
				}
				groups = append(groups, g)
			}
			groups[i].Params = append(groups[i].Params, optim.Param{Name: x.Name, Value: x.Value, Grad: x.Grad})
		}
		return groups
	}
	build := func(ts []policy.Tensor) (*optim.Adam, error) {
		o, err := optim.NewAdam(groupsOf(ts)...)
		if err != nil {
			return nil, err
		}
		o.SetWorkers(1)
		return o, nil
	}
	var err error
	if t.aOpt, err = build(t.actor.Tensors()); err != nil {
		return fmt.Errorf("actor optimiser: %w", err)
	}
	if m, mlp := t.critic.(*policy.MLP); mlp && !cfg.Serial {
		// The critic's step is the largest sweep of the update: split it
		// over the helper pool (bit-identical to one optimiser), each part
		// over the weight rows whose gradient the same part computes.
		t.cOpt, err = newSplitAdam(groupsOf(t.critic.Tensors()), splitParts, m.SplitAt())
	} else {
		t.cOpt, err = build(t.critic.Tensors())
	}
	if err != nil {
		return fmt.Errorf("critic optimiser: %w", err)
	}
	pc := intendedPlateau
	pc.Patience, pc.Factor = cfg.PlateauPatience, cfg.PlateauFactor
	if cfg.PlateauReference {
		pc = optim.SYMPOLReferencePlateau()
	}
	t.plat, err = optim.NewPlateau(pc)
	return err
}

func (t *Trainer) alloc() {
	E, F, A, AD := t.E, t.F, t.A, t.AD
	N := t.sched.MaxRolloutSteps() * E
	t.obs = make([]float32, N*F)
	t.act = make([]float32, N*AD)
	t.logp = make([]float32, N)
	t.val = make([]float32, N)
	t.rew = make([]float32, N)
	t.boot = make([]float32, N)
	t.adv = make([]float32, N)
	t.ret = make([]float32, N)
	t.ended = make([]bool, N)
	t.out = make([]float32, E*A)
	t.sendAct = make([]float32, E*AD)
	t.vals = make([]float32, E)
	t.finIdx = make([]int, 0, E)
	t.finObs = make([]float32, 0, E*F)
	t.finVal = make([]float32, E)
	t.perm = make([]int, N)
	M := t.sched.Minibatch
	if t.cfg.Algorithm == AlgoA2C {
		M = N
	}
	t.mbObs = make([]float32, M*F)
	t.mbOut = make([]float32, M*A)
	t.dOut = make([]float32, M*A)
	t.mbRet = make([]float32, M)
	t.dV = make([]float32, M)
	t.mbAdv = make([]float32, M)
	t.mbA = make([]float32, M*AD)
	t.mbLogp = make([]float32, M)
	t.recent = make([]float64, 20)
	for _, x := range t.actor.Tensors() {
		t.acc = append(t.acc, make([]float32, len(x.Value)))
	}
}

// Config returns the trainer's configuration.
func (t *Trainer) Config() Config { return t.cfg }

// Maker returns the maker of the environment as the policy sees it (with
// the observation scaling of Config.ScaleObs).
func (t *Trainer) Maker() env.Maker { return t.maker }

// PruneBounds returns the observation bounds for pruning the tree policy
// (spec §1.7): the bounds of the observations the policy sees, or, in the
// reference profile with scaled observations, the raw environment's bounds
// as the reference code used (its prune_ranges_ll quirk, spec §11).
func (t *Trainer) PruneBounds() (low, high []float32) {
	if t.cfg.ScaleObs && t.cfg.Profile == ProfileReference {
		if m, err := env.MakerOf(t.cfg.Env); err == nil {
			raw := m().Spec().Observation
			return raw.Low, raw.High
		}
	}
	return t.spec.Observation.Low, t.spec.Observation.High
}

// Spec returns the environment's spec as the policy sees it (scaled
// observation bounds under Config.ScaleObs).
func (t *Trainer) Spec() env.Spec { return t.spec }

// Actor returns the policy being trained.
func (t *Trainer) Actor() policy.Actor { return t.actor }

// Step returns the number of environment steps taken so far.
func (t *Trainer) Step() int { return t.global }

// Iteration returns the number of finished iterations.
func (t *Trainer) Iteration() int { return t.iter }

// TrainSeconds returns the wall time spent in rollouts and updates
// (evaluation excluded).
func (t *Trainer) TrainSeconds() float64 { return t.trainSec }

// RolloutSeconds returns the part of TrainSeconds spent collecting
// rollouts (environment steps, action sampling, value estimates, GAE) in
// this process (not carried over by a checkpoint).
func (t *Trainer) RolloutSeconds() float64 { return t.rolloutSec }

// History returns the evaluations so far.
func (t *Trainer) History() []EvalRecord { return t.history }

// LastRollout returns the observations ([n][F]) and stored actions
// ([n][ActionDim], sampled; int-truncated for continuous actions under
// Config.IntActions) of the last iteration's rollout, step-major. The slices
// are the trainer's buffers: valid until the next iteration. The reference
// SA-DT fits its tree on them (spec §6.4).
func (t *Trainer) LastRollout() (obs, actions []float32, n int) {
	return t.obs[:t.lastN*t.F], t.act[:t.lastN*t.AD], t.lastN
}

// Done reports whether the run has ended: its budget is used up, or its
// training diverged with no restart left (Diverged).
func (t *Trainer) Done() bool { return t.global >= t.cfg.TotalSteps || t.diverged != nil }

// streamSeed derives the seed of one random stream of one iteration.
func streamSeed(seed, iter, purpose int) uint32 {
	z := uint64(seed)*0x9e3779b97f4a7c15 + uint64(iter)*0xbf58476d1ce4e5b9 + uint64(purpose)*0x94d049bb133111eb
	z ^= z >> 31
	z *= 0xd6e8feb8d6e8feb9
	z ^= z >> 29
	return uint32(z) ^ uint32(z>>32)
}

// Run trains until the budget is used up or ctx is cancelled (checked
// between iterations; the trainer then holds a consistent state that Save
// can write). after, if not nil, is called after every iteration; an error
// from it stops training.
func (t *Trainer) Run(ctx context.Context, after func(Progress) error) error {
	for !t.Done() {
		if err := ctx.Err(); err != nil {
			return err
		}
		p, err := t.Iterate()
		if err != nil {
			return err
		}
		if after != nil {
			if err := after(p); err != nil {
				return err
			}
		}
	}
	return nil
}

// Iterate runs one iteration: rollout, GAE, update and, when due,
// evaluation (spec §3.1).
func (t *Trainer) Iterate() (Progress, error) {
	if d := t.diverged; d != nil {
		return Progress{}, fmt.Errorf("%w at step %d: the run has ended (%s)", ErrDiverged, d.Step, d.Cause)
	}
	start := time.Now()
	cfg := t.cfg
	t.iter++
	before := t.global
	// The schedules, the evaluation blocks and the random streams are
	// those of the current attempt: a restarted training starts afresh
	// (for attempt 0 these are the run's steps and iterations).
	rel, relIter := before-t.at.step, t.iter-t.at.iter
	t.logitScale = t.logitScaleAt(rel)
	T := t.sched.RolloutSteps(rel)
	K := t.sched.Accumulation(rel)
	if err := t.rollout(T, rng.New(streamSeed(t.at.seed, relIter, 1))); err != nil {
		return Progress{}, err
	}
	t.rolloutSec += time.Since(start).Seconds()
	t.global += T * t.E
	t.lastN = T * t.E
	if err := t.update(T, K, rng.New(streamSeed(t.at.seed, relIter, 2))); err != nil {
		return Progress{}, err
	}
	div := t.nonFinite()
	if div == nil {
		if err := t.average(T * t.E); err != nil {
			return Progress{}, err
		}
	}
	el := time.Since(start).Seconds()
	t.trainSec += el
	p := Progress{Iteration: t.iter, Step: t.global, Total: cfg.TotalSteps, Episodes: t.episodes, RecentReturn: t.recentMean()}
	if t.trainSec > 0 {
		p.StepsPerSec = float64(t.global) / t.trainSec
	}
	if div != nil {
		return t.diverge(p, div)
	}
	if ev, test := t.evalr.Due(relIter, rel, t.global-t.at.step); ev || t.Done() {
		rec, err := t.evaluate(test || t.Done())
		if err != nil {
			return p, err
		}
		p.Eval = &rec
		if t.restartDue() {
			p.LastActor = t.Judged()
			if err := t.restart(RestartNotLearned); err != nil {
				return p, err
			}
			p.Restarted = true
		}
	} else if v := cfg.ValEvery; v > 0 && t.global/v > before/v {
		if err := t.look(); err != nil {
			return p, err
		}
	}
	p.Attempt = t.at.n
	return p, nil
}

func (t *Trainer) recentMean() float64 {
	n := min(t.recentN, len(t.recent))
	if n == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, r := range t.recent[:n] {
		s += r
	}
	return s / float64(n)
}

// valueChunk is the number of rows per critic call when valuing a rollout.
const valueChunk = 1024

// values writes the critic's values of the n rows of x into v, in chunks.
func (t *Trainer) values(x []float32, n int, v []float32) error {
	for i := 0; i < n; i += valueChunk {
		m := min(valueChunk, n-i)
		if err := t.critic.Predict(x[i*t.F:(i+m)*t.F], m, v[i:i+m]); err != nil {
			return err
		}
	}
	return nil
}

func grow(b []float32, n int) []float32 {
	if cap(b) < n {
		return make([]float32, n)
	}
	return b[:n]
}

// rollout collects T steps in every environment (spec §3.2).
func (t *Trainer) rollout(T int, r *rng.MT19937) error {
	E, F, A, AD := t.E, t.F, t.A, t.AD
	cfg := t.cfg
	logStd := t.actor.LogStd()
	t.finIdx, t.finObs = t.finIdx[:0], t.finObs[:0]
	for s := 0; s < T; s++ {
		base := s * E
		cur := t.vec.Obs()
		copy(t.obs[base*F:(base+E)*F], cur)
		if err := t.actor.Predict(cur, E, t.out); err != nil {
			return err
		}
		if ls := (lossSpec{Scale: t.logitScale}); ls.scaled(t.dist) {
			scaleLogits(t.out[:E*A], ls.Scale)
		}
		for e := 0; e < E; e++ {
			o := t.out[e*A : (e+1)*A]
			a := t.sendAct[e*AD : (e+1)*AD]
			t.dist.Sample(o, logStd, r, a)
			t.logp[base+e] = float32(t.dist.LogProb(o, logStd, a))
			st := t.act[(base+e)*AD : (base+e+1)*AD]
			copy(st, a)
			if cfg.IntActions && !t.dist.Discrete {
				// The reference stores actions in an int32 buffer (spec §3.2).
				for k := range st {
					st[k] = float32(math.Trunc(float64(st[k])))
				}
			}
		}
		if err := t.vec.Step(t.sendAct); err != nil {
			return err
		}
		rew, term, trunc, final := t.vec.Rewards(), t.vec.Terminated(), t.vec.Truncated(), t.vec.FinalObs()
		for e := 0; e < E; e++ {
			i := base + e
			t.rew[i] = rew[e]
			if cfg.RewardScale != 1 {
				t.rew[i] *= float32(cfg.RewardScale)
			}
			t.boot[i] = 0
			t.ended[i] = false
			switch {
			case term[e]:
				t.ended[i] = true
			case trunc[e]:
				if cfg.TruncationReference {
					// gymnax: the time limit is a terminal; Gymnasium: the
					// truncation is not stored as done (spec §3.2).
					t.ended[i] = t.spec.TimeLimitIsTerminal
				} else {
					t.ended[i] = true
					t.finObs = append(t.finObs, final[e*F:(e+1)*F]...)
					t.finIdx = append(t.finIdx, i)
				}
			}
		}
		t.epBuf = t.vec.Episodes(t.epBuf[:0])
		for _, ep := range t.epBuf {
			t.recent[t.recentN%len(t.recent)] = ep.Return
			t.recentN++
			t.episodes++
			t.at.bestTrain = max(t.at.bestTrain, ep.Return)
		}
	}
	// The critic does not change during the rollout, so its values are
	// computed afterwards in large batches: V of every stored observation,
	// V(final observation) of the truncated episodes, and V of the
	// observations after the rollout.
	if err := t.values(t.obs[:T*E*F], T*E, t.val); err != nil {
		return err
	}
	if n := len(t.finIdx); n > 0 {
		t.finVal = grow(t.finVal, n)
		if err := t.values(t.finObs, n, t.finVal); err != nil {
			return err
		}
		for j, i := range t.finIdx {
			t.boot[i] = t.finVal[j]
		}
	}
	if err := t.critic.Predict(t.vec.Obs(), E, t.vals); err != nil {
		return err
	}
	GAE(T, E, t.rew, t.val, t.boot, t.ended, t.vals, float32(cfg.Gamma), float32(cfg.Lambda), t.adv, t.ret)
	return nil
}

// update runs the PPO (or A2C) epochs over the rollout (spec §3.4–§3.6).
func (t *Trainer) update(T, K int, r *rng.MT19937) error {
	cfg := t.cfg
	N := T * t.E
	M := t.sched.Minibatch
	epochs := cfg.Epochs
	if cfg.Algorithm == AlgoA2C {
		M, epochs, K = N, 1, 1
	}
	nb := N / M
	perm := t.perm[:N]
	accN := 0
	var aerr error
	actor := func() {
		if aerr = t.actorGrad(M); aerr != nil {
			return
		}
		switch {
		case cfg.AccumReference && cfg.Algorithm == AlgoPPO:
			// The reference steps with every minibatch gradient and, while
			// K = 1, a second time with the same gradient; its
			// accumulated step never fires for K ≥ 2 (spec §3.6).
			t.actorStep()
			if K == 1 {
				t.actorStep()
			}
		case K == 1:
			t.actorStep()
		default:
			for j, x := range t.actor.Tensors() {
				a := t.acc[j]
				for k, g := range x.Grad {
					a[k] += g
				}
			}
			accN++
			if accN == K {
				t.flushAccum(accN)
				accN = 0
			}
		}
	}
	for ep := 0; ep < epochs; ep++ {
		for i := range perm {
			perm[i] = i
		}
		r.Shuffle(perm)
		for b := 0; b < nb; b++ {
			idx := perm[b*M : (b+1)*M]
			t.gather(idx)
			if err := t.minibatchStep(M, actor); err != nil {
				return err
			}
			if aerr != nil {
				return aerr
			}
		}
		if accN > 0 { // an epoch whose minibatch count is not a multiple of K
			t.flushAccum(accN)
			accN = 0
		}
	}
	return nil
}

// minibatchStep takes the critic's step on the gathered minibatch of M
// samples and calls actor (the actor's step). The actor and the critic are
// separate networks with their own losses and optimisers: their steps
// touch disjoint memory and may run concurrently. Unless the update is
// serial, the critic's step goes to a helper of linalg's pool and this
// goroutine takes the actor's; when that is done it helps with the parts
// of the critic's products and optimiser that the helper has not started
// (Task.Wait), so the two cores share the whole step: the critic's
// forward pass runs mostly on the helper beside the actor, the rest of
// the step on both.
func (t *Trainer) minibatchStep(M int, actor func()) error {
	if t.cfg.Serial {
		err := t.criticStep(M)
		actor()
		return err
	}
	var t0 time.Time
	if t.stepTimes != nil {
		t0 = time.Now()
	}
	var err error
	task := linalg.Start(func() { err = t.criticStep(M) })
	actor()
	task.Wait()
	if t.stepTimes != nil {
		*t.stepTimes = append(*t.stepTimes, time.Since(t0))
	}
	return err
}

// flushAccum steps the actor with the mean of n accumulated gradients: one
// step on an effective batch of n minibatches (spec §3.6, intended
// behaviour). When Config.SqrtAccum, the actor's learning rates are
// multiplied by √n for this step (Adam's square-root scaling rule for an n
// times larger batch), so the tuned learning rates keep their per-sample
// effect while the batch grows; the plateau scale is restored afterwards.
func (t *Trainer) flushAccum(n int) {
	inv := 1 / float32(n)
	for j, x := range t.actor.Tensors() {
		a := t.acc[j]
		for k := range x.Grad {
			x.Grad[k] = a[k] * inv
			a[k] = 0
		}
	}
	if n > 1 && t.cfg.SqrtAccum() {
		// SetLRScale without group names cannot fail.
		_ = t.aOpt.SetLRScale(t.plat.Scale() * math.Sqrt(float64(n)))
		t.actorStep()
		_ = t.aOpt.SetLRScale(t.plat.Scale())
		return
	}
	t.actorStep()
}

func (t *Trainer) actorStep() {
	clipGrad(t.aOpt, t.actor.Tensors(), t.cfg.MaxGradNorm)
	t.aOpt.Step()
	t.actor.Changed()
}

// gather copies the minibatch rows idx into the minibatch buffers and
// normalises the advantages if asked.
func (t *Trainer) gather(idx []int) {
	F, AD := t.F, t.AD
	for j, i := range idx {
		copy(t.mbObs[j*F:(j+1)*F], t.obs[i*F:(i+1)*F])
		copy(t.mbA[j*AD:(j+1)*AD], t.act[i*AD:(i+1)*AD])
		t.mbAdv[j] = t.adv[i]
		t.mbLogp[j] = t.logp[i]
		t.mbRet[j] = t.ret[i]
	}
	if t.cfg.NormAdv {
		B := len(idx)
		var s float64
		for _, a := range t.mbAdv[:B] {
			s += float64(a)
		}
		mean := s / float64(B)
		var v float64
		for _, a := range t.mbAdv[:B] {
			d := float64(a) - mean
			v += d * d
		}
		std := math.Sqrt(v / float64(B))
		for j := range t.mbAdv[:B] {
			t.mbAdv[j] = float32((float64(t.mbAdv[j]) - mean) / (std + 1e-8))
		}
	}
}

// criticStep takes one critic step on the value loss ½·vf·mean((V − R)²).
func (t *Trainer) criticStep(B int) error {
	if err := t.critic.Forward(t.mbObs, B, t.dV); err != nil {
		return err
	}
	c := float32(t.cfg.VfCoef / float64(B))
	for j := 0; j < B; j++ {
		t.dV[j] = c * (t.dV[j] - t.mbRet[j])
	}
	if err := t.critic.Backward(t.dV[:B]); err != nil {
		return err
	}
	clipGrad(t.cOpt, t.critic.Tensors(), t.cfg.MaxGradNorm)
	t.cOpt.Step()
	t.critic.Changed() // tree and SDT critics cache derived state of their parameters
	return nil
}

// actorGrad writes the gradient of the policy and entropy terms of the
// minibatch loss into the actor's tensors (spec §3.5).
func (t *Trainer) actorGrad(B int) error {
	return actorLossGrad(t.actor, t.lossSpec(), t.mbObs, t.mbA, t.mbLogp, t.mbAdv, B, t.mbOut, t.dOut)
}

func (t *Trainer) lossSpec() lossSpec {
	return lossSpec{Clip: t.cfg.ClipCoef, Ent: t.entCoef(), A2C: t.cfg.Algorithm == AlgoA2C, Scale: t.logitScale}
}

// logitScaleAt returns the logit scale of an iteration that starts rel
// steps into the training attempt (Config.LogitScaleEnd): 1 rising
// linearly to LogitScaleEnd over the attempt's budget. The rollout and the
// update of one iteration use the same scale.
func (t *Trainer) logitScaleAt(rel int) float64 {
	c := t.cfg
	if c.LogitScaleEnd == 1 || c.LogitScaleEnd == 0 || t.sched.Total <= 0 {
		return 1
	}
	p := min(1, max(0, float64(rel)/float64(t.sched.Total)))
	return 1 + (c.LogitScaleEnd-1)*p
}

// entCoef returns the entropy coefficient of the current update:
// Config.EntCoef, lowered by Config.EntDecay in proportion to the part of
// the attempt's budget (its schedule's Total) used so far.
func (t *Trainer) entCoef() float64 {
	c := t.cfg
	if c.EntDecay == 0 || t.sched.Total <= 0 {
		return c.EntCoef
	}
	p := min(1, max(0, float64(t.global-t.at.step)/float64(t.sched.Total)))
	return c.EntCoef * (1 - c.EntDecay*p)
}

// netOpt is the optimiser of one network: an optim.Adam or a splitAdam.
type netOpt interface {
	Step()
	Steps() int64
	State() *optim.State
	LoadState(*optim.State) error
	ClipGradNorm(maxNorm float64) float64
}

// splitParts is the number of parts of a split critic optimiser.
const splitParts = 2

// clipGrad is o.ClipGradNorm(maxNorm) over the gradients of ts (all of o's
// parameters, none frozen), with the same bits, faster:
//   - it is skipped when a cheap bound shows that the norm is below maxNorm,
//     where ClipGradNorm changes nothing: the bound sums the same exact
//     float64 squares in another order, so it is within a relative 1e−11
//     of the exact norm, and the margin of 1e−6 leaves the decision to
//     ClipGradNorm whenever the two could disagree (SYMPOL clips at 1000,
//     above the usual gradient norms);
//   - otherwise the norm comes from ClipGradNorm(0) (norm only) and the
//     rescaling g ← float32(g/‖g‖)·maxNorm of optax.clip_by_global_norm,
//     ClipGradNorm's rule, runs vectorised on the pool (linalg.DivMul).
func clipGrad(o netOpt, ts []policy.Tensor, maxNorm float64) {
	if !(maxNorm > 0) {
		return // ClipGradNorm would only compute the norm
	}
	if math.Sqrt(sumSquares(ts))*(1+1e-6) < maxNorm {
		return
	}
	norm := o.ClipGradNorm(0)
	if norm < maxNorm {
		return
	}
	nf, mf := float32(norm), float32(maxNorm)
	halves(ts, func(_ int, g []float32) { linalg.DivMul(g, nf, mf) })
}

// sumSquares returns Σ g² over the gradients of ts, summed in float64 in a
// fixed order.
func sumSquares(ts []policy.Tensor) float64 {
	var half [2]float64
	halves(ts, func(part int, g []float32) { half[part] += linalg.SumSquares(g) })
	return half[0] + half[1]
}

// halves calls f(part, run) for the runs of gradient entries of ts in the
// two halves (part 0, 1) of their concatenation, in order within a part;
// a large set's halves run on linalg's pool.
func halves(ts []policy.Tensor, f func(part int, g []float32)) {
	n := 0
	for _, x := range ts {
		n += len(x.Grad)
	}
	do := func(part int) {
		lo, hi := part*n/2, (part+1)*n/2
		off := 0
		for _, x := range ts {
			a, b := max(lo-off, 0), min(hi-off, len(x.Grad))
			if a < b {
				f(part, x.Grad[a:b])
			}
			off += len(x.Grad)
		}
	}
	if n < 1<<15 {
		do(0)
		do(1)
		return
	}
	linalg.Run(2, do)
}
