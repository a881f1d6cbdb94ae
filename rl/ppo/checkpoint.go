package ppo

import (
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sort"

	"github.com/gdt-ml/gdt/optim"
	"github.com/gdt-ml/gdt/rl/env"
	"github.com/gdt-ml/gdt/rl/policy"
	"github.com/gdt-ml/gdt/safefile"
)

// checkpointVersion is the format version of a checkpoint file. Version 3
// added the environments' episodes in progress (Envs); version 2 the
// attempt (restarts) and EvalRecord.Selection. Version 1 and 2 files load
// with fresh episodes, version 1 files as attempt 0 with Selection =
// Validation.
const checkpointVersion = 3

// checkpoint is the saved state of a trainer between iterations.
type checkpoint struct {
	Version      int
	Config       Config
	Iter, Global int
	EvalLast     int
	TrainSec     float64
	History      []EvalRecord
	Looks        []Look // validations between evaluations (Config.ValEvery); none in older files
	Recent       []float64
	RecentN      int
	Episodes     int
	Actor        map[string][]float32
	Critic       map[string][]float32
	ActorOpt     *optim.State
	CriticOpt    *optim.State
	Plateau      optim.PlateauState
	// Best is the best-validation policy; nil when there is none, and in
	// checkpoints written before gdt kept it (gob leaves it nil), which
	// load as "no best yet".
	Best *checkpointBest
	// Candidates are the policies Config.Recheck keeps, oldest first; nil
	// in older files and without recheck.
	Candidates []checkpointBest
	// Average is the attempt's averaged actor (Config.EvalAverage); nil
	// without one.
	Average map[string][]float32
	// The current training attempt (Trainer.Attempt; zero before version 2).
	Attempt                              int
	AttemptStep, AttemptIter, AttemptRec int
	AttemptJudged                        bool
	AttemptBestTrain                     float64 // the attempt's best training-episode return
	// Envs holds the environments' episodes in progress (version 3 on).
	Envs *env.VecState
	// RestartLog holds the run's restarts (Trainer.Restarts); files
	// written before it load with the missing ones as RestartNotLearned,
	// the only reason then (restartLog).
	RestartLog []Restart
	// Diverged is the divergence that ended the run (Trainer.Diverged):
	// the actor, the critic and their optimisers then hold the diverged
	// update's values, which need not be finite.
	Diverged *Divergence
}

// checkpointBest is the saved best-validation policy.
type checkpointBest struct {
	Iteration, Step int
	Validation      float64
	Test            []float64
	Actor           map[string][]float32
	Polish          *Polish  // Config.Polish's record; nil in older files
	Recheck         *Recheck // Config.Recheck's record; nil in older files
}

// saved returns b as a checkpointBest.
func (b *bestState) saved() checkpointBest {
	return checkpointBest{Iteration: b.info.Iteration, Step: b.info.Step, Validation: b.info.Validation,
		Test: b.info.Test, Actor: tensorMap(b.actor.Tensors()), Polish: b.info.Polish, Recheck: b.info.Recheck}
}

// restored returns the best-validation policy b saved, with an actor of t's
// layout.
func (t *Trainer) restored(b checkpointBest) (*bestState, error) {
	a, err := t.newActor()
	if err != nil {
		return nil, err
	}
	if err := loadTensors("best-policy actor", a.Tensors(), b.Actor); err != nil {
		return nil, err
	}
	t.prepareBest(a)
	return &bestState{info: BestPolicy{Iteration: b.Iteration, Step: b.Step, Validation: b.Validation, Test: b.Test, Polish: b.Polish, Recheck: b.Recheck}, actor: a}, nil
}

func tensorMap(ts []policy.Tensor) map[string][]float32 {
	m := make(map[string][]float32, len(ts))
	for _, t := range ts {
		m[t.Name] = append([]float32(nil), t.Value...)
	}
	return m
}

