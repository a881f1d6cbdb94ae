// Package exporttest makes small synthetic datasets and quickly trained
// models for the tests of the export, serve and report packages.
package exporttest

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/rng"

	// the learner kinds the tests train
	_ "github.com/gdt-ml/gdt/cart"
	_ "github.com/gdt-ml/gdt/forest"
	_ "github.com/gdt-ml/gdt/gradtree"
	_ "github.com/gdt-ml/gdt/grande"
)

// Colors and Sizes are the levels of the two categorical columns.
var (
	Colors = []string{"red", "green", "blue", "violet"}
	Sizes  = []string{"S", "M", "L"}
)

// Dataset returns n rows of four columns — "age" and "income" (numeric,
// income with missing values), "color" (categorical with missing values)
// and "size" (categorical) — and a target for task that depends on all of
// them.
func Dataset(task data.Task, n int, seed uint32) *data.Dataset {
	r := rng.New(seed)
	age := make([]float64, n)
	income := make([]float64, n)
	color := make([]int32, n)
	size := make([]int32, n)
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		age[i] = math.Round(18 + 50*r.Float64())
		income[i] = math.Round(20000+80000*r.Float64()) / 10
		if r.Float64() < 0.05 {
			income[i] = math.NaN()
		}
		color[i] = int32(r.Intn(len(Colors)))
		if r.Float64() < 0.05 {
			color[i] = data.Missing
		}
		size[i] = int32(r.Intn(len(Sizes)))
		score := (age[i]-40)/15 + float64(size[i]) - 1 + 0.5*r.NormFloat64()
		if !math.IsNaN(income[i]) {
			score += (income[i] - 6000) / 3000
		}
		if color[i] == 2 {
			score += 1.5
		}
		switch task {
		case data.Binary:
			if score > 0 {
				y[i] = 1
			}
		case data.Multiclass:
			switch {
			case score < -0.7:
				y[i] = 0
			case score < 0.7:
				y[i] = 1
			default:
				y[i] = 2
			}
		default:
			y[i] = 100 + 20*score
		}
	}
	tab := &data.Table{Columns: []*data.Column{
		data.NewNumeric("age", age),
		data.NewNumeric("income", income),
		{Name: "color", Kind: data.Categorical, Codes: color, Levels: Colors},
		{Name: "size", Kind: data.Categorical, Codes: size, Levels: Sizes},
	}}
	ds := &data.Dataset{Name: "synthetic-" + task.String(), Task: task, X: tab, Y: y}
	switch task {
	case data.Binary:
		ds.Classes = []string{"no", "yes"}
	case data.Multiclass:
		ds.Classes = []string{"low", "mid", "high"}
	}
	return ds
}

// Options returns tiny training settings for kind (fast tests).
func Options(kind string) map[string]string {
	switch kind {
	case "cart":
		return map[string]string{"depth": "4"}
	case "gradtree":
		return map[string]string{"depth": "3", "epochs": "8", "restarts": "1", "patience": "5"}
	case "grande", "grande-fast":
		return map[string]string{"n_estimators": "12", "depth": "3", "epochs": "5", "restarts": "1", "patience": "3"}
	case "random-forest":
		return map[string]string{"n_estimators": "7", "depth": "4"}
	}
	return nil
}

// Train fits a small model of kind on ds with protocol ("" = the kind's
// default) and returns it.
func Train(tb testing.TB, kind, protocol string, ds *data.Dataset) *model.Trained {
	tb.Helper()
	t, err := model.Train(context.Background(), ds, model.Spec{Kind: kind, Options: Options(kind), Protocol: protocol, Seed: 7})
	if err != nil {
		tb.Fatalf("training %s on %s: %v", kind, ds.Name, err)
	}
	t.Target = "target"
	return t
}

// Save trains like Train, saves the model in dir and returns the path.
func Save(tb testing.TB, dir, kind, protocol string, ds *data.Dataset) (string, *model.Trained) {
	tb.Helper()
	t := Train(tb, kind, protocol, ds)
	path := filepath.Join(dir, fmt.Sprintf("%s-%s.json", kind, ds.Task))
	if err := t.Save(path); err != nil {
		tb.Fatal(err)
	}
	loaded, err := model.Load(path)
	if err != nil {
		tb.Fatal(err)
	}
	return path, loaded
}
