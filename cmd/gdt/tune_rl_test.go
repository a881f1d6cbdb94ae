package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/bench"
	"github.com/gdt-ml/gdt/rl/methods"
	"github.com/gdt-ml/gdt/rl/ppo"
)

// TestTuneSympol runs a tiny SYMPOL study through the CLI, resumes it, and
// trains a policy with the best configuration (rl train --tuned).
func TestTuneSympol(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "studies.jsonl")
	best := filepath.Join(dir, "best.json")
	tune := []string{"tune", "--model", "sympol", "--env", "CartPole-v1", "--seeds", "1", "--steps", "3000", "--storage", store,
		"--out", best, "--sampler", "random", "--sampler-seed", "2", "--pruner", "none",
		"--set", "eval_freq=1000", "--set", "critic_width=16", "--set", "n_steps=128"}
	out, errOut, code := gdt(t, append(tune, "--trials", "2")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, `study "sympol:CartPole-v1": 2 complete`) || !strings.Contains(errOut, "rl-validation protocol (1 trainings × 3000 steps") {
		t.Errorf("output:\n%s\n%s", out, errOut)
	}
	tuned, err := bench.ReadTuned(best)
	if err != nil {
		t.Fatal(err)
	}
	if len(tuned) != 1 || tuned[0].Kind != "sympol" || tuned[0].Dataset != "CartPole-v1" || tuned[0].Complete != 2 ||
		tuned[0].Options["n_steps"] != "128" || tuned[0].Options["gamma"] == "" || !(tuned[0].Score > 0) {
		t.Fatalf("best configuration %+v", tuned)
	}
	// Joining by name extends the study.
	out, errOut, code = gdt(t, "tune", "--join", "--study", "sympol:CartPole-v1", "--storage", store, "--out", best, "--trials", "3", "--quiet")
	if code != 0 || !strings.Contains(out, "3 complete") {
		t.Fatalf("join: exit %d: %s\n%s", code, out, errOut)
	}
	if tuned, err = bench.ReadTuned(best); err != nil {
		t.Fatal(err)
	}

	// rl train --tuned applies the configuration; --set overrides it.
	run := filepath.Join(dir, "run")
	out, errOut, code = gdt(t, "rl", "train", "--tuned", best, "--steps", "1500", "--out", run, "--quiet", "--set", "n_update_epochs=1")
	if code != 0 || !strings.Contains(out, "test return: ") {
		t.Fatalf("rl train --tuned: exit %d: %s\n%s", code, out, errOut)
	}
	b, err := os.ReadFile(filepath.Join(run, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg ppo.Config
	if err := json.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	want, err := methods.Preset("CartPole-v1", "sympol")
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range tuned[0].Options {
		if err := want.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	want.TotalSteps, want.Epochs = 1500, 1
	if cfg != want {
		t.Errorf("rl train --tuned configuration\n got %+v\nwant %+v", cfg, want)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"tune", "--model", "sympol", "--storage", store, "--study", "x"}, "--env"},
		{[]string{"tune", "--model", "sympol", "--env", "CartPole-v1", "--dataset", "demo", "--storage", store}, "--env"},
		{[]string{"tune", "--model", "sympol", "--env", "Nope-v0", "--storage", store}, "Nope-v0"},
		{[]string{"tune", "--model", "sympol", "--env", "CartPole-v1", "--study", "y", "--set", "bogus=1", "--storage", store}, "bogus"},
		{[]string{"tune", "--model", "sympol", "--env", "CartPole-v1", "--study", "y", "--seeds", "0", "--storage", store}, "--seeds"},
		{[]string{"tune", "--model", "cart", "--env", "CartPole-v1", "--storage", store}, "--env"},
		{[]string{"tune", "--model", "sympol", "--env", "Acrobot-v1", "--study", "sympol:CartPole-v1", "--storage", store}, "CartPole-v1"},
		{[]string{"tune", "--join", "--study", "sympol:CartPole-v1", "--storage", store, "--steps", "1000"}, "created with 3000"},
		{[]string{"rl", "train", "--tuned", best, "--env", "Acrobot-v1", "--out", run}, "no configuration of sympol on Acrobot-v1"},
		{[]string{"rl", "train", "--tuned", filepath.Join(dir, "missing.json"), "--out", run}, "missing.json"},
	} {
		if _, errOut, code := gdt(t, c.args...); code == 0 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, want an error naming %q: %s", c.args, code, c.want, errOut)
		}
	}
}
