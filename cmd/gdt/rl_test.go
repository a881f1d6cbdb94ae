package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/rl/ppo"
)

// TestRLTrainEvalShow trains a tiny SYMPOL policy on CartPole through the
// CLI, resumes the finished run, evaluates it and shows it as rules and Go.
func TestRLTrainEvalShow(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	args := []string{"rl", "train", "--env", "CartPole-v1", "--steps", "3000", "--out", dir, "--quiet",
		"--set", "critic_width=16", "--set", "n_steps=128"}
	out, errOut, code := gdt(t, args...)
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "test return: ") || !strings.Contains(out, "pruned tree: ") {
		t.Errorf("train output:\n%s", out)
	}
	// Running it again resumes the (finished) run.
	if _, errOut, code = gdt(t, args...); code != 0 || !strings.Contains(errOut, "resuming") {
		t.Errorf("resume: exit %d: %s", code, errOut)
	}
	// A different configuration in the same directory is refused.
	if _, errOut, code = gdt(t, "rl", "train", "--env", "CartPole-v1", "--steps", "5000", "--out", dir, "--quiet"); code == 0 {
		t.Errorf("different configuration accepted: %s", errOut)
	}
	out, errOut, code = gdt(t, "rl", "eval", dir, "--episodes", "2")
	if code != 0 || strings.Count(out, "episode ") != 2 || !strings.Contains(out, "test return: ") {
		t.Errorf("eval: exit %d: %s %s", code, out, errOut)
	}
	out, errOut, code = gdt(t, "rl", "show", dir)
	if code != 0 || !strings.Contains(out, "push ") || !strings.Contains(out, "if ") {
		t.Errorf("show: exit %d: %s %s", code, out, errOut)
	}
	out, errOut, code = gdt(t, "rl", "show", dir, "--format", "go")
	if code != 0 || !strings.Contains(out, "func Classify") {
		t.Errorf("show --format go: exit %d: %s %s", code, out, errOut)
	}
	for _, bad := range [][]string{
		{"rl"}, {"rl", "fly"}, {"rl", "train", "--env", "Nope-v0", "--out", dir},
		{"rl", "train", "--env", "CartPole-v1", "--out", dir, "--set", "bogus=1"},
		{"rl", "eval", filepath.Join(dir, "missing")},
	} {
		if _, _, code := gdt(t, bad...); code == 0 {
			t.Errorf("%v: exit 0", bad)
		}
	}
}

// TestRLBest trains with frequent evaluations and checks the best-validation
// policy's extra line and "best" object, that the existing lines and keys
// keep the final policy's figures, that eval --best replays the best
// policy's test return and show --best shows it, and that a run without a
// best policy gives an error naming its directory.
func TestRLBest(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	out, errOut, code := gdt(t, "rl", "train", "--env", "CartPole-v1", "--steps", "3000", "--out", dir, "--quiet",
		"--set", "critic_width=16", "--set", "n_steps=128", "--set", "eval_freq=500")
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, errOut)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "result.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sum rlSummary
	if err := json.Unmarshal(raw, &sum); err != nil {
		t.Fatal(err)
	}
	b := sum.Best
	if b == nil || len(b.Test) != 5 || b.Step <= 0 || b.TreeNodes <= 0 || b.TestMean != ppo.Mean(b.Test) {
		t.Fatalf("result.json best = %+v:\n%s", b, raw)
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(raw, &keys); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"validation_return", "test_returns", "test_return", "tree_nodes", "best"} {
		if _, ok := keys[k]; !ok {
			t.Errorf("result.json lacks %q", k)
		}
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	want := []string{
		fmt.Sprintf("test return: %.2f", sum.TestMean),
		fmt.Sprintf("best validation policy (step %d, validation %.2f): test return %.2f", b.Step, b.Validation, b.TestMean),
	}
	if len(lines) < 2 || lines[len(lines)-2] != want[0] || lines[len(lines)-1] != want[1] {
		t.Errorf("train output ends\n%s\nwant\n%s", out, strings.Join(want, "\n"))
	}
	if strings.Count(out, "test return: ") != 1 {
		t.Errorf("more than one \"test return: \" line:\n%s", out)
	}

	out, errOut, code = gdt(t, "rl", "eval", dir, "--best")
	if code != 0 {
		t.Fatalf("eval --best: exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, fmt.Sprintf("test return: %.2f\n", b.TestMean)) || !strings.Contains(out, fmt.Sprintf("at step %d of ", b.Step)) {
		t.Errorf("eval --best output:\n%s\nwant test return %.2f of the best policy at step %d", out, b.TestMean, b.Step)
	}
	out, errOut, code = gdt(t, "rl", "eval", dir)
	if code != 0 || !strings.Contains(out, fmt.Sprintf("test return: %.2f\n", sum.TestMean)) || !strings.Contains(out, "after ") {
		t.Errorf("eval: exit %d, output:\n%s%s\nwant test return %.2f", code, out, errOut, sum.TestMean)
	}
	out, errOut, code = gdt(t, "rl", "show", dir, "--best")
	if code != 0 || !strings.Contains(out, fmt.Sprintf("at step %d of %d, the best validation policy", b.Step, sum.Steps)) ||
		!strings.Contains(out, fmt.Sprintf(": %d nodes after pruning", b.TreeNodes)) {
		t.Errorf("show --best: exit %d: %s %s", code, out, errOut)
	}

	// Without validation episodes a run keeps no best policy.
	none := filepath.Join(t.TempDir(), "none")
	out, errOut, code = gdt(t, "rl", "train", "--env", "CartPole-v1", "--steps", "1000", "--out", none, "--quiet",
		"--set", "critic_width=16", "--set", "n_steps=128", "--set", "n_eval_episodes=0")
	if code != 0 || strings.Contains(out, "best validation") {
		t.Fatalf("train without validation: exit %d: %s %s", code, out, errOut)
	}
	for _, sub := range []string{"eval", "show"} {
		_, errOut, code = gdt(t, "rl", sub, none, "--best")
		if code == 0 || !strings.Contains(errOut, none) || !strings.Contains(errOut, "best-validation policy") {
			t.Errorf("%s --best without a best: exit %d: %s", sub, code, errOut)
		}
	}
}
