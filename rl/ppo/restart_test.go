package ppo

import (
	"context"
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gdt-ml/gdt/metrics"
	"github.com/gdt-ml/gdt/rl/policy"
)

// TestLearned checks the restart rule's "has learned" test on validation
// curves shaped like the development study's (results/sympol-*.csv).
func TestLearned(t *testing.T) {
	curve := func(v ...float64) []EvalRecord {
		r := make([]EvalRecord, len(v))
		for i, x := range v {
			r[i].Selection = x
		}
		return r
	}
	for _, tc := range []struct {
		name      string
		recs      []EvalRecord
		bestTrain float64 // best training-episode return
		want      bool
	}{
		{"Acrobot never learns", curve(-500, -500, -500, -500, -500, -500), -480, false},
		{"Acrobot learns", curve(-500, -87.6, -83.6, -75.8), -70, true},
		{"MountainCarContinuous explores to the goal, its greedy policy does not", curve(-0.37, -3.15, -0.95, 4.5, -9.6, -0.77), 93, false},
		{"MountainCarContinuous reaches it greedily", curve(-0.38, -1, -87.2, -13.2, -0.24, 71.3), 93, true},
		{"a flat MiniGrid curve", curve(0, 0, 0, 0, 0, 0), 0.9, false},
		{"a flat curve, no training episode ended", curve(0, 0, 0), math.Inf(-1), false},
		{"LavaGap finds the gap once", curve(0, 0, 0.19, 0, 0, 0), 0.95, true},
		{"LunarLander improves from −147", curve(-147.4, -334.2, -252.5, -153.7, -68.6, -52.1), 120, true},
		{"worse than the first", curve(-100, -200, -300), -50, false},
		{"within the margin", curve(-100, -95), 0, false},
		{"one evaluation", curve(5), 10, false},
		{"none", nil, 10, false},
	} {
		if got := learned(tc.recs, tc.bestTrain, 0.1, 0); got != tc.want {
			t.Errorf("%s: learned = %v, want %v", tc.name, got, tc.want)
		}
		// A margin of 1 or more: no training counts as learning, every
		// attempt restarts (MiniGrid-Empty-Random-6x6's preset).
		if learned(tc.recs, tc.bestTrain, 1, 0) {
			t.Errorf("%s: learned under margin 1", tc.name)
		}
	}
}

