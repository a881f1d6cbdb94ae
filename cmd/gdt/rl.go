package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/export"
	"github.com/gdt-ml/gdt/interpret"
	"github.com/gdt-ml/gdt/metrics"
	"github.com/gdt-ml/gdt/rl/env"
	_ "github.com/gdt-ml/gdt/rl/env/all"
	"github.com/gdt-ml/gdt/rl/methods"
	"github.com/gdt-ml/gdt/rl/policy"
	"github.com/gdt-ml/gdt/rl/ppo"
	"github.com/gdt-ml/gdt/safefile"
)

func init() {
	register(command{name: "rl", summary: "train, evaluate and show tree policies (SYMPOL) and MLP policies with PPO/A2C", run: runRL})
}

// rlCheckpoint is the checkpoint file inside a run directory.
const rlCheckpoint = "checkpoint.gob"

func runRL(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	sub := map[string]func(context.Context, []string, io.Writer, io.Writer) error{
		"train": runRLTrain, "eval": runRLEval, "show": runRLShow, "bench": rlBench,
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprintln(stderr, "Usage: gdt rl <train|eval|show|bench> [flags]   (gdt rl <subcommand> --help for its flags)")
		fmt.Fprintln(stderr)
		fmt.Fprintln(stderr, "  train  train a policy on an environment (resumes an interrupted run in --out)")
		fmt.Fprintln(stderr, "  eval   play greedy test episodes with a trained policy")
		fmt.Fprintln(stderr, "  show   print the pruned tree policy as rules or Go source")
		fmt.Fprintln(stderr, "  bench  run the SYMPOL study (environments × methods × seeds) and its tables")
		fmt.Fprintf(stderr, "\nEnvironments: %s\n", strings.Join(env.IDs(), ", "))
		if len(args) == 0 {
			return fmt.Errorf("%w: missing subcommand (train, eval, show or bench)", errUsage)
		}
		return flag.ErrHelp
	}
	f, ok := sub[args[0]]
	if !ok {
		return fmt.Errorf("%w: unknown subcommand %q: want train, eval, show or bench", errUsage, args[0])
	}
	return f(ctx, args[1:], stdout, stderr)
}

// rlSummary is written to DIR/result.json at the end of training. Its
// top-level figures are the delivered policy's (ppo.Trainer.Delivered: the
// best-validation policy, or the final one in a run without validation
// episodes); Final reports the final policy beside it.
type rlSummary struct {
	Env          string  `json:"env"`
	Method       string  `json:"method"`
	Algorithm    string  `json:"algorithm"`
	Profile      string  `json:"profile"`
	Seed         int     `json:"seed"`
	Steps        int     `json:"steps"`
	TrainSeconds float64 `json:"train_seconds"`
	// EvalSeconds is the wall time of the evaluations (validation and test
	// episodes) in the last process of the run.
	EvalSeconds float64 `json:"eval_seconds"`
	StepsPerSec float64 `json:"steps_per_second"`
	// Policy names the delivered policy: policyBest or policyFinal.
	Policy string `json:"policy"`
	rlPolicySummary
	// Note says why the test return is no independent estimate of the
	// delivered policy (oneEpisodeNote); empty otherwise.
	Note string `json:"note,omitempty"`
	// Final is the final policy; null when the training diverged (its
	// parameters are not finite: there is no final policy).
	Final *rlPolicySummary `json:"final"`
	// Restarts counts the restarts of the run (ppo.Config.RestartAfter);
	// the final policy is the last attempt's. RestartReasons says why,
	// one per restart: ppo.RestartNotLearned or ppo.RestartDiverged.
	Restarts       int      `json:"restarts"`
	RestartReasons []string `json:"restart_reasons,omitempty"`
	// Diverged, when the training diverged with no restart left, says
	// where: the run ended there and delivers its best-validation policy.
	Diverged *rlDivergence `json:"diverged,omitempty"`
	// Polish, with the polish option, says how the delivered policy's leaf
	// actions were polished on the validation episodes before its test.
	Polish *ppo.Polish `json:"polish,omitempty"`
	// Recheck, with the recheck option, lists the best-validation policies
	// the final evaluation rechecked and their returns there.
	Recheck *ppo.Recheck `json:"recheck,omitempty"`
}