func loadTensors(what string, ts []policy.Tensor, m map[string][]float32) error {
	for _, t := range ts {
		v, ok := m[t.Name]
		if !ok {
			return fmt.Errorf("%s tensor %q missing", what, t.Name)
		}
		if len(v) != len(t.Value) {
			return fmt.Errorf("%s tensor %q has %d values, want %d", what, t.Name, len(v), len(t.Value))
		}
		copy(t.Value, v)
	}
	return nil
}

// Save writes the trainer's state to path atomically. Call it between
// iterations (e.g. from Run's callback or after Run returns).
func (t *Trainer) Save(path string) error {
	envs, err := t.vec.Snapshot()
	if errors.Is(err, env.ErrNoRandState) {
		// An environment registered without env.RandStater: no episodes
		// (a VecState of no instances), so Load starts fresh ones.
		envs, err = env.VecState{}, nil
	}
	if err != nil {
		return fmt.Errorf("saving %s: %w", path, err)
	}
	ck := checkpoint{
		Version: checkpointVersion, Config: t.cfg, Iter: t.iter, Global: t.global,
		EvalLast: t.evalr.Last, TrainSec: t.trainSec, History: t.history, Looks: t.looks,
		Recent: t.recent, RecentN: t.recentN, Episodes: t.episodes,
		Actor: tensorMap(t.actor.Tensors()), Critic: tensorMap(t.critic.Tensors()),
		ActorOpt: t.aOpt.State(), CriticOpt: t.cOpt.State(), Plateau: t.plat.State(),
		Attempt: t.at.n, AttemptStep: t.at.step, AttemptIter: t.at.iter, AttemptRec: t.at.rec, AttemptJudged: t.at.judged,
		AttemptBestTrain: t.at.bestTrain, Envs: &envs, RestartLog: t.restarts, Diverged: t.diverged,
	}
	if t.avg != nil {
		ck.Average = tensorMap(t.avg.Tensors())
	}
	if b := t.best; b != nil {
		s := b.saved()
		ck.Best = &s
	}
	for _, c := range t.cands {
		ck.Candidates = append(ck.Candidates, c.saved())
	}
	return safefile.Write(path, func(w io.Writer) error { return gob.NewEncoder(w).Encode(&ck) })
}

// Load restores a trainer from a checkpoint written by Save, with its
// best-validation policy (a checkpoint written before gdt kept one loads
// with none: see Trainer.Best). Training continues from the saved
// iteration with the saved episodes in progress (each environment instance
// replays its episode from the generator state it started with: see
// env.Vec.Snapshot), so a resumed run continues bit for bit as an
// uninterrupted one. Checkpoints written before gdt saved the episodes
// (versions 1 and 2), of an environment that does not implement
// env.RandStater, and those whose configuration modify changes in
// environment, n_envs or scale_obs, start fresh episodes instead (from a
// seed derived from the run's seed and the iteration), and match an
// uninterrupted run in everything but the episodes that were in progress.
// modify, if not nil, may change the configuration
// before the trainer is built (e.g. a larger step budget); nets builds the
// networks as for New.
//
// A checkpoint is untrusted input: a damaged file gives an error naming
// the file and, where it can, the field at fault (never a panic), and
// nothing is allocated by a size the file states before that size is
// checked (readCheckpoint, checkBuild).
func Load(path string, nets Builder, modify func(*Config) error) (*Trainer, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return load(f, path, nets, modify)
}

