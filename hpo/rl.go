package hpo

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"

	"github.com/c-bata/goptuna"
	"github.com/gdt-ml/gdt/rl/env"
	_ "github.com/gdt-ml/gdt/rl/env/all" // every environment, for RLConfig and RLObjective
	"github.com/gdt-ml/gdt/rl/methods"
	"github.com/gdt-ml/gdt/rl/ppo"
)

// RLProtocol is the protocol name of reinforcement-learning studies
// (sympol-rl spec §7.2): a trial trains the policy once per environment
// seed and scores the mean over the trainings of the final validation
// return.
const RLProtocol = "rl-validation"

// RLProtocolHelp describes RLProtocol.
const RLProtocolHelp = "RL study (sympol-rl spec §7.2): per trial one training per environment seed (142, 242, …) with the sampled hyperparameters on top of the environment's preset; score = mean over the trainings of the final validation return (greedy, 5 episodes, seeds env_seed+0…4); the test episodes (seeds 123456…) do not enter the score"

// Study attributes of reinforcement-learning studies (the environment ID is
// stored under AttrDataset).
const (
	AttrRLSeeds   = "gdt:rl_seeds"   // trainings per trial
	AttrRLSteps   = "gdt:rl_steps"   // environment steps per training
	AttrRLProfile = "gdt:rl_profile" // ppo profile ("default" or "reference")
)

// IsRLKind reports whether kind names a policy trained with reinforcement
// learning (a ppo method) rather than a tabular model kind.
func IsRLKind(kind string) bool { return kind == ppo.MethodSYMPOL }

// RLSetup describes what every trial of a reinforcement-learning study
// trains.
type RLSetup struct {
	Env     string // environment ID, e.g. "CartPole-v1"
	Method  string // ppo method; only "sympol" has a search space
	Seeds   int    // trainings per trial, environment seeds 142, 242, …; 0 = 5
	Steps   int    // environment steps per training; 0 = 1 000 000
	Profile string // ppo profile; "" = default
	// Parallel is the number of trainings of one trial run at once
	// (0 or 1: one after the other, interleaved evaluation by evaluation).
	// Results do not depend on it.
	Parallel int
	// Serial runs every training's update on its own goroutine (set it
	// when other work already keeps every core busy, e.g. several
	// workers); results do not depend on it.
	Serial bool
}

func (s RLSetup) withDefaults() RLSetup {
	if s.Seeds <= 0 {
		s.Seeds = 5
	}
	if s.Steps <= 0 {
		s.Steps = 1_000_000
	}
	if s.Profile == "" {
		s.Profile = ppo.ProfileDefault
	}
	if s.Method == "" {
		s.Method = ppo.MethodSYMPOL
	}
	if s.Parallel <= 0 {
		s.Parallel = 1
	}
	return s
}

// RLSeed is the environment seed of training k = 1, 2, … of a trial (and
// of gdt rl bench): 42 + 100·k (spec §7.1).
func RLSeed(k int) int { return 42 + 100*k }

// RLConfig returns the training configuration of method on envID with the
// given options (ppo --set keys, e.g. a study's sampled and fixed options)
// applied on top of the environment's preset (ppo.Preset, spec §8.9):
// "profile" and "algorithm" first, then the others in key order.
func RLConfig(envID, method, profile string, steps, seed int, opts map[string]string) (ppo.Config, error) {
	if _, err := env.Make(envID); err != nil {
		return ppo.Config{}, fmt.Errorf("hpo: environment: %w", err)
	}
	cfg, err := methods.Preset(envID, method)
	if err != nil {
		return cfg, fmt.Errorf("hpo: %w", err)
	}
	if profile == "" {
		profile = ppo.ProfileDefault
	}
	if err := cfg.SetProfile(profile); err != nil {
		return cfg, fmt.Errorf("hpo: %w", err)
	}
	cfg.TotalSteps, cfg.Seed = steps, seed
	keys := make([]string, 0, len(opts))
	for k := range opts {
		keys = append(keys, k)
	}
	rank := func(k string) int {
		switch k {
		case "profile":
			return 0
		case "algorithm":
			return 1
		}
		return 2
	}
	sort.Slice(keys, func(i, j int) bool {
		if ri, rj := rank(keys[i]), rank(keys[j]); ri != rj {
			return ri < rj
		}
		return keys[i] < keys[j]
	})
	for _, k := range keys {
		if err := cfg.Set(k, opts[k]); err != nil {
			return cfg, fmt.Errorf("hpo: option %s: %w", k, err)
		}
	}
	if err := cfg.Validate(); err != nil {
		return cfg, fmt.Errorf("hpo: %w", err)
	}
	return cfg, nil
}