// rlDivergence is ppo.Divergence in result.json.
type rlDivergence struct {
	Step      int    `json:"step"`
	Iteration int    `json:"iteration"`
	Attempt   int    `json:"attempt"`
	Cause     string `json:"cause"`
}

// rlPolicySummary describes one policy of a run in result.json: the step
// it was taken at, its mean validation return and its test returns (seeds
// test_seed+0…, disjoint from the validation seeds).
type rlPolicySummary struct {
	Step       int       `json:"step"`
	Validation float64   `json:"validation_return"`
	Test       []float64 `json:"test_returns"`
	TestMean   float64   `json:"test_return"`
	TreeNodes  int       `json:"tree_nodes,omitempty"`
}

// Names of the delivered policy in result.json and --json output.
const (
	policyBest  = "best-validation"
	policyFinal = "final"
)

// oneEpisodeNote returns the plain statement for an environment with one
// fixed layout (env.Spec.OneEpisode): its validation and test episodes are
// the same episode. Empty for other environments.
func oneEpisodeNote(s env.Spec) string {
	if !s.OneEpisode {
		return ""
	}
	return s.ID + " has one fixed layout: every episode, validation or test, is the same episode, " +
		"so the delivered policy was selected on the test episode itself and its test return is no independent estimate"
}

// deliveredHelp is the help text on the delivered policy shared by train,
// eval, show and export.
const deliveredHelp = "The delivered policy is the best-validation one: the actor at the evaluation whose\n" +
	"validation return beat every earlier one (validation episodes use seeds SEED+0…, the\n" +
	"test episodes 123456+0…, never the same seeds). A run without validation episodes\n" +
	"delivers its final policy. Where an environment has one fixed layout\n" +
	"(MiniGrid-DistShift1/2), validation and test episodes are the same episode and the\n" +
	"output says so."

