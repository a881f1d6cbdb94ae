package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/grande"
	"github.com/gdt-ml/gdt/interpret"
	"github.com/gdt-ml/gdt/model"
)

func init() {
	register(command{name: "explain", summary: "explain one prediction of a GRANDE model: the trees that carry it", run: runExplain})
}

func runExplain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("explain", "MODEL --data FILE --row N [--top-k 3] [--importance] [--json]",
		"Explains the prediction of a GRANDE model for one row of FILE (spec §7.4): the trees\n"+
			"ranked by their instance-wise weight, the top ones printed as plain trees with\n"+
			"conditions in raw units, and the share of the prediction each carries. The trees are\n"+
			"pruned with the rows of FILE (branches no row of FILE reaches are dropped).\n"+
			"With --importance it also prints the global feature importance (split statistics).\n"+
			"Single-tree models (gradtree, cart) are their own explanation: see `gdt show`.", stderr)
	var df dataFlags
	df.register(fs, false)
	row := fs.Int("row", 0, "0-based row of FILE to explain")
	topK := fs.Int("top-k", 3, "number of trees to show")
	importance := fs.Bool("importance", false, "also print the global feature importance")
	noPrune := fs.Bool("no-prune", false, "show the trees unpruned")
	asJSON := jsonFlag(fs)
	arg, err := parseOne(fs, args, "MODEL file")
	if err != nil {
		return err
	}
	if *topK < 1 {
		return fmt.Errorf("%w: --top-k %d: want at least 1", errUsage, *topK)
	}
	t, tab, err := loadModelData("explain", arg, &df, false)
	if err != nil {
		return err
	}
	g, ok := t.Learner.(*grande.Model)
	if !ok {
		return fmt.Errorf("%s is a %s model; explain works on grande models (a single tree is its own explanation: gdt show %s)", arg, t.Spec.Kind, arg)
	}
	if *row < 0 || *row >= tab.NumRows() {
		return fmt.Errorf("%w: --row %d: %s has rows 0…%d", errUsage, *row, df.path, tab.NumRows()-1)
	}
	X, err := t.Transform(tab)
	if err != nil {
		return fmt.Errorf("%s: %w", df.path, err)
	}
	x := X.Data[*row*X.Cols : (*row+1)*X.Cols]
	pruneX := X
	if *noPrune {
		pruneX = nil
	}
	ex, err := g.Explain(x, *topK, pruneX)
	if err != nil {
		return err
	}
	one := &data.Matrix{Rows: 1, Cols: X.Cols, Data: x}
	proba, err := t.Learner.PredictProba(one)
	if err != nil {
		return err
	}
	pred := model.Decide(t.Task, proba)[0]
	label := fmt.Sprint(pred)
	if t.Task != data.Regression && int(pred) < len(t.Classes) {
		label = t.Classes[int(pred)]
	}
	view := g.ViewOptions(t.Pipeline, t.Classes)
	var imp []interpret.Importance
	if *importance {
		imp = g.FeatureImportance(t.Pipeline, nil)
	}
	if *asJSON {
		return writeJSON(stdout, map[string]any{
			"model": arg, "row": *row, "prediction": label, "probabilities": proba.Data,
			"explanation": ex, "importance": imp,
		})
	}
	fmt.Fprintf(stdout, "row %d of %s: prediction %s\n", *row, df.path, label)
	if t.Task != data.Regression {
		parts := make([]string, len(proba.Data))
		for c, p := range proba.Data {
			name := fmt.Sprint(c)
			if c < len(t.Classes) {
				name = t.Classes[c]
			}
			parts[c] = fmt.Sprintf("%s %.3f", name, p)
		}
		fmt.Fprintf(stdout, "probabilities: %s\n", strings.Join(parts, ", "))
	}
	text, err := ex.Text(view)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout)
	fmt.Fprint(stdout, text)
	if *importance {
		fmt.Fprintln(stdout, "\nglobal feature importance (share of training rows routed through a split on the column):")
		for _, im := range imp {
			fmt.Fprintf(stdout, "  %-30s usage %.3f  splits %d\n", im.Column, im.Usage, im.Splits)
		}
	}
	return nil
}
