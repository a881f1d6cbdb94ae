package interpret

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/preprocess"
	"github.com/gdt-ml/gdt/rng"
	"github.com/gdt-ml/gdt/tree"
)

// rawTable returns a raw table with numeric and categorical columns
// (missing values: NaN and "NA"), a binary and a 3-class target. unseen
// adds levels that a training table never has.
func rawTable(seed uint32, n int, unseen bool) (*data.Table, []float64, []float64) {
	r := rng.New(seed)
	income, age, score := make([]float64, n), make([]float64, n), make([]float64, n)
	housing, job, married := make([]string, n), make([]string, n), make([]string, n)
	yb, yc := make([]float64, n), make([]float64, n)
	homes := []string{"rent", "mortgage", "own"}
	for i := 0; i < n; i++ {
		income[i] = math.Round(math.Exp(10.5+0.5*r.NormFloat64())/100) * 100
		age[i] = float64(18 + r.Intn(60))
		score[i] = math.Round(r.NormFloat64()*1000) / 100
		if r.Float64() < 0.1 {
			score[i] = math.NaN()
		}
		housing[i] = homes[r.Intn(3)]
		job[i] = "job " + strconv.Itoa(r.Intn(12))
		married[i] = []string{"yes", "no"}[r.Intn(2)]
		if r.Float64() < 0.05 {
			housing[i] = "NA"
		}
		if unseen && r.Float64() < 0.15 {
			housing[i], job[i] = "castle", "astronaut"
		}
		if income[i] > 36000 && housing[i] != "own" || r.Float64() < 0.2 {
			yb[i] = 1
		}
		yc[i] = float64((int(age[i]/20) + r.Intn(2)) % 3)
	}
	return &data.Table{Columns: []*data.Column{
		data.NewNumeric("income", income),
		data.NewNumeric("age", age),
		data.NewNumeric("score-2", score),
		data.NewCategorical("housing", housing, "NA"),
		data.NewCategorical("job title", job),
		data.NewCategorical("married", married),
	}}, yb, yc
}

// goTool returns the go command, or "" when there is none.
func goTool() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	p := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(p); err == nil {
		return p
	}
	return ""
}

// genCase is one generated package and the rows it is checked on.
type genCase struct {
	name string
	view *View
	raw  *data.Table // raw rows (nil: model-space rows only)
	X    *data.Matrix
}

// inputLiteral writes the Input literal of row i for the generated code.
func (c *genCase) inputLiteral(g *goGen, i int) string {
	var parts []string
	for _, f := range g.order {
		var val string
		if c.raw == nil {
			j := -1
			for k := 0; k < c.X.Cols; k++ {
				if c.view.Options.featureName(k) == f.name {
					j = k
				}
			}
			val = strconv.FormatFloat(float64(c.X.At(i, j)), 'g', -1, 32)
			if !strings.ContainsAny(val, ".e") {
				val += ".0"
			}
		} else {
			col := c.raw.Col(f.name)
			if col.Kind == data.Categorical {
				if col.Codes[i] == data.Missing {
					val = `""`
				} else {
					val = strconv.Quote(col.Levels[col.Codes[i]])
				}
			} else if math.IsNaN(col.Num[i]) {
				val = "math.NaN()"
			} else {
				val = strconv.FormatFloat(col.Num[i], 'g', -1, 64)
			}
		}
		parts = append(parts, f.ident+": "+val)
	}
	return "Input{" + strings.Join(parts, ", ") + "}"
}

func (c *genCase) expected(i int) string {
	out := c.view.Options.Outcome(predictOf(c.view.Tree, c.X.Row(i)))
	if out.Class < 0 {
		return strconv.FormatFloat(out.Values[0], 'g', -1, 64)
	}
	return out.Label + " " + strconv.FormatFloat(out.Proba, 'g', -1, 64)
}