func runRLTrain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("rl train", "--env ID --out DIR [flags]",
		"Trains a policy with PPO (or A2C) and the thesis's best hyperparameters for the\n"+
			"environment. Checkpoints go to DIR; running the same command again resumes an\n"+
			"interrupted run, bit for bit as if it had not stopped. At the end it prints the delivered policy's greedy test return\n"+
			"over 5 episodes and, beside it, the final policy's (the thesis protocol's figure;\n"+
			"\"final\" in DIR/result.json, gdt rl eval|show DIR --final).\n\n"+deliveredHelp, stderr)
	envID := fs.String("env", "", "environment ID (gdt rl help lists them)")
	method := fs.String("method", ppo.MethodSYMPOL, "sympol (tree actor), mlp (MLP actor) or sdt (soft decision tree actor)")
	algo := fs.String("algorithm", ppo.AlgoPPO, "ppo or a2c")
	steps := fs.Int("steps", 1_000_000, "environment steps")
	seed := fs.Int("seed", 142, "environment and sampling seed (the thesis uses 142, 242, …, 542)")
	out := fs.String("out", "", "run directory for checkpoints and results")
	profile := fs.String("profile", ppo.ProfileDefault, "default (thesis intent, reference defects fixed) or reference (replay the reference code's quirks)")
	every := fs.Duration("checkpoint-every", 30*time.Second, "wall time between checkpoints")
	quiet := fs.Bool("quiet", false, "no progress lines")
	asJSON := jsonFlag(fs)
	sets := optionFlags{}
	fs.Var(sets, "set", "override a hyperparameter, key=value (repeatable; reference names, e.g. ent_coef=0.1; gdt models sympol lists them)")
	fs.String("tuned", "", "train with the best configuration in `FILE`, written by gdt tune --model sympol --env ID (--set flags override single values)")
	// --tuned FILE expands to --env ID --set key=value … in front of the
	// other arguments (rltuned.go).
	args, err := expandTuned(args)
	if err != nil {
		return err
	}
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, pos[0])
	}
	if *envID == "" || *out == "" {
		fs.Usage()
		return fmt.Errorf("%w: --env and --out are required", errUsage)
	}
	cfg, err := rlTrainConfig(*envID, *method, *profile, *algo, *steps, *seed, sets)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	ckPath := filepath.Join(*out, rlCheckpoint)
	var tr *ppo.Trainer
	if _, err := os.Stat(ckPath); err == nil {
		tr, err = methods.Load(ckPath, nil)
		if err != nil {
			return err
		}
		if got := tr.Config(); got != cfg {
			return fmt.Errorf("%s holds a run with a different configuration (%s, %s, %d steps, seed %d); use another --out or the same flags to resume it",
				ckPath, got.Env, got.Method, got.TotalSteps, got.Seed)
		}
		fmt.Fprintf(stderr, "resuming %s from step %d (iteration %d)\n", ckPath, tr.Step(), tr.Iteration())
	} else {
		if tr, err = methods.New(cfg); err != nil {
			return err
		}
	}
	if err := safefile.Write(filepath.Join(*out, "config.json"), func(w io.Writer) error {
		e := json.NewEncoder(w)
		e.SetIndent("", "  ")
		return e.Encode(cfg)
	}); err != nil {
		return err
	}
	bar := newProgress(stderr, cfg.TotalSteps, "rl train "+cfg.Env, *quiet)
	lastSave := time.Now()
	valid := math.NaN()
	if h := tr.History(); len(h) > 0 {
		valid = h[len(h)-1].Validation
	}
	err = tr.Run(ctx, func(p ppo.Progress) error {
		if p.Eval != nil {
			valid = p.Eval.Validation
		}
		switch {
		case p.Restarted && p.Diverged != nil:
			fmt.Fprintf(stderr, "\nstep %d: the training diverged (%s); restart %d with a new training seed and the remaining budget\n",
				p.Step, p.Diverged.Cause, p.Attempt)
		case p.Restarted:
			why := "the training has not learned"
			if cfg.RestartMargin >= 1 {
				why = "restart_margin ≥ 1: every attempt restarts"
			}
			fmt.Fprintf(stderr, "\nstep %d: %s (validation %.2f); restart %d with a new training seed and the remaining budget\n",
				p.Step, why, p.Eval.Selection, p.Attempt)
		case p.Diverged != nil:
			fmt.Fprintf(stderr, "\nstep %d: the training diverged (%s) with no restart left; the run ends here\n", p.Step, p.Diverged.Cause)
		}
		bar.update(p.Step, p.Total, fmt.Sprintf("%.0f steps/s, recent return %.1f, validation %.1f", p.StepsPerSec, p.RecentReturn, valid))
		if time.Since(lastSave) >= *every {
			lastSave = time.Now()
			return tr.Save(ckPath)
		}
		return nil
	})
	bar.finish()
	if err != nil {
		if errors.Is(err, context.Canceled) {
			if serr := tr.Save(ckPath); serr != nil {
				return serr
			}
			fmt.Fprintf(stderr, "saved %s at step %d; run the same command to resume\n", ckPath, tr.Step())
		}
		return err
	}
	if err := tr.Save(ckPath); err != nil {
		return err
	}
	sum, err := summarise(tr)
	if err != nil {
		return err
	}
	if err := safefile.Write(filepath.Join(*out, "result.json"), func(w io.Writer) error {
		e := json.NewEncoder(w)
		e.SetIndent("", "  ")
		return e.Encode(sum)
	}); err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(stdout, sum)
	}
	fmt.Fprintf(stdout, "%s %s: %d steps in %.1f s of training (%.0f steps/s)\n", cfg.Env, cfg.Method, sum.Steps, sum.TrainSeconds, sum.StepsPerSec)
	what := "the final policy (the run kept no best-validation policy: no validation episodes, or resumed from a checkpoint of an older gdt)"
	if sum.Policy == policyBest {
		what = fmt.Sprintf("the best on validation, step %d of %d", sum.Step, sum.Steps)
	}
	fmt.Fprintf(stdout, "delivered policy: %s\n", what)
	if sum.Restarts > 0 {
		fmt.Fprintf(stdout, "restarts: %d (%s; the final policy is the last attempt's)\n", sum.Restarts, strings.Join(sum.RestartReasons, ", "))
	}
	if sum.TreeNodes > 0 {
		fmt.Fprintf(stdout, "pruned tree: %d nodes\n", sum.TreeNodes)
	}
	fmt.Fprintf(stdout, "validation return: %.2f\n", sum.Validation)
	if r := sum.Recheck; r != nil && len(r.Steps) > 0 {
		parts := make([]string, len(r.Steps))
		for i := range r.Steps {
			parts[i] = fmt.Sprintf("step %d %.4g", r.Steps[i], r.Returns[i])
		}
		fmt.Fprintf(stdout, "rechecked on %d episodes of their own: %s; delivered step %d\n", cfg.RecheckEpisodes, strings.Join(parts, ", "), sum.Step)
	}
	if p := sum.Polish; p != nil {
		more := ""
		if p.Splits > 0 {
			more += fmt.Sprintf(", %d splits", p.Splits)
		}
		if p.Thresholds > 0 {
			more += fmt.Sprintf(", %d thresholds", p.Thresholds)
		}
		fmt.Fprintf(stdout, "polished: %d leaf actions%s changed on the validation episodes (validation %.4g → %.4g)\n", p.Changed-p.Splits-p.Thresholds, more, p.Before, p.After)
	}
	fmt.Fprintf(stdout, "test return: %.2f\n", sum.TestMean)
	if d := sum.Diverged; d != nil {
		fmt.Fprintf(stdout, "final policy: none, the training diverged at step %d of %d (%s)\n", d.Step, cfg.TotalSteps, d.Cause)
		fmt.Fprintf(stdout, "warning: the training diverged at step %d and ended there; the delivered policy is the best on validation before it\n", d.Step)
	} else if sum.Policy == policyBest {
		fmt.Fprintf(stdout, "final policy (step %d): validation %.2f, test return %.2f", sum.Final.Step, sum.Final.Validation, sum.Final.TestMean)
		if sum.Final.TreeNodes > 0 {
			fmt.Fprintf(stdout, ", %d nodes", sum.Final.TreeNodes)
		}
		fmt.Fprintln(stdout)
	}
	if sum.Note != "" {
		fmt.Fprintf(stdout, "note: %s\n", sum.Note)
	}
	return nil
}