// RLObjective returns the objective of a reinforcement-learning study
// (RLProtocol): a trial trains setup.Seeds policies (environment seeds
// RLSeed(1), RLSeed(2), …) with the trial's options on top of the
// environment's preset, for setup.Steps environment steps each, and
// returns the mean over the trainings of the final validation return. The
// trainings advance evaluation by evaluation (spec §3.7: the first
// iteration, then about every 50 000 steps, and the end); after the j-th
// evaluation of every training the mean validation return is reported as
// step j, so the pruner can stop a poor trial long before its end (a
// pruning decision at the last evaluation is ignored: the trial is
// complete by then). The
// trainings of one configuration share one evaluation schedule, so the
// reports of different trials at the same step describe the same stage
// of training. A training that diverges with no restart left ends there
// (ppo.Trainer.Diverged) and counts with its last evaluation's validation
// return; one that diverges before any evaluation fails the trial.
func RLObjective(setup RLSetup) (Objective, error) {
	setup = setup.withDefaults()
	if !IsRLKind(setup.Method) {
		return nil, fmt.Errorf("hpo: method %q: expected %q (the RL search space exists for SYMPOL only)", setup.Method, ppo.MethodSYMPOL)
	}
	if _, err := RLConfig(setup.Env, setup.Method, setup.Profile, setup.Steps, RLSeed(1), nil); err != nil {
		return nil, err
	}
	return func(ctx context.Context, opts map[string]string, report func(int, float64) error) (float64, error) {
		trainers := make([]*ppo.Trainer, setup.Seeds)
		for k := range trainers {
			cfg, err := RLConfig(setup.Env, setup.Method, setup.Profile, setup.Steps, RLSeed(k+1), opts)
			if err != nil {
				return 0, err
			}
			cfg.Serial = cfg.Serial || setup.Serial || setup.Parallel > 1
			if trainers[k], err = methods.New(cfg); err != nil {
				return 0, fmt.Errorf("hpo: training %d (seed %d): %w", k+1, cfg.Seed, err)
			}
		}
		last := make([]float64, len(trainers)) // latest validation return per training
		evaluated := make([]bool, len(trainers))
		mean := math.NaN()
		for step := 0; ; step++ {
			if err := ctx.Err(); err != nil {
				return mean, err
			}
			running := false
			for _, t := range trainers {
				running = running || !t.Done()
			}
			if !running {
				break
			}
			if err := advance(ctx, trainers, setup.Parallel, last, evaluated); err != nil {
				return mean, err
			}
			sum := 0.0
			for k := range last {
				if !evaluated[k] {
					return mean, fmt.Errorf("hpo: training %d (seed %d) ended without an evaluation", k+1, RLSeed(k+1))
				}
				sum += last[k]
			}
			mean = sum / float64(len(last))
			if math.IsNaN(mean) || math.IsInf(mean, 0) {
				return mean, fmt.Errorf("hpo: validation return %v at evaluation %d", mean, step)
			}
			finished := true
			for _, t := range trainers {
				finished = finished && t.Done()
			}
			// The last evaluation is reported too (the pruner compares
			// other trials with it), but a trial whose trainings are over
			// is complete, not pruned.
			if err := report(step, mean); err != nil && !(finished && errors.Is(err, goptuna.ErrTrialPruned)) {
				return mean, err
			}
		}
		if math.IsNaN(mean) {
			return mean, fmt.Errorf("hpo: no evaluation (steps %d)", setup.Steps)
		}
		return mean, nil
	}, nil
}

