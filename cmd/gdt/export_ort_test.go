package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/model"
)

// exportORTScript runs one ONNX file in ONNX Runtime (onnxruntime-node) on
// float64 columns and prints its outputs as JSON.
const exportORTScript = `
const ort = require(require('path').join(process.argv[2], 'onnxruntime-node'));
const fs = require('fs');
(async () => {
  const c = JSON.parse(fs.readFileSync(process.argv[3]));
  const s = await ort.InferenceSession.create(c.model);
  const feeds = {};
  for (const [name, vals] of Object.entries(c.inputs)) {
    feeds[name] = new ort.Tensor('float64', Float64Array.from(vals), [vals.length, 1]);
  }
  const r = await s.run(feeds);
  const o = {};
  for (const [k, v] of Object.entries(r)) o[k] = Array.from(v.data);
  process.stdout.write(JSON.stringify(o));
})().catch(e => { console.error(e); process.exit(1); });
`

// TestExportONNXRuntime is issue 21 item 8 through the CLI: a model trained
// by `gdt train` and written by `gdt export --format onnx` gives, in ONNX
// Runtime, the labels and probabilities gdt predicts. .ci/run installs
// onnxruntime-node and sets GDT_ORT_NODE_MODULES; elsewhere it is skipped.
func TestExportONNXRuntime(t *testing.T) {
	mods := os.Getenv("GDT_ORT_NODE_MODULES")
	node, err := exec.LookPath("node")
	if mods == "" || err != nil {
		t.Skip("set GDT_ORT_NODE_MODULES to a node_modules folder with onnxruntime-node (and install node) to run the exported file in ONNX Runtime")
	}
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("x1,x2,x3,y\n")
	for i := 0; i < 240; i++ {
		x1 := float64(i%37)/3 - 6
		x2 := float64((i*7)%29)/2.5 - 5
		x3 := float64((i*13)%41) / 4
		y := "no"
		if x1+0.5*x2 > 0.3 || x3 > 8.5 {
			y = "yes"
		}
		fmt.Fprintf(&b, "%g,%g,%g,%s\n", x1, x2, x3, y)
	}
	csv := filepath.Join(dir, "d.csv")
	if err := os.WriteFile(csv, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"gradtree", "cart"} {
		m := filepath.Join(dir, kind+".json")
		if _, e, code := gdt(t, "train", "--data", csv, "--target", "y", "--model", kind, "--out", m, "--quiet"); code != 0 {
			t.Fatalf("train %s: exit %d: %s", kind, code, e)
		}
		onnxPath := filepath.Join(dir, kind+".onnx")
		if _, e, code := gdt(t, "export", m, "--format", "onnx", "--out", onnxPath); code != 0 {
			t.Fatalf("export %s: exit %d: %s", kind, code, e)
		}
		tm, err := model.Load(m)
		if err != nil {
			t.Fatal(err)
		}
		tab, err := data.ReadFile(csv, data.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		inputs := map[string][]float64{}
		for _, c := range tab.Columns {
			if c.Name != "y" {
				inputs[c.Name] = c.Num
			}
		}
		spec, _ := json.Marshal(map[string]any{"model": onnxPath, "inputs": inputs})
		specPath, script := filepath.Join(dir, kind+"-case.json"), filepath.Join(dir, "ort.js")
		if err := os.WriteFile(specPath, spec, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(script, []byte(exportORTScript), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(node, script, mods, specPath).Output()
		if err != nil {
			t.Fatalf("%s: onnxruntime: %v", kind, err)
		}
		var got map[string][]any
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatal(err)
		}
		want, err := tm.PredictProba(tab)
		if err != nil {
			t.Fatal(err)
		}
		probs, labels := got["probabilities"], got["label"]
		if len(probs) != len(want.Data) || len(labels) != tab.NumRows() {
			t.Fatalf("%s: ONNX Runtime gave %d probabilities and %d labels, want %d and %d", kind, len(probs), len(labels), len(want.Data), tab.NumRows())
		}
		diff := 0
		for k, v := range probs {
			if float32(v.(float64)) != want.Data[k] {
				diff++
			}
		}
		wrong := 0
		for r, p := range model.Decide(tm.Task, want) {
			if labels[r].(string) != tm.Classes[int(p)] {
				wrong++
			}
		}
		t.Logf("%s: %d of %d probabilities differ from gdt, %d of %d labels", kind, diff, len(probs), wrong, len(labels))
		if diff > 0 || wrong > 0 {
			t.Errorf("%s: the exported file disagrees with gdt in ONNX Runtime", kind)
		}
	}
}
