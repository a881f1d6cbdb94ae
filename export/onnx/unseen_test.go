package onnx

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/export"
	"github.com/gdt-ml/gdt/export/exporttest"
	"github.com/gdt-ml/gdt/interpret"
	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/rl/policy"
)

// unseenRows returns test rows of the exporttest schema with unseen levels
// ("purple", "XL") in both categorical columns, alone and together, with
// missing values and with training levels.
func unseenRows() *data.Table {
	tab := withEdgeRows(exporttest.Dataset(data.Binary, 80, 99).X)
	n := tab.NumRows()
	for _, c := range tab.Columns {
		if c.Kind != data.Categorical {
			continue
		}
		unseen := int32(slices.Index(c.Levels, "purple"))
		if unseen < 0 {
			c.Levels = append(c.Levels, "XL")
			unseen = int32(len(c.Levels) - 1)
		}
		for i := 0; i < n; i += 3 { // every third row: an unseen level
			c.Codes[i] = unseen
		}
	}
	return tab
}

// jsonLeaf routes raw row i of tab down a JSON rendering by its stated raw
// conditions (Condition.Raw): numeric "v ≤ Threshold" with missing values
// where MissingLeft says; categorical levels by LeftLevels/RightLevels, an
// unseen level where UnseenLeft says, a missing value where MissingLeft
// says.
func jsonLeaf(t *testing.T, n *interpret.JSONNode, tab *data.Table, i int) *interpret.JSONNode {
	for n.Condition != nil {
		r := n.Condition.Raw
		col := tab.Col(r.Column)
		var left bool
		switch {
		case col.IsMissing(i):
			left = r.MissingLeft
		case r.Numeric:
			left = col.Num[i] <= r.Threshold
		case slices.Contains(r.LeftLevels, col.String(i)):
			left = true
		case slices.Contains(r.RightLevels, col.String(i)):
			left = false
		default:
			left = r.UnseenLeft
		}
		// the side unseen levels go is marked in the stated condition
		if !r.Numeric {
			side := n.Condition.False
			if r.UnseenLeft {
				side = n.Condition.True
			}
			if !strings.Contains(side, "or unseen") && !strings.Contains(side, "!=") && !strings.Contains(side, "is an unseen level") {
				t.Fatalf("node %d: unseen levels go %v but %q does not say so", n.ID, map[bool]string{true: "left", false: "right"}[r.UnseenLeft], side)
			}
		}
		if left {
			n = n.Left
		} else {
			n = n.Right
		}
	}
	return n
}

// conditionsOf collects the conditions of a JSON tree.
func conditionsOf(n *interpret.JSONNode, out []string) []string {
	if n == nil || n.Condition == nil {
		return out
	}
	out = append(out, n.Condition.True)
	return conditionsOf(n.Right, conditionsOf(n.Left, out))
}

