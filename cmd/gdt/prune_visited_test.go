package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/export"
	"github.com/gdt-ml/gdt/rl/ppo"
)

// TestPruneVisitedCLI prunes a tiny Empty-Random run's delivered tree by
// its visited states in rl eval, rl show and export (by default: its
// preset's prune option; result.json counts that tree): the episodes cover
// all 60 start states, the pruned tree is no larger than today's pruning
// and plays the test episodes with the policy's returns; on CartPole
// (continuous starts) the output says the guarantee is only for the
// recorded observations.
func TestPruneVisitedCLI(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "er")
	if _, errOut, code := gdt(t, "rl", "train", "--env", "MiniGrid-Empty-Random-6x6-v0", "--steps", "3000", "--out", run, "--quiet",
		"--set", "n_steps=128"); code != 0 {
		t.Fatalf("rl train: exit %d: %s", code, errOut)
	}
	evalJSON := func(args ...string) map[string]any {
		t.Helper()
		out, errOut, code := gdt(t, append([]string{"rl", "eval", run, "--json"}, args...)...)
		if code != 0 {
			t.Fatalf("rl eval %v: exit %d: %s", args, code, errOut)
		}
		var res map[string]any
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		return res
	}
	actor, full, vis := evalJSON(), evalJSON("--prune", "full"), evalJSON("--prune", "visited")
	v, _ := vis["visits"].(map[string]any)
	if v == nil || v["complete"] != true || v["start_states"].(float64) != 60 || v["start_states_seen"].(float64) != 60 {
		t.Fatalf("visits: %v", vis["visits"])
	}
	if vis["tree_nodes"].(float64) > full["tree_nodes"].(float64) {
		t.Errorf("visited pruning kept %v nodes, today's %v", vis["tree_nodes"], full["tree_nodes"])
	}
	for _, r := range []map[string]any{full, vis} {
		if r["test_return"] != actor["test_return"] {
			t.Errorf("%v-pruned tree: test return %v, the policy's %v", r["prune"], r["test_return"], actor["test_return"])
		}
	}
	for _, args := range [][]string{{"--prune", "visited"}, nil} { // Empty-Random's preset prunes by visited states
		out, errOut, code := gdt(t, append([]string{"rl", "show", run}, args...)...)
		if code != 0 || !strings.Contains(out, "(visited)") || !strings.Contains(out, "start from all 60 start states of the task") ||
			!strings.Contains(out, fmt.Sprintf(": %v nodes after pruning", vis["tree_nodes"])) {
			t.Errorf("rl show %v: exit %d: %s %s", args, code, out, errOut)
		}
	}
	var sum rlSummary
	if b, err := os.ReadFile(filepath.Join(run, "result.json")); err != nil || json.Unmarshal(b, &sum) != nil || float64(sum.TreeNodes) != vis["tree_nodes"] {
		t.Errorf("result.json: tree_nodes %d, want the visited-pruned tree's %v (%v)", sum.TreeNodes, vis["tree_nodes"], err)
	}
	out, errOut, code := gdt(t, "export", run, "--out", filepath.Join(dir, "er.onnx"), "--json")
	var res map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil || res["tree_nodes"] != vis["tree_nodes"] || res["prune"] != "visited" {
		t.Errorf("export --prune visited: exit %d: %s %s", code, out, errOut)
	}

	cp := filepath.Join(dir, "cp")
	if _, errOut, code := gdt(t, "rl", "train", "--env", "CartPole-v1", "--steps", "1500", "--out", cp, "--quiet",
		"--set", "critic_width=16", "--set", "n_steps=128"); code != 0 {
		t.Fatalf("rl train: exit %d: %s", code, errOut)
	}
	out, errOut, code = gdt(t, "export", cp, "--out", filepath.Join(dir, "cp.onnx"), "--prune", "visited")
	if code != 0 || !strings.Contains(out, "not a known finite set): only these observations") {
		t.Errorf("export CartPole --prune visited: exit %d: %s %s", code, out, errOut)
	}
	if _, errOut, code := gdt(t, "rl", "show", cp, "--prune", "often"); code == 0 || !strings.Contains(errOut, "--prune") {
		t.Errorf("rl show --prune often: exit %d: %s", code, errOut)
	}
}

// TestPruneWords checks that the run option's words (ppo.Config.Prune) are
// export's modes of the same name, which runPrune hands on unchanged.
func TestPruneWords(t *testing.T) {
	if ppo.PruneFull != export.PruneFull || ppo.PruneVisited != export.PruneVisited {
		t.Errorf("ppo's prune words %q, %q; export's %q, %q", ppo.PruneFull, ppo.PruneVisited, export.PruneFull, export.PruneVisited)
	}
}
