package onnx

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/export/exporttest"
	"github.com/gdt-ml/gdt/model"
)

// TestONNXRuntime runs the exports in ONNX Runtime and compares its
// outputs with gdt's predictions. It needs node and an installed
// onnxruntime-node package: set GDT_ORT_NODE_MODULES to the node_modules
// folder that holds it (e.g. after `npm install --ignore-scripts
// onnxruntime-node` in some folder); it is skipped otherwise.
func TestONNXRuntime(t *testing.T) {
	node, mods := exporttest.ORT(t)
	dir := t.TempDir()
	type col struct {
		Type   string `json:"type"`
		Values []any  `json:"values"`
	}
	type ortCase struct {
		Model  string         `json:"model"`
		Inputs map[string]col `json:"inputs"`
	}
	var cases []ortCase
	var models []*model.Trained
	var tables []*data.Table
	for i, c := range exportCases {
		m := trainCase(t, c)
		path := filepath.Join(dir, "m"+string(rune('a'+i))+".onnx")
		if err := Write(m, path); err != nil {
			t.Fatal(err)
		}
		tab := withEdgeRows(exporttest.Dataset(c.task, 200, 99).X)
		oc := ortCase{Model: path, Inputs: map[string]col{}}
		for _, cl := range tab.Columns {
			var v col
			for r := 0; r < tab.NumRows(); r++ {
				if cl.Kind == data.Numeric {
					v.Type = "double"
					if math.IsNaN(cl.Num[r]) {
						v.Values = append(v.Values, nil)
					} else {
						v.Values = append(v.Values, cl.Num[r])
					}
				} else {
					v.Type = "string"
					v.Values = append(v.Values, cl.String(r))
				}
			}
			oc.Inputs[cl.Name] = v
		}
		cases = append(cases, oc)
		models, tables = append(models, m), append(tables, tab)
	}
	results := exporttest.RunORT(t, node, mods, dir, exporttest.ORTScript, cases)
	for i, c := range exportCases {
		m, tab, r := models[i], tables[i], results[i]
		want, _ := m.PredictProba(tab)
		key := OutputProbabilities
		if c.task == data.Regression {
			key = OutputVariable
		}
		got := r[key]
		if len(got) != len(want.Data) {
			t.Fatalf("case %d: %d outputs, want %d", i, len(got), len(want.Data))
		}
		diff, maxRel := 0, 0.0
		for k, v := range got {
			g := float32(v.(float64))
			if g != want.Data[k] {
				diff++
				maxRel = math.Max(maxRel, math.Abs(float64(g-want.Data[k]))/math.Max(1e-30, math.Abs(float64(want.Data[k]))))
			}
		}
		labels := 0
		if c.task != data.Regression {
			for k, p := range model.Decide(m.Task, want) {
				if r[OutputLabel][k].(string) != m.Classes[int(p)] {
					labels++
				}
			}
		}
		t.Logf("%s: %d of %d outputs differ from gdt (max relative difference %.2g), %d labels differ", caseName(c), diff, len(got), maxRel, labels)
		if labels > 0 || maxRel > 1e-6 {
			t.Errorf("%s %s: ONNX Runtime disagrees with gdt", c.kind, c.task)
		}
	}
}
