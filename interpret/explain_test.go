package interpret

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/preprocess"
	"github.com/gdt-ml/gdt/tree"
)

func TestExplain(t *testing.T) {
	const n, E, rows = 5, 8, 100
	k, err := tree.New(tree.Config{Trees: E, Depth: 3, Features: n, Outputs: 1, Split: tree.Softsign, Weights: tree.LeafWeights})
	if err != nil {
		t.Fatal(err)
	}
	X := randomRows(3, rows, n)
	if err := k.InitDataAware(X, rows, 4); err != nil {
		t.Fatal(err)
	}
	w := k.Params().LeafWeights
	for i, v := range randomRows(8, len(w), 1) {
		w[i] = 2 * v
	}
	k.Prepare()
	x := randomRows(11, 1, n)
	a := make([]float32, E)
	if err := k.TreeWeights(k.NewWorkspace(), x, 1, a); err != nil {
		t.Fatal(err)
	}
	ex, err := ExplainKernel(k, x, ExplainConfig{TopK: 3, TrainX: X, Rows: rows})
	if err != nil {
		t.Fatal(err)
	}
	if len(ex.Estimators) != 3 || ex.Trees != E {
		t.Fatalf("explanation %+v", ex)
	}
	var covered float64
	for r, est := range ex.Estimators {
		if est.Share != float64(a[est.Index]) {
			t.Errorf("rank %d: share %v, want a[%d] = %v", r, est.Share, est.Index, a[est.Index])
		}
		if r > 0 && est.Share > ex.Estimators[r-1].Share {
			t.Errorf("rank %d: shares not descending", r)
		}
		for e := range a {
			if a[e] > a[ex.Estimators[len(ex.Estimators)-1].Index] && !containsEstimator(ex, e) {
				t.Errorf("tree %d (share %v) missing from the top 3", e, a[e])
			}
		}
		if !est.Tree.Counted || est.Leaf != leafOf(est.Tree, x) || est.Tree.Nodes[0].Count != rows {
			t.Errorf("rank %d: tree not pruned with the training rows or wrong leaf", r)
		}
		covered += est.Share
	}
	if math.Abs(covered-ex.Covered) > 1e-12 {
		t.Errorf("Covered = %v, want %v", ex.Covered, covered)
	}
	// the same from weights and unpruned trees
	trees := make([]*Tree, E)
	for e := range trees {
		trees[e], _ = FromKernel(k, e)
	}
	ex2, err := Explain(x, a, trees, ExplainConfig{TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	for r := range ex2.Estimators {
		if ex2.Estimators[r].Index != ex.Estimators[r].Index || ex2.Estimators[r].Tree != trees[ex2.Estimators[r].Index] {
			t.Errorf("rank %d: Explain and ExplainKernel disagree", r)
		}
	}
	txt, err := ex.Text(&Options{ClassNames: []string{"bad", "good"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"The top 3 of 8 estimators carry ", "\n#1 estimator ", "\n#3 estimator ", "    if x"} {
		if !strings.Contains(txt, want) {
			t.Errorf("Text lacks %q:\n%s", want, txt)
		}
	}
	if c := strings.Count(txt, "◀ this row"); c != 3 {
		t.Errorf("%d marked leaves, want 3:\n%s", c, txt)
	}
	// ties go to the lower index; TopK beyond E is clipped
	ex3, err := Explain(x, []float32{0.25, 0.25, 0.25, 0.25}, trees[:4], ExplainConfig{TopK: 9})
	if err != nil {
		t.Fatal(err)
	}
	var idx []int
	for _, est := range ex3.Estimators {
		idx = append(idx, est.Index)
	}
	if !reflect.DeepEqual(idx, []int{0, 1, 2, 3}) || ex3.Covered != 1 {
		t.Errorf("ties: %v, covered %v", idx, ex3.Covered)
	}
	errs := []struct {
		name string
		x    []float32
		w    []float32
		tr   []*Tree
		cfg  ExplainConfig
		want string
	}{
		{"length", x, a[:2], trees, ExplainConfig{}, "2 weights for 8 trees"},
		{"none", x, nil, nil, ExplainConfig{}, "no trees"},
		{"negative", x, []float32{-1}, trees[:1], ExplainConfig{}, "weight of tree 0"},
		{"topk", x, a, trees, ExplainConfig{TopK: -1}, "TopK"},
		{"short x", x[:1], a, trees, ExplainConfig{}, "instance of 1 features"},
		{"bad rows", x, a, trees, ExplainConfig{TrainX: X, Rows: 7}, "X has 500 values"},
	}
	for _, c := range errs {
		if _, err := Explain(c.x, c.w, c.tr, c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}

func containsEstimator(ex *Explanation, e int) bool {
	for _, est := range ex.Estimators {
		if est.Index == e {
			return true
		}
	}
	return false
}

func TestFeatureImportance(t *testing.T) {
	row := func(v ...float32) []float32 { return v }
	d3 := fullTree(t, 3, []int{0, 1, 1, 2, 2, 2, 2}, make([]float32, 7), make([]float32, 8), nil)
	X, n := rowsOf(row(1, -1, -1), row(1, 1, -1), row(1, 1, 1))
	t1, err := d3.Prune(X, n, 1) // root tests x1 (3 rows), then x2 (2 rows)
	if err != nil {
		t.Fatal(err)
	}
	d2 := fullTree(t, 2, []int{0, 0, 0}, []float32{0, -1, 1}, make([]float32, 4), nil)
	X2, n2 := rowsOf(row(-2, 0, 0), row(-0.5, 0, 0), row(0.5, 0, 0), row(2, 0, 0))
	t2, err := d2.Prune(X2, n2, 1) // three splits on x0: 4, 2 and 2 rows
	if err != nil {
		t.Fatal(err)
	}
	got, err := FeatureImportance([]*Tree{t1}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []Importance{{"x1", []int{1}, 1, 1}, {"x2", []int{2}, 1, 2.0 / 3}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("one tree: %+v, want %+v", got, want)
	}
	got, err = FeatureImportance([]*Tree{t1, t2}, []float64{0.75, 0.25}, &Options{FeatureNames: []string{"a", "b", "c"}})
	if err != nil {
		t.Fatal(err)
	}
	want = []Importance{{"b", []int{1}, 1, 0.75}, {"a", []int{0}, 3, 0.5}, {"c", []int{2}, 1, 0.5}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("two trees: %+v, want %+v", got, want)
	}
	// one-hot columns are summed into their raw column
	tab, y := creditTable()
	p := preprocess.Plain(preprocess.Options{Task: data.Binary})
	M, _, err := p.FitTransform(tab, y)
	if err != nil {
		t.Fatal(err)
	}
	oh := fullTree(t, 2, []int{4, 2, 0}, []float32{0.5, 0.5, 50000}, make([]float32, 4), nil)
	if err := oh.CountRows(M.Data, M.Rows); err != nil {
		t.Fatal(err)
	}
	got, err = FeatureImportance([]*Tree{oh}, nil, &Options{Pipeline: p})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Column != "housing" || !reflect.DeepEqual(got[0].Features, []int{2, 4}) || got[0].Splits != 2 ||
		got[1].Column != "income" {
		t.Errorf("one-hot: %+v", got)
	}
	if _, err := FeatureImportance([]*Tree{d3}, nil, nil); err == nil || !strings.Contains(err.Error(), "no training counts") {
		t.Errorf("uncounted tree: %v", err)
	}
	if _, err := FeatureImportance([]*Tree{t1}, []float64{1, 2}, nil); err == nil {
		t.Error("accepted mismatched weights")
	}
	if _, err := FeatureImportance(nil, nil, nil); err == nil {
		t.Error("accepted no trees")
	}
}