// load is Load reading the checkpoint from r; path names it in errors.
func load(r io.Reader, path string, nets Builder, modify func(*Config) error) (*Trainer, error) {
	ck, err := readCheckpoint(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	cfg := ck.Config
	if cfg.Critic == "" { // written before the critic choice existed
		cfg.Critic = CriticMLP
	}
	if cfg.AccumMode == "" { // written before accum_mode existed: plain averaging
		cfg.AccumMode = AccumMean
	}
	if cfg.PlateauPatience == 0 && cfg.PlateauFactor == 0 { // written before plateau_patience existed
		cfg.PlateauPatience, cfg.PlateauFactor = intendedPlateau.Patience, intendedPlateau.Factor
	}
	if cfg.RewardScale == 0 { // written before reward_scale existed: raw rewards
		cfg.RewardScale = 1
	}
	if cfg.LogitScaleEnd == 0 { // written before logit_scale_end existed: the plain softmax
		cfg.LogitScaleEnd = 1
	}
	if cfg.PolishRule == "" { // written before polish_rule existed
		cfg.PolishRule = PolishEpisodes
	}
	if cfg.RecheckEpisodes == 0 { // written before recheck existed
		cfg.RecheckEpisodes = DefaultRecheckEpisodes
	}
	if modify != nil {
		if err := modify(&cfg); err != nil {
			return nil, err
		}
	}
	if err := checkBuild(cfg, ck); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	t, err := New(cfg, nets)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if ck.Attempt > 0 {
		if ck.AttemptStep < 0 || ck.AttemptStep > ck.Global || ck.AttemptIter < 0 || ck.AttemptIter > ck.Iter || ck.AttemptRec < 0 || ck.AttemptRec > len(ck.History) {
			return nil, fmt.Errorf("%s: attempt %d starts at step %d, iteration %d, evaluation %d, beyond the checkpoint's %d, %d, %d",
				path, ck.Attempt, ck.AttemptStep, ck.AttemptIter, ck.AttemptRec, ck.Global, ck.Iter, len(ck.History))
		}
		if err := t.become(attempt{n: ck.Attempt, step: ck.AttemptStep, iter: ck.AttemptIter, rec: ck.AttemptRec}); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	t.at.judged = ck.AttemptJudged
	if ck.Version >= 2 {
		t.at.bestTrain = ck.AttemptBestTrain
	}
	if err := loadTensors("actor", t.actor.Tensors(), ck.Actor); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := loadTensors("critic", t.critic.Tensors(), ck.Critic); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if ck.Average != nil {
		if cfg.EvalAverage <= 0 {
			return nil, fmt.Errorf("%s: an averaged actor without eval_average", path)
		}
		a, err := t.newActor()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if err := loadTensors("averaged actor", a.Tensors(), ck.Average); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		t.prepareBest(a)
		t.avg = a
	}
	t.actor.Changed()
	t.critic.Changed()
	if err := t.aOpt.LoadState(ck.ActorOpt); err != nil {
		return nil, fmt.Errorf("%s: actor optimiser: %w", path, err)
	}
	if err := t.cOpt.LoadState(ck.CriticOpt); err != nil {
		return nil, fmt.Errorf("%s: critic optimiser: %w", path, err)
	}
	if err := t.plat.SetState(ck.Plateau); err != nil {
		return nil, fmt.Errorf("%s: plateau: %w", path, err)
	}
	if b := ck.Best; b != nil {
		if t.best, err = t.restored(*b); err != nil {
			return nil, fmt.Errorf("%s: best policy: %w", path, err)
		}
	}
	for i, c := range ck.Candidates {
		b, err := t.restored(c)
		if err != nil {
			return nil, fmt.Errorf("%s: recheck candidate %d: %w", path, i, err)
		}
		t.cands = append(t.cands, b)
	}
	if ck.Envs != nil && len(ck.Envs.Envs) > 0 && cfg.Env == ck.Config.Env && cfg.NEnvs == ck.Config.NEnvs && cfg.ScaleObs == ck.Config.ScaleObs {
		if err := t.vec.Restore(*ck.Envs); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	} else if t.vec, err = env.NewVecFrom(t.maker, cfg.NEnvs, uint64(streamSeed(t.at.seed, ck.Iter, 3))); err != nil {
		// Fresh episodes for the resumed part, from a seed derived from
		// the run's seed and the iteration.
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	t.iter, t.global, t.evalr.Last, t.trainSec = ck.Iter, ck.Global, ck.EvalLast, ck.TrainSec
	t.history, t.looks, t.recentN, t.episodes = ck.History, ck.Looks, ck.RecentN, ck.Episodes
	t.restarts, t.diverged = restartLog(ck), ck.Diverged
	if len(ck.Recent) == len(t.recent) {
		copy(t.recent, ck.Recent)
	}
	return t, nil
}

// readCheckpoint decodes a checkpoint and checks what it holds: the
// version, non-negative counters, and finite values in every tensor, the
// optimiser states and the evaluation history. Errors name the field.
//
// Allocations while decoding stay proportional to the bytes read: gob
// checks every string and slice length against its input (slices grow as
// their elements arrive), and optim.State's binary form does the same,
// but gob sizes a map it has to create by the entry count the stream
// states, unchecked: a damaged count of 2³⁰ would ask for tens of GB
// before the first entry fails to decode. So the three maps are made here
// before decoding (gob fills an existing map entry by entry, each entry
// consuming input) and Best starts as an empty value, set back to nil
// when the file held none (gob sends nothing for a nil pointer).
func readCheckpoint(r io.Reader) (ck *checkpoint, err error) {
	defer func() { // gob reports bad input as errors; anything else must not escape either
		if p := recover(); p != nil {
			ck, err = nil, fmt.Errorf("not a gdt rl checkpoint: decoding failed: %v", p)
		}
	}()
	ck = &checkpoint{Actor: map[string][]float32{}, Critic: map[string][]float32{}, Best: &checkpointBest{Actor: map[string][]float32{}}}
	if err := gob.NewDecoder(r).Decode(ck); err != nil {
		return nil, fmt.Errorf("not a gdt rl checkpoint: %v", err)
	}
	if b := ck.Best; len(b.Actor) == 0 && b.Iteration == 0 && b.Step == 0 && b.Validation == 0 && len(b.Test) == 0 {
		ck.Best = nil
	}
	switch ck.Version {
	case 1:
		for i := range ck.History {
			ck.History[i].Selection = ck.History[i].Validation
		}
	case 2:
	case checkpointVersion:
		if ck.Envs == nil {
			return nil, fmt.Errorf("Envs missing: a version %d checkpoint holds the environments' episodes in progress", ck.Version)
		}
	default:
		return nil, fmt.Errorf("checkpoint version %d, this gdt reads versions 1 to %d", ck.Version, checkpointVersion)
	}
	if ck.Version < 3 {
		ck.Envs = nil
	}
	if e := ck.Envs; e != nil {
		for i, st := range e.Envs {
			if err := finite(fmt.Sprintf("Envs[%d].Return", i), []float64{st.Return}); err != nil {
				return nil, err
			}
			if err := finite32(fmt.Sprintf("Envs[%d].Obs", i), st.Obs); err != nil {
				return nil, err
			}
			if err := finite32(fmt.Sprintf("Envs[%d].Actions", i), st.Actions); err != nil {
				return nil, err
			}
		}
	}
	for _, c := range []struct {
		name string
		v    int
	}{{"Iter", ck.Iter}, {"Global", ck.Global}, {"EvalLast", ck.EvalLast}, {"RecentN", ck.RecentN}, {"Episodes", ck.Episodes}} {
		if c.v < 0 {
			return nil, fmt.Errorf("%s = %d: expected a count ≥ 0", c.name, c.v)
		}
	}
	if !(ck.TrainSec >= 0) || math.IsInf(ck.TrainSec, 0) {
		return nil, fmt.Errorf("TrainSec = %v: expected finite seconds ≥ 0", ck.TrainSec)
	}
	if err := finite("Recent", ck.Recent); err != nil {
		return nil, err
	}
	for i, h := range ck.History {
		if h.Iteration < 0 || h.Step < 0 {
			return nil, fmt.Errorf("History[%d]: iteration %d, step %d: expected counts ≥ 0", i, h.Iteration, h.Step)
		}
		if err := finite(fmt.Sprintf("History[%d]", i), append([]float64{h.Validation, h.Selection, h.SelectionSD, h.LRScale}, h.Test...)); err != nil {
			return nil, err
		}
		if h.SelectionSD < 0 {
			return nil, fmt.Errorf("History[%d]: SelectionSD = %v: expected a standard deviation ≥ 0", i, h.SelectionSD)
		}
	}
	for i, l := range ck.Looks {
		if l.Step < 0 || l.Attempt < 0 {
			return nil, fmt.Errorf("Looks[%d]: step %d, attempt %d: expected counts ≥ 0", i, l.Step, l.Attempt)
		}
		if err := finite(fmt.Sprintf("Looks[%d]", i), []float64{l.Selection}); err != nil {
			return nil, err
		}
	}
	if err := checkRestarts(ck); err != nil {
		return nil, err
	}
	if ck.Diverged == nil { // a diverged run's networks need not be finite: it never trains again
		if err := finiteTensors("actor", ck.Actor); err != nil {
			return nil, err
		}
		if err := finiteTensors("critic", ck.Critic); err != nil {
			return nil, err
		}
		if err := finiteTensors("averaged actor", ck.Average); err != nil {
			return nil, err
		}
		for _, o := range []struct {
			name string
			st   *optim.State
		}{{"actor optimiser", ck.ActorOpt}, {"critic optimiser", ck.CriticOpt}} {
			if err := finiteState(o.name, o.st); err != nil {
				return nil, err
			}
		}
	}
	if b := ck.Best; b != nil {
		if b.Iteration < 0 || b.Step < 0 {
			return nil, fmt.Errorf("best policy: iteration %d, step %d: expected counts ≥ 0", b.Iteration, b.Step)
		}
		if err := finite("best policy validation and test returns", append([]float64{b.Validation}, b.Test...)); err != nil {
			return nil, err
		}
		if p := b.Polish; p != nil {
			if p.Changed < 0 || p.Passes < 0 || p.Scored < 0 {
				return nil, fmt.Errorf("best policy: polish counts %d, %d, %d: expected counts ≥ 0", p.Changed, p.Passes, p.Scored)
			}
			if err := finite("best policy polish validation returns", []float64{p.Before, p.After}); err != nil {
				return nil, err
			}
		}
		if err := finiteTensors("best-policy actor", b.Actor); err != nil {
			return nil, err
		}
	}
	return ck, nil
}

func finite(what string, v []float64) error {
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("%s[%d] = %v: expected a finite number", what, i, x)
		}
	}
	return nil
}

func finite32(what string, v []float32) error {
	for i, x := range v {
		if f := float64(x); math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("%s[%d] = %v: expected a finite number", what, i, x)
		}
	}
	return nil
}

