package hpo

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/c-bata/goptuna"
	"github.com/c-bata/goptuna/medianstopping"

	_ "github.com/gdt-ml/gdt/rl/env/all"
)

// TestSympolSpaceIsPPOKeys checks that every option of the SYMPOL space is
// a hyperparameter of the trainer and that configurations drawn from it
// are valid.
func TestSympolSpaceIsPPOKeys(t *testing.T) {
	s := mustSpace(t, "sympol")
	if err := s.Check(); err != nil {
		t.Fatalf("SYMPOL space against ppo's declaration: %v", err)
	}
	study, err := goptuna.CreateStudy("sympol", goptuna.StudyOptionSampler(newRandomSampler(3)), goptuna.StudyOptionLogger(nil))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 30; i++ {
		id, err := study.Storage.CreateNewTrial(study.ID)
		if err != nil {
			t.Fatal(err)
		}
		opts, err := s.Suggest(goptuna.Trial{Study: study, ID: id})
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := RLConfig("CartPole-v1", "sympol", "", 1000, RLSeed(1), opts)
		if err != nil {
			t.Fatalf("options %v: %v", opts, err)
		}
		if cfg.Depth != 7 || cfg.Minibatch != 64 || !cfg.AdamW || cfg.MaxGradNorm != 1000 {
			t.Errorf("fixed options not applied: %+v", cfg)
		}
	}
}

func TestRLConfigErrors(t *testing.T) {
	for _, c := range []struct {
		env, method string
		opts        map[string]string
		want        string
	}{
		{"NoSuchEnv-v0", "sympol", nil, "NoSuchEnv-v0"},
		{"CartPole-v1", "nope", nil, "nope"},
		{"CartPole-v1", "sympol", map[string]string{"gamma": "x"}, "gamma"},
		{"CartPole-v1", "sympol", map[string]string{"n_envs": "0"}, "n_envs"},
		{"CartPole-v1", "sympol", map[string]string{"no_such_key": "1"}, "no_such_key"},
	} {
		if _, err := RLConfig(c.env, c.method, "", 1000, 142, c.opts); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("RLConfig(%s, %s, %v) = %v, want an error naming %q", c.env, c.method, c.opts, err, c.want)
		}
	}
	if _, err := RLObjective(RLSetup{Env: "CartPole-v1", Method: "mlp"}); err == nil {
		t.Error("RLObjective accepted method mlp, which has no search space")
	}
}

// tinyRL is a few seconds of SYMPOL training on CartPole.
func tinyRL(seeds, parallel int) RLSetup {
	return RLSetup{Env: "CartPole-v1", Seeds: seeds, Steps: 3000, Parallel: parallel}
}

// tinyOpts shorten the evaluation interval so that a tiny run reports
// several evaluations.
var tinyOpts = map[string]string{"eval_freq": "1000", "n_envs": "4", "n_steps": "128", "n_update_epochs": "2"}

