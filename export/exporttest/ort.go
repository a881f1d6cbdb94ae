package exporttest

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// ORT returns the node program and the node_modules folder holding
// onnxruntime-node (GDT_ORT_NODE_MODULES; .ci/run installs it), and skips
// the test when either is missing.
func ORT(t testing.TB) (node, modules string) {
	t.Helper()
	modules = os.Getenv("GDT_ORT_NODE_MODULES")
	node, err := exec.LookPath("node")
	if modules == "" || err != nil {
		t.Skip("set GDT_ORT_NODE_MODULES to a node_modules folder with onnxruntime-node (and install node) to compare with ONNX Runtime")
	}
	return node, modules
}

// ORTScript runs ONNX Runtime (the onnxruntime-node package) on the cases
// listed in a JSON file and prints every output.
const ORTScript = `
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

// RunORT writes cases as JSON and the node script into dir, runs the
// script with node (argv: node_modules folder, cases file) and returns its
// outputs, one map of output name to values per case.
func RunORT(t testing.TB, node, mods, dir, js string, cases any) []map[string][]any {
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