// finiteTensors checks every value of the tensors m (in name order, so the
// error names the same one every time).
func finiteTensors(what string, m map[string][]float32) error {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := finite32(fmt.Sprintf("%s tensor %q", what, n), m[n]); err != nil {
			return err
		}
	}
	return nil
}

// finiteState checks an optimiser state's moments (finite; Adam's second
// moment ≥ 0) and averages; nil is left to the optimiser's LoadState.
func finiteState(what string, st *optim.State) error {
	if st == nil {
		return nil
	}
	for _, g := range st.Groups {
		if math.IsNaN(g.LRScale) || math.IsInf(g.LRScale, 0) || g.LRScale < 0 {
			return fmt.Errorf("%s: group %q: learning-rate scale %v: expected a finite number ≥ 0", what, g.Name, g.LRScale)
		}
		for _, p := range g.Params {
			for _, a := range []struct {
				name string
				v    []float32
			}{{"M", p.M}, {"V", p.V}, {"Avg", p.Avg}} {
				if err := finite32(fmt.Sprintf("%s: %s of %q", what, a.name, p.Name), a.v); err != nil {
					return err
				}
			}
			for i, v := range p.V {
				if v < 0 {
					return fmt.Errorf("%s: V of %q[%d] = %v: expected Adam's second moment ≥ 0", what, p.Name, i, v)
				}
			}
		}
	}
	return nil
}