// rlTrainConfig is the configuration of gdt rl train's flags: the
// method's preset on the environment with the budget, seed, profile,
// algorithm and --set options (applied in key order).
func rlTrainConfig(envID, method, profile, algo string, steps, seed int, sets map[string]string) (ppo.Config, error) {
	cfg, err := methods.Preset(envID, method)
	if err != nil {
		return cfg, fmt.Errorf("%w: --method: %v", errUsage, err)
	}
	if _, err := env.Make(envID); err != nil {
		return cfg, fmt.Errorf("%w: --env: %v", errUsage, err)
	}
	cfg.TotalSteps, cfg.Seed = steps, seed
	if err := cfg.SetProfile(profile); err != nil {
		return cfg, fmt.Errorf("%w: --profile: %v", errUsage, err)
	}
	if err := cfg.SetAlgorithm(algo); err != nil {
		return cfg, fmt.Errorf("%w: --algorithm: %v", errUsage, err)
	}
	keys := make([]string, 0, len(sets))
	for k := range sets {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := cfg.Set(k, sets[k]); err != nil {
			return cfg, fmt.Errorf("%w: --set: %v", errUsage, err)
		}
	}
	if err := cfg.Validate(); err != nil {
		return cfg, fmt.Errorf("%w: %v", errUsage, err)
	}
	return cfg, nil
}

