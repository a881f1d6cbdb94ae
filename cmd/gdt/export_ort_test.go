package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/export/exporttest"
	"github.com/gdt-ml/gdt/model"
)

// TestExportONNXRuntime is issue 21 item 8 through the CLI: a model trained
// by `gdt train` and written by `gdt export --format onnx` gives, in ONNX
// Runtime, the labels and probabilities gdt predicts. .ci/run installs
// onnxruntime-node and sets GDT_ORT_NODE_MODULES; elsewhere it is skipped.
func TestExportONNXRuntime(t *testing.T) {
	node, mods := exporttest.ORT(t)
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
		type col struct {
			Type   string    `json:"type"`
			Values []float64 `json:"values"`
		}
		inputs := map[string]col{}
		for _, c := range tab.Columns {
			if c.Name != "y" {
				inputs[c.Name] = col{"double", c.Num}
			}
		}
		got := exporttest.RunORT(t, node, mods, dir, exporttest.ORTScript, []any{map[string]any{"model": onnxPath, "inputs": inputs}})[0]
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
