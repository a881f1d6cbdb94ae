package multimodal

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/preprocess"
	"github.com/gdt-ml/gdt/safefile"
)

// Trained is a fitted multimodal model with everything prediction needs:
// the tabular preprocessing, the class names, the raw feature schema and
// the network. It is what `gdt train --model multimodal` saves.
type Trained struct {
	Version  int                  `json:"version"`
	Kind     string               `json:"kind"` // "multimodal"
	Classes  []string             `json:"classes"`
	Columns  []string             `json:"columns"` // raw tabular feature columns
	Pipeline *preprocess.Pipeline `json:"pipeline,omitempty"`
	Model    *Model               `json:"model"`
	// ImageColumn and Target are the CSV columns of the training file that
	// held the image references and the labels (files written before these
	// fields existed leave them empty; prediction then looks for the
	// default names, as LoadCSV does).
	ImageColumn string `json:"image_column,omitempty"`
	Target      string `json:"target,omitempty"`
	// NAValues are the extra missing markers of the training file
	// (CSVOptions.NAValues); PredictCSV reads files with them too.
	// Optional: older files have none.
	NAValues []string `json:"na_values,omitempty"`
	// Info holds the training facts.
	Info *TrainInfo `json:"info,omitempty"`
}

// TrainInfo are the facts of a training run, saved with the model.
type TrainInfo struct {
	Created   string  `json:"created,omitempty"` // RFC 3339, UTC
	Data      string  `json:"data,omitempty"`    // data set name
	Rows      int     `json:"rows"`
	TrainRows int     `json:"train_rows"`
	ValidRows int     `json:"valid_rows"`
	Protocol  string  `json:"protocol,omitempty"` // tabular preprocessing
	Seconds   float64 `json:"seconds"`            // wall time of training
}

// TrainOptions configure TrainDataset.
type TrainOptions struct {
	Config        Config
	Protocol      string  // tabular preprocessing (default "gr-paper")
	ValidFraction float64 // grouped, stratified validation share (default 0.1)
	Progress      func(Progress)
}

// TrainDataset fits a model on all rows of ds, holding out a grouped,
// stratified validation split for early stopping.
func TrainDataset(ctx context.Context, ds *Multimodal, opt TrainOptions) (*Trained, error) {
	if opt.Protocol == "" {
		opt.Protocol = "gr-paper"
	}
	if opt.ValidFraction == 0 {
		opt.ValidFraction = 0.1
	}
	cfg := opt.Config.Defaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	tr, va, err := GroupSplit(ds.Y, ds.Groups, opt.ValidFraction, uint32(cfg.Seed))
	if err != nil {
		return nil, err
	}
	start := time.Now()
	t := &Trained{Version: 1, Kind: "multimodal", Classes: ds.Classes, Columns: ds.Tab.Names(), ImageColumn: ds.ImageColumn, Target: ds.Target, NAValues: ds.NAValues,
		Info: &TrainInfo{Created: start.UTC().Format(time.RFC3339), Data: ds.Name, Rows: len(ds.Y), TrainRows: len(tr), ValidRows: len(va)}}
	if cfg.Tabular != "" {
		t.Info.Protocol = opt.Protocol
	}
	mk := func(idx []int) (*Inputs, error) {
		y := make([]float64, len(idx))
		for j, i := range idx {
			y[j] = ds.Y[i]
		}
		in := &Inputs{Images: ds.Images, Rows: idx, Y: y}
		return in, nil
	}
	trIn, _ := mk(tr)
	vaIn, _ := mk(va)
	if cfg.Tabular != "" {
		newPipe, err := preprocess.Protocol(opt.Protocol)
		if err != nil {
			return nil, err
		}
		t.Pipeline = newPipe(preprocess.Options{Task: data.Multiclass, Seed: uint32(cfg.Seed)})
		if trIn.Tab, _, err = t.Pipeline.FitTransform(ds.Tab.Subset(tr), trIn.Y); err != nil {
			return nil, fmt.Errorf("preprocessing training rows: %w", err)
		}
		if t.Pipeline.Resampled > 0 {
			return nil, fmt.Errorf("preprocessing protocol %s oversamples rows, which has no images; use gr-paper or standard", opt.Protocol)
		}
		if vaIn.Tab, err = t.Pipeline.Transform(ds.Tab.Subset(va)); err != nil {
			return nil, fmt.Errorf("preprocessing validation rows: %w", err)
		}
	}
	m := New(cfg)
	m.Progress = opt.Progress
	if err := m.Fit(ctx, trIn, vaIn, len(ds.Classes)); err != nil {
		return nil, err
	}
	t.Model = m
	t.Info.Seconds = time.Since(start).Seconds()
	return t, nil
}

