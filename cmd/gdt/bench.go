package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"runtime"
	"strings"

	"github.com/gdt-ml/gdt/bench"
	"github.com/gdt-ml/gdt/datasets"
	"github.com/gdt-ml/gdt/safefile"
)

func init() {
	register(command{name: "bench", summary: "run a benchmark suite under the thesis's protocol", run: runBench})
}

func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench", "SUITE [--json] [flags]",
		"Runs every model on every dataset of SUITE for the given trials, writes one CSV row per\n"+
			"(dataset, model, trial) and prints a markdown table beside the thesis's figures.\n"+
			"Suites: "+strings.Join(bench.SuiteNames(), ", ")+".", stderr)
	models := fs.String("models", "cart", "comma-separated models (see --list-models), each optionally with inline options: grande[n_estimators=64,depth=4]")
	fs.StringVar(models, "model", "cart", "same as --models")
	trials := fs.Int("trials", 0, "trials per dataset (0 = the protocol's default: 10 for the GradTree study)")
	out := fs.String("out", "", "write per-trial results to this CSV file (atomically)")
	resume := fs.Bool("resume", false, "keep the rows already in --out and run only the missing ones")
	only := fs.String("datasets", "", "comma-separated subset of the suite's datasets (full names such as grande/adult, or the part after the slash, any case)")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "parallel jobs (results do not depend on it)")
	root := fs.String("data-root", "", "benchmark data folder (default: $GDT_DATA, else ../shared/data next to the repository)")
	listModels := fs.Bool("list-models", false, "list the registered models and exit")
	quiet := fs.Bool("quiet", false, "no progress output")
	tunedPath := fs.String("tuned", "", "train each model with its tuned configuration per dataset: a JSON file or\n"+
		"directory written by `gdt tune`, or \"thesis\" for the thesis's published best configurations\n"+
		"(spec §8.1–8.2); models are named like their kind; the table compares with the optimised figures")
	sets := optionFlags{}
	fs.Var(sets, "set", "option key=value for the models whose kind declares the key (repeatable), e.g. --set n_estimators=256;\n"+
		"the results are named like grande[n_estimators=256], apart from the published configuration's")
	asJSON := jsonFlag(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *listModels {
		if *asJSON {
			list := []map[string]any{}
			for _, m := range bench.Models() {
				list = append(list, map[string]any{"name": m.Name, "help": m.Help, "thesis_column": m.Thesis, "uses_validation": m.UsesValidation})
			}
			return writeJSON(stdout, map[string]any{"models": list})
		}
		for _, m := range bench.Models() {
			fmt.Fprintf(stdout, "%-28s %s\n", m.Name, m.Help)
		}
		return nil
	}
	if len(pos) != 1 {
		fs.Usage()
		return fmt.Errorf("%w: want exactly one SUITE", errUsage)
	}
	dataRoot, err := datasets.Root(*root)
	if err != nil {
		return err
	}
	suite, err := bench.LookupSuite(pos[0])
	if err != nil {
		return err
	}
	opt := bench.Options{Suite: pos[0], Models: splitList(*models), Trials: *trials,
		Datasets: splitList(*only), Root: dataRoot, Workers: *workers}
	if *resume {
		if *out == "" {
			return fmt.Errorf("%w: --resume needs --out", errUsage)
		}
		f, err := os.Open(*out)
		switch {
		case errors.Is(err, iofs.ErrNotExist):
		case err != nil:
			return err
		default:
			opt.Done, err = bench.ReadCSV(f, *out)
			f.Close()
			if err != nil {
				return err
			}
		}
	}
	if *tunedPath != "" {
		if len(sets) > 0 || strings.Contains(*models, "[") {
			return fmt.Errorf("%w: --set or inline options cannot be combined with --tuned (a tuned configuration fixes every option)", errUsage)
		}
	} else if opt.Models, err = benchModels(*models, sets); err != nil {
		return err
	}
	names, err := suite.Select(opt.Datasets)
	if err != nil {
		return err
	}
	nTrials := *trials
	if nTrials <= 0 {
		nTrials = suite.Protocol.DefaultTrials()
	}
	label, title := "bench "+pos[0], pos[0]
	if *tunedPath != "" {
		label += " (tuned)"
		title += " — tuned configurations (" + *tunedPath + ")"
	}
	prog := newProgress(stderr, len(names)*nTrials, label, *quiet)
	opt.Progress = prog.update
	// fresh holds every row computed so far (checkpointed after every fit).
	var fresh []bench.Result
	if *out != "" {
		// Checkpoint after every fit: the file always holds the rows read
		// back plus every row computed so far.
		opt.OnResult = func(r bench.Result) {
			fresh = append(fresh, r)
			rows := bench.Merge(opt.Done, fresh)
			if err := safefile.Write(*out, func(w io.Writer) error { return bench.WriteCSV(w, rows) }); err != nil {
				fmt.Fprintf(stderr, "warning: checkpoint of %s failed: %v\n", *out, err)
			}
		}
	}
	var (
		results []bench.Result
		runErr  error
		missing []string
	)
	if *tunedPath == "" {
		results, runErr = bench.Run(ctx, opt)
	} else {
		var tuned []bench.Tuned
		if tuned, err = loadTuned(*tunedPath, opt.Models); err != nil {
			return err
		}
		results, opt.Models, suite, missing, runErr = bench.RunTuned(ctx, opt, tuned)
	}
	prog.finish()
	if *out != "" && len(results)+len(fresh) > 0 {
		// the checkpointed rows too: an interrupted run must not write back
		// fewer rows than its last checkpoint held
		rows := bench.Merge(bench.Merge(opt.Done, fresh), results)
		if err := safefile.Write(*out, func(w io.Writer) error { return bench.WriteCSV(w, rows) }); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "wrote %d rows to %s\n", len(rows), *out)
	}
	if runErr != nil {
		return runErr
	}
	if len(missing) > 0 {
		fmt.Fprintf(stderr, "no tuned configuration (skipped): %s\n", strings.Join(missing, "; "))
	}
	failed := 0
	for _, r := range results {
		if r.Err != "" {
			failed++
			if failed <= 5 {
				fmt.Fprintf(stderr, "failed: %s %s trial %d: %s\n", r.Dataset, r.Model, r.Trial, r.Err)
			}
		}
	}
	if *asJSON {
		if err := writeJSON(stdout, benchJSON(pos[0], suite, opt.Models, names, results, failed)); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(stdout, "### %s — macro F1 (mean ± std over trials), %s protocol\n\n", title, suite.Protocol.Name())
		if err := bench.WriteMarkdown(stdout, suite, opt.Models, results); err != nil {
			return err
		}
		if bench.HasMetricsTable(pos[0]) {
			fmt.Fprintln(stdout)
			if err := bench.WriteMetricsTable(stdout, pos[0], opt.Models, results); err != nil {
				return err
			}
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d trials failed", failed, len(results))
	}
	return nil
}