// summarise describes a finished run for result.json: the delivered
// policy and the final one. The final evaluation played the test episodes
// with both (a best policy exists only with validation episodes). A run
// that diverged has no final policy: its best-validation policy's test
// episodes were played when it ended.
func summarise(tr *ppo.Trainer) (rlSummary, error) {
	cfg := tr.Config()
	sum := rlSummary{Env: cfg.Env, Method: cfg.Method, Algorithm: cfg.Algorithm, Profile: cfg.Profile, Seed: cfg.Seed,
		Steps: tr.Step(), TrainSeconds: tr.TrainSeconds(), EvalSeconds: tr.EvalSeconds(), Note: oneEpisodeNote(tr.Spec()), Restarts: tr.Attempt()}
	for _, r := range tr.Restarts() {
		sum.RestartReasons = append(sum.RestartReasons, r.Reason)
	}
	if tr.TrainSeconds() > 0 {
		sum.StepsPerSec = float64(tr.Step()) / tr.TrainSeconds()
	}
	if d, ok := tr.Diverged(); ok {
		a, b, _ := tr.BestActor() // a diverged run has one (ppo.Trainer.Diverged)
		sum.Diverged = &rlDivergence{Step: d.Step, Iteration: d.Iteration, Attempt: d.Attempt, Cause: d.Cause}
		sum.Policy, sum.Polish, sum.Recheck = policyBest, b.Polish, b.Recheck
		sum.rlPolicySummary = rlPolicySummary{Step: b.Step, Validation: b.Validation, Test: b.Test, TestMean: metrics.Mean(b.Test), TreeNodes: prunedNodes(tr, a)}
		return sum, nil
	}
	f := &rlPolicySummary{Step: tr.Step()}
	sum.Final = f
	h := tr.History()
	if len(h) > 0 {
		f.Validation = h[len(h)-1].Selection
	}
	var err error
	if len(h) > 0 && len(h[len(h)-1].Test) > 0 {
		f.Test = h[len(h)-1].Test
	} else if f.Test, err = ppo.Returns(tr.Maker(), cfg.TestSeed, 5, tr.Actor(), nil); err != nil {
		return sum, err
	}
	f.TestMean = metrics.Mean(f.Test)
	f.TreeNodes = prunedNodes(tr, tr.Actor())
	sum.Policy, sum.rlPolicySummary = policyFinal, *f
	if a, b, ok := tr.BestActor(); ok {
		if len(b.Test) == 0 { // not played by a final evaluation
			if b.Test, err = ppo.Returns(tr.Maker(), cfg.TestSeed, len(f.Test), a, nil); err != nil {
				return sum, err
			}
		}
		sum.Policy, sum.Polish, sum.Recheck = policyBest, b.Polish, b.Recheck
		sum.rlPolicySummary = rlPolicySummary{Step: b.Step, Validation: b.Validation, Test: b.Test, TestMean: metrics.Mean(b.Test), TreeNodes: prunedNodes(tr, a)}
	}
	return sum, nil
}

// prunedNodes returns the node count of a tree actor after pruning (0 for
// other actors or when pruning fails).
func prunedNodes(tr *ppo.Trainer, a policy.Actor) int {
	if ta, ok := a.(*policy.TreeActor); ok {
		if pr, _, err := tr.PrunedTree(ta, ""); err == nil {
			return pr.NumNodes()
		}
	}
	return 0
}

// runPolicy returns the policy of a loaded run to evaluate, show or
// export: the delivered one, or with final the final one, and a
// description of it ("the delivered policy: the best on validation, step N
// of M (validation V)" / "the final policy after N steps"). A run without
// a best-validation policy delivers its final one; a run that diverged
// has no final policy (an error with final).
func runPolicy(tr *ppo.Trainer, final bool) (policy.Actor, string, error) {
	d, diverged := tr.Diverged()
	if final {
		if diverged {
			return nil, "", fmt.Errorf("the run has no final policy: its training diverged at step %d (%s); leave out --final for the delivered one", d.Step, d.Cause)
		}
		return tr.Actor(), fmt.Sprintf("the final policy after %d steps", tr.Step()), nil
	}
	a, b, ok := tr.BestActor()
	if !ok {
		return tr.Actor(), fmt.Sprintf("the delivered policy: the final one after %d steps (the run has no best-validation policy)", tr.Step()), nil
	}
	what := fmt.Sprintf("the delivered policy: the best on validation, step %d of %d (validation %.2f)", b.Step, tr.Step(), b.Validation)
	if diverged {
		what = fmt.Sprintf("the delivered policy: the best on validation, step %d (validation %.2f); the training diverged at step %d", b.Step, b.Validation, d.Step)
	}
	return a, what, nil
}

// finalFlag declares --final on eval, show and export.
func finalFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("final", false, "use the final policy instead of the delivered (best-validation) one")
}

// loadRun loads the trainer of a run directory (or a checkpoint file).
func loadRun(path string) (*ppo.Trainer, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, rlCheckpoint)
	}
	return methods.Load(path, nil)
}

