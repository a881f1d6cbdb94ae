package multimodal

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/metrics"
	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/nn"
)

// IsTrainedFile reports whether the file at path is a multimodal model file
// (a JSON object whose "kind" is "multimodal"), reading only as far as the
// "kind" field. Anything else — a gdt-model file of another kind, a CSV, a
// missing file — gives false, so callers fall back to their usual loader
// and its error messages.
func IsTrainedFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return false
	}
	br := bufio.NewReader(f)
	for {
		c, err := br.ReadByte()
		if err != nil {
			return false
		}
		if c == ' ' || c == '\t' || c == '\r' || c == '\n' {
			continue
		}
		if c != '{' {
			return false
		}
		if err := br.UnreadByte(); err != nil {
			return false
		}
		break
	}
	dec := json.NewDecoder(br)
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return false
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		key, _ := tok.(string)
		switch key {
		case "kind":
			var kind string
			if err := dec.Decode(&kind); err != nil {
				return false
			}
			return kind == "multimodal"
		case "format":
			return false // a gdt-model file (package modelfile)
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return false
		}
	}
	return false
}

// PredictOptions say how Trained.PredictCSV reads a CSV file.
type PredictOptions struct {
	// ImagesDir is the folder the image column's paths are relative to
	// (default: the CSV file's folder).
	ImagesDir string
	// ImageColumn holds each row's image (default: the model's training
	// image column, else the first of image_file, image_id, image, file).
	ImageColumn string
	// IDColumn is carried through to the predictions (default: id or
	// image_id when present, else the image column).
	IDColumn string
	// Labels are read (for scoring) when NeedLabels is set or Target names
	// the label column: Target, else the model's training target, else dx,
	// else label; a missing column or a label that is not one of the
	// model's classes is then an error. Otherwise labels are ignored.
	Target     string
	NeedLabels bool
	// Workers decode images in parallel (0: GOMAXPROCS).
	Workers int
	// NAValues are missing markers on top of data.DefaultMissing and the
	// model's training markers (Trained.NAValues).
	NAValues []string
}

// CSVPredictions are the predictions for the rows of a CSV file, in file
// order.
type CSVPredictions struct {
	Source   string   // the CSV file
	IDColumn string   // the column IDs come from
	IDs      []string // per row
	Lines    []int    // 1-based line of each row in the file
	// Proba holds one row of class probabilities per CSV row, in the order
	// of the model's Classes; Pred the most probable class (first maximum).
	Proba *data.Matrix
	Pred  []int
	// Target and Y are the label column and the class index of each row's
	// label (nil when the file has no label column).
	Target string
	Y      []float64
}

// Scores are the classification metrics of predictions against labels.
// Per-class values are in the order of the model's classes; a class absent
// from the labels has a NaN ROC-AUC (and, as in sklearn, zero recall).
type Scores struct {
	Rows             int
	ROCAUC           float64 // macro one-vs-rest over the classes present in the labels
	Accuracy         float64
	BalancedAccuracy float64
	F1Macro          float64
	ClassAUC         []float64
	Precision        []float64
	Recall           []float64
	Support          []int   // rows per true class
	Confusion        [][]int // [true class][predicted class]
}

