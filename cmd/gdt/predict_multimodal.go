package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/gdt-ml/gdt/multimodal"
	"github.com/gdt-ml/gdt/safefile"
)

// Multimodal model files (written by `gdt train --model multimodal`) are
// not gdt-model files of package modelfile: predict, eval and show detect
// them among their positional arguments (multimodalModelArg) and hand the
// call to the functions below, which take the same flags as the tabular
// forms plus --images, --image-column, --id and --target.

// multimodalModelArg returns the first positional-looking argument that is
// a multimodal model file, or "" when there is none.
func multimodalModelArg(args []string) string {
	for _, a := range args {
		if a == "" || strings.HasPrefix(a, "-") {
			continue
		}
		if multimodal.IsTrainedFile(a) {
			return a
		}
	}
	return ""
}

// multimodalFlags are the input flags predict and eval share for
// multimodal models.
type multimodalFlags struct {
	data, images, imageCol, id, target string
	naValues                           string
}

func (m *multimodalFlags) register(fs interface {
	StringVar(*string, string, string, string)
}, withTarget bool) {
	fs.StringVar(&m.data, "data", "", "CSV file with a header row: an image column, the feature columns and (eval) the label column")
	fs.StringVar(&m.images, "images", "", "folder the image column's paths are relative to (default: FILE's folder)")
	fs.StringVar(&m.imageCol, "image-column", "", "image column (default: the training image column, else image_file, image_id, image or file)")
	fs.StringVar(&m.id, "id", "", "id column carried into the predictions (default: id or image_id, else the image column)")
	fs.StringVar(&m.naValues, "na-values", "", "comma-separated values that mean missing, besides the defaults and those given at training")
	if withTarget {
		fs.StringVar(&m.target, "target", "", "label column (default: the training target, else dx, else label)")
	}
}

// predict loads the model at path and predicts the rows of --data.
func (m *multimodalFlags) predict(ctx context.Context, path string, needLabels bool) (*multimodal.Trained, *multimodal.CSVPredictions, error) {
	if m.data == "" {
		return nil, nil, fmt.Errorf("%w: --data is required", errUsage)
	}
	t, err := multimodal.LoadTrained(path)
	if err != nil {
		return nil, nil, err
	}
	p, err := t.PredictCSV(ctx, m.data, multimodal.PredictOptions{ImagesDir: m.images, ImageColumn: m.imageCol, IDColumn: m.id,
		Target: m.target, NeedLabels: needLabels, NAValues: splitList(m.naValues)})
	if err != nil {
		return nil, nil, err
	}
	return t, p, nil
}

// runPredictMultimodal is `gdt predict MODEL --data FILE` for a multimodal
// MODEL: one CSV row per input row, in file order, with the id, the
// predicted class and the probability of every class.
func runPredictMultimodal(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("predict", "MODEL --data FILE [--images DIR] [--out FILE.csv] [--json] [flags]",
		"Applies a multimodal model to every row of FILE and writes one CSV row per input row, in file order:\n"+
			"the id column, the predicted class and the probability of every class (p_<class>). Feature columns\n"+
			"are matched by name; extra columns (e.g. the label) are ignored. With --json the predictions are one\n"+
			"JSON document instead.", stderr)
	var mf multimodalFlags
	mf.register(fs, false)
	out := fs.String("out", "", "write predictions to this CSV file (default: standard output)")
	fs.Bool("proba", true, "accepted for compatibility: class probabilities are always written for multimodal models")
	asJSON := jsonFlag(fs)
	arg, err := parseOne(fs, args, "MODEL file")
	if err != nil {
		return err
	}
	t, p, err := mf.predict(ctx, arg, false)
	if err != nil {
		return err
	}
	write := func(w io.Writer) error {
		cw := csv.NewWriter(w)
		head := []string{p.IDColumn, "prediction"}
		for _, c := range t.Classes {
			head = append(head, "p_"+c)
		}
		if err := cw.Write(head); err != nil {
			return err
		}
		rec := make([]string, len(head))
		for i, c := range p.Pred {
			rec[0], rec[1] = p.IDs[i], t.Classes[c]
			for k := range t.Classes {
				rec[2+k] = strconv.FormatFloat(float64(p.Proba.At(i, k)), 'g', 6, 32)
			}
			if err := cw.Write(rec); err != nil {
				return err
			}
		}
		cw.Flush()
		return cw.Error()
	}
	if *asJSON {
		write = func(w io.Writer) error { return writeJSON(w, multimodalPredictionsJSON(arg, t, p)) }
	}
	if *out == "" {
		return write(stdout)
	}
	if err := safefile.Write(*out, write); err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(stdout, map[string]any{"model": arg, "data": mf.data, "out": *out, "rows": len(p.Pred)})
	}
	fmt.Fprintf(stderr, "wrote %d predictions to %s\n", len(p.Pred), *out)
	return nil
}

