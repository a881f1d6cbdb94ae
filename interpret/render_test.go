package interpret

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"math"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/preprocess"
	"github.com/gdt-ml/gdt/tree"
)

// creditTable is a small raw table: income (20000…78500), age, housing
// (rent, mortgage, own in turn); approved iff income ≥ 40000 and housing
// is not own.
func creditTable() (*data.Table, []float64) {
	n := 40
	inc, age := make([]float64, n), make([]float64, n)
	hous := make([]string, n)
	y := make([]float64, n)
	levels := []string{"rent", "mortgage", "own"}
	for i := 0; i < n; i++ {
		inc[i] = 20000 + 1500*float64(i)
		age[i] = float64(20 + (i*7)%45)
		hous[i] = levels[i%3]
		if inc[i] >= 40000 && hous[i] != "own" {
			y[i] = 1
		}
	}
	return &data.Table{Columns: []*data.Column{
		data.NewNumeric("income", inc), data.NewNumeric("age", age), data.NewCategorical("housing", hous),
	}}, y
}

// creditFixture fits an unscaled pipeline (housing target-mean encoded)
// and returns it with the training matrix and a pruned depth-2 tree:
// income < 40000 → (age < 30); else housing < 0.3 (i.e. own).
func creditFixture(t *testing.T) (*preprocess.Pipeline, *data.Matrix, *Tree) {
	t.Helper()
	tab, y := creditTable()
	p := preprocess.Plain(preprocess.Options{Task: data.Binary})
	p.Config.Columns = map[string]preprocess.Encoding{"housing": preprocess.EncodingTargetMean}
	X, _, err := p.FitTransform(tab, y)
	if err != nil {
		t.Fatal(err)
	}
	full := fullTree(t, 2, []int{0, 1, 2}, []float32{40000, 30, 0.3}, []float32{-2, -1, -1.5, 2.5}, nil)
	pr, err := full.Prune(X.Data, X.Rows, 1)
	if err != nil {
		t.Fatal(err)
	}
	return p, X, pr
}

var creditNames = []string{"rejected", "approved"}

