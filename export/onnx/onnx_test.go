package onnx

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/export"
	"github.com/gdt-ml/gdt/export/exporttest"
	"github.com/gdt-ml/gdt/interpret"
	"github.com/gdt-ml/gdt/model"
)

// withEdgeRows appends rows with an unseen category, missing values in
// every column and extreme numbers to the table.
func withEdgeRows(tab *data.Table) *data.Table {
	out := &data.Table{}
	for _, c := range tab.Columns {
		n := *c
		switch c.Kind {
		case data.Numeric:
			n.Num = append(append([]float64(nil), c.Num...), math.NaN(), -1e9, 1e9, 0)
		default:
			n.Levels = append(append([]string(nil), c.Levels...), "purple")
			n.Codes = append(append([]int32(nil), c.Codes...), data.Missing, int32(len(c.Levels)), 0, data.Missing)
		}
		out.Columns = append(out.Columns, &n)
	}
	return out
}

// inputsOf turns a table into the graph's inputs.
func inputsOf(tab *data.Table) map[string]*tensor {
	in := map[string]*tensor{}
	n := tab.NumRows()
	for _, c := range tab.Columns {
		if c.Kind == data.Numeric {
			t := newTensor(TypeDouble, []int{n, 1})
			copy(t.d, c.Num)
			in[c.Name] = t
			continue
		}
		t := newTensor(TypeString, []int{n, 1})
		for i := range t.s {
			t.s[i] = c.String(i)
		}
		in[c.Name] = t
	}
	return in
}

type exportCase struct {
	kind, protocol string
	task           data.Task
	opts           map[string]string
}

var exportCases = []exportCase{
	{"cart", "", data.Binary, nil},
	{"cart", "gt-paper", data.Multiclass, nil},
	{"cart", "", data.Regression, nil},
	{"gradtree", "", data.Binary, nil},
	{"gradtree", "gr-paper", data.Multiclass, nil},
	{"gradtree", "standard", data.Regression, nil},
	{"grande", "", data.Binary, nil},
	{"grande", "gt-paper", data.Multiclass, nil},
	{"grande", "", data.Regression, nil},
	{"grande", "none", data.Binary, map[string]string{"estimator_weights": "estimator"}},
	{"grande", "", data.Multiclass, map[string]string{"n_estimators": "200", "depth": "4"}},
}

// caseName names an export case.
func caseName(c exportCase) string {
	name := c.kind + "/" + c.task.String() + "/" + c.protocol
	for _, k := range model.OptionKeys(c.opts) {
		name += "/" + k + "=" + c.opts[k]
	}
	return name
}