// multimodalPredictionsJSON is the document of `gdt predict --json` for a
// multimodal model: the fields of the tabular form (predictions as class
// names, proba rows in the order of "classes") plus the ids.
func multimodalPredictionsJSON(path string, t *multimodal.Trained, p *multimodal.CSVPredictions) map[string]any {
	preds := make([]string, len(p.Pred))
	rows := make([][]jsonFloat, len(p.Pred))
	for i, c := range p.Pred {
		preds[i] = t.Classes[c]
		rows[i] = make([]jsonFloat, p.Proba.Cols)
		for k := range rows[i] {
			rows[i][k] = jsonFloat(float32Decimal(p.Proba.At(i, k)))
		}
	}
	return map[string]any{"model": path, "kind": "multimodal", "task": "multiclass", "rows": len(preds), "classes": t.Classes,
		"id_column": p.IDColumn, "ids": p.IDs, "predictions": preds, "proba": rows}
}

// runEvalMultimodal is `gdt eval MODEL --data FILE` for a multimodal MODEL:
// the model's scores on the labelled rows of FILE.
func runEvalMultimodal(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("eval", "MODEL --data FILE [--images DIR] [--target COL] [--json] [flags]",
		"Scores a saved multimodal model on the labelled rows of FILE: macro ROC-AUC (one-vs-rest), accuracy,\n"+
			"balanced accuracy and macro F1, per-class precision, recall and ROC-AUC, and the confusion matrix.", stderr)
	var mf multimodalFlags
	mf.register(fs, true)
	asJSON := jsonFlag(fs)
	arg, err := parseOne(fs, args, "MODEL file")
	if err != nil {
		return err
	}
	t, p, err := mf.predict(ctx, arg, true)
	if err != nil {
		return err
	}
	s, err := p.Score()
	if err != nil {
		return err
	}
	if *asJSON {
		perClass := make([]map[string]any, len(t.Classes))
		for k, c := range t.Classes {
			perClass[k] = map[string]any{"class": c, "rows": s.Support[k], "precision": jsonFloat(s.Precision[k]),
				"recall": jsonFloat(s.Recall[k]), "roc_auc": jsonFloat(s.ClassAUC[k])}
		}
		return writeJSON(stdout, map[string]any{"model": arg, "kind": "multimodal", "data": mf.data, "rows": s.Rows,
			"task": "multiclass", "target": p.Target, "classes": t.Classes,
			"metrics": map[string]jsonFloat{"roc_auc": jsonFloat(s.ROCAUC), "accuracy": jsonFloat(s.Accuracy),
				"balanced_accuracy": jsonFloat(s.BalancedAccuracy), "f1_macro": jsonFloat(s.F1Macro)},
			"per_class": perClass, "confusion": s.Confusion})
	}
	fmt.Fprintf(stdout, "%s: %d rows, %d classes (target %s); model %s\n\n", mf.data, s.Rows, len(t.Classes), p.Target, arg)
	fmt.Fprintln(stdout, "| metric | value |\n|---|---|")
	for _, m := range []struct {
		name string
		v    float64
	}{{"macro ROC-AUC (one-vs-rest)", s.ROCAUC}, {"accuracy", s.Accuracy}, {"balanced accuracy", s.BalancedAccuracy}, {"macro F1", s.F1Macro}} {
		fmt.Fprintf(stdout, "| %s | %s |\n", m.name, fixed4(m.v))
	}
	fmt.Fprintln(stdout, "\n| class | rows | precision | recall | ROC-AUC |\n|---|---|---|---|---|")
	for k, c := range t.Classes {
		fmt.Fprintf(stdout, "| %s | %d | %s | %s | %s |\n", c, s.Support[k], fixed4(s.Precision[k]), fixed4(s.Recall[k]), fixed4(s.ClassAUC[k]))
	}
	fmt.Fprintln(stdout, "\nconfusion matrix (rows: true class, columns: predicted class):")
	w := 0
	for _, c := range t.Classes {
		w = max(w, len(c))
	}
	for _, row := range s.Confusion {
		for _, v := range row {
			w = max(w, len(strconv.Itoa(v)))
		}
	}
	fmt.Fprintf(stdout, "%*s", w, "")
	for _, c := range t.Classes {
		fmt.Fprintf(stdout, " %*s", w, c)
	}
	fmt.Fprintln(stdout)
	for k, row := range s.Confusion {
		fmt.Fprintf(stdout, "%*s", w, t.Classes[k])
		for _, v := range row {
			fmt.Fprintf(stdout, " %*d", w, v)
		}
		fmt.Fprintln(stdout)
	}
	return nil
}

