package onnx

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/export/exporttest"
	"github.com/gdt-ml/gdt/model"
)

// ortScript runs ONNX Runtime (the onnxruntime-node package) on the cases
// listed in a JSON file and prints every output.
const ortScript = `
const ort = require(require('path').join(process.argv[2], 'onnxruntime-node'));
const fs = require('fs');
(async () => {
  const cases = JSON.parse(fs.readFileSync(process.argv[3]));
  const out = [];
  for (const c of cases) {
    const s = await ort.InferenceSession.create(c.model);
    const feeds = {};
    for (const [name, col] of Object.entries(c.inputs)) {
      const n = col.values.length;
      if (col.type === 'string') feeds[name] = new ort.Tensor('string', col.values, [n, 1]);
      else feeds[name] = new ort.Tensor('float64', Float64Array.from(col.values.map(v => v === null ? NaN : v)), [n, 1]);
    }
    const r = await s.run(feeds);
    const o = {};
    for (const [k, v] of Object.entries(r)) o[k] = Array.from(v.data);
    out.push(o);
  }
  process.stdout.write(JSON.stringify(out));
})().catch(e => { console.error(e); process.exit(1); });
`

// TestONNXRuntime runs the exports in ONNX Runtime and compares its
// outputs with gdt's predictions. It needs node and an installed
// onnxruntime-node package: set GDT_ORT_NODE_MODULES to the node_modules
// folder that holds it (e.g. after `npm install --ignore-scripts
// onnxruntime-node` in some folder); it is skipped otherwise.
func TestONNXRuntime(t *testing.T) {
	mods := os.Getenv("GDT_ORT_NODE_MODULES")
	node, err := exec.LookPath("node")
	if mods == "" || err != nil {
		t.Skip("set GDT_ORT_NODE_MODULES to a node_modules folder with onnxruntime-node (and install node) to compare with ONNX Runtime")
	}
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
	results := runORT(t, node, mods, dir, ortScript, cases)
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

// runORT writes cases as JSON and the node script into dir, runs the
// script with node (argv: node_modules folder, cases file) and returns its
// outputs, one map of output name to values per case.
func runORT(t *testing.T, node, mods, dir, js string, cases any) []map[string][]any {
	t.Helper()
	spec := filepath.Join(dir, "cases.json")
	b, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "ort.js")
	if err := os.WriteFile(spec, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(script, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, script, mods, spec).Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("onnxruntime: %v\n%s", err, ee.Stderr)
		}
		t.Fatal(err)
	}
	var results []map[string][]any
	if err := json.Unmarshal(out, &results); err != nil {
		t.Fatal(err)
	}
	return results
}
