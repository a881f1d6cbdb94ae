package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/gdt-ml/gdt/bench"
	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/datasets"
	"github.com/gdt-ml/gdt/metrics"
	"github.com/gdt-ml/gdt/preprocess"
)

func init() {
	register(command{name: "eval", summary: "evaluate models on a data file (k-fold or holdout)", run: runEval})
}

func runEval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if multimodalModelArg(args) != "" {
		return runEvalMultimodal(ctx, args, stdout, stderr)
	}
	fs := newFlags("eval", "--data FILE [--target COL] --models LIST [--set K=V] [--folds K | --test-size F] [--json] [flags]",
		"Scores models on FILE: stratified k-fold cross-validation (--folds) or repeated random\n"+
			"holdout splits (--test-size, --trials). Preprocessing is fitted on each training part only.\n"+
			"FILE may also be a benchmark dataset name (e.g. adult, grande/phoneme) with --dataset.\n"+
			"gdt eval MODEL --data FILE scores a saved multimodal model instead (see gdt eval MODEL --help).", stderr)
	var df dataFlags
	df.register(fs, true)
	dsName := fs.String("dataset", "", "a benchmark dataset name instead of --data (see gdt datasets)")
	root := fs.String("data-root", "", "benchmark data folder for --dataset")
	models := fs.String("models", "cart", "comma-separated models (gdt bench --list-models), each optionally with inline options: grande[n_estimators=64,depth=4]")
	fs.StringVar(models, "model", "cart", "same as --models")
	sets := optionFlags{}
	fs.Var(sets, "set", "option key=value for the models whose kind declares the key (repeatable); inline options win")
	folds := fs.Int("folds", 5, "k for k-fold cross-validation (0 = use --test-size holdout)")
	testSize := fs.Float64("test-size", 0.2, "test share for holdout evaluation (with --folds 0)")
	trials := fs.Int("trials", 1, "holdout repetitions (seeds seed, seed+1, …)")
	valid := fs.Float64("valid", 0.2, "validation share inside each training part (early-stopping models)")
	protocol := fs.String("protocol", "gr-paper", "preprocessing, fitted on each training part: "+strings.Join(preprocess.ProtocolNames(), ", "))
	seed := fs.Uint("seed", 42, "split seed")
	asJSON := jsonFlag(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, pos[0])
	}
	names, err := benchModels(*models, sets)
	if err != nil {
		return err
	}
	td, err := loadTrainData(&df, *dsName, *root)
	if err != nil {
		return err
	}
	ds := td.ds
	var proto bench.Protocol
	if *folds > 0 {
		proto = bench.CVProtocol{K: *folds, ValidFraction: *valid, Seed: uint32(*seed), Pipeline: *protocol}
	} else {
		proto = bench.HoldoutProtocol{TestFraction: *testSize, ValidFraction: *valid, Seed: uint32(*seed), Pipeline: *protocol}
	}
	def := &bench.Suite{Name: "eval", Protocol: proto, ModelSeed: int(*seed),
		Entries:  []datasets.SuiteEntry{{Dataset: ds.Name, Display: ds.Name}},
		LoadFunc: func(string, string) (*data.Dataset, error) { return ds, nil }}
	n := *trials
	if *folds > 0 {
		n = *folds
	}
	results, err := bench.Run(ctx, bench.Options{Def: def, Models: names, Trials: n})
	if err != nil {
		return err
	}
	var summaries []evalModel
	for _, m := range names {
		var f1, acc, bal, auc, r2, mse, nodes, secs []float64
		var folds []evalFold
		for _, r := range results {
			if r.Model != m {
				continue
			}
			if r.Err != "" {
				return fmt.Errorf("%s fold %d: %s", m, r.Trial, r.Err)
			}
			f1, acc, bal, auc = append(f1, r.F1Macro), append(acc, r.Accuracy), append(bal, r.BalancedAccuracy), append(auc, r.ROCAUC)
			r2, mse = append(r2, r.R2), append(mse, r.MSE)
			nodes, secs = append(nodes, float64(r.NNodes)), append(secs, r.FitSeconds)
			folds = append(folds, evalFold{Trial: r.Trial, Seed: r.Seed, Train: r.NTrain, Test: r.NTest, F1Macro: jsonFloat(r.F1Macro),
				Accuracy: jsonFloat(r.Accuracy), BalancedAccuracy: jsonFloat(r.BalancedAccuracy), ROCAUC: jsonFloat(r.ROCAUC),
				R2: jsonFloat(r.R2), MSE: jsonFloat(r.MSE), Nodes: r.NNodes, FitSeconds: r.FitSeconds})
		}
		ms := func(v []float64) meanStd { return meanStd{jsonFloat(metrics.Mean(v)), jsonFloat(metrics.Std(v, 0))} }
		e := evalModel{Model: m, Nodes: metrics.Mean(nodes), FitSeconds: metrics.Mean(secs), Folds: folds, Metrics: map[string]meanStd{}}
		if ds.Task == data.Regression {
			e.Metrics["r2"], e.Metrics["mse"] = ms(r2), ms(mse)
		} else {
			e.Metrics["f1_macro"], e.Metrics["accuracy"], e.Metrics["balanced_accuracy"], e.Metrics["roc_auc"] = ms(f1), ms(acc), ms(bal), ms(auc)
		}
		summaries = append(summaries, e)
	}
	if *asJSON {
		return writeJSON(stdout, map[string]any{"dataset": ds.Name, "rows": len(ds.Y), "features": ds.X.NumCols(),
			"task": ds.Task.String(), "protocol": proto.Name(), "models": summaries})
	}
	fmt.Fprintf(stdout, "%s: %d rows, %d features, %s; %s\n\n", ds.Name, len(ds.Y), ds.X.NumCols(), ds.Task, proto.Name())
	if ds.Task == data.Regression {
		fmt.Fprintln(stdout, "| model | R² | MSE | nodes | fit s |\n|---|---|---|---|---|")
	} else {
		fmt.Fprintln(stdout, "| model | macro F1 | accuracy | balanced acc. | ROC-AUC | nodes | fit s |\n|---|---|---|---|---|---|---|")
	}
	for _, e := range summaries {
		ms := func(k string) string { return fmt.Sprintf("%.4f ± %.4f", e.Metrics[k].Mean, e.Metrics[k].Std) }
		if ds.Task == data.Regression {
			fmt.Fprintf(stdout, "| %s | %s | %s | %.0f | %.3f |\n", e.Model, ms("r2"), ms("mse"), e.Nodes, e.FitSeconds)
		} else {
			fmt.Fprintf(stdout, "| %s | %s | %s | %s | %s | %.0f | %.3f |\n", e.Model, ms("f1_macro"), ms("accuracy"), ms("balanced_accuracy"), ms("roc_auc"), e.Nodes, e.FitSeconds)
		}
	}
	return nil
}

// evalModel is one model's entry in `gdt eval --json`: metrics as mean and
// std over the folds or trials (classification: f1_macro, accuracy,
// balanced_accuracy, roc_auc; regression: r2, mse) and every fold.
type evalModel struct {
	Model      string             `json:"model"`
	Metrics    map[string]meanStd `json:"metrics"`
	Nodes      float64            `json:"nodes"`
	FitSeconds float64            `json:"fit_seconds"`
	Folds      []evalFold         `json:"folds"`
}

// evalFold is one fold or holdout trial.
type evalFold struct {
	Trial            int       `json:"trial"`
	Seed             int       `json:"seed"`
	Train            int       `json:"train_rows"`
	Test             int       `json:"test_rows"`
	F1Macro          jsonFloat `json:"f1_macro"`
	Accuracy         jsonFloat `json:"accuracy"`
	BalancedAccuracy jsonFloat `json:"balanced_accuracy"`
	ROCAUC           jsonFloat `json:"roc_auc"`
	R2               jsonFloat `json:"r2"`
	MSE              jsonFloat `json:"mse"`
	Nodes            int       `json:"nodes"`
	FitSeconds       float64   `json:"fit_seconds"`
}