// TestUnseenLevelsAgree checks the unseen-level rule end to end: for every
// kind, on rows with unseen levels (and missing values), the model's
// prediction, the route the JSON rendering states (its raw conditions),
// the generated Go code (compiled and run) and the ONNX graph (evaluated
// by the test evaluator; ort_test.go runs ONNX Runtime on it when
// present) give the same class and probability; text, DOT and SVG show
// the same conditions, whose categorical sides say where unseen levels
// go. Every kind renders through `gdt show`'s Render: GRANDE's text,
// JSON, DOT and SVG show its most weighted trees, pruned, its generated Go
// the whole ensemble; a random forest renders as a text summary and as Go
// (the whole forest), and has no ONNX export. SYMPOL policies read
// observations, not categories: their generated Go and ONNX are checked
// against the actor in policy_test.go and rl/policy.
func TestUnseenLevelsAgree(t *testing.T) {
	goBin := goTool(t)
	cases := []exportCase{
		{"gradtree", "gt-paper", data.Binary, nil}, // leave-one-out with the rows' own targets
		{"gradtree", "gr-paper", data.Binary, nil}, // ordinal and one-hot
		{"grande", "", data.Binary, nil},
		{"grande", "gt-paper", data.Binary, map[string]string{"estimator_weights": "estimator"}},
		{"cart", "", data.Binary, nil},
		{"cart", "gr-paper", data.Multiclass, nil},
		{"random-forest", "gt-paper", data.Binary, nil},
		{"gradtree", "", data.Regression, nil},
		{"grande", "gr-paper", data.Regression, nil},
		{"cart", "", data.Regression, nil},
		{"random-forest", "", data.Regression, nil},
	}
	tab := unseenRows()
	n := tab.NumRows()
	dir := t.TempDir()
	write := func(name, src string) { writeFile(t, dir, name, []byte(src)) }
	type want struct {
		label string
		proba float32
	}
	wants := make([][]want, len(cases))
	for k, c := range cases {
		m := trainCase(t, c)
		proba, err := m.PredictProba(tab)
		if err != nil {
			t.Fatal(err)
		}
		if c.task == data.Regression {
			for i := 0; i < n; i++ {
				wants[k] = append(wants[k], want{"-", proba.Data[i]})
			}
		} else {
			decided := model.Decide(m.Task, proba)
			for i := 0; i < n; i++ {
				cl := int(decided[i])
				wants[k] = append(wants[k], want{m.Classes[cl], proba.Data[i*proba.Cols+cl]})
			}
		}
		name := caseName(c)
		// ONNX (random forests have no ONNX export)
		var env map[string]*tensor
		if c.kind != "random-forest" {
			om, err := Export(m)
			if err != nil {
				t.Fatal(err)
			}
			if env, err = evaluate(&om.Graph, inputsOf(tab)); err != nil {
				t.Fatal(err)
			}
		}
		for i := 0; i < n && env != nil; i++ {
			w := wants[k][i]
			if c.task == data.Regression {
				if env[OutputVariable].f[i] != w.proba {
					t.Errorf("%s row %d: ONNX %v, model %v", name, i, env[OutputVariable].f[i], w.proba)
				}
				continue
			}
			if env[OutputLabel].s[i] != w.label || env[OutputProbabilities].f[i*proba.Cols+slices.Index(m.Classes, w.label)] != w.proba {
				t.Errorf("%s row %d: ONNX %s, model %s (p = %v)", name, i, env[OutputLabel].s[i], w.label, w.proba)
			}
		}
		// renderings and generated Go
		var text, dot, svg, src []byte
		var js []byte
		{
			render := func(f string) []byte {
				b, err := m.Render(f)
				if err != nil {
					t.Fatalf("%s: show --format %s: %v", name, f, err)
				}
				return b
			}
			text, src = render("text"), render("go")
			if c.kind != "random-forest" { // a forest renders as text (a summary) and go
				dot, svg, js = render("dot"), render("svg"), render("json")
			}
			src = []byte(strings.Replace(string(src), "package model", "package m"+strconv.Itoa(k), 1))
		}
		var roots []*interpret.JSONNode
		switch c.kind {
		case "random-forest":
		case "grande":
			var s struct {
				TopTrees []struct{ Tree interpret.JSONTree } `json:"top_trees"`
			}
			if err := json.Unmarshal(js, &s); err != nil {
				t.Fatal(err)
			}
			for _, tt := range s.TopTrees {
				roots = append(roots, tt.Tree.Root)
			}
		default:
			var jt interpret.JSONTree
			if err := json.Unmarshal(js, &jt); err != nil {
				t.Fatal(err)
			}
			roots = append(roots, jt.Root)
			// the stated route gives the prediction
			for i := 0; i < n; i++ {
				leaf := jsonLeaf(t, jt.Root, tab, i)
				w := wants[k][i]
				if c.task == data.Regression {
					if got := leaf.Outcome.Values[0]; float32(got) != w.proba {
						t.Errorf("%s row %d: JSON route to node %d says %v, model %v", name, i, leaf.ID, got, w.proba)
					}
					continue
				}
				if leaf.Outcome.Label != w.label || float32(leaf.Outcome.Proba) != w.proba {
					t.Errorf("%s row %d: JSON route to node %d says %s (p = %v), model %s (p = %v)", name, i, leaf.ID, leaf.Outcome.Label, leaf.Outcome.Proba, w.label, w.proba)
				}
			}
		}
		for r, root := range roots {
			for i := 0; i < n; i++ {
				jsonLeaf(t, root, tab, i) // checks the unseen side is marked
			}
			shown := map[string][]byte{"text": text, "dot": dot, "svg": svg}
			if r > 0 { // GRANDE draws its most weighted tree only
				shown = map[string][]byte{"text": text}
			}
			for _, cond := range conditionsOf(root, nil) {
				for f, b := range shown {
					s := string(b)
					if f == "svg" {
						s = strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&", "&quot;", `"`).Replace(s)
					}
					if !strings.Contains(s, cond) {
						t.Errorf("%s: the %s rendering lacks the condition %q", name, f, cond)
					}
				}
			}
		}
		write(filepath.Join("m"+strconv.Itoa(k), "model.go"), string(src))
	}
	// one program runs every generated package on every row
	rows := make([]map[string]any, n)
	for i := range rows {
		rows[i] = map[string]any{}
		for _, c := range tab.Columns {
			switch {
			case c.Kind == data.Numeric && math.IsNaN(c.Num[i]):
				rows[i][c.Name] = nil // NaN
			case c.Kind == data.Numeric:
				rows[i][c.Name] = c.Num[i]
			default:
				rows[i][c.Name] = c.String(i)
			}
		}
	}
	calls := make([]string, len(cases))
	for k, c := range cases {
		calls[k] = fmt.Sprintf("l, p := m%d.Classify(x)", k)
		switch {
		case c.task == data.Regression && (c.kind == "grande" || c.kind == "random-forest"):
			calls[k] = fmt.Sprintf("l, p := \"-\", m%d.Predict(x)[0]", k)
		case c.task == data.Regression:
			calls[k] = fmt.Sprintf("l, p := \"-\", m%d.Predict(x)", k)
		}
	}
	out := runGenerated(t, goBin, dir, calls, rows)
	lines := out
	if len(lines) != n*len(cases) {
		t.Fatalf("the generated code printed %d lines, want %d", len(lines), n*len(cases))
	}
	for j, line := range lines {
		i, k := j/len(cases), j%len(cases)
		f := strings.Fields(line)
		if len(f) != 3 || f[0] != strconv.Itoa(k) {
			t.Fatalf("line %q", line)
		}
		p, err := strconv.ParseFloat(f[2], 64)
		if err != nil {
			t.Fatal(err)
		}
		w := wants[k][i]
		// ensembles' generated code sums with the predictor's tables and
		// single trees return the head's float64 value: equal to the
		// model's float32 output once rounded to float32
		if f[1] != w.label || float32(p) != w.proba {
			t.Errorf("%s row %d: generated Go %s (p = %v), model %s (p = %v)", caseName(cases[k]), i, f[1], p, w.label, w.proba)
		}
	}
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// writeFile writes dir/name, making its folder.
func writeFile(t *testing.T, dir, name string, b []byte) {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// goTool returns the go command for a test that trains models and
// compiles generated code; it skips the test under -short or without a
// toolchain.
func goTool(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("trains models and compiles generated code (-short)")
	}
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	if p := filepath.Join(runtime.GOROOT(), "bin", "go"); fileExists(p) {
		return p
	}
	t.Skip("no go toolchain: cannot compile the generated code")
	return ""
}

// runGenerated runs, in dir (holding generated packages m0, m1, … with
// an Input struct each), a program that fills package k's Input from every
// row (by the fields' json tags; a null or absent number is NaN) and runs
// calls[k] — a statement defining l (a string) and p (a float64) — and
// returns the printed lines "k l p", row by row and package by package.
func runGenerated(t *testing.T, goBin, dir string, calls []string, rows []map[string]any) []string {
	t.Helper()
	write := func(name, src string) { writeFile(t, dir, name, []byte(src)) }
	write("go.mod", "module gen\n\ngo 1.21\n")
	rowsJSON, err := json.Marshal(rows)
	if err != nil {
		t.Fatal(err)
	}
	write("rows.json", string(rowsJSON))
	var main strings.Builder
	main.WriteString("package main\n\nimport (\n\t\"encoding/json\"\n\t\"fmt\"\n\t\"math\"\n\t\"os\"\n\t\"reflect\"\n\t\"strconv\"\n")
	for k := range calls {
		fmt.Fprintf(&main, "\t\"gen/m%d\"\n", k)
	}
	main.WriteString(`)

// fill sets the fields of the struct p points to from row by their json tags
// (a null or absent number is NaN).
func fill(p any, row map[string]any) {
	v := reflect.ValueOf(p).Elem()
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		name := v.Type().Field(i).Tag.Get("json")
		switch f.Kind() {
		case reflect.String:
			s, _ := row[name].(string)
			f.SetString(s)
		case reflect.Float64, reflect.Float32:
			x, ok := row[name].(float64)
			if !ok {
				x = math.NaN()
			}
			f.SetFloat(x)
		}
	}
}

func main() {
	b, err := os.ReadFile("rows.json")
	if err != nil {
		panic(err)
	}
	var rows []map[string]any
	if err := json.Unmarshal(b, &rows); err != nil {
		panic(err)
	}
	for _, row := range rows {
`)
	for k, call := range calls {
		fmt.Fprintf(&main, "\t\t{\n\t\t\tvar x m%d.Input\n\t\t\tfill(&x, row)\n\t\t\t%s\n\t\t\tfmt.Println(%d, l, strconv.FormatFloat(p, 'g', -1, 64))\n\t\t}\n", k, call, k)
	}
	main.WriteString("\t}\n}\n")
	write("main.go", main.String())
	cmd := exec.Command(goBin, "run", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GO111MODULE=on")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go run: %v\n%.3000s", err, out)
	}
	return strings.Split(strings.TrimRight(string(out), "\n"), "\n")
}

// TestPolicyRenderingsAgree checks SYMPOL tree policies (discrete and
// continuous actions) the same way: on observations from episodes, on
// split thresholds and at random, the policy's greedy action equals the
// route the JSON rendering states (model-space "x < τ" conditions), the
// leaf the text and DOT renderings show for those conditions, and the
// generated Go code (compiled and run), as `gdt rl show` renders them. Their
// ONNX graphs are checked against the policy by
// TestPolicyExportMatchesPolicy. Observations have no categories, so the
// unseen-level rule does not arise.
func TestPolicyRenderingsAgree(t *testing.T) {
	goBin := goTool(t)
	dir := t.TempDir()
	type result struct {
		label string
		value float32
	}
	var calls []string
	var wants [][]result
	var rows []map[string]any
	for k, c := range []policyCase{{"CartPole-v1", 3000}, {"Pendulum-v1", 0}} {
		tr := trainPolicy(t, c)
		ta := tr.Actor().(*policy.TreeActor)
		spec := tr.Spec()
		p, err := export.PolicyOf(ta, spec, export.PruneNone)
		if err != nil {
			t.Fatal(err)
		}
		o := &interpret.Options{Task: data.Multiclass, ClassNames: spec.ActionNames, FeatureNames: spec.FeatureNames}
		if !p.Discrete {
			o.Task = data.Regression
		}
		v, err := interpret.NewView(p.Tree, o)
		if err != nil {
			t.Fatal(err)
		}
		js, err := v.JSON()
		if err != nil {
			t.Fatal(err)
		}
		var jt interpret.JSONTree
		if err := json.Unmarshal(js, &jt); err != nil {
			t.Fatal(err)
		}
		text, dot := v.Text(), v.DOT()
		for _, cond := range conditionsOf(jt.Root, nil) {
			if !strings.Contains(text, cond) || !strings.Contains(dot, cond) {
				t.Errorf("%s: text or DOT lacks the condition %q", c.env, cond)
			}
		}
		src, err := v.GoSource("m" + strconv.Itoa(k))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, dir, filepath.Join("m"+strconv.Itoa(k), "model.go"), src)
		if p.Discrete {
			calls = append(calls, fmt.Sprintf("l, p := m%d.Classify(x)", k))
		} else {
			calls = append(calls, fmt.Sprintf("l, p := \"-\", m%d.Predict(x)", k))
		}
		F := spec.Observation.Dim
		xs := observations(t, tr, ta, 3, 300)
		var want []result
		action := make([]float32, max(1, spec.Action.Dim))
		for i := 0; i < len(xs)/F; i++ {
			x := xs[i*F : (i+1)*F]
			p.Act(x, action)
			w := result{label: "-", value: action[0]}
			if p.Discrete {
				w = result{label: spec.ActionNames[int(action[0])]}
			}
			want = append(want, w)
			// the route the JSON rendering states
			n := jt.Root
			for n.Condition != nil {
				if x[n.Condition.Feature] < n.Condition.Threshold {
					n = n.Left
				} else {
					n = n.Right
				}
			}
			if p.Discrete && n.Outcome.Label != w.label || !p.Discrete && float32(n.Outcome.Values[0]) != w.value {
				t.Errorf("%s observation %d: JSON route to node %d gives %+v, policy %+v", c.env, i, n.ID, n.Outcome, w)
			}
			row := map[string]any{}
			for j, name := range spec.FeatureNames {
				row[name] = float64(x[j])
			}
			if k == 0 {
				rows = append(rows, row)
			} else if i < len(rows) {
				for name, val := range row {
					rows[i][name] = val
				}
			}
		}
		wants = append(wants, want)
	}
	// rows hold both environments' observations (their feature names differ)
	n := min(len(wants[0]), len(wants[1]), len(rows))
	rows = rows[:n]
	lines := runGenerated(t, goBin, dir, calls, rows)
	if len(lines) != n*len(calls) {
		t.Fatalf("the generated code printed %d lines, want %d", len(lines), n*len(calls))
	}
	for j, line := range lines {
		i, k := j/len(calls), j%len(calls)
		f := strings.Fields(line)
		if len(f) < 3 {
			t.Fatalf("line %q", line)
		}
		f = []string{f[0], strings.Join(f[1:len(f)-1], " "), f[len(f)-1]} // labels may hold spaces
		val, err := strconv.ParseFloat(f[2], 64)
		if err != nil {
			t.Fatal(err)
		}
		w := wants[k][i]
		if f[1] != w.label || w.label == "-" && float32(val) != w.value {
			t.Errorf("policy %d observation %d: generated Go %s %v, policy %+v", k, i, f[1], val, w)
		}
	}
}
