package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/gdt-ml/gdt/report"
)

func init() {
	register(command{name: "report", summary: "write a self-contained HTML report of a model on a data file", run: runReport})
}

func runReport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("report", "MODEL --data FILE --out DIR [--rows 0,5] [flags]",
		"Writes DIR/report.html, one self-contained page (inline SVG and CSS, no network needed):\n"+
			"data summary, metrics with confusion matrix and ROC curve (when FILE holds the target),\n"+
			"learning curves, the plain tree with thresholds in raw units, feature importance and\n"+
			"local explanations of the chosen rows (GRANDE: the top-weighted trees).", stderr)
	var df dataFlags
	df.register(fs, false)
	out := fs.String("out", "", "directory to write report.html into (created if needed)")
	rows := fs.String("rows", "0", "comma-separated 0-based data rows to explain locally (\"\" for none)")
	topK := fs.Int("top-k", 3, "GRANDE trees per local explanation")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	arg, err := parseOne(fs, args, "MODEL file")
	if err != nil {
		return err
	}
	if df.path == "" || *out == "" {
		return fmt.Errorf("%w: --data and --out are required", errUsage)
	}
	explain := []int{}
	for _, s := range splitList(*rows) {
		r, err := strconv.Atoi(s)
		if err != nil || r < 0 {
			return fmt.Errorf("%w: --rows %q: want comma-separated row numbers from 0", errUsage, *rows)
		}
		explain = append(explain, r)
	}
	t, tab, err := loadModelData("report", arg, &df, true)
	if err != nil {
		return err
	}
	y, err := report.Targets(t, tab)
	if err != nil {
		return fmt.Errorf("%s: %w", df.path, err)
	}
	path, err := report.Write(*out, t, tab, y, report.Config{Rows: explain, TopK: *topK, Model: arg, Data: df.path})
	if err != nil {
		return err
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(map[string]any{"path": path, "rows": tab.NumRows(), "explained": explain, "metrics": y != nil})
	}
	fmt.Fprintf(stdout, "wrote %s\n", path)
	return nil
}
