package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/gdt-ml/gdt/data"
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
	categorical               string
}

func (d *dataFlags) register(fs interface {
	StringVar(*string, string, string, string)
	BoolVar(*bool, string, bool, string)
}, needTarget bool) {
	fs.StringVar(&d.path, "data", "", "data file: CSV (any delimiter, .gz), ARFF or Parquet")
	if needTarget {
		fs.StringVar(&d.target, "target", "", "name of the target column (default: the last column)")
		fs.StringVar(&d.task, "task", "", "binary, multiclass or regression (default: inferred from the target)")
	}
	fs.StringVar(&d.delim, "delimiter", "", `CSV delimiter: a character, "tab", "space" (runs of blanks); default: detected`)
	fs.BoolVar(&d.header, "header", false, "the CSV file has a header row (default: detected)")
	fs.BoolVar(&d.noHeader, "no-header", false, "the CSV file has no header row; columns are named col1, col2, …")
	fs.StringVar(&d.categorical, "categorical", "", "comma-separated columns to treat as categorical even if numeric")
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
	return o, nil
}

// loadDataset reads the file and splits off the target column (the last
// column when --target is not given); it returns the target's name.
func (d *dataFlags) loadDataset() (*data.Dataset, string, error) {
	if d.path == "" {
		return nil, "", fmt.Errorf("%w: --data is required", errUsage)
	}
	o, err := d.options()
	if err != nil {
		return nil, "", err
	}
	target := d.target
	if target == "" {
		t, err := data.ReadFile(d.path, o)
		if err != nil {
			return nil, "", err
		}
		if t.NumCols() < 2 {
			return nil, "", fmt.Errorf("%s: needs at least two columns (features and a target)", d.path)
		}
		target = t.Columns[t.NumCols()-1].Name
	}
	ds, err := data.LoadDataset(d.path, target, d.task, o)
	return ds, target, err
}

func runTrain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if isMultimodalTrain(args) {
		return runTrainMultimodal(ctx, args, stdout, stderr)
	}
	fs := newFlags("train", "--data FILE [--target COL] --model KIND --out MODEL.json [--json] [flags]",
		"Fits a model on all rows of FILE (kinds that early-stop hold out --valid of them) and\n"+
			"writes one model file holding the preprocessing, the parameters and the plain tree.", stderr)
	var df dataFlags
	df.register(fs, true)
	kind := fs.String("model", "cart", "model kind: "+strings.Join(model.KindNames(), ", ")+" (gdt models lists them)")
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
	ds, target, err := df.loadDataset()
	if err != nil {
		return err
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
		fmt.Fprintf(stderr, "training %s: restart %d/%d, epoch %d, train loss %.4f, validation loss %.4f (best %.4f, %d epochs without improvement) — %s elapsed\n",
			*kind, p.Restart+1, p.Restarts, p.Epoch, p.TrainLoss, p.ValidLoss, p.BestLoss, p.Wait, time.Since(start).Round(time.Second))
	}
	t, err := model.Train(ctx, ds, model.Spec{Kind: *kind, Options: opts, Protocol: *protocol, Seed: *seed, ValidFraction: *valid, Progress: report})
	if err != nil {
		return err
	}
	t.Target = target
	t.Info["fit_seconds"] = time.Since(start).Seconds()
	if err := t.Save(*out); err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(stdout, map[string]any{
			"model_file": *out, "kind": *kind, "task": ds.Task.String(), "target": target, "classes": t.Classes,
			"rows": len(ds.Y), "columns": ds.X.NumCols(), "inputs": t.Inputs, "protocol": t.Spec.Protocol,
			"options": t.Spec.Options, "seed": *seed, "nodes": t.Learner.NumNodes(), "info": t.Info,
		})
	}
	fmt.Fprintf(stdout, "trained %s on %d rows × %d columns in %.2fs; %d nodes; saved %s\n",
		*kind, len(ds.Y), ds.X.NumCols(), time.Since(start).Seconds(), t.Learner.NumNodes(), *out)
	return nil
}
