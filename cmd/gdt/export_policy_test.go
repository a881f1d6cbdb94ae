package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportPolicy exports a tiny SYMPOL run (directory and checkpoint
// file) as ONNX and checks the refusals.
func TestExportPolicy(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "run")
	if _, errOut, code := gdt(t, "rl", "train", "--env", "CartPole-v1", "--steps", "1500", "--out", run, "--quiet",
		"--set", "critic_width=16", "--set", "n_steps=128"); code != 0 {
		t.Fatalf("rl train: exit %d: %s", code, errOut)
	}
	onnxPath := filepath.Join(dir, "policy.onnx")
	out, errOut, code := gdt(t, "export", run, "--format", "onnx", "--out", onnxPath)
	if code != 0 || !strings.Contains(out, "sympol policy for CartPole-v1 (discrete actions)") {
		t.Fatalf("export: exit %d: %s %s", code, out, errOut)
	}
	if st, err := os.Stat(onnxPath); err != nil || st.Size() < 200 {
		t.Fatalf("ONNX file: %v", err)
	}
	out, errOut, code = gdt(t, "export", filepath.Join(run, rlCheckpoint), "--out", onnxPath, "--prune", "none", "--json")
	if code != 0 {
		t.Fatalf("export --json: exit %d: %s", code, errOut)
	}
	var res map[string]any
	if err := json.Unmarshal([]byte(out), &res); err != nil || res["kind"] != "sympol-policy" || res["tree_nodes"].(float64) != 255 || res["prune"] != "none" {
		t.Errorf("export --json: %v %s", err, out)
	}
	if py, err := exec.LookPath("/usr/bin/python3"); err == nil && exec.Command(py, "-c", "import onnx").Run() == nil {
		if b, err := exec.Command(py, "-c", "import onnx, sys; onnx.checker.check_model(onnx.load(sys.argv[1]), full_check=True)", onnxPath).CombinedOutput(); err != nil {
			t.Errorf("onnx.checker: %v\n%s", err, b)
		}
	}

	mlp := filepath.Join(dir, "mlp")
	if _, errOut, code := gdt(t, "rl", "train", "--env", "CartPole-v1", "--method", "mlp", "--steps", "500", "--out", mlp, "--quiet"); code != 0 {
		t.Fatalf("rl train mlp: exit %d: %s", code, errOut)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"export", run, "--out", onnxPath, "--prune", "sometimes"}, "--prune"},
		{[]string{"export", mlp, "--out", onnxPath}, "only SYMPOL"},
		{[]string{"export", filepath.Join(dir, "nope.gob"), "--out", onnxPath}, "nope.gob"},
	} {
		if _, errOut, code := gdt(t, c.args...); code == 0 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, want an error naming %q: %s", c.args, code, c.want, errOut)
		}
	}
}
