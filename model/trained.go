package model

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/modelfile"
	"github.com/gdt-ml/gdt/preprocess"
	"github.com/gdt-ml/gdt/train"
)

// Spec says what to train.
type Spec struct {
	Kind     string            // learner kind, e.g. "cart"
	Options  map[string]string // kind options, e.g. {"depth": "10"}
	Protocol string            // preprocessing protocol (preprocess.ProtocolNames); "" = the kind's default
	Seed     int64             // model seed
	// ValidFraction is the share of the given rows held out for early
	// stopping when the kind uses a validation split (default 0.2).
	ValidFraction float64
	// Progress, if set, receives per-epoch reports of learners that make
	// them (ProgressSetter).
	Progress func(train.Progress) `json:"-"`
}

// Trained is a fitted model ready to predict on raw tables: the input
// schema, the fitted preprocessing pipeline and the learner.
type Trained struct {
	Spec    Spec
	Task    data.Task
	Target  string
	Classes []string
	Inputs  []modelfile.Column
	// NAValues are the text values declared missing when the training
	// data was read (data.ReadOptions.NAValues), stored in the model file
	// so that data read for the model later uses them too (ReadOptions).
	NAValues []string
	Pipeline *preprocess.Pipeline
	Learner  Learner
	Info     map[string]any
}

// Train fits spec on the whole dataset ds (holding out a validation share
// inside it when the kind wants one).
func Train(ctx context.Context, ds *data.Dataset, spec Spec) (*Trained, error) {
	kind, err := LookupKind(spec.Kind)
	if err != nil {
		return nil, err
	}
	if spec.Protocol == "" {
		spec.Protocol = kind.DefaultProtocol
	}
	if spec.Protocol == "" {
		spec.Protocol = "gt-paper"
	}
	newPipe, err := preprocess.Protocol(spec.Protocol)
	if err != nil {
		return nil, err
	}
	learner, err := kind.New(spec.Options, spec.Seed)
	if err != nil {
		return nil, err
	}
	if ps, ok := learner.(ProgressSetter); ok && spec.Progress != nil {
		ps.SetProgress(spec.Progress)
	}
	n := len(ds.Y)
	if n == 0 {
		return nil, fmt.Errorf("dataset %s has no rows", ds.Name)
	}
	trainIdx := make([]int, n)
	for i := range trainIdx {
		trainIdx[i] = i
	}
	var validIdx []int
	if kind.UsesValidation {
		frac := spec.ValidFraction
		if frac <= 0 {
			frac = 0.2
		}
		if frac >= 1 {
			return nil, fmt.Errorf("validation fraction %g: must be below 1", frac)
		}
		nv := int(frac * float64(n))
		if nv < 1 || n-nv < 2 {
			return nil, fmt.Errorf("dataset %s has %d rows: too few to hold out a validation split", ds.Name, n)
		}
		trainIdx, validIdx = data.TrainTestSplit(n, nv, uint32(spec.Seed))
	}
	pipe := newPipe(preprocess.Options{Task: ds.Task, Seed: uint32(spec.Seed)})
	sub := ds.Subset(trainIdx)
	xtr, ytr, err := pipe.FitTransform(sub.X, sub.Y)
	if err != nil {
		return nil, err
	}
	prob := Problem{Task: ds.Task, NumClasses: ds.NumClasses(), Features: pipe.FeatureNames()}
	var valid *Data
	if validIdx != nil {
		v := ds.Subset(validIdx)
		xv, err := pipe.Transform(v.X)
		if err != nil {
			return nil, err
		}
		valid = &Data{X: xv, Y: v.Y}
	}
	if err := learner.Fit(ctx, prob, &Data{X: xtr, Y: ytr}, valid); err != nil {
		return nil, err
	}
	if pipe, err = Snap(pipe, sub.X, learner); err != nil {
		return nil, err
	}
	t := &Trained{Spec: spec, Task: ds.Task, Classes: ds.Classes, Pipeline: pipe, Learner: learner,
		Info: map[string]any{"train_rows": len(trainIdx), "valid_rows": len(validIdx), "resampled_rows": pipe.Resampled}}
	for _, c := range ds.X.Columns {
		col := modelfile.Column{Name: c.Name, Kind: c.Kind.String()}
		if c.Kind == data.Categorical {
			col.Levels = c.Levels
		}
		t.Inputs = append(t.Inputs, col)
	}
	return t, nil
}