func runRLEval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("rl eval", "DIR [--episodes N] [--seed S] [--final]",
		"Plays greedy episodes with the delivered policy saved in DIR (test seeds 123456, … by\n"+
			"default) and prints every return and their mean.\n\n"+deliveredHelp, stderr)
	episodes := fs.Int("episodes", 5, "number of episodes")
	seed := fs.Int("seed", 123456, "seed of the first episode (the next ones use seed+1, …)")
	final := finalFlag(fs)
	prune := pruneFlag(fs, "play the policy's tree pruned as this says instead of the policy itself (default: the policy): ", "")
	asJSON := jsonFlag(fs)
	arg, err := parseOne(fs, args, "run DIR")
	if err != nil {
		return err
	}
	if *episodes < 1 {
		return fmt.Errorf("%w: --episodes %d: want ≥ 1", errUsage, *episodes)
	}
	if err := checkPrune(*prune); err != nil {
		return err
	}
	tr, err := loadRun(arg)
	if err != nil {
		return err
	}
	cfg := tr.Config()
	actor, what, err := runPolicy(tr, *final)
	if err != nil {
		return fmt.Errorf("%s: %w", arg, err)
	}
	var rets []float64
	var pruned *export.Policy
	if *prune == "" {
		rets, err = ppo.Returns(tr.Maker(), *seed, *episodes, actor, nil)
	} else if pruned, err = runTree(tr, actor, *prune); err == nil {
		rets, err = treeReturns(tr, pruned, *seed, *episodes)
		what += fmt.Sprintf(", played by its %d-node tree (pruning %s)", pruned.Tree.NumNodes(), *prune)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", arg, err)
	}
	note := evalNote(tr, *seed, *episodes)
	if *asJSON {
		policyName := policyFinal
		if _, _, ok := tr.BestActor(); ok && !*final {
			policyName = policyBest
		}
		res := map[string]any{"env": cfg.Env, "method": cfg.Method, "policy": policyName, "description": what,
			"first_seed": *seed, "returns": rets, "test_return": metrics.Mean(rets), "note": note}
		if pruned != nil {
			res["prune"], res["tree_nodes"] = *prune, pruned.Tree.NumNodes()
			if pruned.Visits != nil {
				res["visits"] = visitsJSON(pruned.Visits)
			}
		}
		return writeJSON(stdout, res)
	}
	fmt.Fprintf(stdout, "%s %s, %s\n", cfg.Env, cfg.Method, what)
	if pruned != nil && pruned.Visits != nil {
		fmt.Fprintf(stdout, "the tree was pruned with %s\n", pruned.Visits)
	}
	for i, r := range rets {
		fmt.Fprintf(stdout, "episode %d (seed %d): %.2f\n", i+1, *seed+i, r)
	}
	fmt.Fprintf(stdout, "test return: %.2f\n", metrics.Mean(rets))
	if note != "" {
		fmt.Fprintf(stdout, "note: %s\n", note)
	}
	return nil
}

// treeReturns plays greedy episodes (seeds first…first+n−1) on run tr's
// environment with the exported tree p instead of the policy.
func treeReturns(tr *ppo.Trainer, p *export.Policy, first, n int) ([]float64, error) {
	seeds := make([]uint64, n)
	for i := range seeds {
		seeds[i] = uint64(first + i)
	}
	eps, err := env.Evaluate(tr.Maker()(), seeds, p.Act)
	if err != nil {
		return nil, err
	}
	rets := make([]float64, n)
	for i, ep := range eps {
		rets[i] = ep.Return
	}
	return rets, nil
}

// evalNote returns what eval's output must say about episodes seeds
// first…first+n−1 of a run: that the environment has one fixed layout, or
// that the seeds include the validation episodes' (on which the delivered
// policy was selected); empty otherwise.
func evalNote(tr *ppo.Trainer, first, n int) string {
	if s := oneEpisodeNote(tr.Spec()); s != "" {
		return s
	}
	cfg := tr.Config()
	if v := cfg.EvalEpisodes; v > 0 && first < cfg.Seed+v && cfg.Seed < first+n {
		return fmt.Sprintf("seeds %d…%d include validation episodes (seeds %d…%d), on which the delivered policy was selected",
			first, first+n-1, cfg.Seed, cfg.Seed+v-1)
	}
	return ""
}