// Bounds on the buffers a configuration asks New to allocate that a
// checkpoint's own size does not bound. Config.Validate applies them
// (checkSizes) to training and to loading alike, so a run never saves a
// checkpoint it cannot load.
const (
	// maxEnvs bounds n_envs: every environment is built at once.
	maxEnvs = 1 << 12
	// maxSteps bounds n_steps (before the dynamic buffer's growth).
	maxSteps = 1 << 24
	// maxRolloutValues bounds the float32 values of the rollout and
	// minibatch buffers (1 GiB); the thesis's largest configuration (16
	// environments of MiniGrid's 147 features, 512 steps with the dynamic
	// buffer) needs 1.5 % of it.
	maxRolloutValues = 1 << 28
)

// checkSizes checks n_envs, n_steps and the rollout buffers they make
// (with the dynamic buffer's growth and the minibatch) against maxEnvs,
// maxSteps and maxRolloutValues. The buffers' width depends on the
// environment's observation and action sizes: without a known
// environment only the first two are checked (New reports the unknown
// environment).
func (c *Config) checkSizes() error {
	if c.NEnvs > maxEnvs {
		return fmt.Errorf("hyperparameter n_envs = %d: expected at most %d", c.NEnvs, maxEnvs)
	}
	if c.NSteps > maxSteps {
		return fmt.Errorf("hyperparameter n_steps = %d: expected at most %d", c.NSteps, maxSteps)
	}
	maker, err := c.Maker()
	if err != nil {
		return nil
	}
	spec := maker().Spec()
	F, A, AD := spec.Observation.Dim, spec.Action.N, spec.Action.Dim
	if !spec.Action.Discrete() {
		A = AD
	}
	s := NewSchedule(c.NEnvs, c.NSteps, c.Minibatch, c.TotalSteps, c.DynamicBuffer, c.StaticBatch)
	n := float64(s.MaxRolloutSteps()) * float64(c.NEnvs) // ≤ 2^24·16·2^12: exact
	m := float64(s.Minibatch)
	if c.Algorithm == AlgoA2C {
		m = n
	}
	if v := n*float64(F+AD+8) + m*float64(F+2*A+AD+4); v > maxRolloutValues {
		return fmt.Errorf("hyperparameters n_envs = %d, n_steps = %d (dynamic buffer %v), minibatch_size = %d: rollout buffers of %.3g values for %s, expected at most %d; use fewer environments or shorter rollouts",
			c.NEnvs, c.NSteps, c.DynamicBuffer, c.Minibatch, v, c.Env, maxRolloutValues)
	}
	return nil
}

