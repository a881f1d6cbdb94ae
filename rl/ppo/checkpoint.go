package ppo

import (
	"encoding/gob"
	"fmt"
	"io"
	"os"

	"github.com/gdt-ml/gdt/optim"
	"github.com/gdt-ml/gdt/rl/env"
	"github.com/gdt-ml/gdt/rl/policy"
	"github.com/gdt-ml/gdt/safefile"
)

// checkpointVersion is the format version of a checkpoint file. Version 2
// added the attempt (restarts) and EvalRecord.Selection; version 1 files
// load as attempt 0 with Selection = Validation.
const checkpointVersion = 2

// checkpoint is the saved state of a trainer between iterations.
type checkpoint struct {
	Version      int
	Config       Config
	Iter, Global int
	EvalLast     int
	TrainSec     float64
	History      []EvalRecord
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
	// The current training attempt (Trainer.Attempt; zero before version 2).
	Attempt                              int
	AttemptStep, AttemptIter, AttemptRec int
	AttemptJudged                        bool
	AttemptBestTrain                     float64 // the attempt's best training-episode return
}

// checkpointBest is the saved best-validation policy.
type checkpointBest struct {
	Iteration, Step int
	Validation      float64
	Test            []float64
	Actor           map[string][]float32
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
	ck := checkpoint{
		Version: checkpointVersion, Config: t.cfg, Iter: t.iter, Global: t.global,
		EvalLast: t.evalr.Last, TrainSec: t.trainSec, History: t.history,
		Recent: t.recent, RecentN: t.recentN, Episodes: t.episodes,
		Actor: tensorMap(t.actor.Tensors()), Critic: tensorMap(t.critic.Tensors()),
		ActorOpt: t.aOpt.State(), CriticOpt: t.cOpt.State(), Plateau: t.plat.State(),
		Attempt: t.at.n, AttemptStep: t.at.step, AttemptIter: t.at.iter, AttemptRec: t.at.rec, AttemptJudged: t.at.judged,
		AttemptBestTrain: t.at.bestTrain,
	}
	if b := t.best; b != nil {
		ck.Best = &checkpointBest{Iteration: b.info.Iteration, Step: b.info.Step, Validation: b.info.Validation,
			Test: b.info.Test, Actor: tensorMap(b.actor.Tensors())}
	}
	return safefile.Write(path, func(w io.Writer) error { return gob.NewEncoder(w).Encode(&ck) })
}

// Load restores a trainer from a checkpoint written by Save, with its
// best-validation policy (a checkpoint written before gdt kept one loads
// with none: see Trainer.Best). Training
// continues from the saved iteration; the environments start fresh
// episodes (their seeds derived from the seed and the iteration), so a
// resumed run matches an uninterrupted one in everything but the episodes
// that were in progress. modify, if not nil, may change the configuration
// before the trainer is built (e.g. a larger step budget); nets builds the
// networks as for New.
func Load(path string, nets Builder, modify func(*Config) error) (*Trainer, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var ck checkpoint
	if err := gob.NewDecoder(f).Decode(&ck); err != nil {
		return nil, fmt.Errorf("%s: not a gdt rl checkpoint: %v", path, err)
	}
	if ck.Version == 1 {
		for i := range ck.History {
			ck.History[i].Selection = ck.History[i].Validation
		}
	} else if ck.Version != checkpointVersion {
		return nil, fmt.Errorf("%s: checkpoint version %d, this gdt reads version %d", path, ck.Version, checkpointVersion)
	}
	cfg := ck.Config
	if cfg.Critic == "" { // written before the critic choice existed
		cfg.Critic = CriticMLP
	}
	if cfg.AccumMode == "" { // written before accum_mode existed: plain averaging
		cfg.AccumMode = AccumMean
	}
	if modify != nil {
		if err := modify(&cfg); err != nil {
			return nil, err
		}
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
		a, err := t.newActor()
		if err != nil {
			return nil, fmt.Errorf("%s: best policy: %w", path, err)
		}
		if err := loadTensors("best-policy actor", a.Tensors(), b.Actor); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		t.prepareBest(a)
		t.best = &bestState{info: BestPolicy{Iteration: b.Iteration, Step: b.Step, Validation: b.Validation, Test: b.Test}, actor: a}
	}
	// Fresh episodes for the resumed part, from a seed derived from the
	// run's seed and the iteration.
	if t.vec, err = env.NewVecFrom(t.maker, cfg.NEnvs, uint64(streamSeed(t.at.seed, ck.Iter, 3))); err != nil {
		return nil, err
	}
	t.iter, t.global, t.evalr.Last, t.trainSec = ck.Iter, ck.Global, ck.EvalLast, ck.TrainSec
	t.history, t.recentN, t.episodes = ck.History, ck.RecentN, ck.Episodes
	if len(ck.Recent) == len(t.recent) {
		copy(t.recent, ck.Recent)
	}
	return t, nil
}
