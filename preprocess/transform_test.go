package preprocess

import (
	"math"
	"runtime"
	"testing"

	"github.com/gdt-ml/gdt/data"
)

// referenceTransform is Transform as the encoders and the scaling define
// it, column by column in float64 (the fitting path), then rounded.
func referenceTransform(t *testing.T, p *Pipeline, X *data.Table) *data.Matrix {
	t.Helper()
	cols, err := p.encode(X, nil)
	if err != nil {
		t.Fatal(err)
	}
	p.scale(cols)
	return toMatrix(cols, X.NumRows())
}

// inferenceTable is mixedTable's columns with what only inference rows
// have: unseen levels, missing values where training had none, NaN in a
// numeric column, levels numbered in another order, and an extra column.
func inferenceTable(n int) *data.Table {
	base, _ := mixedTable(n, 7, 0.3)
	color := make([]string, n)
	city := make([]string, n)
	flag := make([]string, n)
	age := append([]float64(nil), base.Col("age").Num...)
	for i := range n {
		color[i] = base.Col("color").String(i)
		city[i] = base.Col("city").String(i)
		flag[i] = base.Col("flag").String(i)
		switch i % 17 {
		case 3:
			color[i] = "purple" // unseen
		case 5:
			color[i] = "" // missing, never missing in training
		case 8:
			city[i] = "atlantis" // unseen
		case 11:
			flag[i] = "" // missing
		case 13:
			age[i] = math.NaN()
		}
	}
	// Levels in reverse order of appearance: codes differ from training.
	for i, j := 0, n-1; i < j; i, j = i+1, j-1 {
		city[i], city[j] = city[j], city[i]
	}
	return &data.Table{Columns: []*data.Column{
		data.NewNumeric("extra", make([]float64, n)),
		data.NewCategorical("flag", flag, ""),
		data.NewNumeric("hours", base.Col("hours").Num),
		data.NewCategorical("city", city, ""),
		data.NewCategorical("color", color, ""),
		data.NewNumeric("age", age),
	}}
}

func TestTransformMatchesEncoders(t *testing.T) {
	train, y := mixedTable(3000, 1, 0.3)
	noImpute := GRPaper(Options{Task: data.Binary})
	noImpute.Config.ImputeNumeric = ImputeNone
	other := Standard(Options{Task: data.Binary})
	other.Config.Columns = map[string]Encoding{"color": EncodingFrequency, "city": EncodingTargetMean, "flag": EncodingLeaveOneOut}
	other.Config.TargetSmoothing = 2
	pipes := map[string]*Pipeline{
		"gt-paper":                              GTPaper(Options{Task: data.Binary}),
		"gr-paper":                              GRPaper(Options{Task: data.Binary}),
		"standard":                              Standard(Options{Task: data.Binary}),
		"none":                                  Plain(Options{Task: data.Binary}),
		"gr-paper, no impute":                   noImpute,
		"frequency, target-mean, leave-one-out": other,
	}
	for name, p := range pipes {
		t.Run(name, func(t *testing.T) {
			if err := p.Fit(train, y); err != nil {
				t.Fatal(err)
			}
			for _, n := range []int{1, 100, 3*minParallelRows + 5} {
				X := inferenceTable(n)
				want := referenceTransform(t, p, X)
				for _, procs := range []int{1, 2, 3} {
					old := runtime.GOMAXPROCS(procs)
					got, err := p.Transform(X)
					runtime.GOMAXPROCS(old)
					if err != nil {
						t.Fatal(err)
					}
					for i, v := range want.Data {
						if math.Float32bits(got.Data[i]) != math.Float32bits(v) {
							t.Fatalf("%d rows, GOMAXPROCS %d: row %d, output %q: got %v, want %v", n, procs, i/want.Cols, p.Outputs[i%want.Cols].Name, got.Data[i], v)
						}
					}
				}
			}
		})
	}
}

func TestTransformIntoErrors(t *testing.T) {
	train, y := mixedTable(500, 1, 0.3)
	p := GRPaper(Options{Task: data.Binary})
	if err := p.Fit(train, y); err != nil {
		t.Fatal(err)
	}
	X := inferenceTable(10)
	if err := p.TransformInto(data.NewMatrix(9, p.NumFeatures()), X, 0); err == nil {
		t.Error("wrong output shape accepted")
	}
	X.Col("age").Num[4] = math.Inf(1)
	err := p.TransformInto(data.NewMatrix(10, p.NumFeatures()), X, 1000)
	if want := `preprocess: transform: column "age" row 1004 is +Inf; want a finite number or missing`; err == nil || err.Error() != want {
		t.Errorf("infinite value: got %v, want %s", err, want)
	}
}