// checkBuild checks, before New builds anything, that what cfg asks New
// to allocate is bounded by the checkpoint ck it came from.
//
// The networks: New builds an actor and a critic whose every tensor must
// then be found in the file with the same length (loadTensors), so a
// configuration describing networks larger than the file's tensors is
// damage. Each network's size is bounded below by what its configuration
// implies, and that bound must not exceed the values the file holds for
// it: an MLP of width w and L hidden layers over F observation features
// has at least F·w weights and L·w biases, and (L−1)·w² more weights
// unless it is the reference code's discrete architecture (Dense(w) then
// Dense(A) per layer); a depth-d tree (SYMPOL's split-index logits, the
// soft decision tree's inner kernel) holds at least F values for each of
// its 2^d − 1 inner nodes. Every network's actual size is at most about
// 3A + 2 times its bound (A action outputs: the output layer, the leaves,
// the thresholds beside the split logits), and New's allocations for it
// (values, gradients, optimiser moments, workspaces) a constant multiple
// of that, so they stay proportional to the file's size.
//
// The environments and the rollout buffers have no counterpart in the
// file; their sizes are bounded by Validate (checkSizes).
func checkBuild(cfg Config, ck *checkpoint) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	maker, err := cfg.Maker()
	if err != nil {
		return err
	}
	spec := maker().Spec()
	F := spec.Observation.Dim
	mlp := func(w, layers int, reference bool) float64 {
		b := float64(w) * float64(F+layers)
		if !reference {
			b += float64(layers-1) * float64(w) * float64(w)
		}
		return b
	}
	tree := func() float64 { return float64(int(1)<<cfg.Depth-1) * float64(F) } // depth ≤ 16 (Validate)
	var actor, critic float64
	switch cfg.Method {
	case MethodMLP:
		actor = mlp(cfg.MLPWidth, cfg.MLPLayers, cfg.MLPReferenceArch && spec.Action.Discrete())
	default:
		actor = tree()
	}
	switch cfg.Critic {
	case CriticMLP:
		critic = mlp(cfg.CriticWidth, cfg.CriticLayers, false)
	default:
		critic = tree()
	}
	for _, net := range []struct {
		name, a string
		bound   float64
		held    map[string][]float32
	}{{"actor", "an", actor, ck.Actor}, {"critic", "a", critic, ck.Critic}} {
		held := 0
		for _, v := range net.held {
			held += len(v)
		}
		if net.bound > float64(held) {
			return fmt.Errorf("the configuration (method %s, critic %s, depth %d, neurons_per_layer %d × num_layers %d, critic_width %d × critic_layers %d) "+
				"describes %s %s of at least %.3g parameters, but the checkpoint holds %d %s values",
				cfg.Method, cfg.Critic, cfg.Depth, cfg.MLPWidth, cfg.MLPLayers, cfg.CriticWidth, cfg.CriticLayers, net.a, net.name, net.bound, held, net.name)
		}
	}
	return nil
}

