package main

import (
	"path/filepath"
	"strings"
	"testing"
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
