package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/metrics"
	"github.com/gdt-ml/gdt/rl/methods"
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

// TestRLDelivered trains with frequent evaluations and checks that the
// run delivers its best-validation policy: result.json's top-level figures
// and the train output are its, with the final policy's beside them
// ("final"); eval, show and export use it by default and the final policy
// with --final. A run without validation episodes delivers its final
// policy, and eval on validation seeds says so.
func TestRLDelivered(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	out, errOut, code := gdt(t, "rl", "train", "--env", "CartPole-v1", "--steps", "3000", "--out", dir, "--quiet",
		"--set", "critic_width=16", "--set", "n_steps=128", "--set", "eval_freq=500")
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, errOut)
	}
	sum := readSummary(t, dir)
	f := sum.Final
	if sum.Policy != policyBest || len(sum.Test) != 5 || sum.Step <= 0 || sum.Step > sum.Steps || sum.TreeNodes <= 0 || sum.TestMean != metrics.Mean(sum.Test) {
		t.Fatalf("result.json delivered policy = %+v", sum)
	}
	if f.Step != sum.Steps || len(f.Test) != 5 || f.TreeNodes <= 0 || f.TestMean != metrics.Mean(f.Test) || sum.Validation < f.Validation {
		t.Fatalf("result.json final policy = %+v (delivered validation %v)", f, sum.Validation)
	}
	if sum.Note != "" {
		t.Errorf("CartPole note %q: it has random initial states", sum.Note)
	}
	for _, want := range []string{
		fmt.Sprintf("delivered policy: the best on validation, step %d of %d\n", sum.Step, sum.Steps),
		fmt.Sprintf("pruned tree: %d nodes\n", sum.TreeNodes),
		fmt.Sprintf("test return: %.2f\n", sum.TestMean),
		fmt.Sprintf("final policy (step %d): validation %.2f, test return %.2f, %d nodes\n", f.Step, f.Validation, f.TestMean, f.TreeNodes),
	} {
		if !strings.Contains(out, want) {
			t.Errorf("train output lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, "test return: ") != 1 || strings.Contains(out, "note:") {
		t.Errorf("train output:\n%s\nwant one \"test return: \" line and no note", out)
	}

	out, errOut, code = gdt(t, "rl", "eval", dir)
	if code != 0 || !strings.Contains(out, fmt.Sprintf("test return: %.2f\n", sum.TestMean)) || !strings.Contains(out, fmt.Sprintf("step %d of ", sum.Step)) {
		t.Errorf("eval: exit %d, output:\n%s%s\nwant the delivered policy's test return %.2f", code, out, errOut, sum.TestMean)
	}
	out, errOut, code = gdt(t, "rl", "eval", dir, "--final")
	if code != 0 || !strings.Contains(out, fmt.Sprintf("test return: %.2f\n", f.TestMean)) || !strings.Contains(out, "the final policy after ") {
		t.Errorf("eval --final: exit %d, output:\n%s%s\nwant the final policy's test return %.2f", code, out, errOut, f.TestMean)
	}
	out, _, _ = gdt(t, "rl", "eval", dir, "--seed", "140", "--episodes", "3")
	if !strings.Contains(out, "note: seeds 140…142 include validation episodes (seeds 142…146)") {
		t.Errorf("eval on validation seeds says nothing of it:\n%s", out)
	}
	out, errOut, code = gdt(t, "rl", "show", dir)
	if code != 0 || !strings.Contains(out, fmt.Sprintf("the best on validation, step %d of %d", sum.Step, sum.Steps)) ||
		!strings.Contains(out, fmt.Sprintf(": %d nodes after pruning", sum.TreeNodes)) {
		t.Errorf("show: exit %d: %s %s", code, out, errOut)
	}
	out, errOut, code = gdt(t, "rl", "show", dir, "--final")
	if code != 0 || !strings.Contains(out, fmt.Sprintf("the final policy after %d steps: %d nodes after pruning", sum.Steps, f.TreeNodes)) {
		t.Errorf("show --final: exit %d: %s %s", code, out, errOut)
	}
	onnx := filepath.Join(t.TempDir(), "p.onnx")
	for _, c := range []struct {
		final bool
		steps int
	}{{false, sum.Step}, {true, sum.Steps}} {
		args := []string{"export", dir, "--out", onnx, "--json"}
		if c.final {
			args = append(args, "--final")
		}
		var res struct {
			Steps     int `json:"steps"`
			TreeNodes int `json:"tree_nodes"`
		}
		jsonRun(t, &res, args...)
		if res.Steps != c.steps {
			t.Errorf("export (final %v): steps %d, want %d", c.final, res.Steps, c.steps)
		}
	}

	// Without validation episodes a run delivers its final policy.
	none := filepath.Join(t.TempDir(), "none")
	out, errOut, code = gdt(t, "rl", "train", "--env", "CartPole-v1", "--steps", "1000", "--out", none, "--quiet",
		"--set", "critic_width=16", "--set", "n_steps=128", "--set", "n_eval_episodes=0")
	if code != 0 || !strings.Contains(out, "delivered policy: the final policy (the run kept no best-validation policy") || strings.Contains(out, "final policy (step") {
		t.Fatalf("train without validation: exit %d: %s %s", code, out, errOut)
	}
	if s := readSummary(t, none); s.Policy != policyFinal || s.Step != s.Steps || s.TestMean != s.Final.TestMean {
		t.Errorf("result.json without validation: %+v", s)
	}
	out, errOut, code = gdt(t, "rl", "eval", none, "--episodes", "1")
	if code != 0 || !strings.Contains(out, "the final one after") {
		t.Errorf("eval without a best policy: exit %d: %s %s", code, out, errOut)
	}
}

// TestRLOneLayoutSaid checks that on an environment with one fixed layout
// (MiniGrid-DistShift1-v0) train, eval and show say plainly that
// validation and test episodes are the same episode.
func TestRLOneLayoutSaid(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ds")
	out, errOut, code := gdt(t, "rl", "train", "--env", "MiniGrid-DistShift1-v0", "--steps", "600", "--out", dir, "--quiet",
		"--set", "critic_width=16", "--set", "n_steps=64", "--set", "eval_freq=300")
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, errOut)
	}
	const said = "has one fixed layout: every episode, validation or test, is the same episode"
	if !strings.Contains(out, "note: MiniGrid-DistShift1-v0 "+said) {
		t.Errorf("train output does not say the episodes coincide:\n%s", out)
	}
	if s := readSummary(t, dir); !strings.Contains(s.Note, said) {
		t.Errorf("result.json note %q", s.Note)
	}
	for _, sub := range []string{"eval", "show"} {
		if out, errOut, code := gdt(t, "rl", sub, dir); code != 0 || !strings.Contains(out, said) {
			t.Errorf("%s: exit %d, output does not say the episodes coincide:\n%s%s", sub, code, out, errOut)
		}
	}
}

