package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/datasets"
	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/preprocess"
	"github.com/gdt-ml/gdt/train"
)

func init() {
	register(command{name: "train", summary: "train a model on a data file and save it", run: runTrain})
}

// optionFlags collects repeated --set key=value options for a model kind.
type optionFlags map[string]string

func (o optionFlags) String() string { return fmt.Sprint(map[string]string(o)) }
func (o optionFlags) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	if !ok || strings.TrimSpace(k) == "" {
		return fmt.Errorf("want key=value, got %q", s)
	}
	o[strings.TrimSpace(k)] = strings.TrimSpace(v)
	return nil
}

// dataFlags are the flags shared by commands that read a data file.
type dataFlags struct {
	path, target, task, delim string
	header, noHeader          bool
	categorical, drop         string
	naValues                  string
	maxInput                  string
}

func (d *dataFlags) register(fs interface {
	StringVar(*string, string, string, string)
	BoolVar(*bool, string, bool, string)
}, needTarget bool) {
	fs.StringVar(&d.path, "data", "", "data file: CSV (any delimiter, .gz), ARFF or Parquet")
	if needTarget {
		fs.StringVar(&d.target, "target", "", "name of the target column (required with --data)")
		fs.StringVar(&d.task, "task", "", "binary, multiclass or regression (default: inferred from the target)")
	}
	fs.StringVar(&d.delim, "delimiter", "", `CSV delimiter: a character, "tab", "space" (runs of blanks); default: detected`)
	fs.BoolVar(&d.header, "header", false, "the CSV file has a header row (default: detected)")
	fs.BoolVar(&d.noHeader, "no-header", false, "the CSV file has no header row; columns are named col1, col2, …")
	fs.StringVar(&d.categorical, "categorical", "", "comma-separated columns to treat as categorical even if numeric (a column whose values are mostly numbers with a few others is an error without it)")
	fs.StringVar(&d.naValues, "na-values", "", fmt.Sprintf("comma-separated values that mean missing, besides %s and the empty field (e.g. 'n/a,-,unknown')", strings.Join(data.DefaultMissing[1:], " ")))
	fs.StringVar(&d.maxInput, "max-input-bytes", "", fmt.Sprintf("refuse data files holding more bytes than this after decompression (default %d)", data.MaxInputBytes))
	if needTarget {
		fs.StringVar(&d.drop, "drop", "", "comma-separated columns to leave out of the features (e.g. a row id)")
	}
}

func (d *dataFlags) options() (data.ReadOptions, error) {
	var o data.ReadOptions
	o.Header, o.NoHeader = d.header, d.noHeader
	o.TrimSpace = true
	switch d.delim {
	case "":
	case "tab", `\t`:
		o.Delimiter = '\t'
	case "space", "whitespace":
		o.Whitespace = true
	default:
		r := []rune(d.delim)
		if len(r) != 1 {
			return o, fmt.Errorf("%w: --delimiter %q: want one character, tab or space", errUsage, d.delim)
		}
		o.Delimiter = r[0]
	}
	o.Schema.Categorical = splitList(d.categorical)
	o.NAValues = splitList(d.naValues)
	if d.maxInput != "" {
		n, err := strconv.ParseInt(d.maxInput, 10, 64)
		if err != nil || n < 1 {
			return o, fmt.Errorf("%w: --max-input-bytes %q: want a positive number of bytes", errUsage, d.maxInput)
		}
		data.MaxInputBytes = n
	}
	return o, nil
}

// loadDataset reads the file and splits off the --target column (required:
// without it the error lists the file's columns), then drops the --drop
// columns; it returns the target's name.
func (d *dataFlags) loadDataset() (*data.Dataset, string, error) {
	if d.path == "" {
		return nil, "", fmt.Errorf("%w: --data is required", errUsage)
	}
	o, err := d.options()
	if err != nil {
		return nil, "", err
	}
	if d.target == "" {
		o.Schema.LenientOthers = true // only the names are wanted
		t, err := data.ReadFile(d.path, o)
		if err != nil {
			return nil, "", err
		}
		return nil, "", fmt.Errorf("%w: --target is required with --data: name the column to predict (columns of %s: %s)",
			errUsage, d.path, strings.Join(t.Names(), ", "))
	}
	ds, err := data.LoadDataset(d.path, d.target, d.task, o)
	if err != nil {
		return nil, "", err
	}
	if err := dropColumns(ds, splitList(d.drop), d.path); err != nil {
		return nil, "", err
	}
	return ds, d.target, nil
}