// benchCell is one (dataset, model) entry of `gdt bench --json`: macro F1
// over the trials beside the thesis's figure for the model's column.
type benchCell struct {
	Dataset    string     `json:"dataset"`
	Display    string     `json:"display"`
	Model      string     `json:"model"`
	F1Macro    meanStd    `json:"f1_macro"`
	Trials     int        `json:"trials"`
	Failed     int        `json:"failed"`
	Nodes      jsonFloat  `json:"nodes"`
	FitSeconds jsonFloat  `json:"fit_seconds"`
	Thesis     *jsonFloat `json:"thesis,omitempty"`
	ThesisStd  *jsonFloat `json:"thesis_std,omitempty"`
	Delta      *jsonFloat `json:"delta,omitempty"` // mean − thesis
}

// benchJSON is the document of `gdt bench --json`: the aggregated cells in
// suite order and every per-trial result.
func benchJSON(name string, suite *bench.Suite, models, names []string, results []bench.Result, failed int) map[string]any {
	agg := bench.Aggregate(results)
	cells := []benchCell{}
	for _, d := range names {
		e, _ := suite.Entry(d)
		for _, m := range models {
			c := agg[d][m]
			if c == nil {
				continue
			}
			cell := benchCell{Dataset: d, Display: e.Display, Model: m, F1Macro: meanStd{jsonFloat(c.Mean), jsonFloat(c.Std)},
				Trials: c.Trials, Failed: c.Failed, Nodes: jsonFloat(c.Nodes), FitSeconds: jsonFloat(c.FitSecs)}
			if mod, err := bench.Lookup(m); err == nil && mod.Thesis != "" {
				if tv, ok := e.Thesis[mod.Thesis]; ok {
					t, delta := jsonFloat(tv), jsonFloat(c.Mean-tv)
					cell.Thesis, cell.Delta = &t, &delta
					if sv, ok := e.ThesisStd[mod.Thesis]; ok {
						sd := jsonFloat(sv)
						cell.ThesisStd = &sd
					}
				}
			}
			cells = append(cells, cell)
		}
	}
	trials := make([]map[string]any, len(results))
	for i, r := range results {
		trials[i] = map[string]any{"dataset": r.Dataset, "model": r.Model, "trial": r.Trial, "seed": r.Seed, "task": r.Task,
			"f1_macro": jsonFloat(r.F1Macro), "accuracy": jsonFloat(r.Accuracy), "balanced_accuracy": jsonFloat(r.BalancedAccuracy),
			"roc_auc": jsonFloat(r.ROCAUC), "r2": jsonFloat(r.R2), "mse": jsonFloat(r.MSE), "fit_seconds": jsonFloat(r.FitSeconds),
			"predict_seconds": jsonFloat(r.PredictSeconds), "nodes": r.NNodes, "train_rows": r.NTrain, "test_rows": r.NTest, "error": r.Err}
	}
	thesisTable := ""
	if len(suite.Entries) > 0 {
		thesisTable = suite.Entries[0].ThesisTable
	}
	return map[string]any{"suite": name, "protocol": suite.Protocol.Name(), "models": models, "datasets": names,
		"thesis_table": thesisTable, "cells": cells, "results": trials, "failed": failed}
}
