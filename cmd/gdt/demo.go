package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/datasets"
	"github.com/gdt-ml/gdt/metrics"
	"github.com/gdt-ml/gdt/model"
)

func init() {
	register(command{name: "demo", summary: "train on built-in demo data and print the tree and its scores", run: runDemo})
}

// demoModels are the learners the demo trains, in display order.
var demoModels = []struct {
	title string
	spec  model.Spec
}{
	{"GradTree (gradient descent, depth 4, thesis defaults otherwise)", model.Spec{Kind: "gradtree", Options: map[string]string{"depth": "4"}}},
	{"CART (greedy, depth ≤ 4)", model.Spec{Kind: "cart", Options: map[string]string{"depth": "4"}}},
}

// demoResult is one trained model of `gdt demo --json`.
type demoResult struct {
	Title      string            `json:"title"`
	Kind       string            `json:"kind"`
	Options    map[string]string `json:"options"`
	FitSeconds float64           `json:"fit_seconds"`
	Nodes      int               `json:"nodes"`
	Accuracy   jsonFloat         `json:"accuracy"`
	F1Macro    jsonFloat         `json:"f1_macro"`
	ROCAUC     jsonFloat         `json:"roc_auc"`
	Tree       string            `json:"tree"`
}

func runDemo(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("demo", "[--seed N] [--json]",
		"Trains on gdt's built-in demo data (1,200 synthetic loan applications; no files needed),\n"+
			"prints each learned tree with thresholds in the raw units and its test scores.", stderr)
	seed := fs.Int64("seed", 42, "split and model seed")
	asJSON := jsonFlag(fs)
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	ds := datasets.Demo()
	trainIdx, testIdx := data.TrainTestSplit(len(ds.Y), len(ds.Y)/4, uint32(*seed))
	train, test := ds.Subset(trainIdx), ds.Subset(testIdx)
	const rule = "approved if (income >= 38000 and debt ratio < 0.45) or (housing = own and years employed >= 6), with 5% label noise"
	if !*asJSON {
		fmt.Fprintf(stdout, "Demo data: %d loan applications, %d features (%s), target %q: %v\n",
			len(ds.Y), ds.X.NumCols(), joinNames(ds.X.Names()), "decision", ds.Classes)
		fmt.Fprintf(stdout, "Generating rule (with 5%% label noise): approved if (income >= 38000 and debt ratio < 0.45)\n"+
			"                                     or (housing = own and years employed >= 6)\n")
		fmt.Fprintf(stdout, "Split: %d training rows, %d test rows (seed %d)\n", len(train.Y), len(test.Y), *seed)
	}
	var results []demoResult
	for _, m := range demoModels {
		spec := m.spec
		spec.Seed = *seed
		start := time.Now()
		t, err := model.Train(ctx, train, spec)
		if err != nil {
			return fmt.Errorf("%s: %w", m.title, err)
		}
		secs := time.Since(start).Seconds()
		p, err := t.PredictProba(test.X)
		if err != nil {
			return err
		}
		pred := model.Decide(t.Task, p)
		p1 := make([]float32, p.Rows)
		for i := range p1 {
			p1[i] = p.At(i, 1)
		}
		auc, _ := metrics.ROCAUC(test.Y, p1)
		r := demoResult{Title: m.title, Kind: spec.Kind, Options: spec.Options, FitSeconds: secs, Nodes: t.Learner.NumNodes(),
			Accuracy: jsonFloat(metrics.Accuracy(test.Y, pred)), F1Macro: jsonFloat(metrics.F1Macro(test.Y, pred, 2)),
			ROCAUC: jsonFloat(auc), Tree: t.Describe()}
		results = append(results, r)
		if !*asJSON {
			fmt.Fprintf(stdout, "\n== %s — trained in %.3fs, %d nodes\n\n%s\n\n", m.title, secs, r.Nodes, r.Tree)
			fmt.Fprintf(stdout, "test: accuracy %.3f, macro F1 %.3f, ROC-AUC %.3f\n", r.Accuracy, r.F1Macro, r.ROCAUC)
		}
	}
	if !*asJSON {
		return nil
	}
	return writeJSON(stdout, map[string]any{
		"data": map[string]any{"name": ds.Name, "rows": len(ds.Y), "features": ds.X.Names(), "target": "decision",
			"classes": ds.Classes, "rule": rule, "train_rows": len(train.Y), "test_rows": len(test.Y), "seed": *seed},
		"models": results,
	})
}

func joinNames(n []string) string {
	s := ""
	for i, v := range n {
		if i > 0 {
			s += ", "
		}
		s += v
	}
	return s
}