// TestRLObjectiveReports checks the reports (one per evaluation, the last
// one the returned score), determinism, and that running the trainings in
// parallel changes nothing.
func TestRLObjectiveReports(t *testing.T) {
	run := func(setup RLSetup) (float64, []float64) {
		obj, err := RLObjective(setup)
		if err != nil {
			t.Fatal(err)
		}
		var reports []float64
		v, err := obj(context.Background(), tinyOpts, func(step int, v float64) error {
			if step != len(reports) {
				t.Errorf("report step %d after %d reports", step, len(reports))
			}
			reports = append(reports, v)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return v, reports
	}
	v1, r1 := run(tinyRL(2, 1))
	if len(r1) < 3 {
		t.Fatalf("%d reports, want one per evaluation (≥ 3 with eval_freq 1000 over 3000 steps)", len(r1))
	}
	if v1 != r1[len(r1)-1] {
		t.Errorf("score %v, last report %v", v1, r1[len(r1)-1])
	}
	if !(v1 >= 8 && v1 <= 500) {
		t.Errorf("CartPole validation return %v outside [8, 500]", v1)
	}
	// A pruning decision at the last evaluation leaves the trial complete.
	obj, err := RLObjective(tinyRL(2, 1))
	if err != nil {
		t.Fatal(err)
	}
	v, err := obj(context.Background(), tinyOpts, func(step int, v float64) error {
		if step == len(r1)-1 {
			return goptuna.ErrTrialPruned
		}
		return nil
	})
	if err != nil || v != v1 {
		t.Errorf("pruned at the last evaluation: %v, %v; want the complete score %v", v, err, v1)
	}
	v2, r2 := run(tinyRL(2, 2))
	if v1 != v2 || len(r1) != len(r2) {
		t.Errorf("parallel trainings changed the result: %v %v vs %v %v", v1, r1, v2, r2)
	}
}

// TestRLObjectivePruned checks that a pruned report stops the trial at
// once with goptuna's error.
func TestRLObjectivePruned(t *testing.T) {
	obj, err := RLObjective(tinyRL(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	_, err = obj(context.Background(), tinyOpts, func(step int, v float64) error {
		calls++
		return goptuna.ErrTrialPruned
	})
	if !errors.Is(err, goptuna.ErrTrialPruned) || calls != 1 {
		t.Errorf("err %v after %d reports, want ErrTrialPruned after 1", err, calls)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := obj(ctx, tinyOpts, func(int, float64) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled objective: %v", err)
	}
}

// TestRLStudy runs a two-trial SYMPOL study in a journal store and reads
// its setup back from the store.
func TestRLStudy(t *testing.T) {
	store, err := OpenStore(filepath.Join(t.TempDir(), "rl.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	setup := tinyRL(1, 1)
	space := mustSpace(t, "sympol").Without(tinyOpts)
	s, err := NewStudy(store, "sympol:cp", space, RLAttrs(setup, 2), Config{Sampler: "random", Pruner: "median", Seed: 5, WarmUp: 2})
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := LoadStudy(store, "sympol:cp", Config{})
	if err != nil {
		t.Fatal(err)
	}
	if loaded.cfg.WarmUp != 2 || loaded.G.Pruner.(*medianstopping.MedianPruner).NWarmUpSteps != 2 {
		t.Errorf("loaded warm-up %d, want the stored 2", loaded.cfg.WarmUp)
	}
	got, err := s.RLSetupOf()
	if err != nil {
		t.Fatal(err)
	}
	if got.Env != "CartPole-v1" || got.Seeds != 1 || got.Steps != 3000 || got.Method != "sympol" || got.Profile != "default" {
		t.Errorf("setup from the store %+v", got)
	}
	obj, err := RLObjective(got)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Work(context.Background(), s.Budget(), obj); err != nil {
		t.Fatal(err)
	}
	c, err := s.Counts()
	if err != nil {
		t.Fatal(err)
	}
	if c.Complete+c.Pruned != 2 {
		t.Errorf("counts %+v, want 2 evaluated trials", c)
	}
	b, err := s.Best()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := RLConfig("CartPole-v1", "sympol", "", 1000, 142, b.Options); err != nil {
		t.Errorf("best options are not a valid training configuration: %v", err)
	}
	if b.Options["eval_freq"] != "1000" || b.Options["depth"] != "7" {
		t.Errorf("best options lack the fixed ones: %v", b.Options)
	}
}

func TestRLWarmUp(t *testing.T) {
	for _, c := range []struct{ steps, freq, want int }{
		{1_000_000, 50_000, 5}, {50_000, 50_000, 1}, {3000, 1000, 1}, {2_000_000, 50_000, 10}, {1000, 0, 1},
	} {
		if got := RLWarmUp(c.steps, c.freq); got != c.want {
			t.Errorf("RLWarmUp(%d, %d) = %d, want %d", c.steps, c.freq, got, c.want)
		}
	}
}
