package gdt_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/gdt-ml/gdt"
	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/datasets"
	"github.com/gdt-ml/gdt/metrics"
)

// demoSplit returns the built-in demo data (1,200 synthetic loan
// applications with numeric and categorical columns) split into 900
// training and 300 test rows.
func demoSplit() (train, test *data.Dataset) {
	ds := datasets.Demo()
	tr, te := data.TrainTestSplit(len(ds.Y), 300, 42)
	return ds.Subset(tr), ds.Subset(te)
}

// The same contract for every estimator: fit on a raw table with
// categorical columns (preprocessed as in the thesis), predict, score.
func Example() {
	train, test := demoSplit()
	ctx := context.Background()
	for _, e := range []gdt.Estimator{
		&gdt.GradTree{Config: gdt.GradTreeConfig{Depth: 4, Restarts: 2, MaxEpochs: 200}},
		&gdt.GRANDE{Config: gdt.GRANDEConfig{Trees: 16, Depth: 3, MaxEpochs: 20}},
		&gdt.CART{Config: gdt.DefaultCARTConfig()},
		&gdt.RandomForest{Config: gdt.RandomForestConfig{Trees: 10, MaxDepth: 5}},
	} {
		if err := e.Fit(ctx, train); err != nil {
			log.Fatal(err)
		}
		pred, err := e.Predict(test.X)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%-13s accuracy %.3f\n", e.Kind(), metrics.Accuracy(test.Y, pred))
	}
	// Output:
	// gradtree      accuracy 0.937
	// grande        accuracy 0.943
	// cart          accuracy 0.923
	// random-forest accuracy 0.953
}

// GradTree learns one hard tree by gradient descent; the zero Config is
// the thesis's default (depth 10, 5 restarts for binary tasks, …). Here a
// small tree with one restart keeps the example fast.
func ExampleGradTree() {
	train, test := demoSplit()
	m := &gdt.GradTree{Config: gdt.GradTreeConfig{Depth: 4, Restarts: 2, MaxEpochs: 200}}
	if err := m.Fit(context.Background(), train); err != nil {
		log.Fatal(err)
	}
	proba, err := m.PredictProba(test.X)
	if err != nil {
		log.Fatal(err)
	}
	labels, _ := m.PredictLabels(test.X)
	fmt.Println("classes:", m.Classes())
	fmt.Printf("first row: %s (p = %.2f)\n", labels[0], proba[0][1])
	fmt.Println("nodes:", m.NumNodes())
	// Output:
	// classes: [rejected approved]
	// first row: approved (p = 0.93)
	// nodes: 15
}

// The thesis's defaults, spelled out for a binary task.
func ExampleDefaultGradTreeConfig() {
	c := gdt.DefaultGradTreeConfig(data.Binary)
	fmt.Println(c.Depth, c.LRIndex, c.LRValues, c.LRLeaf, c.Split, c.Restarts, c.Patience, c.Loss)
	// Output:
	// 10 0.05 0.01 0.005 sigmoid 5 200 crossentropy
}

// GRANDE's instance-wise weighted ensemble; the zero Config is the
// published default (2048 trees of depth 6). A small ensemble keeps the
// example fast.
func ExampleGRANDE() {
	train, test := demoSplit()
	m := &gdt.GRANDE{Config: gdt.GRANDEConfig{Trees: 16, Depth: 3, MaxEpochs: 20}}
	if err := m.Fit(context.Background(), train); err != nil {
		log.Fatal(err)
	}
	pred, err := m.Predict(test.X)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("accuracy %.3f with %d trees\n", metrics.Accuracy(test.Y, pred), m.Config.Trees)
	// The published defaults, as the zero Config resolves them:
	d := gdt.DefaultGRANDEConfig(data.Binary)
	fmt.Println(d.Trees, d.Depth, d.LRWeights, d.SelectedVariables, d.Loss, d.FocalGamma, d.BatchSize, d.Patience)
	// Output:
	// accuracy 0.943 with 16 trees
	// 2048 6 0.005 0.8 focal 2 64 25
}

