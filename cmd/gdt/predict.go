package main

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/safefile"
)

func init() {
	register(command{name: "predict", summary: "predict with a saved model on a data file", run: runPredict})
}

func runPredict(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if multimodalModelArg(args) != "" {
		return runPredictMultimodal(ctx, args, stdout, stderr)
	}
	fs := newFlags("predict", "MODEL --data FILE [--out FILE.csv] [--proba] [--json] [flags]",
		"Applies a saved model to every row of FILE and writes one CSV row per input row: the\n"+
			"prediction and, with --proba, the probability of every class. Columns are matched\n"+
			"by name; extra columns (e.g. the target) are ignored. With --json the predictions are one\n"+
			"JSON document instead (class names, and with --proba the probability rows).\n"+
			"A multimodal MODEL (gdt train --model multimodal) also takes --images DIR: see gdt predict MODEL --help.", stderr)
	var df dataFlags
	df.register(fs, false)
	out := fs.String("out", "", "write predictions to this CSV file (default: standard output)")
	proba := fs.Bool("proba", false, "also write class probabilities")
	asJSON := jsonFlag(fs)
	arg, err := parseOne(fs, args, "MODEL file")
	if err != nil {
		return err
	}
	t, tab, err := loadModelData("predict", arg, &df, false)
	if err != nil {
		return err
	}
	p, err := t.PredictProba(tab)
	if err != nil {
		return fmt.Errorf("%s: %w", df.path, err)
	}
	pred := model.Decide(t.Task, p)
	write := func(w io.Writer) error {
		cw := csv.NewWriter(w)
		head := []string{"prediction"}
		if *proba && t.Task != data.Regression {
			for _, c := range t.Classes {
				head = append(head, "p_"+c)
			}
		}
		if err := cw.Write(head); err != nil {
			return err
		}
		rec := make([]string, len(head))
		for i, v := range pred {
			if t.Task == data.Regression {
				rec[0] = strconv.FormatFloat(v, 'g', 8, 64)
			} else {
				rec[0] = t.Classes[int(v)]
			}
			for c := 1; c < len(head); c++ {
				rec[c] = strconv.FormatFloat(float64(p.At(i, c-1)), 'g', 6, 32)
			}
			if err := cw.Write(rec); err != nil {
				return err
			}
		}
		cw.Flush()
		return cw.Error()
	}
	if *asJSON {
		write = func(w io.Writer) error { return writeJSON(w, predictionsJSON(arg, t, pred, p, *proba)) }
	}
	if *out == "" {
		return write(stdout)
	}
	if err := safefile.Write(*out, write); err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(stdout, map[string]any{"model": arg, "data": df.path, "out": *out, "rows": len(pred)})
	}
	fmt.Fprintf(stderr, "wrote %d predictions to %s\n", len(pred), *out)
	return nil
}

// predictionsJSON is the document of `gdt predict --json`: per row the
// predicted class name (or regression value) and, with --proba, the class
// probabilities in the order of "classes".
func predictionsJSON(path string, t *model.Trained, pred []float64, p *data.Matrix, proba bool) map[string]any {
	preds := make([]any, len(pred))
	for i, v := range pred {
		if t.Task == data.Regression {
			preds[i] = jsonFloat(v)
		} else {
			preds[i] = t.Classes[int(v)]
		}
	}
	doc := map[string]any{"model": path, "kind": t.Spec.Kind, "task": t.Task.String(), "rows": len(pred), "predictions": preds}
	if t.Task != data.Regression {
		doc["classes"] = t.Classes
		if proba {
			rows := make([][]jsonFloat, p.Rows)
			for i := range rows {
				rows[i] = make([]jsonFloat, p.Cols)
				for c := range rows[i] {
					rows[i][c] = jsonFloat(float32Decimal(p.At(i, c)))
				}
			}
			doc["proba"] = rows
		}
	}
	return doc
}

// float32Decimal returns the float64 nearest to the shortest decimal that
// identifies v as a float32, so that JSON shows 0.96551724, not
// 0.9655172228813171.
func float32Decimal(v float32) float64 {
	f, _ := strconv.ParseFloat(strconv.FormatFloat(float64(v), 'g', -1, 32), 64)
	return f
}