// Predict returns the class probabilities of samples given as images plus
// raw tabular rows (columns named as Columns; extra columns are ignored).
func (t *Trained) Predict(images *ImageSet, tab *data.Table) (*data.Matrix, error) {
	in := &Inputs{Images: images}
	if t.Model.Config.Tabular != "" {
		if tab == nil {
			return nil, fmt.Errorf("multimodal: the model needs the tabular columns %v", t.Columns)
		}
		x, err := t.Pipeline.Transform(tab)
		if err != nil {
			return nil, err
		}
		in.Tab = x
		if images != nil && images.N != x.Rows {
			return nil, fmt.Errorf("multimodal: %d images for %d tabular rows", images.N, x.Rows)
		}
	}
	if !t.Model.Config.Image {
		in.Images = nil
	}
	return t.Model.PredictProba(in)
}

// PredictFile predicts one sample from an image file and a one-row table.
func (t *Trained) PredictFile(imagePath string, row *data.Table) ([]float32, error) {
	var set *ImageSet
	if t.Model.Config.Image {
		sh := t.Model.Shape
		pix, err := DecodeImageFile(imagePath, sh.H, sh.W)
		if err != nil {
			return nil, err
		}
		set = &ImageSet{N: 1, Shape: sh, Pix: pix}
	}
	p, err := t.Predict(set, row)
	if err != nil {
		return nil, err
	}
	return p.Data, nil
}

// Save writes t as JSON to path atomically.
func (t *Trained) Save(path string) error {
	if err := data.CheckNAValues(t.NAValues); err != nil {
		return fmt.Errorf("multimodal: %w", err)
	}
	return safefile.Write(path, func(w io.Writer) error {
		return json.NewEncoder(w).Encode(t)
	})
}

// LoadTrained reads a model written by Save.
func LoadTrained(path string) (*Trained, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return decodeTrained(b, path)
}

// decodeTrained decodes and validates the model file content b (path
// names it in errors).
func decodeTrained(b []byte, path string) (*Trained, error) {
	var t Trained
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if t.Kind != "multimodal" || t.Model == nil {
		return nil, fmt.Errorf("%s: not a multimodal model file", path)
	}
	if err := t.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &t, nil
}

// check validates what a decoded model file says about its classes and
// its tabular preprocessing against the network (which UnmarshalJSON has
// validated): distinct class names, one per output; for a tabular
// backbone a valid fitted pipeline whose output width is the network's
// input width and whose inputs are the Columns.
func (t *Trained) check() error {
	if err := data.CheckNAValues(t.NAValues); err != nil {
		return err
	}
	if len(t.Classes) != t.Model.Classes {
		return fmt.Errorf("classes: %d names: expected one per output of the network (%d)", len(t.Classes), t.Model.Classes)
	}
	seen := map[string]bool{}
	for i, c := range t.Classes {
		if seen[c] {
			return fmt.Errorf("classes[%d] = %q is repeated: expected distinct class names", i, c)
		}
		seen[c] = true
	}
	if t.Model.Config.Tabular == "" {
		return nil
	}
	if t.Pipeline == nil || !t.Pipeline.Fitted() {
		return fmt.Errorf("pipeline: missing or not fitted: expected the fitted preprocessing of the tabular backbone")
	}
	if err := t.Pipeline.Validate(); err != nil {
		return err
	}
	if n := t.Pipeline.NumFeatures(); n != t.Model.TabCols {
		return fmt.Errorf("pipeline: %d output features: expected the network's %d tabular inputs", n, t.Model.TabCols)
	}
	if len(t.Columns) != len(t.Pipeline.Inputs) {
		return fmt.Errorf("columns: %d names: expected the pipeline's %d input columns", len(t.Columns), len(t.Pipeline.Inputs))
	}
	for i, c := range t.Columns {
		if c != t.Pipeline.Inputs[i].Name {
			return fmt.Errorf("columns[%d] = %q: expected the pipeline's input column %q", i, c, t.Pipeline.Inputs[i].Name)
		}
	}
	return nil
}