// dropColumns removes the named feature columns of ds (where names the
// data for the error message).
func dropColumns(ds *data.Dataset, names []string, where string) error {
	for _, n := range names {
		j := ds.X.Index(n)
		if j < 0 {
			return fmt.Errorf("%w: --drop %q: %s has no such feature column (columns: %s)", errUsage, n, where, strings.Join(ds.X.Names(), ", "))
		}
		ds.X.Columns = append(ds.X.Columns[:j:j], ds.X.Columns[j+1:]...)
	}
	if ds.X.NumCols() == 0 {
		return fmt.Errorf("%w: --drop leaves no feature column", errUsage)
	}
	return nil
}

// idLikeColumns returns the feature columns that look like row
// identifiers: at least 20 rows, no missing value, a different value on
// every row, and text or whole numbers (a continuous measurement may well
// differ on every row).
func idLikeColumns(t *data.Table) []string {
	var out []string
	for _, c := range t.Columns {
		n := c.Len()
		if n < 20 {
			continue
		}
		unique := true
		switch c.Kind {
		case data.Numeric:
			seen := make(map[float64]bool, n)
			for _, v := range c.Num {
				if math.IsNaN(v) || v != math.Trunc(v) || seen[v] {
					unique = false
					break
				}
				seen[v] = true
			}
		default:
			unique = len(c.Levels) == n
			for _, code := range c.Codes {
				if code < 0 {
					unique = false
					break
				}
			}
		}
		if unique {
			out = append(out, c.Name)
		}
	}
	return out
}

// trainData is the data a command trains on: a registered dataset
// (--dataset, read as its recipe says) or a data file (--data, --target).
type trainData struct {
	ds      *data.Dataset
	target  string
	ignored []string // columns of the file that are not features
	source  string   // the file(s) read
}

// loadTrainData loads --dataset NAME (from the data root) or the --data
// file of df; with both or neither it is a usage error.
func loadTrainData(df *dataFlags, dsName, root string) (*trainData, error) {
	if dsName == "" {
		if df.path == "" {
			return nil, fmt.Errorf("%w: give --data FILE --target COL, or --dataset NAME (gdt datasets lists them)", errUsage)
		}
		ds, target, err := df.loadDataset()
		if err != nil {
			return nil, err
		}
		return &trainData{ds: ds, target: target, ignored: splitList(df.drop), source: df.path}, nil
	}
	if df.path != "" || df.target != "" || df.task != "" {
		return nil, fmt.Errorf("%w: --dataset %s fixes the file, target and task; drop --data, --target and --task", errUsage, dsName)
	}
	r, err := datasets.Root(root)
	if err != nil {
		return nil, err
	}
	info, err := datasets.Describe(r, dsName)
	if err != nil {
		return nil, err
	}
	ds, err := datasets.Load(r, dsName)
	if err != nil {
		return nil, err
	}
	ignored := append([]string(nil), info.Dropped...)
	if err := dropColumns(ds, splitList(df.drop), dsName); err != nil {
		return nil, err
	}
	ignored = append(ignored, splitList(df.drop)...)
	return &trainData{ds: ds, target: info.Target, ignored: ignored, source: strings.Join(info.Files, ", ")}, nil
}

// describe writes what the data is: target, task, classes, ignored
// columns, and a warning per id-like feature column.
func (td *trainData) describe(w io.Writer) {
	ds := td.ds
	fmt.Fprintf(w, "data: %s (%d rows, %d feature columns)\ntarget: %s; task: %s", td.source, len(ds.Y), ds.X.NumCols(), td.target, ds.Task)
	if ds.Task != data.Regression {
		fmt.Fprintf(w, "; classes: %s", strings.Join(ds.Classes, ", "))
	}
	fmt.Fprintln(w)
	if len(td.ignored) > 0 {
		fmt.Fprintf(w, "ignored columns: %s\n", strings.Join(td.ignored, ", "))
	}
	for _, c := range idLikeColumns(ds.X) {
		fmt.Fprintf(w, "warning: column %q has a different whole number or text on every row, like a row id; a model cannot generalise from it (--drop %s leaves it out)\n", c, c)
	}
}