func runRLShow(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("rl show", "DIR [--format text|go|dot|json] [--final] [--prune full|ranges|visited|none]",
		"Prints the delivered tree policy in DIR, pruned with the observation bounds\n"+
			"(it acts exactly as the trained policy), naming observation features and actions;\n"+
			"--prune visited prunes it with the observations its greedy episodes meet instead\n"+
			"(the default where the run's prune option says so: Empty-Random's SYMPOL preset).\n\n"+deliveredHelp, stderr)
	format := fs.String("format", "text", "text (indented rules), go (Go source), dot (Graphviz) or json")
	pkg := fs.String("package", "policy", "package name of the generated Go source")
	final := finalFlag(fs)
	prune := pruneFlag(fs, "", pruneDefault)
	asJSON := fs.Bool("json", false, "the same as --format json")
	arg, err := parseOne(fs, args, "run DIR")
	if err != nil {
		return err
	}
	if err := checkPrune(*prune); err != nil {
		return err
	}
	tr, err := loadRun(arg)
	if err != nil {
		return err
	}
	actor, what, err := runPolicy(tr, *final)
	if err != nil {
		return fmt.Errorf("%s: %w", arg, err)
	}
	if *asJSON {
		*format = "json"
	}
	ta, ok := actor.(*policy.TreeActor)
	if !ok {
		return fmt.Errorf("%s: method %s has no tree to show (only sympol policies are trees)", arg, tr.Config().Method)
	}
	spec := tr.Spec()
	var pr *interpret.Tree
	var visits *env.Visits
	*prune = runPrune(tr, *prune)
	if *prune == export.PruneFull {
		pr, _, err = tr.PrunedTree(ta, ppo.PruneFull)
	} else {
		var p *export.Policy
		if p, err = runTree(tr, ta, *prune); err == nil {
			pr, visits = p.Tree, p.Visits
		}
	}
	if err != nil {
		return err
	}
	if cfg := tr.Config(); cfg.ScaleObs {
		// The policy tests scaled observations; show raw units.
		if s, ok := env.ScalingOf(cfg.Env); ok {
			pr = rawUnits(pr, s)
		}
	}
	o := &interpret.Options{Task: data.Multiclass, ClassNames: spec.ActionNames, FeatureNames: spec.FeatureNames}
	if !spec.Action.Discrete() {
		o.Task = data.Regression
	}
	v, err := interpret.NewView(pr, o)
	if err != nil {
		return err
	}
	var body []byte
	switch *format {
	case "text":
		var b strings.Builder
		fmt.Fprintf(&b, "%s policy on %s, %s: %d nodes after pruning (%s)\n", tr.Config().Method, spec.ID, what, pr.NumNodes(), *prune)
		if visits != nil {
			fmt.Fprintf(&b, "pruned with %s\n", visits)
		}
		if spec.Action.Discrete() {
			fmt.Fprintf(&b, "actions: %s\n\n", strings.Join(spec.ActionNames, ", "))
		} else {
			fmt.Fprintf(&b, "leaves give the mean action (%s); log-std %v\n\n", strings.Join(spec.ActionNames, ", "), ta.LogStd())
		}
		if n := oneEpisodeNote(spec); n != "" {
			fmt.Fprintf(&b, "note: %s\n\n", n)
		}
		b.WriteString(v.Text())
		body = []byte(b.String())
	case "go":
		if body, err = v.GoSource(*pkg); err != nil {
			return err
		}
	case "dot":
		body = []byte(v.DOT())
	case "json":
		if body, err = v.JSON(); err != nil {
			return err
		}
	default:
		return fmt.Errorf("%w: --format %q: want text, go, dot or json", errUsage, *format)
	}
	_, err = stdout.Write(body)
	return err
}

// rawUnits returns a copy of t whose thresholds are in the raw
// observation's units: the policy tests the scaled value (x − Sub)/Div ≤ τ,
// shown as x ≤ Sub + τ·Div (the same test up to float32 rounding at the
// threshold itself).
func rawUnits(t *interpret.Tree, s env.Scaling) *interpret.Tree {
	c := *t
	c.Nodes = append([]interpret.Node(nil), t.Nodes...)
	for i := range c.Nodes {
		if f := c.Nodes[i].Feature; f >= 0 && f < len(s.Div) {
			c.Nodes[i].Threshold = float32(s.Raw(f, float64(c.Nodes[i].Threshold)))
		}
	}
	return &c
}