// randomTree returns a kernel tree on X with data-aware thresholds.
func randomTree(t *testing.T, X *data.Matrix, depth, outputs int, seed uint64, prune bool) *Tree {
	t.Helper()
	k, err := tree.New(tree.Config{Trees: 1, Depth: depth, Features: X.Cols, Outputs: outputs, Split: tree.Sigmoid})
	if err != nil {
		t.Fatal(err)
	}
	if err := k.InitDataAware(X.Data, X.Rows, seed); err != nil {
		t.Fatal(err)
	}
	tr, err := FromKernel(k, 0)
	if err != nil {
		t.Fatal(err)
	}
	if prune {
		if tr, err = tr.Prune(X.Data, X.Rows, 1); err != nil {
			t.Fatal(err)
		}
	}
	return tr
}

// TestGeneratedGoAgrees generates Go code for random trees on raw tables
// (GradTree's and GRANDE's preprocessing, unscaled one-hot, and model
// space without a pipeline), runs it with `go run` on rows that include
// missing values and unseen levels, and compares every output with
// Tree.Predict on the transformed rows.
func TestGeneratedGoAgrees(t *testing.T) {
	goBin := goTool()
	if goBin == "" {
		t.Skip("no go toolchain found: cannot compile the generated code")
	}
	if testing.Short() {
		t.Skip("compiles generated code (-short)")
	}
	train, yb, yc := rawTable(1, 300, false)
	test, _, _ := rawTable(2, 60, true)
	var cases []*genCase
	add := func(name string, p *preprocess.Pipeline, y []float64, depth, outputs int, seed uint64, prune bool, o Options) {
		X, _, err := p.FitTransform(train, y)
		if err != nil {
			t.Fatal(err)
		}
		tr := randomTree(t, X, depth, outputs, seed, prune)
		o.Pipeline = p
		v, err := NewView(tr, &o)
		if err != nil {
			t.Fatal(err)
		}
		T, err := p.Transform(test)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, &genCase{name: name, view: v, raw: test, X: T})
	}
	add("gtpaper", preprocess.GTPaper(preprocess.Options{Task: data.Binary, Seed: 1}), yb, 5, 1, 11, true,
		Options{ClassNames: []string{"no", "yes"}})
	add("grpaper", preprocess.GRPaper(preprocess.Options{Task: data.Multiclass}), yc, 6, 3, 12, false,
		Options{Task: data.Multiclass, ClassNames: []string{"young", "middle", "old"}})
	add("plain", preprocess.Plain(preprocess.Options{Task: data.Binary}), yb, 4, 1, 13, false, Options{})
	{
		X := &data.Matrix{Rows: 40, Cols: 4, Data: randomRows(5, 40, 4)}
		tr := randomTree(t, X, 4, 1, 14, false)
		v, err := NewView(tr, &Options{Task: data.Regression, Denormalize: func(y float64) float64 { return 12.5*y + 100 }})
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, &genCase{name: "regression", view: v, X: &data.Matrix{Rows: 30, Cols: 4, Data: randomRows(6, 30, 4)}})
	}

	dir := t.TempDir()
	write := func(name, src string) {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module gen\n\ngo 1.21\n")
	var main strings.Builder
	main.WriteString("package main\n\nimport (\n\t\"fmt\"\n\t\"math\"\n\t\"strconv\"\n")
	for _, c := range cases {
		fmt.Fprintf(&main, "\t%q\n", "gen/"+c.name)
	}
	main.WriteString(")\n\nvar _ = math.NaN\n\nfunc main() {\n")
	var want []string
	for _, c := range cases {
		src, err := c.view.GoSource(c.name)
		if err != nil {
			t.Fatal(err)
		}
		write(filepath.Join(c.name, c.name+".go"), string(src))
		g := c.view.goGen()
		for i := 0; i < c.X.Rows; i++ {
			lit := c.name + "." + c.inputLiteral(g, i)
			if c.view.Options.regression() {
				fmt.Fprintf(&main, "\tfmt.Println(strconv.FormatFloat(%s.Predict(%s), 'g', -1, 64))\n", c.name, lit)
			} else {
				fmt.Fprintf(&main, "\t{\n\t\tl, p := %s.Classify(%s)\n\t\tfmt.Println(l, strconv.FormatFloat(p, 'g', -1, 64))\n\t}\n", c.name, lit)
			}
			want = append(want, c.name+": "+c.expected(i))
		}
	}
	main.WriteString("}\n")
	write("main.go", main.String())

	cmd := exec.Command(goBin, "run", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GO111MODULE=on")
	out, err := cmd.CombinedOutput()
	if err != nil {
		for _, c := range cases {
			src, _ := c.view.GoSource(c.name)
			t.Logf("%s:\n%s", c.name, src)
		}
		t.Fatalf("go run: %v\n%s", err, out)
	}
	got := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(got) != len(want) {
		t.Fatalf("generated program printed %d lines, want %d:\n%s", len(got), len(want), out)
	}
	for i := range want {
		name, w, _ := strings.Cut(want[i], ": ")
		if got[i] != w {
			t.Errorf("%s line %d: generated code %q, Tree.Predict %q", name, i, got[i], w)
		}
	}
	// the cases exercise what they should
	var src strings.Builder
	for _, c := range cases {
		s, _ := c.view.GoSource(c.name)
		src.Write(s)
	}
	for _, want := range []string{"switch x.Housing", "math.IsNaN(x.Score2)", "x.Income <= ", "func Predict(x Input) float64", "x.X"} {
		if !strings.Contains(src.String(), want) {
			t.Errorf("generated code never contains %q", want)
		}
	}
}

func TestGoSourceErrorsAndIdents(t *testing.T) {
	tr := fullTree(t, 1, []int{0}, []float32{0.5}, []float32{-1, 1}, nil)
	v, err := NewView(tr, &Options{FeatureNames: []string{"1st value"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range []string{"", "9x", "a-b", "_"} {
		if _, err := v.GoSource(pkg); err == nil {
			t.Errorf("GoSource(%q) accepted a bad package name", pkg)
		}
	}
	src, err := v.GoSource("model")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"package model", "X1stValue float32 `json:\"1st value\"`", "if x.X1stValue < 0.5 {", `return "1", 0.7310585786300049`, `return "0", 0.7310585786300049`} {
		if !strings.Contains(string(src), want) {
			t.Errorf("generated code lacks %q:\n%s", want, src)
		}
	}
	idents := []struct{ in, want string }{
		{"income", "Income"}, {"education-num", "EducationNum"}, {"job title", "JobTitle"},
		{"9lives", "X9lives"}, {"", "X"}, {"größe", "Größe"}, {"x_1", "X1"},
	}
	for _, c := range idents {
		if got := goIdent(c.in); got != c.want {
			t.Errorf("goIdent(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestGoSourceSpecialCases(t *testing.T) {
	// several regression outputs, a Denormalize that overflows
	tr, err := fromComplete(1, 2, []int{0}, []float32{1}, []float32{1, 2, 3, 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	v, err := NewView(tr, &Options{Task: data.Regression, Denormalize: func(y float64) float64 {
		if y == 4 {
			return math.Inf(1)
		}
		return y / 2
	}})
	if err != nil {
		t.Fatal(err)
	}
	src, err := v.GoSource("multi")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"func Predict(x Input) []float64 {", "return []float64{0.5, 1.0}", "return []float64{1.5, math.Inf(1)}", `import "math"`} {
		if !strings.Contains(string(src), want) {
			t.Errorf("generated code lacks %q:\n%s", want, src)
		}
	}
	// thresholds that send every raw value one way become no test at all
	tab, y := creditTable()
	gt := preprocess.GTPaper(preprocess.Options{Task: data.Binary})
	if _, _, err := gt.FitTransform(tab, y); err != nil {
		t.Fatal(err)
	}
	inf := float32(math.Inf(1))
	tr = fullTree(t, 2, []int{0, 1, 1}, []float32{inf, -inf, 0}, []float32{-1, 1, 2, 3}, nil)
	v, err = NewView(tr, &Options{Pipeline: gt})
	if err != nil {
		t.Fatal(err)
	}
	src, err = v.GoSource("always")
	if err != nil {
		t.Fatal(err)
	}
	body := string(src[strings.Index(string(src), "func Classify"):])
	if strings.Contains(body, "if ") || !strings.Contains(body, `return "1", 0.7310585786300049`) || strings.Count(body, "return") != 1 {
		t.Errorf("constant conditions not folded:\n%s", src)
	}
}