func runTrain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if isMultimodalTrain(args) {
		return runTrainMultimodal(ctx, args, stdout, stderr)
	}
	fs := newFlags("train", "(--data FILE --target COL | --dataset NAME) --model KIND --out MODEL.json [--json] [flags]",
		"Fits a model on all rows of FILE (kinds that early-stop hold out --valid of them) and\n"+
			"writes one model file holding the preprocessing, the parameters and the plain tree.\n"+
			"--dataset NAME trains on a registered benchmark dataset (gdt datasets lists them) with\n"+
			"its recipe's target, column types and dropped columns. Train prints the target, task,\n"+
			"classes and ignored columns it used (on stderr; in the document with --json).", stderr)
	var df dataFlags
	df.register(fs, true)
	dsName := fs.String("dataset", "", "a registered dataset instead of --data (see gdt datasets)")
	root := fs.String("data-root", "", "benchmark data folder for --dataset (default: $GDT_DATA, else ../shared/data next to the repository)")
	kindFlag := fs.String("model", "cart", "model kind: "+strings.Join(model.KindNames(), ", ")+" (gdt models lists them); inline options as in grande[n_estimators=64,depth=4]")
	out := fs.String("out", "", "model file to write (atomically)")
	protocol := fs.String("protocol", "", "preprocessing: "+strings.Join(preprocess.ProtocolNames(), ", ")+" (default: the model kind's own; gt-paper for the thesis's)")
	seed := fs.Int64("seed", 42, "random seed")
	valid := fs.Float64("valid", 0.2, "share of rows held out for early stopping (models that use it)")
	quiet := fs.Bool("quiet", false, "no progress lines")
	asJSON := jsonFlag(fs)
	opts := optionFlags{}
	fs.Var(opts, "set", "model option key=value (repeatable), e.g. --set depth=5; gdt models KIND lists them")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, pos[0])
	}
	if *out == "" {
		return fmt.Errorf("%w: --out is required", errUsage)
	}
	kindName, kindOpts, err := kindWithOptions(*kindFlag, opts)
	if err != nil {
		return err
	}
	kind := &kindName
	td, err := loadTrainData(&df, *dsName, *root)
	if err != nil {
		return err
	}
	ds, target := td.ds, td.target
	if !*quiet {
		td.describe(stderr)
	}
	start := time.Now()
	var mu sync.Mutex
	last := time.Time{}
	report := func(p train.Progress) {
		mu.Lock()
		defer mu.Unlock()
		if *quiet || time.Since(last) < 2*time.Second {
			return
		}
		last = time.Now()
		at, waited := fmt.Sprintf("epoch %d", p.Epoch), "epochs"
		if p.Step > 0 { // checks every eval_every steps
			at, waited = fmt.Sprintf("epoch %d, step %d", p.Epoch, p.Step), "checks"
		}
		fmt.Fprintf(stderr, "training %s: restart %d/%d, %s, train loss %.4f, validation loss %.4f (best %.4f, %d %s without improvement) — %s elapsed\n",
			*kind, p.Restart+1, p.Restarts, at, p.TrainLoss, p.ValidLoss, p.BestLoss, p.Wait, waited, time.Since(start).Round(time.Second))
	}
	t, err := model.Train(ctx, ds, model.Spec{Kind: *kind, Options: kindOpts, Protocol: *protocol, Seed: *seed, ValidFraction: *valid, Progress: report})
	if err != nil {
		return err
	}
	t.Target = target
	if *dsName == "" {
		t.NAValues = data.MergeNAValues(nil, splitList(df.naValues)) // read as missing in later files too
	}
	t.Info["fit_seconds"] = time.Since(start).Seconds()
	if err := t.Save(*out); err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(stdout, map[string]any{
			"model_file": *out, "kind": *kind, "task": ds.Task.String(), "target": target, "classes": t.Classes,
			"data": td.source, "ignored_columns": nonNil(td.ignored), "id_like_columns": nonNil(idLikeColumns(ds.X)),
			"rows": len(ds.Y), "columns": ds.X.NumCols(), "inputs": t.Inputs, "protocol": t.Spec.Protocol,
			"options": t.Spec.Options, "seed": *seed, "nodes": t.Learner.NumNodes(), "info": t.Info,
		})
	}
	fmt.Fprintf(stdout, "trained %s on %d rows × %d columns in %.2fs; %d nodes; saved %s\n",
		*kind, len(ds.Y), ds.X.NumCols(), time.Since(start).Seconds(), t.Learner.NumNodes(), *out)
	return nil
}

// nonNil returns s, or an empty list for nil (so JSON shows [] not null).
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