// checkRestarts checks a checkpoint's restart log (at most one entry per
// restart, known reasons, steps within the run) and its divergence (within
// the run, in the current attempt, and with a best-validation policy: a
// run without one fails instead of ending diverged).
func checkRestarts(ck *checkpoint) error {
	if ck.Attempt < 0 || len(ck.RestartLog) > ck.Attempt {
		return fmt.Errorf("RestartLog: %d restarts in attempt %d: expected at most one per restart", len(ck.RestartLog), ck.Attempt)
	}
	for i, r := range ck.RestartLog {
		if r.Step < 0 || r.Step > ck.Global || (r.Reason != RestartNotLearned && r.Reason != RestartDiverged) {
			return fmt.Errorf("RestartLog[%d]: step %d, reason %q: expected a step in 0…%d and reason %q or %q",
				i, r.Step, r.Reason, ck.Global, RestartNotLearned, RestartDiverged)
		}
	}
	if d := ck.Diverged; d != nil {
		if d.Step < 0 || d.Step > ck.Global || d.Iteration < 0 || d.Iteration > ck.Iter || d.Attempt != ck.Attempt {
			return fmt.Errorf("Diverged: attempt %d, iteration %d, step %d: expected the checkpoint's attempt %d within its %d iterations and %d steps",
				d.Attempt, d.Iteration, d.Step, ck.Attempt, ck.Iter, ck.Global)
		}
		if ck.Best == nil {
			return errors.New("Diverged without a best-validation policy: such a run has nothing to deliver")
		}
	}
	return nil
}

// restartLog returns the restart log of a checkpoint, completed for files
// written before it existed, when every restart was RestartNotLearned: such
// a restart followed an evaluation, the last of the attempt it ended, so
// its step is that record's (the current attempt's start for the last).
func restartLog(ck *checkpoint) []Restart {
	log := append([]Restart(nil), ck.RestartLog...)
	for k := len(log); k < ck.Attempt; k++ {
		step := ck.AttemptStep
		if k+1 < ck.Attempt {
			for _, r := range ck.History {
				if r.Attempt == k {
					step = r.Step
				}
			}
		}
		log = append(log, Restart{Step: step, Reason: RestartNotLearned})
	}
	return log
}