// CART, the thesis's greedy baseline, prints as rules in raw units.
func ExampleCART() {
	train, _ := demoSplit()
	m := &gdt.CART{Config: gdt.CARTConfig{MaxDepth: 2, Seed: 42}}
	if err := m.Fit(context.Background(), train); err != nil {
		log.Fatal(err)
	}
	fmt.Println(m)
	// Output:
	// if income <= 37950:
	//     if housing != own:
	//         → rejected (p = 0.94, n = 382)
	//     else:
	//         → approved (p = 0.61, n = 184)
	// else:
	//     if debt ratio <= 0.445:
	//         → approved (p = 0.97, n = 227)
	//     else:
	//         → rejected (p = 0.72, n = 107)
}

// Plain float64 rows work too: columns are named x0, x1, …
func ExampleCART_FitMatrix() {
	X := [][]float64{{1, 10}, {2, 20}, {3, 10}, {4, 20}, {5, 10}, {6, 20}}
	y := []float64{0, 0, 0, 1, 1, 1}
	m := &gdt.CART{}
	if err := m.FitMatrix(context.Background(), X, y, data.Binary); err != nil {
		log.Fatal(err)
	}
	pred, err := m.PredictMatrix([][]float64{{1.5, 0}, {5.5, 0}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(pred)
	fmt.Println(m)
	// Output:
	// [0 1]
	// if x0 <= 3.5:
	//     → 0 (p = 1.00, n = 3)
	// else:
	//     → 1 (p = 1.00, n = 3)
}

// A random forest of scikit-learn-identical CART trees.
func ExampleRandomForest() {
	train, test := demoSplit()
	m := &gdt.RandomForest{Config: gdt.RandomForestConfig{Trees: 10, MaxDepth: 5}}
	if err := m.Fit(context.Background(), train); err != nil {
		log.Fatal(err)
	}
	pred, err := m.Predict(test.X)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("accuracy %.3f\n", metrics.Accuracy(test.Y, pred))
	// Output:
	// accuracy 0.953
}

// Text class labels: NewClassification sorts and encodes them.
func ExampleNewClassification() {
	X, _ := gdt.TableOf([][]float64{{1}, {2}, {3}, {4}, {5}, {6}}, []string{"dose"})
	ds, err := gdt.NewClassification(X, []string{"low", "low", "low", "high", "high", "high"})
	if err != nil {
		log.Fatal(err)
	}
	m := &gdt.CART{}
	if err := m.Fit(context.Background(), ds); err != nil {
		log.Fatal(err)
	}
	labels, _ := m.PredictLabels(X)
	fmt.Println(ds.Task, ds.Classes, labels)
	// Output:
	// binary [high low] [low low low high high high]
}

// Save writes a versioned model file; Load returns the estimator of the
// file's kind with its Config, predicting exactly as before.
func ExampleLoad() {
	train, test := demoSplit()
	m := &gdt.CART{Config: gdt.CARTConfig{MaxDepth: 4, Seed: 42}}
	if err := m.Fit(context.Background(), train); err != nil {
		log.Fatal(err)
	}
	dir, _ := os.MkdirTemp("", "gdt-example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "loans.gdt.json")
	if err := m.Save(path); err != nil {
		log.Fatal(err)
	}
	loaded, err := gdt.Load(path)
	if err != nil {
		log.Fatal(err)
	}
	a, _ := m.Predict(test.X)
	b, _ := loaded.Predict(test.X)
	same := len(a) == len(b)
	for i := range a {
		same = same && a[i] == b[i]
	}
	c := loaded.(*gdt.CART)
	fmt.Println(loaded.Kind(), c.Config.MaxDepth, c.Config.Seed, same)
	// Output:
	// cart 4 42 true
}
