package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gdt-ml/gdt/export"
	"github.com/gdt-ml/gdt/export/onnx"
	"github.com/gdt-ml/gdt/rl/env"
	"github.com/gdt-ml/gdt/rl/policy"
	"github.com/gdt-ml/gdt/rl/ppo"
	"github.com/gdt-ml/gdt/safefile"
)

// isPolicyRun reports whether path is a `gdt rl train` run directory or
// checkpoint rather than a model file.
func isPolicyRun(path string) bool {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		_, err := os.Stat(filepath.Join(path, rlCheckpoint))
		return err == nil
	}
	return strings.HasSuffix(path, ".gob")
}

// pruneHelp describes --prune's modes (export, rl show, rl eval).
const pruneHelp = "full (spec §1.7: exact greedy action within the observation bounds), " +
	"ranges (bounds and ancestor rules only: exact logits within the bounds), " +
	"visited (pruned with the observations of the policy's greedy episodes from the validation seeds, " +
	"until every start state of a task with a finite set was drawn: exact greedy action on those observations; " +
	"the output says whether they are every observation the policy meets on the task) " +
	"or none (the whole tree: exact everywhere)"

// pruneDefault is what an empty --prune means on show and export.
const pruneDefault = "; default: the run's prune option (visited in MiniGrid-Empty-Random-6x6's SYMPOL preset, full elsewhere)"

// runPrune returns the pruning mode prune names or, with "", the run's
// (its prune option, ppo.Config.Prune; full where unset).
func runPrune(tr *ppo.Trainer, prune string) string {
	if prune == "" {
		prune = tr.Config().Prune
	}
	if prune == "" {
		prune = export.PruneFull
	}
	return prune
}

// pruneFlag declares --prune (default empty), its help pruneHelp between
// what and tail.
func pruneFlag(fs *flag.FlagSet, what, tail string) *string {
	return fs.String("prune", "", what+pruneHelp+tail)
}

// checkPrune rejects an unknown --prune mode ("" is the default).
func checkPrune(prune string) error {
	switch prune {
	case "", export.PruneFull, export.PruneRanges, export.PruneNone, export.PruneVisited:
		return nil
	}
	return fmt.Errorf("%w: --prune %q: want %s, %s, %s or %s", errUsage, prune, export.PruneFull, export.PruneRanges, export.PruneVisited, export.PruneNone)
}

// runTree returns policy a of run tr in exportable form, its tree pruned as
// prune says; for export.PruneVisited with the observations of its greedy
// episodes from the run's validation seeds (ppo.Trainer.Visits). The tree reads
// the observations as the policy does (scaled under ScaleObs; Scaling is
// left unset).
func runTree(tr *ppo.Trainer, a policy.Actor, prune string) (*export.Policy, error) {
	if prune != export.PruneVisited {
		return export.PolicyOf(a, tr.Spec(), prune)
	}
	v, err := tr.Visits(a)
	if err != nil {
		return nil, err
	}
	return export.PolicyOfVisited(a, tr.Spec(), v)
}

// exportPolicy writes the delivered tree policy of a run (with final, the
// final one) as ONNX.
func exportPolicy(path, out, prune string, final, asJSON bool, stdout io.Writer) error {
	if err := checkPrune(prune); err != nil {
		return err
	}
	tr, err := loadRun(path)
	if err != nil {
		return err
	}
	prune = runPrune(tr, prune)
	cfg := tr.Config()
	actor, what, err := runPolicy(tr, final)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	p, err := runTree(tr, actor, prune)
	if err != nil {
		return fmt.Errorf("%s: %s policy: %w", path, cfg.Method, err)
	}
	p.Method, p.Steps = cfg.Method, tr.Step()
	if b, ok := tr.Best(); ok && !final {
		p.Steps = b.Step
	}
	if cfg.ScaleObs {
		s, ok := env.ScalingOf(cfg.Env)
		if !ok {
			return fmt.Errorf("%s: the policy was trained on scaled observations of %s, which has no registered scaling", path, cfg.Env)
		}
		p.Scaling = &s
	}
	m, err := onnx.BuildPolicy(p)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	b := m.Marshal()
	if err := safefile.WriteBytes(out, b); err != nil {
		return err
	}
	kind := "discrete"
	if !p.Discrete {
		kind = "continuous"
	}
	if asJSON {
		res := map[string]any{"path": out, "kind": cfg.Method + "-policy", "env": cfg.Env, "actions": kind,
			"policy": what, "steps": p.Steps, "prune": prune, "tree_nodes": p.Tree.NumNodes(), "format": "onnx", "operators": len(m.Graph.Nodes), "bytes": len(b)}
		if p.Visits != nil {
			res["visits"] = visitsJSON(p.Visits)
		}
		return json.NewEncoder(stdout).Encode(res)
	}
	fmt.Fprintf(stdout, "wrote %s: %s policy for %s (%s actions), %s, %d-node tree (pruning %s), %d operators, %d bytes\n",
		out, cfg.Method, cfg.Env, kind, what, p.Tree.NumNodes(), prune, len(m.Graph.Nodes), len(b))
	if p.Visits != nil {
		fmt.Fprintf(stdout, "pruned with %s\n", p.Visits)
	}
	return nil
}

// visitsJSON describes the observations of a pruning by visited states in
// --json output.
func visitsJSON(v *env.Visits) map[string]any {
	return map[string]any{"observations": v.Rows, "steps": v.Steps, "episodes": v.Episodes, "first_seed": v.FirstSeed,
		"start_states": v.Starts, "start_states_seen": v.StartsSeen, "complete": v.Complete(), "covers": v.String()}
}
