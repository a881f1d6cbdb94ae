package ppo

import (
	"bytes"
	"encoding/gob"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gdt-ml/gdt/rl/env"
	"github.com/gdt-ml/gdt/rl/policy"

	_ "github.com/gdt-ml/gdt/rl/env/lunar"
	_ "github.com/gdt-ml/gdt/rl/env/minigrid"
)

// TestResumeIdentical: a training saved after a few iterations, with
// episodes in progress, loaded and run on ends bit for bit as the same
// training run without interruption (parameters, optimiser states,
// evaluation history, best policy, episode counts).
func TestResumeIdentical(t *testing.T) {
	for _, c := range []struct {
		env             string
		nSteps, stopAt  int
		iters, evalFreq int
		restart         bool // a restart (attempt 1) before the save
		valEvery        int  // val_every: looks between the evaluations
		average         int  // eval_average
	}{
		{"CartPole-v1", 32, 2, 5, 256, false, 0, 0},
		{"LunarLander-v2", 64, 2, 4, 512, false, 0, 0},
		{"MiniGrid-DoorKey-5x5-v0", 32, 3, 5, 256, false, 0, 0},
		{"Acrobot-v1", 64, 2, 4, 512, false, 0, 0},
		{"CartPole-v1", 32, 4, 7, 256, true, 0, 0},
		{"CartPole-v1", 32, 4, 9, 1000, false, 200, 0},
		{"CartPole-v1", 32, 3, 7, 256, true, 0, 500},
	} {
		name := c.env
		if c.restart {
			name += " restarted"
		}
		if c.valEvery > 0 {
			name += " with looks"
		}
		if c.average > 0 {
			name += " averaged"
		}
		t.Run(name, func(t *testing.T) {
			cfg, err := Preset(c.env, MethodSYMPOL)
			if err != nil {
				t.Fatal(err)
			}
			cfg.NSteps, cfg.CriticWidth, cfg.CriticLayers = c.nSteps, 16, 1
			cfg.DynamicBuffer, cfg.Restarts = false, 0
			cfg.TotalSteps = c.iters * c.nSteps * cfg.NEnvs
			cfg.EvalFreq, cfg.EvalEpisodes, cfg.ValEpisodes = c.evalFreq, 1, 2
			cfg.ValEvery, cfg.EvalAverage = c.valEvery, c.average
			cfg.PolishEpisodes, cfg.PolishBudget = 0, 20 // a preset's polish, kept short
			if c.restart {                               // restart at the first evaluation, whatever it shows
				cfg.Restarts, cfg.RestartAfter, cfg.RestartMargin = 1, 0.05, 2
			}
			if err := cfg.Validate(); err != nil {
				t.Fatal(err)
			}
			run := func(tr *Trainer, n int) {
				t.Helper()
				for i := 0; i < n && !tr.Done(); i++ {
					if _, err := tr.Iterate(); err != nil {
						t.Fatal(err)
					}
				}
			}
			whole, err := New(cfg, testNets{})
			if err != nil {
				t.Fatal(err)
			}
			run(whole, c.iters)

			first, err := New(cfg, testNets{})
			if err != nil {
				t.Fatal(err)
			}
			run(first, c.stopAt)
			if want := map[bool]int{false: 0, true: 1}[c.restart]; first.Attempt() != want {
				t.Fatalf("attempt %d at the save, want %d", first.Attempt(), want)
			}
			path := filepath.Join(t.TempDir(), "ck.gob")
			if err := first.Save(path); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			ck, err := readCheckpoint(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			inProgress := 0
			for _, e := range ck.Envs.Envs {
				if len(e.Actions) > 0 {
					inProgress++
				}
			}
			if inProgress == 0 {
				t.Fatal("no episode in progress at the save: the test would not test the snapshot")
			}
			resumed, err := Load(path, testNets{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			run(resumed, c.iters-c.stopAt)
			if len(whole.History()) == 0 {
				t.Fatal("no evaluation in the run")
			}
			if c.valEvery > 0 && (len(first.Looks()) == 0 || len(whole.Looks()) <= len(first.Looks())) {
				t.Fatalf("looks: %d before the save, %d in the whole run; the test needs some on both sides", len(first.Looks()), len(whole.Looks()))
			}
			if d := trainerDiff(whole, resumed); d != "" {
				t.Fatalf("resumed at iteration %d (%d of %d episodes in progress) differs from the uninterrupted run: %s",
					c.stopAt, inProgress, cfg.NEnvs, d)
			}
		})
	}
}

// trainerDiff names the first difference between two trainers' states
// ("" when they agree bit for bit).
func trainerDiff(a, b *Trainer) string {
	if a.iter != b.iter || a.global != b.global || a.episodes != b.episodes || a.recentN != b.recentN {
		return "counters (iteration, step, episodes)"
	}
	if !reflect.DeepEqual(a.History(), b.History()) {
		return "evaluation history"
	}
	if !reflect.DeepEqual(a.Looks(), b.Looks()) {
		return "validations between evaluations (looks)"
	}
	if !reflect.DeepEqual(a.Restarts(), b.Restarts()) || !reflect.DeepEqual(a.diverged, b.diverged) {
		return "restarts or divergence"
	}
	if !sameBits64(a.recent, b.recent) {
		return "recent training returns"
	}
	for _, n := range []struct {
		name string
		x, y []float32
	}{{"actor", flat(a.actor.Tensors()), flat(b.actor.Tensors())}, {"critic", flat(a.critic.Tensors()), flat(b.critic.Tensors())}} {
		if !sameBits32(n.x, n.y) {
			return n.name + " parameters"
		}
	}
	if (a.avg == nil) != (b.avg == nil) || a.avg != nil && !sameBits32(flat(a.avg.Tensors()), flat(b.avg.Tensors())) {
		return "averaged actor"
	}
	if !sameGob(a.aOpt.State(), b.aOpt.State()) || !sameGob(a.cOpt.State(), b.cOpt.State()) {
		return "optimiser states"
	}
	if (a.best == nil) != (b.best == nil) || a.best != nil && (a.best.info.Iteration != b.best.info.Iteration ||
		!sameBits32(flat(a.best.actor.Tensors()), flat(b.best.actor.Tensors()))) {
		return "best policy"
	}
	if !sameBits32(a.vec.Obs(), b.vec.Obs()) {
		return "environments' observations"
	}
	return ""
}

func flat(ts []policy.Tensor) []float32 {
	var v []float32
	for _, t := range ts {
		v = append(v, t.Value...)
	}
	return v
}

func sameBits32(x, y []float32) bool {
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if math.Float32bits(x[i]) != math.Float32bits(y[i]) {
			return false
		}
	}
	return true
}

func sameBits64(x, y []float64) bool {
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if math.Float64bits(x[i]) != math.Float64bits(y[i]) {
			return false
		}
	}
	return true
}

// plainCount is countEnv without env.RandStater, as an environment a
// user registers may be.
type plainCount struct{ c countEnv }

func (p *plainCount) Spec() env.Spec {
	s := p.c.Spec()
	s.ID = "TestCountPlain-v0"
	return s
}
func (p *plainCount) Seed(s uint64)                         { p.c.Seed(s) }
func (p *plainCount) Reset(obs []float32)                   { p.c.Reset(obs) }
func (p *plainCount) Step(a, obs []float32) (float32, bool) { return p.c.Step(a, obs) }

func init() { env.Register("TestCountPlain-v0", func() env.Env { return &plainCount{} }) }

// TestResumeWithoutRandState checks that a training on an environment
// without env.RandStater still saves and resumes, with fresh episodes.
func TestResumeWithoutRandState(t *testing.T) {
	cfg := testConfig(t)
	cfg.Env = "TestCountPlain-v0"
	tr, err := New(cfg, testNets{})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := tr.Iterate(); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "ck.gob")
	if err := tr.Save(path); err != nil {
		t.Fatalf("Save: %v", err)
	}
	back, err := Load(path, testNets{}, nil)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if back.Step() != tr.Step() || back.Iteration() != tr.Iteration() {
		t.Fatalf("resumed at step %d, iteration %d, want %d, %d", back.Step(), back.Iteration(), tr.Step(), tr.Iteration())
	}
	for i, o := range back.vec.Obs() {
		if o != 0 {
			t.Fatalf("instance %d resumes at t = %v, want a fresh episode (0)", i, o)
		}
	}
	if _, err := back.Iterate(); err != nil {
		t.Fatal(err)
	}
}

// sameGob reports whether x and y encode to the same gob bytes: equal bit
// for bit, NaNs included (a diverged run's optimiser holds some), where
// reflect.DeepEqual calls NaN unequal to itself.
func sameGob(x, y any) bool {
	var a, b bytes.Buffer
	if gob.NewEncoder(&a).Encode(x) != nil || gob.NewEncoder(&b).Encode(y) != nil {
		return false
	}
	return bytes.Equal(a.Bytes(), b.Bytes())
}