// Schema returns the data.Schema that reads new files with the training types.
func (t *Trained) Schema() data.Schema {
	var s data.Schema
	for _, c := range t.Inputs {
		if c.Kind == "categorical" {
			s.Categorical = append(s.Categorical, c.Name)
		} else {
			s.Numeric = append(s.Numeric, c.Name)
		}
	}
	return s
}

// ReadOptions returns opt set up to read a data file for the model: the
// training types of the input columns (Schema; columns the model does not
// use are typed leniently) and the training data's missing markers merged
// with those opt already declares (NAValues).
func (t *Trained) ReadOptions(opt data.ReadOptions) data.ReadOptions {
	opt.Schema = t.Schema()
	opt.Schema.LenientOthers = true
	opt.NAValues = data.MergeNAValues(t.NAValues, opt.NAValues)
	return opt
}

// check verifies that X holds every input column with the right kind.
func (t *Trained) check(X *data.Table) error {
	var missing []string
	for _, c := range t.Inputs {
		col := X.Col(c.Name)
		if col == nil {
			missing = append(missing, c.Name)
			continue
		}
		if col.Kind.String() != c.Kind {
			return fmt.Errorf("column %q is %s, the model was trained on a %s column", c.Name, col.Kind, c.Kind)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("input lacks column(s) %s the model needs (it has: %s)", quoteList(missing), quoteList(X.Names()))
	}
	return nil
}

func quoteList(s []string) string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = fmt.Sprintf("%q", v)
	}
	return strings.Join(q, ", ")
}

// Transform applies the fitted pipeline to raw rows.
func (t *Trained) Transform(X *data.Table) (*data.Matrix, error) {
	return t.TransformRows(X, 0)
}

// TransformRows is Transform for rows that continue a longer input (a
// chunk of a file): row i of X is called row first+i in error messages.
func (t *Trained) TransformRows(X *data.Table, first int) (*data.Matrix, error) {
	if err := t.check(X); err != nil {
		return nil, err
	}
	m := data.NewMatrix(X.NumRows(), t.Pipeline.NumFeatures())
	if err := t.Pipeline.TransformInto(m, X, first); err != nil {
		return nil, err
	}
	return m, nil
}

// PredictProba returns class probabilities (or regression predictions) for
// the raw rows of X.
func (t *Trained) PredictProba(X *data.Table) (*data.Matrix, error) {
	m, err := t.Transform(X)
	if err != nil {
		return nil, err
	}
	return t.Learner.PredictProba(m)
}

// Predict returns class indices (binary: p > 0.5) or regression values.
func (t *Trained) Predict(X *data.Table) ([]float64, error) {
	p, err := t.PredictProba(X)
	if err != nil {
		return nil, err
	}
	return Decide(t.Task, p), nil
}

// Decide turns PredictProba output into predictions: for binary tasks 1
// iff p(class 1) > 0.5, for multiclass the first most probable class, for
// regression the value itself.
func Decide(task data.Task, p *data.Matrix) []float64 {
	out := make([]float64, p.Rows)
	for i := range out {
		row := p.Row(i)
		switch task {
		case data.Regression:
			out[i] = float64(row[0])
		case data.Binary:
			if row[1] > 0.5 {
				out[i] = 1
			}
		default:
			best := 0
			for c, v := range row {
				if v > row[best] {
					best = c
				}
			}
			out[i] = float64(best)
		}
	}
	return out
}

