package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gdt-ml/gdt/export"
	"github.com/gdt-ml/gdt/export/onnx"
	"github.com/gdt-ml/gdt/rl/env"
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

// exportPolicy writes the delivered tree policy of a run (with final, the
// final one) as ONNX.
func exportPolicy(path, out, prune string, final, asJSON bool, stdout io.Writer) error {
	switch prune {
	case export.PruneFull, export.PruneRanges, export.PruneNone:
	default:
		return fmt.Errorf("%w: --prune %q: want %s, %s or %s", errUsage, prune, export.PruneFull, export.PruneRanges, export.PruneNone)
	}
	tr, err := loadRun(path)
	if err != nil {
		return err
	}
	cfg := tr.Config()
	actor, what, err := runPolicy(tr, final)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	p, err := export.PolicyOf(actor, tr.Spec(), prune)
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
		return json.NewEncoder(stdout).Encode(map[string]any{"path": out, "kind": cfg.Method + "-policy", "env": cfg.Env, "actions": kind,
			"policy": what, "steps": p.Steps, "prune": prune, "tree_nodes": p.Tree.NumNodes(), "format": "onnx", "operators": len(m.Graph.Nodes), "bytes": len(b)})
	}
	fmt.Fprintf(stdout, "wrote %s: %s policy for %s (%s actions), %s, %d-node tree (pruning %s), %d operators, %d bytes\n",
		out, cfg.Method, cfg.Env, kind, what, p.Tree.NumNodes(), prune, len(m.Graph.Nodes), len(b))
	return nil
}