// TestLearnedBelow checks the level (Config.RestartBelow) on LunarLander's
// recorded validation curves up to 404 k steps (results/sympol-*.csv): a
// training stuck near −112 from 150 k steps rose far above its first
// evaluation (−1037.7), so the relative margin counts it as learning, the
// level does not; one that starts at −126 and reaches −30 has learned
// either way.
func TestLearnedBelow(t *testing.T) {
	curve := func(v ...float64) []EvalRecord {
		r := make([]EvalRecord, len(v))
		for i, x := range v {
			r[i].Selection = x
		}
		return r
	}
	stuck := curve(-1037.7, -142.6, -132.3, -112.8, -111.6, -974.9, -117.3, -128.9, -119.2) // seed 7411
	good := curve(-126.3, -56.8, -55.4, -56.3, -85.7, -52.4, -77.7, -44.6, -29.9)           // seed 40113
	for _, tc := range []struct {
		name          string
		recs          []EvalRecord
		margin, below float64
		want          bool
	}{
		{"stuck, relative margin only", stuck, 0.1, 0, true},
		{"stuck, level −100", stuck, 0, -100, false},
		{"stuck, level −100 and margin 0.1", stuck, 0.1, -100, false},
		{"stuck, level −120", stuck, 0, -120, true},
		{"good, level −100", good, 0, -100, true},
		{"good, level −20", good, 0, -20, false},
		{"good, level −100, margin 1: every attempt restarts", good, 1, -100, false},
		{"level exactly reached", curve(-300, -100), 0, -100, true},
	} {
		if got := learned(tc.recs, 150, tc.margin, tc.below); got != tc.want {
			t.Errorf("%s: learned = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// frozenCartPole is a smallCartPole whose actor cannot learn (zero learning
// rates): every evaluation returns the same, so the restart rule fires.
func frozenCartPole(t *testing.T) Config {
	cfg := smallCartPole(t, 8000, 500)
	cfg.LRSplitValues, cfg.LRSplitIndex, cfg.LRLeaves, cfg.ReduceLR = 0, 0, 0, false
	cfg.DynamicBuffer = false // 896 steps per iteration: room for two restarts
	cfg.RestartAfter, cfg.Restarts = 0.25, 2
	return cfg
}

// TestRestart checks that a training that cannot learn restarts at the
// first evaluation RestartAfter·TotalSteps after each attempt's start, at
// most Restarts times, that the restarts count toward the budget, that
// each attempt begins with an evaluation on the same validation episodes,
// and that a checkpoint written after a restart resumes that attempt.
func TestRestart(t *testing.T) {
	cfg := frozenCartPole(t)
	tr, err := New(cfg, testNets{})
	if err != nil {
		t.Fatal(err)
	}
	budget := int(cfg.RestartAfter * float64(cfg.TotalSteps))
	var restarts []Progress
	path := filepath.Join(t.TempDir(), "ck")
	err = tr.Run(context.Background(), func(p Progress) error {
		if p.Restarted {
			// The attempt's last actor, not the new attempt's, comes with
			// the restart, and it still plays.
			if p.LastActor == nil || p.LastActor == tr.Actor() {
				t.Errorf("restart at step %d: LastActor %p, the new attempt's %p", p.Step, p.LastActor, tr.Actor())
			} else if ret, err := Returns(tr.maker, cfg.TestSeed, cfg.EvalEpisodes, p.LastActor, nil); err != nil || !(metrics.Mean(ret) >= 1 && metrics.Mean(ret) <= 500) {
				t.Errorf("restart at step %d: the last actor's test returns %v (%v), want CartPole returns", p.Step, ret, err)
			}
			restarts = append(restarts, p)
			if len(restarts) == 1 {
				return tr.Save(path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Attempt() != cfg.Restarts || len(restarts) != cfg.Restarts {
		t.Fatalf("%d restarts (%d reported), want %d", tr.Attempt(), len(restarts), cfg.Restarts)
	}
	if !tr.Done() || tr.Step() > cfg.TotalSteps+4*budget {
		t.Errorf("run ended at step %d of a budget of %d", tr.Step(), cfg.TotalSteps)
	}
	h := tr.History()
	start, prev := 0, -1
	for i, r := range h {
		if r.Attempt != prev {
			if r.Attempt != prev+1 {
				t.Fatalf("evaluation %d of attempt %d follows attempt %d", i, r.Attempt, prev)
			}
			if r.Attempt > 0 {
				// The attempt before restarted at the first evaluation at
				// least budget steps after its start.
				last := h[i-1]
				if last.Step-start < budget || h[i-2].Step-start >= budget {
					t.Errorf("attempt %d restarted at step %d (started %d, budget %d; evaluation before at %d)", r.Attempt-1, last.Step, start, budget, h[i-2].Step)
				}
				if r.Iteration != last.Iteration+1 {
					t.Errorf("attempt %d's first evaluation after iteration %d, want the first of the attempt (%d)", r.Attempt, r.Iteration, last.Iteration+1)
				}
				start = last.Step
			}
			prev = r.Attempt
		}
		if r.Selection != h[0].Selection {
			t.Errorf("evaluation %d: validation %v, want the frozen policy's %v on the same episodes", i, r.Selection, h[0].Selection)
		}
	}
	if b, ok := tr.Best(); !ok || b.Step != h[len(h)-1].Step {
		t.Errorf("best %+v (%v), want the last evaluation's (all validate alike, and ties go to the later)", b, ok)
	}

	// Resume from the checkpoint written right after the first restart.
	r, err := Load(path, testNets{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Attempt() != 1 || r.Step() != restarts[0].Step || r.at.step != restarts[0].Step || r.at.seed != attemptSeed(cfg.Seed, 1) {
		t.Fatalf("resumed attempt %d at step %d (attempt start %d, seed %d), want attempt 1 at step %d", r.Attempt(), r.Step(), r.at.step, r.at.seed, restarts[0].Step)
	}
	if r.sched.Total != cfg.TotalSteps-restarts[0].Step {
		t.Errorf("resumed attempt's schedule budget %d, want the remaining %d", r.sched.Total, cfg.TotalSteps-restarts[0].Step)
	}
	if err := r.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if r.Attempt() != cfg.Restarts {
		t.Errorf("resumed run ended in attempt %d, want %d", r.Attempt(), cfg.Restarts)
	}
}

// TestNoRestartWhenOff checks that RestartAfter 0 and Restarts 0 both keep
// a frozen training in its first attempt.
func TestNoRestartWhenOff(t *testing.T) {
	for _, off := range []func(*Config){
		func(c *Config) { c.RestartAfter = 0 },
		func(c *Config) { c.Restarts = 0 },
	} {
		cfg := frozenCartPole(t)
		off(&cfg)
		tr := trained(t, cfg)
		if tr.Attempt() != 0 {
			t.Errorf("restart_after %v, restarts %d: %d restarts", cfg.RestartAfter, cfg.Restarts, tr.Attempt())
		}
	}
}

// TestValEpisodesKeepTraining checks that the number of validation
// episodes changes what is delivered, never the training: the plateau
// scheduler sees the first EvalEpisodes, so the final actor is the same
// bit for bit, and so is a run that does not restart with the restart rule
// off.
func TestValEpisodesKeepTraining(t *testing.T) {
	run := func(mod func(*Config)) *Trainer {
		cfg := smallCartPole(t, 4000, 500)
		mod(&cfg)
		tr := trained(t, cfg)
		return tr
	}
	ref := run(func(c *Config) { c.ValEpisodes, c.RestartAfter = 0, 0 })
	if ref.Attempt() != 0 {
		t.Fatal("restarted with the rule off")
	}
	for _, v := range []int{5, 20} {
		tr := run(func(c *Config) { c.ValEpisodes = v })
		if tr.Attempt() != 0 {
			t.Fatalf("val_episodes %d: the learning CartPole run restarted", v)
		}
		if !sameTensors(tr.Actor(), ref.Actor()) {
			t.Errorf("val_episodes %d: final actor differs from the run with n_eval_episodes validation episodes", v)
		}
		for i, r := range tr.History() {
			if r.Validation != ref.History()[i].Validation {
				t.Errorf("val_episodes %d: evaluation %d's thesis validation %v, want %v", v, i, r.Validation, ref.History()[i].Validation)
			}
		}
		checkBest(t, tr)
	}
}

// TestRestartFreshInit checks restart_fresh_init: off, a restart of a
// frozen actor (zero learning rates) starts from the first attempt's
// initial parameters; on, from its own, derived from the attempt's
// training seed, and the run is the same again for the same seeds.
func TestRestartFreshInit(t *testing.T) {
	params := func(a policy.Actor) []float32 {
		var v []float32
		for _, x := range a.Tensors() {
			v = append(v, x.Value...)
		}
		return v
	}
	var first []float32 // the first attempt's initial parameters
	restarted := func(fresh bool) [][]float32 {
		cfg := frozenCartPole(t)
		cfg.RestartFreshInit = fresh
		tr, err := New(cfg, testNets{})
		if err != nil {
			t.Fatal(err)
		}
		if p := params(tr.Actor()); first == nil {
			first = p
		} else if !slices.Equal(p, first) {
			t.Fatalf("fresh %v: the first attempt starts from other parameters", fresh)
		}
		var at [][]float32
		err = tr.Run(context.Background(), func(p Progress) error {
			if p.Restarted {
				at = append(at, params(tr.Actor()))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(at) != cfg.Restarts {
			t.Fatalf("fresh %v: %d restarts, want %d", fresh, len(at), cfg.Restarts)
		}
		return at
	}
	for i, p := range restarted(false) {
		if !slices.Equal(p, first) {
			t.Errorf("restart %d without restart_fresh_init: parameters differ from the first attempt's initial ones", i+1)
		}
	}
	fresh := restarted(true)
	for i, p := range fresh {
		if slices.Equal(p, first) {
			t.Errorf("restart %d with restart_fresh_init: the first attempt's initial parameters", i+1)
		}
	}
	if slices.Equal(fresh[0], fresh[1]) {
		t.Error("restarts 1 and 2 with restart_fresh_init start from the same parameters")
	}
	if again := restarted(true); !slices.Equal(again[0], fresh[0]) || !slices.Equal(again[1], fresh[1]) {
		t.Error("restart_fresh_init: a second run with the same seeds starts its restarts from other parameters")
	}
}

// TestRestartCriticScale checks that restart_critic_scale leaves the first
// attempt's training as it is and trains the critic of every later
// attempt at the scaled rate.
func TestRestartCriticScale(t *testing.T) {
	critic := func(scale float64, restarts int) []float32 {
		cfg := frozenCartPole(t)
		cfg.RestartCriticScale, cfg.Restarts = scale, restarts
		tr, err := New(cfg, testNets{})
		if err != nil {
			t.Fatal(err)
		}
		if c := tr.attemptConfig(0, 0); c.LRCritic != cfg.LRCritic {
			t.Errorf("scale %v: the first attempt's critic rate %v, want %v", scale, c.LRCritic, cfg.LRCritic)
		}
		if c := tr.attemptConfig(1, 0); scale > 0 && c.LRCritic != cfg.LRCritic*scale {
			t.Errorf("scale %v: a restart's critic rate %v, want %v", scale, c.LRCritic, cfg.LRCritic*scale)
		}
		if err := tr.Run(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
		if tr.Attempt() != restarts {
			t.Fatalf("scale %v: %d restarts, want %d", scale, tr.Attempt(), restarts)
		}
		return flat(tr.critic.Tensors())
	}
	if !slices.Equal(critic(1, 0), critic(3, 0)) {
		t.Error("without a restart the scale changed the training")
	}
	if slices.Equal(critic(1, 2), critic(3, 2)) {
		t.Error("after two restarts the critic is the same under scale 3 as under 1")
	}
}