// fixed4 formats v with four decimals ("–" for NaN: a class absent from
// the labels has no ROC-AUC).
func fixed4(v float64) string {
	if math.IsNaN(v) {
		return "–"
	}
	return strconv.FormatFloat(v, 'f', 4, 64)
}

// runShowMultimodal is `gdt show MODEL` for a multimodal MODEL: the
// architecture, the parameter counts and the training facts.
func runShowMultimodal(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("show", "MODEL [--format text|json] [--out FILE] [--json]",
		"Prints what a multimodal model file holds: the image encoder, the tabular backbone, the fusion\n"+
			"head, the parameter count of every part and the training facts.", stderr)
	format := fs.String("format", "text", "text or json (the architecture summary as JSON)")
	out := fs.String("out", "", "write the rendering to this file instead of standard output")
	asJSON := jsonFlag(fs)
	arg, err := parseOne(fs, args, "MODEL file")
	if err != nil {
		return err
	}
	t, err := multimodal.LoadTrained(arg)
	if err != nil {
		return err
	}
	s := t.Summary()
	var body []byte
	switch *format {
	case "text":
		body = []byte(s.Describe())
	case "json":
		if body, err = json.MarshalIndent(s, "", "  "); err != nil {
			return err
		}
		body = append(body, '\n')
	default:
		return fmt.Errorf("%w: --format %s: multimodal models render as text or json", errUsage, *format)
	}
	if *out != "" {
		if err := safefile.WriteBytes(*out, body); err != nil {
			return err
		}
	}
	if *asJSON {
		doc := map[string]any{"file": arg, "format_version": t.Version, "kind": "multimodal", "task": "multiclass",
			"target": t.Target, "classes": t.Classes, "inputs": t.Columns, "image_column": t.ImageColumn,
			"options": t.Model.Config, "parameters": s.Params, "info": t.Info, "rendering_format": *format}
		if t.Info != nil {
			doc["created"], doc["protocol"] = t.Info.Created, t.Info.Protocol
		}
		switch {
		case *out != "":
			doc["rendering_file"] = *out
		case *format == "json":
			doc["rendering"] = json.RawMessage(body)
		default:
			doc["rendering"] = string(body)
		}
		return writeJSON(stdout, doc)
	}
	if *out != "" {
		return nil
	}
	_, err = stdout.Write(body)
	return err
}