func TestText(t *testing.T) {
	p, X, tr := creditFixture(t)
	v, err := NewView(tr, &Options{Pipeline: p, ClassNames: creditNames})
	if err != nil {
		t.Fatal(err)
	}
	want := `if income < 40000:
    if age < 30:
        → rejected (p = 0.88, n = 4)
    else:
        → rejected (p = 0.73, n = 10)
else:
    if housing in {own}:
        → rejected (p = 0.82, n = 9)
    else:
        → approved (p = 0.92, n = 17)
`
	if got := v.Text(); got != want {
		t.Errorf("Text:\n%s\nwant\n%s", got, want)
	}
	// highlight, descriptions and a custom leaf formatter
	v, err = NewView(tr, &Options{Pipeline: p, ClassNames: creditNames, Highlight: X.Row(30),
		Descriptions: map[string]string{"income": "annual income in USD", "unused": "x"},
		FormatLeaf:   func(l LeafInfo) string { return strings.ToUpper(l.Outcome.Label) }})
	if err != nil {
		t.Fatal(err)
	}
	got := v.Text()
	for _, line := range []string{"        → APPROVED  ◀ this row\n", "\nwhere\n    income: annual income in USD\n"} {
		if !strings.Contains(got, line) {
			t.Errorf("Text lacks %q:\n%s", line, got)
		}
	}
	if strings.Contains(got, "unused") || strings.Count(got, "◀") != 1 {
		t.Errorf("Text:\n%s", got)
	}
	// a single leaf
	one := &Tree{Nodes: []Node{{Feature: -1, Left: -1, Right: -1, Value: []float32{0}}}, Outputs: 1}
	v, err = NewView(one, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := v.Text(); got != "→ 0 (p = 0.50)\n" {
		t.Errorf("single leaf: %q", got)
	}
}

func TestConditions(t *testing.T) {
	credit, _, _ := creditFixture(t)
	tab, y := creditTable()
	onehot := preprocess.Plain(preprocess.Options{Task: data.Binary}) // income, age, housing=rent, =mortgage, =own
	if _, _, err := onehot.FitTransform(tab, y); err != nil {
		t.Fatal(err)
	}
	// a categorical column whose missing value is a training category
	miss := preprocess.Plain(preprocess.Options{Task: data.Binary})
	miss.Config.Columns = map[string]preprocess.Encoding{"c": preprocess.EncodingTargetMean}
	if _, _, err := miss.FitTransform(&data.Table{Columns: []*data.Column{
		data.NewCategorical("c", []string{"a", "a", "New York", "New York", "NA", "NA"}, "NA")}}, []float64{0, 0, 1, 1, 1, 1}); err != nil {
		t.Fatal(err)
	}
	ordinal := preprocess.Plain(preprocess.Options{Task: data.Binary})
	ordinal.Config.Columns = map[string]preprocess.Encoding{"housing": preprocess.EncodingOrdinal}
	if _, _, err := ordinal.FitTransform(tab, y); err != nil {
		t.Fatal(err)
	}
	gt := preprocess.GTPaper(preprocess.Options{Task: data.Binary})
	if _, _, err := gt.FitTransform(tab, y); err != nil {
		t.Fatal(err)
	}
	inf := float32(math.Inf(1))
	cases := []struct {
		name       string
		o          *Options
		feature    int
		threshold  float32
		wantTrue   string
		wantFalse  string
		wantColumn string
		unreached  string
	}{
		{"model space, default name", nil, 3, 0.25, "x3 < 0.25", "x3 >= 0.25", "x3", ""},
		{"model space, named", &Options{FeatureNames: []string{"a", "b"}}, 1, -1.5e-7, "b < -1.5e-07", "b >= -1.5e-07", "b", ""},
		{"raw numeric, round cut", &Options{Pipeline: credit}, 0, 40000, "income < 40000", "income >= 40000", "income", ""},
		{"raw numeric, fractional cut", &Options{Pipeline: credit}, 1, 30.5, "age < 30.5", "age >= 30.5", "age", ""},
		{"raw numeric, huge cut", &Options{Pipeline: credit}, 0, inf, "income <= 3.402821e+38", "income > 3.402821e+38", "income", ""},
		{"raw numeric, small cut", &Options{Pipeline: credit}, 0, 0.25, "income < 0.25", "income >= 0.25", "income", ""},
		{"raw numeric, zero", &Options{Pipeline: credit}, 0, 0, "income < 0", "income >= 0", "income", ""},
		{"quantile, always left", &Options{Pipeline: gt}, 0, inf, "income is any number", "income is no number", "income", "right"},
		{"quantile, never left", &Options{Pipeline: gt}, 0, -inf, "income is no number", "income is any number", "income", "left"},
		{"target mean set", &Options{Pipeline: credit}, 2, 0.3, "housing in {own}", "housing in {rent, mortgage} or unseen", "housing", ""},
		{"target mean, all levels left", &Options{Pipeline: credit}, 2, 2, "housing in {rent, mortgage, own} or unseen", "housing is no level", "housing", "right"},
		{"target mean, unseen left", &Options{Pipeline: credit}, 2, 0.5, "housing in {own} or unseen", "housing in {rent, mortgage}", "housing", ""},
		{"one-hot indicator", &Options{Pipeline: onehot}, 4, 0.5, "housing != own", "housing == own", "housing", ""},
		{"one-hot, threshold above both", &Options{Pipeline: onehot}, 4, 1.5, "housing in {rent, mortgage, own} or unseen", "housing is no level", "housing", "right"},
		{"ordinal, only unseen left", &Options{Pipeline: ordinal}, 2, -0.5, "housing is an unseen level", "housing in {rent, mortgage, own}", "housing", ""},
		{"missing category listed", &Options{Pipeline: miss}, 0, 0.8, "c in {a} or unseen", "c in {New York, <missing>}", "c", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.o.Condition(c.feature, c.threshold)
			if err != nil {
				t.Fatal(err)
			}
			if got.Unreached != c.unreached {
				t.Errorf("Condition(%d, %v).Unreached = %q, want %q", c.feature, c.threshold, got.Unreached, c.unreached)
			}
			if got.True != c.wantTrue || got.False != c.wantFalse || got.Column != c.wantColumn {
				t.Errorf("Condition(%d, %v) = %q / %q (column %q), want %q / %q (%q)", c.feature, c.threshold,
					got.True, got.False, got.Column, c.wantTrue, c.wantFalse, c.wantColumn)
			}
			if (c.o != nil && c.o.Pipeline != nil) != (got.Raw != nil) {
				t.Errorf("Raw = %v", got.Raw)
			}
		})
	}
	if _, err := (&Options{Pipeline: credit}).Condition(7, 0); err == nil {
		t.Error("Condition accepted a feature outside the pipeline")
	}
	shortest := []struct{ lo, hi, want float64 }{
		{0.95, 1.02, 1}, {37949.2, 37950.1, 37950}, {-2, -1.5, -2}, {-0.5, 0.1, 0}, {123.456, 123.456, 123.456},
		{0.000123, 0.000125, 0.000123}, {0.0001231, 0.000125, 0.000124}, {1.5e-20, 1.6e-20, 1.5e-20}, {99.5, 99.9, 99.5}, {9.96, 10.4, 10},
	}
	for _, c := range shortest {
		if got := shortestIn(c.lo, c.hi); got != c.want {
			t.Errorf("shortestIn(%v, %v) = %v, want %v", c.lo, c.hi, got, c.want)
		}
	}
	if !math.IsNaN(shortestIn(2, 1)) {
		t.Error("shortestIn of an empty interval is not NaN")
	}
	if got := levelText("a, b"); got != `"a, b"` {
		t.Errorf("levelText = %s", got)
	}
}