// PredictCSV predicts every row of the CSV file at path (header row, comma
// separated, plain or gzipped): the tabular feature columns are matched by
// name and typed as in training (extra columns are ignored; a category not
// seen in training is encoded as the tabular pipeline encodes unseen
// levels), and each row's image is read from the image column, resized to
// the training size like the training images. Errors name the file, the
// line and the column or image file at fault.
func (t *Trained) PredictCSV(ctx context.Context, path string, opt PredictOptions) (*CSVPredictions, error) {
	rec, err := readCSV(path)
	if err != nil {
		return nil, err
	}
	if len(rec.Rows) == 0 {
		return nil, fmt.Errorf("%s: no data rows", path)
	}
	col := map[string]int{}
	for j, h := range rec.Header {
		col[strings.TrimSpace(h)] = j
	}
	has := func(name string) bool { _, ok := col[name]; return ok }
	pick := func(given, saved, what string, cands ...string) (string, error) {
		if given != "" {
			if !has(given) {
				return "", fmt.Errorf("%s:1: no column %q (the %s column; columns: %s)", path, given, what, strings.Join(rec.Header, ", "))
			}
			return given, nil
		}
		if saved != "" && has(saved) {
			return saved, nil
		}
		for _, c := range cands {
			if has(c) {
				return c, nil
			}
		}
		return "", nil
	}
	out := &CSVPredictions{Source: path, Lines: rec.Lines}

	// Tabular features, typed as the pipeline saw them in training.
	var tab *data.Table
	if t.Model.Config.Tabular != "" {
		if tab, err = t.readFeatures(rec, col, data.MergeNAValues(t.NAValues, opt.NAValues)); err != nil {
			return nil, err
		}
	}
	// Labels, when asked for.
	if opt.NeedLabels || opt.Target != "" {
		target, err := pick(opt.Target, t.Target, "target", "dx", "label")
		if err != nil {
			return nil, err
		}
		if target == "" {
			want := "dx or label"
			if t.Target != "" {
				want = strconv.Quote(t.Target) + " (the training target), " + want
			}
			return nil, fmt.Errorf("%s:1: no label column (looked for %s; gdt: name it with --target)", path, want)
		}
		if out.Y, err = t.readLabels(rec, col[target], target); err != nil {
			return nil, err
		}
		out.Target = target
	}
	// Images.
	imgCol, err := pick(opt.ImageColumn, t.ImageColumn, "image", "image_file", "image_id", "image", "file")
	if err != nil {
		return nil, err
	}
	var images *ImageSet
	if t.Model.Config.Image {
		if imgCol == "" {
			want := "image_file, image_id, image or file"
			if t.ImageColumn != "" {
				want = strconv.Quote(t.ImageColumn) + " (the training image column), " + want
			}
			return nil, fmt.Errorf("%s:1: no image column (looked for %s; gdt: name it with --image-column)", path, want)
		}
		dir := opt.ImagesDir
		if dir == "" {
			dir = filepath.Dir(path)
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if images, err = t.readImages(rec, col[imgCol], imgCol, dir, opt.Workers); err != nil {
			return nil, err
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	// Ids carried through.
	idCol, err := pick(opt.IDColumn, "", "id", "image_id")
	if err != nil {
		return nil, err
	}
	if idCol == "" {
		idCol = imgCol
	}
	out.IDColumn = idCol
	out.IDs = make([]string, len(rec.Rows))
	if idCol != "" {
		j := col[idCol]
		for i, r := range rec.Rows {
			out.IDs[i] = strings.TrimSpace(r[j])
		}
	} else {
		out.IDColumn = "row"
		for i := range out.IDs {
			out.IDs[i] = strconv.Itoa(i)
		}
	}
	p, err := t.Predict(images, tab)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	out.Proba = p
	out.Pred = make([]int, p.Rows)
	for i, v := range model.Decide(data.Multiclass, p) {
		out.Pred[i] = int(v)
	}
	return out, nil
}

// readFeatures types the model's raw feature columns of rec as in
// training, with package data's typing (Records.Table): numeric columns
// must hold numbers or missing markers (data.DefaultMissing and extra),
// categorical ones any text.
func (t *Trained) readFeatures(rec *data.Records, col map[string]int, extra []string) (*data.Table, error) {
	if t.Pipeline == nil {
		return nil, errors.New("multimodal: the model has a tabular backbone but no preprocessing pipeline")
	}
	var missing []string
	for _, in := range t.Pipeline.Inputs {
		if _, ok := col[in.Name]; !ok {
			missing = append(missing, strconv.Quote(in.Name))
		}
	}
	if len(missing) > 0 {
		what := "column"
		if len(missing) > 1 {
			what = "columns"
		}
		return nil, fmt.Errorf("%s:1: no %s %s (a feature the model was trained on; the file has %s)", rec.Source, what,
			strings.Join(missing, ", "), strings.Join(rec.Header, ", "))
	}
	// Type the whole file (errors name the file's column numbers); the
	// columns the model does not use by the lenient rule.
	sch := data.Schema{Missing: missingMarkers(extra), LenientOthers: true}
	for _, c := range t.Pipeline.Inputs {
		if c.Kind == data.Categorical {
			sch.Categorical = append(sch.Categorical, c.Name)
		} else {
			sch.Numeric = append(sch.Numeric, c.Name)
		}
	}
	all, err := rec.Table(sch)
	if err != nil {
		return nil, err
	}
	tab := &data.Table{}
	for _, c := range t.Pipeline.Inputs {
		col := all.Col(c.Name)
		if col == nil {
			return nil, fmt.Errorf("%s:1: column %q not found after typing (repeated or blank-padded header name?)", rec.Source, c.Name)
		}
		tab.Columns = append(tab.Columns, col)
	}
	return tab, nil
}

// readImages decodes the image of every row in parallel; the first failing
// row in file order is reported with its line and file.
func (t *Trained) readImages(rec *data.Records, j int, name, dir string, workers int) (*ImageSet, error) {
	sh := t.Model.Shape
	if sh.C != 3 || sh.H <= 0 || sh.W <= 0 {
		return nil, fmt.Errorf("multimodal: the model's image shape %v is invalid (damaged model file?)", sh)
	}
	n := len(rec.Rows)
	set := &ImageSet{N: n, Shape: sh, Pix: make([]uint8, n*sh.Size())}
	errs := make([]error, n)
	if workers <= 0 {
		workers = t.Model.Config.Workers
	}
	parallelFor(n, workers, func(i int) {
		ref := strings.TrimSpace(rec.Rows[i][j])
		at := fmt.Sprintf("%s:%d: column %s", rec.Source, rec.Lines[i], name)
		if ref == "" {
			errs[i] = fmt.Errorf("%s: empty image reference", at)
			return
		}
		file := ImagePath(dir, ref)
		pix, err := decodeImageChecked(file, sh)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			errs[i] = fmt.Errorf("%s: image file %s does not exist (value %q, images folder %s)", at, file, ref, dir)
		case err != nil:
			errs[i] = fmt.Errorf("%s: %w", at, err)
		default:
			copy(set.Pix[i*sh.Size():], pix)
		}
	})
	var first error
	more := 0
	for _, err := range errs {
		switch {
		case err == nil:
		case first == nil:
			first = err
		default:
			more++
		}
	}
	if more > 0 {
		return nil, fmt.Errorf("%w (and %d more rows with image errors)", first, more)
	}
	if first != nil {
		return nil, first
	}
	return set, nil
}

// decodeImageChecked decodes path to the CHW bytes of shape sh (resizing
// like the training loader); an image without pixels is an error naming
// the file.
func decodeImageChecked(path string, sh nn.Shape) ([]uint8, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return decodeImage(f, path, sh.H, sh.W)
}

// readLabels maps the label column to the model's class indices.
func (t *Trained) readLabels(rec *data.Records, j int, name string) ([]float64, error) {
	code := map[string]int{}
	for i, c := range t.Classes {
		code[c] = i
	}
	y := make([]float64, len(rec.Rows))
	for i, r := range rec.Rows {
		v := strings.TrimSpace(r[j])
		c, ok := code[v]
		if !ok {
			if v == "" {
				return nil, fmt.Errorf("%s:%d: column %s: empty label", rec.Source, rec.Lines[i], name)
			}
			return nil, fmt.Errorf("%s:%d: column %s: label %q is not a class of the model (classes: %s)",
				rec.Source, rec.Lines[i], name, v, strings.Join(t.Classes, ", "))
		}
		y[i] = float64(c)
	}
	return y, nil
}

// Score computes the classification metrics of p against its labels.
func (p *CSVPredictions) Score() (*Scores, error) {
	if p.Y == nil {
		return nil, fmt.Errorf("%s: no label column to score against", p.Source)
	}
	k := p.Proba.Cols
	pred := make([]float64, len(p.Pred))
	for i, v := range p.Pred {
		pred[i] = float64(v)
	}
	s := &Scores{Rows: len(p.Y), Accuracy: metrics.Accuracy(p.Y, pred), BalancedAccuracy: metrics.BalancedAccuracy(p.Y, pred, k),
		F1Macro: metrics.F1Macro(p.Y, pred, k), Precision: metrics.Precision(p.Y, pred, k), Recall: metrics.Recall(p.Y, pred, k)}
	var err error
	if s.ClassAUC, err = metrics.ROCAUCPerClass(p.Y, p.Proba.Data, k); err != nil {
		return nil, err
	}
	// Macro over the classes that have an AUC (NaN when none has one:
	// every label is of one class).
	s.ROCAUC, _ = metrics.ROCAUCOvR(p.Y, p.Proba.Data, k)
	if s.Confusion, err = metrics.ConfusionMatrix(p.Y, pred, k); err != nil {
		return nil, err
	}
	s.Support = make([]int, k)
	for c, row := range s.Confusion {
		for _, v := range row {
			s.Support[c] += v
		}
	}
	return s, nil
}