func trainCase(t *testing.T, c exportCase) *model.Trained {
	t.Helper()
	ds := exporttest.Dataset(c.task, 240, 3)
	if c.opts == nil {
		return exporttest.Train(t, c.kind, c.protocol, ds)
	}
	opts := exporttest.Options(c.kind)
	for k, v := range c.opts {
		opts[k] = v
	}
	m, err := model.Train(t.Context(), ds, model.Spec{Kind: c.kind, Options: opts, Protocol: c.protocol, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestExportMatchesModel(t *testing.T) {
	for _, c := range exportCases {
		t.Run(caseName(c), func(t *testing.T) {
			m := trainCase(t, c)
			om, err := Export(m)
			if err != nil {
				t.Fatal(err)
			}
			b := om.Marshal()
			dm, err := decodeModel(b)
			if err != nil {
				t.Fatalf("decoding the export: %v", err)
			}
			if dm.IRVersion != 8 || len(dm.Opsets) != 2 || len(dm.Graph.Nodes) != len(om.Graph.Nodes) || len(dm.Graph.Inputs) != 4 {
				t.Fatalf("decoded model: IR %d, opsets %v, %d nodes, %d inputs", dm.IRVersion, dm.Opsets, len(dm.Graph.Nodes), len(dm.Graph.Inputs))
			}
			tab := withEdgeRows(exporttest.Dataset(c.task, 200, 99).X)
			want, err := m.PredictProba(tab)
			if err != nil {
				t.Fatal(err)
			}
			env, err := evaluate(&dm.Graph, inputsOf(tab))
			if err != nil {
				t.Fatal(err)
			}
			n := tab.NumRows()
			if c.task == data.Regression {
				got := env[OutputVariable]
				for i := 0; i < n; i++ {
					if got.f[i] != want.Data[i] {
						t.Fatalf("row %d: ONNX %v, model %v", i, got.f[i], want.Data[i])
					}
				}
				return
			}
			probs, labels := env[OutputProbabilities], env[OutputLabel]
			if probs == nil || labels == nil || len(probs.f) != len(want.Data) || len(labels.s) != n {
				t.Fatalf("outputs: %v %v", probs, labels)
			}
			for k := range want.Data {
				if probs.f[k] != want.Data[k] {
					t.Fatalf("row %d class %d: ONNX probability %v, model %v", k/want.Cols, k%want.Cols, probs.f[k], want.Data[k])
				}
			}
			for i, p := range model.Decide(m.Task, want) {
				if labels.s[i] != m.Classes[int(p)] {
					t.Fatalf("row %d: ONNX label %s, model %s", i, labels.s[i], m.Classes[int(p)])
				}
			}
		})
	}
}

// python returns Debian's python3 when it has the onnx module.
func python(t *testing.T) string {
	if p := pythonIfPresent(); p != "" {
		return p
	}
	t.Skip("python3 with the onnx module is not installed (Debian: apt-get install -y python3-onnx); skipping the ONNX checker")
	return ""
}

// TestONNXChecker runs onnx.checker.check_model(full_check=True) on the
// export of every case, in one python process.
func TestONNXChecker(t *testing.T) {
	py := python(t)
	dir := t.TempDir()
	var paths []string
	for _, c := range exportCases {
		m := trainCase(t, c)
		path := filepath.Join(dir, strings.ReplaceAll(caseName(c), "/", "_")+".onnx")
		if err := Write(m, path); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	script := `
import sys, onnx
bad = 0
for path in sys.argv[1:]:
    try:
        onnx.checker.check_model(onnx.load(path), full_check=True)
        print("ok", path)
    except Exception as e:
        bad += 1
        print("FAIL", path, e)
sys.exit(1 if bad else 0)
`
	out, err := exec.Command(py, append([]string{"-c", script}, paths...)...).CombinedOutput()
	if err != nil || strings.Count(string(out), "ok ") != len(paths) {
		t.Fatalf("onnx.checker: %v\n%s", err, out)
	}
}

func TestExportRejects(t *testing.T) {
	if _, err := Export(&model.Trained{}); err == nil {
		t.Fatal("an empty model was exported")
	}
}

func TestMain(m *testing.M) { os.Exit(m.Run()) }

// TestPlainTreeWithoutPipeline exports a hand-made tree over model-space
// features (the path of policy trees such as SYMPOL's): three action
// logits per leaf, no preprocessing.
func TestPlainTreeWithoutPipeline(t *testing.T) {
	leaf := func(v ...float32) interpret.Node {
		return interpret.Node{Feature: -1, Left: -1, Right: -1, Value: v}
	}
	tree := &interpret.Tree{Outputs: 3, Nodes: []interpret.Node{
		{Feature: 1, Threshold: 0.25, Left: 1, Right: 2},
		{Feature: 0, Threshold: -1.5, Left: 3, Right: 4, Depth: 1},
		leaf(0.1, 2, -1),
		leaf(3, 0, 0),
		leaf(-1, -1, 4),
	}}
	for i := 3; i < 5; i++ {
		tree.Nodes[i].Depth = 2
	}
	tree.Nodes[2].Depth = 1
	classes := []string{"left", "noop", "right"}
	p := &export.Plain{Kind: "policy", Task: data.Multiclass, Classes: classes, Features: 2, Tree: tree, Leaves: export.Logits, Identity: true}
	om, err := Build(p, "action")
	if err != nil {
		t.Fatal(err)
	}
	dm, err := decodeModel(om.Marshal())
	if err != nil {
		t.Fatal(err)
	}
	xs := []float32{-2, 0, -1.5, 0.25, -1.5000001, 0.2499999, 5, -5, 0, 0.25}
	in := newTensor(TypeFloat, []int{len(xs) / 2, 2})
	copy(in.f, xs)
	env, err := evaluate(&dm.Graph, map[string]*tensor{ModelSpaceInput: in})
	if err != nil {
		t.Fatal(err)
	}
	raw := make([]float32, 0, len(xs)/2*3)
	for i := 0; i < len(xs); i += 2 {
		l, err := tree.LeafOf(xs[i : i+2])
		if err != nil {
			t.Fatal(err)
		}
		raw = append(raw, tree.Nodes[l].Value...)
	}
	want := model.Head(data.Multiclass, raw, len(xs)/2, 3, nil)
	for k := range want.Data {
		if env[OutputProbabilities].f[k] != want.Data[k] {
			t.Fatalf("probability %d: ONNX %v, tree %v", k, env[OutputProbabilities].f[k], want.Data[k])
		}
	}
	for i, c := range model.Decide(data.Multiclass, want) {
		if env[OutputLabel].s[i] != classes[int(c)] {
			t.Fatalf("row %d: ONNX %s, tree %s", i, env[OutputLabel].s[i], classes[int(c)])
		}
	}
	if py := pythonIfPresent(); py != "" {
		path := filepath.Join(t.TempDir(), "policy.onnx")
		os.WriteFile(path, om.Marshal(), 0o644)
		if out, err := exec.Command(py, "-c", "import onnx, sys; onnx.checker.check_model(onnx.load(sys.argv[1]), full_check=True)", path).CombinedOutput(); err != nil {
			t.Fatalf("onnx.checker: %v\n%s", err, out)
		}
	}
}

func pythonIfPresent() string {
	for _, p := range []string{"/usr/bin/python3", "python3"} {
		if path, err := exec.LookPath(p); err == nil && exec.Command(path, "-c", "import onnx").Run() == nil {
			return path
		}
	}
	return ""
}
