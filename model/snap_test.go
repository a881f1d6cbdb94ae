package model_test

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/datasets"
	"github.com/gdt-ml/gdt/model"

	_ "github.com/gdt-ml/gdt/cart"
	_ "github.com/gdt-ml/gdt/gradtree"
	_ "github.com/gdt-ml/gdt/grande"
)

// sigDigits counts the significant decimal digits of a number written in
// plain decimal notation ("280" and "0.28" have 2, "0" none).
func sigDigits(s string) int {
	s = strings.TrimPrefix(strings.TrimSpace(s), "-")
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimLeft(strings.ReplaceAll(s, ".", ""), "0")
	return len(strings.TrimRight(s, "0"))
}

// maxDigits returns, per numeric column of X, the most significant digits
// any of its values (and its imputed median, which training rows with a
// missing value take) has.
func maxDigits(X *data.Table, medians map[string]float64) map[string]int {
	out := map[string]int{}
	for _, c := range X.Columns {
		if c.Kind != data.Numeric {
			continue
		}
		vals := append([]float64(nil), c.Num...)
		if m, ok := medians[c.Name]; ok {
			vals = append(vals, m)
		}
		for _, v := range vals {
			if !math.IsNaN(v) {
				out[c.Name] = max(out[c.Name], sigDigits(strconv.FormatFloat(v, 'f', -1, 64)))
			}
		}
	}
	return out
}

var textCut = regexp.MustCompile(`(?m)^\s*if (.+) <= (\S+):$`)

// After training, every numeric split routes by a short decimal between
// two neighbouring training values (model.Snap): no training row's
// prediction changes (probabilities bit for bit against the same model
// with the pipeline's exact cuts) and the text rendering shows no cut with
// more significant digits than the column's training values.
func TestSnapKeepsTrainingPredictions(t *testing.T) {
	root, err := datasets.Root("")
	if err != nil {
		t.Skipf("benchmark data not found (%v); set GDT_DATA to run this test", err)
	}
	small := map[string]map[string]string{
		"gradtree":    {"restarts": "1", "epochs": "40"},
		"grande-fast": {"n_estimators": "32", "epochs": "10"},
		"grande":      {"n_estimators": "16", "epochs": "3"},
	}
	cases := []struct {
		dataset string
		kinds   []string
	}{
		{"grande/ilpd", []string{"gradtree", "grande-fast"}},
		{"grande/wdbc", []string{"gradtree", "grande-fast"}},
		{"grande/phoneme", []string{"gradtree", "grande"}},
		{"grande/dresses-sales", []string{"gradtree", "grande-fast"}},
	}
	if testing.Short() {
		cases = cases[:1]
	}
	for _, c := range cases {
		ds, err := datasets.Load(root, c.dataset)
		if err != nil {
			t.Fatal(err)
		}
		for _, kind := range c.kinds {
			t.Run(c.dataset+"/"+kind, func(t *testing.T) {
				const seed = 7
				tr, err := model.Train(context.Background(), ds, model.Spec{Kind: kind, Options: small[kind], Seed: seed})
				if err != nil {
					t.Fatal(err)
				}
				if len(tr.Pipeline.Cuts) == 0 {
					t.Fatal("the trained model's pipeline has no snapped cuts")
				}
				// The training rows, as model.Train chose them.
				n := len(ds.Y)
				trainIdx := make([]int, n)
				for i := range trainIdx {
					trainIdx[i] = i
				}
				k, _ := model.LookupKind(kind)
				if k.UsesValidation {
					trainIdx, _ = data.TrainTestSplit(n, int(0.2*float64(n)), seed)
				}
				if got := tr.Info["train_rows"]; got != len(trainIdx) {
					t.Fatalf("model.Train used %v training rows, the test assumes %d", got, len(trainIdx))
				}
				exact := *tr.Pipeline
				exact.Cuts = nil
				predict := func(X *data.Table, p *model.Trained) *data.Matrix {
					t.Helper()
					m, err := p.PredictProba(X)
					if err != nil {
						t.Fatal(err)
					}
					return m
				}
				before := *tr
				before.Pipeline = &exact
				X := ds.X.Subset(trainIdx)
				a, b := predict(X, &before), predict(X, tr)
				for i := range a.Data {
					if math.Float32bits(a.Data[i]) != math.Float32bits(b.Data[i]) {
						t.Fatalf("training row %d: probability %v with the exact cuts, %v with the short cuts", trainIdx[i/a.Cols], a.Data[i], b.Data[i])
					}
				}
				a, b = predict(ds.X, &before), predict(ds.X, tr)
				changed := 0
				for i := 0; i < a.Rows; i++ {
					for j := 0; j < a.Cols; j++ {
						if a.At(i, j) != b.At(i, j) {
							changed++
							break
						}
					}
				}
				la, lb := model.Decide(ds.Task, a), model.Decide(ds.Task, b)
				labels := 0
				for i := range la {
					if la[i] != lb[i] {
						labels++
					}
				}
				t.Logf("%d training rows unchanged; of the %d other rows %d get other probabilities, %d another class", len(trainIdx), n-len(trainIdx), changed, labels)

				// Cuts read as the data does.
				txt, err := tr.Render("text")
				if err != nil {
					t.Fatal(err)
				}
				medians := map[string]float64{}
				for _, ic := range tr.Pipeline.Inputs {
					if ic.Impute {
						medians[ic.Name] = ic.Median
					}
				}
				digits := maxDigits(X, medians)
				found := 0
				for _, m := range textCut.FindAllStringSubmatch(string(txt), -1) {
					col, cut := m[1], m[2]
					d, ok := digits[col]
					if !ok {
						t.Errorf("cut %q on %q: not a numeric column", cut, col)
						continue
					}
					found++
					if sigDigits(cut) > d {
						t.Errorf("%s <= %s: %d significant digits, the column's training values have at most %d", col, cut, sigDigits(cut), d)
					}
				}
				if found == 0 {
					t.Errorf("no numeric cut in the text rendering:\n%s", txt)
				}
			})
		}
	}
}

// model.Train snaps the pipeline (Snap): the demo data's incomes are
// whole dollars and its debt ratios have two decimals, and so do the cuts.
func ExampleSnap() {
	ds := datasets.Demo()
	tr, err := model.Train(context.Background(), ds, model.Spec{Kind: "gradtree", Options: map[string]string{"depth": "2", "restarts": "1"}, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	txt, _ := tr.Render("text")
	for _, m := range textCut.FindAllStringSubmatch(string(txt), -1) {
		fmt.Println(m[1], "<=", m[2])
	}
	// Output:
	// debt ratio <= 0.38
	// income <= 37900
}

// CART keeps scikit-learn's cut (the midpoint between neighbouring
// training values in model space): its pipeline gets no snapped cuts.
func TestCARTKeepsItsCuts(t *testing.T) {
	tr, err := model.Train(context.Background(), datasets.Demo(), model.Spec{Kind: "cart", Protocol: "gt-paper", Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Pipeline.Cuts != nil {
		t.Errorf("CART's pipeline has snapped cuts %v: want none", tr.Pipeline.Cuts)
	}
}