func TestOutcome(t *testing.T) {
	sig := func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }
	cases := []struct {
		name  string
		o     *Options
		value []float32
		want  Outcome
	}{
		{"binary logit 0 is class 0", nil, []float32{0}, Outcome{Class: 0, Label: "0", Proba: 0.5, Probs: []float64{0.5, 0.5}}},
		{"binary positive", &Options{ClassNames: []string{"no", "yes"}}, []float32{2}, Outcome{Class: 1, Label: "yes", Proba: sig(2), Probs: []float64{1 - sig(2), sig(2)}}},
		{"binary negative, unnamed class", &Options{ClassNames: []string{"", "yes"}}, []float32{-1}, Outcome{Class: 0, Label: "0", Proba: 1 - sig(-1), Probs: []float64{1 - sig(-1), sig(-1)}}},
		{"multiclass tie → lowest", &Options{Task: data.Multiclass}, []float32{1, 1}, Outcome{Class: 0, Label: "0", Proba: 0.5, Probs: []float64{0.5, 0.5}}},
		{"multiclass arg-max", &Options{ClassNames: []string{"a", "b", "c"}}, []float32{0, float32(math.Log(3)), float32(math.Log(2))}, Outcome{Class: 1, Label: "b"}},
		{"regression", &Options{Task: data.Regression, Denormalize: func(y float64) float64 { return 10*y + 5 }}, []float32{0.5}, Outcome{Class: -1, Label: "10", Values: []float64{10}}},
		{"regression, identity, digits", &Options{Task: data.Regression, Digits: 3}, []float32{1234.5678}, Outcome{Class: -1, Label: "1235", Values: []float64{float64(float32(1234.5678))}}},
		{"regression, two outputs", &Options{Task: data.Regression}, []float32{0.125, -2}, Outcome{Class: -1, Label: "[0.125, -2]", Values: []float64{0.125, -2}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := c.o.Outcome(c.value)
			if c.name == "multiclass arg-max" {
				if got.Class != 1 || got.Label != "b" || math.Abs(got.Proba-0.5) > 1e-7 {
					t.Errorf("got %+v", got)
				}
				return
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("Outcome(%v) = %+v, want %+v", c.value, got, c.want)
			}
		})
	}
	leafCases := []struct {
		l    LeafInfo
		want string
	}{
		{LeafInfo{Outcome: Outcome{Class: 1, Label: "approved", Proba: 0.934}, Counted: true, Count: 120}, "approved (p = 0.93, n = 120)"},
		{LeafInfo{Outcome: Outcome{Class: -1, Label: "12.35"}}, "12.35"},
		{LeafInfo{Outcome: Outcome{Class: 0, Label: "a", Proba: 0.5}, Weighted: true, Weight: -0.0123456}, "a (p = 0.50, w = -0.0123)"},
	}
	for _, c := range leafCases {
		if got := DefaultLeafText(c.l); got != c.want {
			t.Errorf("DefaultLeafText = %q, want %q", got, c.want)
		}
	}
	sig4 := []struct {
		v    float64
		want string
	}{{1234.5678, "1235"}, {0.000123456, "0.0001235"}, {-2.5, "-2.5"}, {1e20, "1e+20"}, {0, "0"}, {100, "100"}}
	for _, c := range sig4 {
		if got := formatSig(c.v, 4); got != c.want {
			t.Errorf("formatSig(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}

// randomView returns a view of a random pruned tree of the given depth on
// model-space data (no pipeline).
func randomView(t *testing.T, depth int, seed uint64, o *Options) *View {
	t.Helper()
	X := &data.Matrix{Rows: 50 * depth, Cols: 4, Data: randomRows(uint32(seed), 50*depth, 4)}
	tr := randomTree(t, X, depth, 1+int(seed%3), seed, true)
	v, err := NewView(tr, o)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestDOT(t *testing.T) {
	p, X, tr := creditFixture(t)
	v, err := NewView(tr, &Options{Pipeline: p, ClassNames: creditNames, Highlight: X.Row(0), EdgeLabels: [2]string{"yes", "no"}})
	if err != nil {
		t.Fatal(err)
	}
	dot := v.DOT()
	for _, want := range []string{
		"digraph tree {\n", `n0 [label="income < 40000\nn = 40"`, `n6 [label="approved\np = 0.92\nn = 17"`,
		`n0 -> n1 [label="yes", penwidth=3];`, `n0 -> n2 [label="no"];`, "}\n",
	} {
		if !strings.Contains(dot, want) {
			t.Errorf("DOT lacks %q:\n%s", want, dot)
		}
	}
	nodeRe := regexp.MustCompile(`(?m)^\tn\d+ \[`)
	edgeRe := regexp.MustCompile(`(?m)^\tn\d+ -> n\d+ \[`)
	for depth := 1; depth <= 7; depth++ {
		v := randomView(t, depth, uint64(depth), nil)
		dot := v.DOT()
		in, lv := v.Tree.Size()
		if got := len(nodeRe.FindAllString(dot, -1)); got != in+lv {
			t.Errorf("depth %d: %d DOT nodes, want %d", depth, got, in+lv)
		}
		if got := len(edgeRe.FindAllString(dot, -1)); got != 2*in {
			t.Errorf("depth %d: %d DOT edges, want %d", depth, got, 2*in)
		}
		if strings.Count(dot, `label="True"`) != in || strings.Count(dot, `label="False"`) != in {
			t.Errorf("depth %d: edge labels wrong", depth)
		}
	}
	if got := dotQuote("a \"b\"\\\nc"); got != `"a \"b\"\\\nc"` {
		t.Errorf("dotQuote = %s", got)
	}
}

func TestSVG(t *testing.T) {
	p, X, tr := creditFixture(t)
	views := []*View{}
	v, err := NewView(tr, &Options{Pipeline: p, ClassNames: []string{"<rejected> & co", "approved"}, Highlight: X.Row(30),
		Descriptions: map[string]string{"income": `"gross" <income>`}})
	if err != nil {
		t.Fatal(err)
	}
	views = append(views, v)
	for depth := 1; depth <= 8; depth++ {
		views = append(views, randomView(t, depth, uint64(depth)+20, nil))
	}
	views = append(views, randomView(t, 5, 3, &Options{Task: data.Regression}))
	for k, v := range views {
		svg := v.SVG()
		dec := xml.NewDecoder(bytes.NewReader(svg))
		nodes, lines, rects := 0, 0, 0
		root := ""
		for {
			tok, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("view %d: SVG is not well-formed XML: %v\n%s", k, err, svg)
			}
			if se, ok := tok.(xml.StartElement); ok {
				if root == "" {
					root = se.Name.Space + " " + se.Name.Local
				}
				switch se.Name.Local {
				case "g":
					for _, a := range se.Attr {
						if a.Name.Local == "class" && strings.HasPrefix(a.Value, "node ") {
							nodes++
						}
					}
				case "line":
					lines++
				case "rect":
					rects++
				}
			}
		}
		in, lv := v.Tree.Size()
		if root != "http://www.w3.org/2000/svg svg" || nodes != in+lv || lines != 2*in || rects != in+lv+1 {
			t.Errorf("view %d: root %q, %d node groups, %d edges, %d rects; want %d nodes, %d edges", k, root, nodes, lines, rects, in+lv, 2*in)
		}
		checkLayout(t, v)
	}
	svg := string(views[0].SVG())
	for _, want := range []string{"&lt;rejected&gt; &amp; co", "income &lt; 40000", `stroke-width="3"`} {
		if !strings.Contains(svg, want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
}

// checkLayout verifies that boxes of one depth never overlap, that every
// parent is centred over its children and that children lie below their
// parent, inside the picture.
func checkLayout(t *testing.T, v *View) {
	t.Helper()
	boxes, width, height := v.layout()
	byDepth := map[int][]int{}
	for i, n := range v.Tree.Nodes {
		byDepth[n.Depth] = append(byDepth[n.Depth], i)
		b := boxes[i]
		if b.x-b.w/2 < svgMargin-1e-9 || b.x+b.w/2 > width-svgMargin+1e-9 || b.y+b.h > height {
			t.Fatalf("node %d box %+v outside %v×%v", i, b, width, height)
		}
		if !n.IsLeaf() {
			l, r := boxes[n.Left], boxes[n.Right]
			if math.Abs((l.x+r.x)/2-b.x) > 1e-9 || l.y <= b.y+b.h || l.x >= r.x {
				t.Fatalf("node %d %+v not centred above its children %+v, %+v", i, b, l, r)
			}
		}
	}
	for d, ids := range byDepth {
		// breadth-first order is left to right within a depth
		for k := 1; k < len(ids); k++ {
			a, b := boxes[ids[k-1]], boxes[ids[k]]
			if gap := (b.x - b.w/2) - (a.x + a.w/2); gap < svgHGap-1e-9 {
				t.Fatalf("depth %d: nodes %d and %d are %.2f apart", d, ids[k-1], ids[k], gap)
			}
		}
	}
}

func TestJSON(t *testing.T) {
	p, _, tr := creditFixture(t)
	v, err := NewView(tr, &Options{Pipeline: p, ClassNames: creditNames, Descriptions: map[string]string{"age": "years"}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := v.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var got JSONTree
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	if got.Task != "binary" || got.Internal != 3 || got.Leaves != 4 || !reflect.DeepEqual(got.Classes, creditNames) ||
		got.Descriptions["age"] != "years" || *got.Root.Count != 40 {
		t.Errorf("JSON tree %+v", got)
	}
	c := got.Root.Right.Condition
	if c == nil || c.True != "housing in {own}" || c.Raw == nil || !reflect.DeepEqual(c.Raw.LeftLevels, []string{"own"}) {
		t.Errorf("root.right condition %+v", c)
	}
	l := got.Root.Right.Right
	if l.Outcome == nil || l.Outcome.Label != "approved" || l.Value[0] != 2.5 || l.Condition != nil {
		t.Errorf("leaf %+v", l)
	}
	if !strings.Contains(string(b), `"true": "income < 40000"`) {
		t.Errorf("JSON escapes or lacks the condition:\n%s", b)
	}
	// the Tree itself round-trips through encoding/json
	raw, err := json.Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	var back Tree
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	if err := back.Validate(3); err != nil || !reflect.DeepEqual(&back, tr) {
		t.Errorf("round trip: %v\n%+v\n%+v", err, back, tr)
	}
	// non-finite leaves are an error
	bad := tr.Clone()
	bad.Nodes[len(bad.Nodes)-1].Value[0] = float32(math.NaN())
	if v, err := NewView(bad, nil); err != nil {
		t.Fatal(err)
	} else if _, err := v.JSON(); err == nil {
		t.Error("JSON accepted a NaN leaf")
	}
}

func TestNewViewErrors(t *testing.T) {
	p, _, tr := creditFixture(t)
	cases := []struct {
		name string
		tree *Tree
		o    *Options
		want string
	}{
		{"feature outside pipeline", fullTree(t, 1, []int{5}, []float32{0}, []float32{0, 1}, nil), &Options{Pipeline: p}, "below 3"},
		{"unfitted pipeline", tr, &Options{Pipeline: preprocess.Plain(preprocess.Options{})}, "not fitted"},
		{"short highlight", tr, &Options{Highlight: []float32{1}}, "Highlight has 1 values"},
		{"bad task", tr, &Options{Task: data.Task(9)}, "Options.Task"},
		{"empty tree", &Tree{Outputs: 1}, nil, "no nodes"},
	}
	for _, c := range cases {
		if _, err := NewView(c.tree, c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}

// The kernel → pruned tree → view chain on a multiclass kernel: leaves
// show the soft-max arg-max and the tree's classes match the kernel's.
func TestKernelToViewMulticlass(t *testing.T) {
	X := randomRows(9, 120, 3)
	k, err := tree.New(tree.Config{Trees: 1, Depth: 3, Features: 3, Outputs: 4, Split: tree.Sigmoid})
	if err != nil {
		t.Fatal(err)
	}
	if err := k.InitDataAware(X, 120, 5); err != nil {
		t.Fatal(err)
	}
	k.Prepare()
	out := make([]float32, 120*4)
	if err := k.Predict(k.NewWorkspace(), X, 120, out); err != nil {
		t.Fatal(err)
	}
	full, _ := FromKernel(k, 0)
	tr, err := full.Prune(X, 120, 1)
	if err != nil {
		t.Fatal(err)
	}
	v, err := NewView(tr, &Options{ClassNames: []string{"a", "b", "c", "d"}})
	if err != nil {
		t.Fatal(err)
	}
	o := v.Options
	for r := 0; r < 120; r++ {
		got := v.Outcomes[leafOf(tr, X[r*3:(r+1)*3])]
		want := o.Outcome(out[r*4 : (r+1)*4])
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("row %d: %+v, want %+v", r, got, want)
		}
	}
	if v.task() != "multiclass" {
		t.Errorf("task %q", v.task())
	}
}