// advance runs every unfinished trainer up to and including its next
// evaluation (or its end), parallel trainers at a time, and records the
// validation returns.
func advance(ctx context.Context, trainers []*ppo.Trainer, parallel int, last []float64, evaluated []bool) error {
	errs := make([]error, len(trainers))
	one := func(k int) {
		t := trainers[k]
		for !t.Done() {
			if err := ctx.Err(); err != nil {
				errs[k] = err
				return
			}
			p, err := t.Iterate()
			if err != nil {
				errs[k] = fmt.Errorf("hpo: training %d (seed %d): %w", k+1, t.Config().Seed, err)
				return
			}
			if p.Eval != nil {
				last[k], evaluated[k] = p.Eval.Validation, true
				return
			}
		}
	}
	if parallel <= 1 {
		for k := range trainers {
			if one(k); errs[k] != nil {
				return errs[k]
			}
		}
		return nil
	}
	sem := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	for k := range trainers {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			one(k)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// rlSetupFromAttrs is used by tools that only have a study: it rebuilds
// the setup from the study's attributes.
func rlSetupFromAttrs(attrs map[string]string) (RLSetup, error) {
	s := RLSetup{Env: attrs[AttrDataset], Method: attrs[AttrKind], Profile: attrs[AttrRLProfile]}
	if _, err := fmt.Sscan(attrs[AttrRLSeeds], &s.Seeds); err != nil {
		return s, fmt.Errorf("hpo: study attribute %s = %q: expected a number of trainings", AttrRLSeeds, attrs[AttrRLSeeds])
	}
	if _, err := fmt.Sscan(attrs[AttrRLSteps], &s.Steps); err != nil {
		return s, fmt.Errorf("hpo: study attribute %s = %q: expected a number of steps", AttrRLSteps, attrs[AttrRLSteps])
	}
	if strings.TrimSpace(s.Env) == "" {
		return s, fmt.Errorf("hpo: study attribute %s: no environment", AttrDataset)
	}
	return s, nil
}

// RLSetupOf returns the setup a reinforcement-learning study was created
// with (from its attributes).
func (s *Study) RLSetupOf() (RLSetup, error) {
	if !IsRLKind(s.Attrs[AttrKind]) {
		return RLSetup{}, fmt.Errorf("hpo: the study tunes %q, not a policy", s.Attrs[AttrKind])
	}
	return rlSetupFromAttrs(s.Attrs)
}

// RLAttrs returns the study attributes that describe a reinforcement-
// learning study of setup with a budget of trials (for NewStudy).
func RLAttrs(setup RLSetup, trials int) map[string]string {
	setup = setup.withDefaults()
	return map[string]string{
		AttrKind: setup.Method, AttrDataset: setup.Env, AttrProtocol: RLProtocol,
		AttrTrials: fmt.Sprint(trials), AttrRLSeeds: fmt.Sprint(setup.Seeds),
		AttrRLSteps: fmt.Sprint(setup.Steps), AttrRLProfile: setup.Profile,
	}
}

// RLWarmUp is the default pruner warm-up (Config.WarmUp) of a policy
// study: the evaluations of the first quarter of a training of steps
// environment steps evaluated every evalFreq steps (the first evaluation,
// after one iteration, is report 0), at least 1. With 1 000 000 steps and
// the thesis's 50 000 it is 5: no trial is stopped before about 250 000
// steps, when the returns start to tell configurations apart.
func RLWarmUp(steps, evalFreq int) int {
	if evalFreq <= 0 {
		return 1
	}
	return max(1, steps/(4*evalFreq))
}