// Describe renders the learner readably when it knows how (thresholds in
// raw units where the learner supports it).
func (t *Trained) Describe() string {
	if r, ok := t.Learner.(Renderer); ok {
		b, err := r.Render("text", t.Pipeline, t.Classes)
		if err != nil {
			return fmt.Sprintf("(cannot render the %s model: %v)", t.Spec.Kind, err)
		}
		return strings.TrimRight(string(b), "\n")
	}
	if d, ok := t.Learner.(Describer); ok {
		return d.Describe(t.Pipeline.FeatureNames(), t.Classes)
	}
	return fmt.Sprintf("%s model with %d nodes", t.Spec.Kind, t.Learner.NumNodes())
}

// Renderer is implemented by learners that render themselves in several
// formats (text, dot, svg, json, go), thresholds in raw units.
type Renderer interface {
	Render(format string, p *preprocess.Pipeline, classes []string) ([]byte, error)
}

// Render renders the model in format; "text" works for every learner.
func (t *Trained) Render(format string) ([]byte, error) {
	if r, ok := t.Learner.(Renderer); ok {
		return r.Render(format, t.Pipeline, t.Classes)
	}
	if format == "text" {
		return []byte(t.Describe()), nil
	}
	return nil, fmt.Errorf("%s models render only as text", t.Spec.Kind)
}

// Save writes the model file atomically.
func (t *Trained) Save(path string) error {
	if err := data.CheckNAValues(t.NAValues); err != nil {
		return fmt.Errorf("model: %w", err)
	}
	pipe, err := json.Marshal(t.Pipeline)
	if err != nil {
		return err
	}
	body, err := json.Marshal(t.Learner)
	if err != nil {
		return err
	}
	info := map[string]any{"options": t.Spec.Options, "seed": t.Spec.Seed}
	for k, v := range t.Info {
		info[k] = v
	}
	f := &modelfile.File{Kind: t.Spec.Kind, Task: t.Task.String(), Target: t.Target, Classes: t.Classes,
		Inputs: t.Inputs, Protocol: t.Spec.Protocol, NAValues: t.NAValues, Pipeline: pipe, Model: body, Info: info}
	return modelfile.Save(path, f)
}

// Load reads a model file written by Save.
func Load(path string) (*Trained, error) {
	f, err := modelfile.Load(path)
	if err != nil {
		return nil, err
	}
	return FromFile(f, path)
}

// FromFile rebuilds a Trained model from a decoded model file.
func FromFile(f *modelfile.File, name string) (*Trained, error) {
	kind, err := LookupKind(f.Kind)
	if err != nil {
		return nil, fmt.Errorf("model file %s: %w", name, err)
	}
	task, err := data.ParseTask(f.Task)
	if err != nil {
		return nil, fmt.Errorf("model file %s: %w", name, err)
	}
	var pipe preprocess.Pipeline
	if err := json.Unmarshal(f.Pipeline, &pipe); err != nil {
		return nil, fmt.Errorf("model file %s: pipeline: %w", name, err)
	}
	if !pipe.Fitted() {
		return nil, fmt.Errorf("model file %s: pipeline section is empty or not fitted", name)
	}
	if err := checkHeader(f, task, &pipe); err != nil {
		return nil, fmt.Errorf("model file %s: %w", name, err)
	}
	learner, err := kind.Unmarshal(f.Model)
	if err != nil {
		return nil, fmt.Errorf("model file %s: model: %w", name, err)
	}
	t := &Trained{Task: task, Target: f.Target, Classes: f.Classes, Inputs: f.Inputs, NAValues: f.NAValues, Pipeline: &pipe,
		Learner: learner, Info: f.Info, Spec: Spec{Kind: f.Kind, Protocol: f.Protocol}}
	if opts, ok := f.Info["options"].(map[string]any); ok {
		t.Spec.Options = map[string]string{}
		for k, v := range opts {
			t.Spec.Options[k] = fmt.Sprint(v)
		}
	}
	if err := probe(t); err != nil {
		return nil, fmt.Errorf("model file %s: %w", name, err)
	}
	return t, nil
}

// OptionKeys returns the keys of opts sorted, for error messages.
func OptionKeys(opts map[string]string) []string {
	keys := make([]string, 0, len(opts))
	for k := range opts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