// readSummary reads DIR/result.json.
func readSummary(t *testing.T, dir string) rlSummary {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "result.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sum rlSummary
	if err := json.Unmarshal(raw, &sum); err != nil {
		t.Fatal(err)
	}
	return sum
}

// TestRLDiverged checks what gdt rl train, eval and export say of a
// training that diverged. With restarts left it restarts (the reason
// printed); a training that diverges before its first evaluation, with no
// restart left, fails naming the tensor. A run that diverged after an
// evaluation with no restart left (made here by a NaN put into its actor,
// the run's checkpoint then resumed by the CLI) ends there and delivers
// its best-validation policy: a warning, result.json's "diverged" and a
// null "final", eval of the delivered policy, and no --final policy.
func TestRLDiverged(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	_, errOut, code := gdt(t, "rl", "train", "--env", "CartPole-v1", "--steps", "3000", "--out", filepath.Join(t.TempDir(), "nan"), "--quiet",
		"--set", "critic_width=16", "--set", "n_steps=128", "--set", "learning_rate_critic=1e30")
	for _, want := range []string{"the training diverged (critic tensor ", "restart 2 with a new training seed",
		"training diverged: critic tensor ", "after iteration 3 (step ", ", after 2 restarts), with no best-validation policy"} {
		if code == 0 || !strings.Contains(errOut, want) {
			t.Errorf("a training diverging at once: exit %d, output lacks %q:\n%s", code, want, errOut)
		}
	}

	sets := map[string]string{"critic_width": "16", "n_steps": "128", "eval_freq": "500", "restarts": "0"}
	args := []string{"rl", "train", "--env", "CartPole-v1", "--steps", "3000", "--out", dir, "--quiet"}
	for k, v := range sets {
		args = append(args, "--set", k+"="+v)
	}
	cfg, err := rlTrainConfig("CartPole-v1", "sympol", "default", "ppo", 3000, 142, sets)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := methods.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if i == 2 {
			ts := tr.Actor().Tensors()
			ts[0].Value[0] = float32(math.NaN())
			tr.Actor().Changed()
		}
		if _, err := tr.Iterate(); err != nil {
			t.Fatal(err)
		}
	}
	d, ok := tr.Diverged()
	if !ok {
		t.Fatal("the run did not end diverged")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := tr.Save(filepath.Join(dir, rlCheckpoint)); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := gdt(t, args...)
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, errOut)
	}
	sum := readSummary(t, dir)
	if sum.Diverged == nil || sum.Diverged.Step != d.Step || sum.Diverged.Iteration != 3 || !strings.HasPrefix(sum.Diverged.Cause, "actor tensor ") ||
		sum.Final != nil || sum.Policy != policyBest || sum.Steps != d.Step || sum.Step >= d.Step || len(sum.Test) != 5 || sum.TestMean != metrics.Mean(sum.Test) {
		t.Fatalf("result.json of a diverged run: %+v (diverged %+v, final %+v)", sum, sum.Diverged, sum.Final)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "result.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `"final": null`) {
		t.Errorf("result.json:\n%s", raw)
	}
	for _, want := range []string{
		fmt.Sprintf("delivered policy: the best on validation, step %d of %d\n", sum.Step, sum.Steps),
		fmt.Sprintf("test return: %.2f\n", sum.TestMean),
		fmt.Sprintf("final policy: none, the training diverged at step %d of 3000 (actor tensor ", d.Step),
		fmt.Sprintf("warning: the training diverged at step %d and ended there; the delivered policy is the best on validation before it\n", d.Step),
	} {
		if !strings.Contains(out, want) {
			t.Errorf("train output lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, "NaN") != 1 || strings.Contains(out, "final policy (step") { // the cause names the NaN parameter
		t.Errorf("train output reports the final policy or a NaN figure:\n%s", out)
	}
	out, errOut, code = gdt(t, "rl", "eval", dir)
	if code != 0 || !strings.Contains(out, fmt.Sprintf("test return: %.2f\n", sum.TestMean)) || !strings.Contains(out, fmt.Sprintf("the training diverged at step %d", d.Step)) {
		t.Errorf("eval: exit %d:\n%s%s", code, out, errOut)
	}
	for _, sub := range [][]string{{"rl", "eval", dir, "--final"}, {"rl", "show", dir, "--final"}, {"export", dir, "--out", filepath.Join(t.TempDir(), "p.onnx"), "--final"}} {
		if _, errOut, code := gdt(t, sub...); code == 0 || !strings.Contains(errOut, "no final policy: its training diverged at step") {
			t.Errorf("%v: exit %d: %s", sub, code, errOut)
		}
	}
}
