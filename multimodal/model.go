package multimodal

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/nn"
)

// Model is a multimodal network: an image encoder, a tabular backbone and a
// fusion head, or one of the single-modality variants (see Config). Fit
// trains it in two stages when it has an image branch: the encoder is
// pretrained on the image task (with augmentation, class weights and early
// stopping), then the fusion network is trained with the encoder frozen
// except its last layer (Config.FineTuneAll trains all of it). A Model is
// not safe for concurrent use.
type Model struct {
	Config  Config
	Classes int
	TabCols int
	Shape   nn.Shape  // image shape (image models)
	Mean    []float32 // per-channel pixel normalisation (0…1 scale)
	Std     []float32
	Reports []StageReport
	// Progress, if set, is called after every epoch.
	Progress func(Progress)

	p       *parts
	encoder *Model
}

// New returns an untrained model.
func New(cfg Config) *Model { return &Model{Config: cfg} }

// UseEncoder makes Fit start from the image encoder of src (a fitted model
// with an image branch and the same encoder configuration) and skip the
// pretraining stage; src's pixel normalisation is kept. The benchmark uses
// it to pretrain one encoder per fold for cnn, cnn+mlp and cnn+grande.
func (m *Model) UseEncoder(src *Model) error {
	if src == nil || src.p == nil || src.p.body == nil {
		return errors.New("multimodal: UseEncoder: the source model has no fitted image encoder")
	}
	m.encoder = src
	return nil
}

// Fit trains the model on train with early stopping on valid; classes is
// the number of classes (labels 0…classes−1).
func (m *Model) Fit(ctx context.Context, train, valid *Inputs, classes int) error {
	cfg := m.Config.Defaults()
	if err := cfg.Validate(); err != nil {
		return err
	}
	if classes < 2 {
		return fmt.Errorf("multimodal: %d classes, expected at least 2", classes)
	}
	if err := checkInputs(cfg, "training", train, classes, true); err != nil {
		return err
	}
	if err := checkInputs(cfg, "validation", valid, classes, true); err != nil {
		return err
	}
	if cfg.Tabular != "" && train.Tab.Cols != valid.Tab.Cols {
		return fmt.Errorf("multimodal: training rows have %d tabular columns, validation rows %d", train.Tab.Cols, valid.Tab.Cols)
	}
	m.Config, m.Classes, m.Reports = cfg, classes, nil
	if cfg.Tabular != "" {
		m.TabCols = train.Tab.Cols
	}
	if cfg.Image {
		m.Shape = train.Images.Shape
		if valid.Images.Shape != m.Shape {
			return fmt.Errorf("multimodal: training images are %v, validation images %v", m.Shape, valid.Images.Shape)
		}
	}
	var err error
	if m.p, err = buildParts(cfg, m.Shape, m.TabCols, classes); err != nil {
		return err
	}
	lossFn, err := lossFor(cfg, train.Y, classes)
	if err != nil {
		return err
	}
	if cfg.Image {
		if m.encoder != nil {
			if err := m.copyEncoder(m.encoder); err != nil {
				return err
			}
		} else {
			rows := make([]int, train.Len())
			for j := range rows {
				rows[j] = train.imageRow(j)
			}
			m.Mean, m.Std = train.Images.ChannelStats(rows)
			net, err := m.p.imageNet()
			if err != nil {
				return err
			}
			st := &stage{name: "pretrain", net: net, groups: groups(cfg, "image", net),
				train: m.pixelFiller(train, true), valid: m.pixelFiller(valid, false),
				ytrain: train.Y, yvalid: valid.Y, epochs: cfg.PretrainEpochs, patient: cfg.PretrainPatience,
				augment: true}
			rep, err := m.run(ctx, st, lossFn)
			if err != nil {
				return err
			}
			m.Reports = append(m.Reports, rep)
		}
	}
	if cfg.Tabular == "" {
		return nil
	}
	net, err := m.p.fusionNet(cfg.Image && cfg.FineTuneAll)
	if err != nil {
		return err
	}
	var gs = groups(cfg, "fuse", m.p.tab, m.p.head)
	if cfg.Image {
		net.Layers()[0].(*nn.Concat).SetSkipInputGrad(true)
		if cfg.FineTuneAll {
			gs = groups(cfg, "fuse", m.p.body, m.p.top, m.p.tab, m.p.head)
		} else {
			gs = groups(cfg, "fuse", m.p.top, m.p.tab, m.p.head)
		}
	}
	st := &stage{name: "fit", net: net, groups: gs, train: m.fusionFiller(train, true), valid: m.fusionFiller(valid, false),
		ytrain: train.Y, yvalid: valid.Y, epochs: cfg.Epochs, patient: cfg.Patience, augment: cfg.Image && cfg.FineTuneAll}
	rep, err := m.run(ctx, st, lossFn)
	if err != nil {
		return err
	}
	m.Reports = append(m.Reports, rep)
	return nil
}

// copyEncoder copies the encoder (body, top, image head) and the pixel
// normalisation of src into m.
func (m *Model) copyEncoder(src *Model) error {
	if src.Shape != m.Shape {
		return fmt.Errorf("multimodal: encoder trained on %v images, data has %v", src.Shape, m.Shape)
	}
	from, err := src.p.imageNet()
	if err != nil {
		return err
	}
	to, err := m.p.imageNet()
	if err != nil {
		return err
	}
	var s snapshot
	takeSnapshot(from, &s)
	if len(s.params) != nn.NumParams(to) {
		return errors.New("multimodal: UseEncoder: the encoder configurations differ (channels, image_embed)")
	}
	if err := restoreSnapshot(to, &s); err != nil {
		return err
	}
	m.Mean = append([]float32(nil), src.Mean...)
	m.Std = append([]float32(nil), src.Std...)
	return nil
}

// pixelFiller feeds normalised (with training, augmented) pixels.
func (m *Model) pixelFiller(in *Inputs, training bool) *inputFiller {
	b := &Batcher{Images: in.Images, Mean: m.Mean, Std: m.Std, Aug: m.Config.Augment, Seed: partSeed(m.Config.Seed, 70), Workers: m.Config.Workers}
	return &inputFiller{in: in, b: b, workers: m.Config.Workers}
}

// fusionFiller feeds the fusion network: [pixels | encoder features, tab].
func (m *Model) fusionFiller(in *Inputs, training bool) *inputFiller {
	f := &inputFiller{in: in, tabCols: m.TabCols, workers: m.Config.Workers}
	if !m.Config.Image {
		return f
	}
	if m.Config.FineTuneAll {
		f.b = m.pixelFiller(in, training).b
		return f
	}
	// Frozen encoder body: its pooled features are computed once.
	f.featDim = m.p.body.Out()
	f.feat = forwardAll(m.p.body, m.pixelFiller(in, false), in.Len(), m.p.evalBatch)
	return f
}

// checkInputs validates a split for cfg.
func checkInputs(cfg Config, name string, in *Inputs, classes int, labels bool) error {
	if in == nil {
		return fmt.Errorf("multimodal: no %s data", name)
	}
	n := in.Len()
	if n == 0 {
		return fmt.Errorf("multimodal: no %s rows", name)
	}
	if cfg.Image {
		if in.Images == nil {
			return fmt.Errorf("multimodal: %s data has no images (the model has an image branch)", name)
		}
		if in.Images.Shape.C != 3 {
			return fmt.Errorf("multimodal: %s images have %d channels, expected 3", name, in.Images.Shape.C)
		}
		for j := 0; j < n; j++ {
			if r := in.imageRow(j); r < 0 || r >= in.Images.N {
				return fmt.Errorf("multimodal: %s sample %d refers to image %d of %d", name, j, r, in.Images.N)
			}
		}
	}
	if cfg.Tabular != "" {
		if in.Tab == nil {
			return fmt.Errorf("multimodal: %s data has no tabular rows (the model has a tabular backbone)", name)
		}
		if in.Tab.Rows != n {
			return fmt.Errorf("multimodal: %s data: %d tabular rows for %d samples", name, in.Tab.Rows, n)
		}
		for i, v := range in.Tab.Data {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return fmt.Errorf("multimodal: %s row %d, column %d is %v: inputs must be finite (impute missing values)", name, i/in.Tab.Cols, i%in.Tab.Cols, v)
			}
		}
	}
	if labels {
		if len(in.Y) != n {
			return fmt.Errorf("multimodal: %s data: %d labels for %d samples", name, len(in.Y), n)
		}
		for i, v := range in.Y {
			if v < 0 || int(v) >= classes || v != math.Trunc(v) {
				return fmt.Errorf("multimodal: %s label %d is %v, expected a class 0…%d", name, i, v, classes-1)
			}
		}
	}
	return nil
}

// PredictProba returns the class probabilities of every sample of in
// (labels are not needed).
func (m *Model) PredictProba(in *Inputs) (*data.Matrix, error) {
	if m.p == nil {
		return nil, errors.New("multimodal: the model is not fitted")
	}
	if err := checkInputs(m.Config, "prediction", in, m.Classes, false); err != nil {
		return nil, err
	}
	if m.Config.Tabular != "" && in.Tab.Cols != m.TabCols {
		return nil, fmt.Errorf("multimodal: prediction rows have %d tabular columns, the model was fitted on %d", in.Tab.Cols, m.TabCols)
	}
	if m.Config.Image && in.Images.Shape != m.Shape {
		return nil, fmt.Errorf("multimodal: prediction images are %v, the model was fitted on %v", in.Images.Shape, m.Shape)
	}
	n := in.Len()
	var out []float32
	if m.Config.Tabular == "" {
		net, err := m.p.imageNet()
		if err != nil {
			return nil, err
		}
		out = forwardAll(net, m.pixelFiller(in, false), n, m.p.evalBatch)
	} else {
		net, err := m.p.fusionNet(m.Config.Image && m.Config.FineTuneAll)
		if err != nil {
			return nil, err
		}
		out = forwardAll(net, m.fusionFiller(in, false), n, m.p.evalBatch)
	}
	// Weights that are finite but huge (a damaged file) overflow: an error,
	// not NaN probabilities.
	for i, v := range out {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return nil, fmt.Errorf("multimodal: the network's class-%d logit for row %d is %v: expected a finite value (are the model's weights damaged?)",
				i%m.Classes, i/m.Classes, v)
		}
	}
	// Softmax over the class logits (the fusion head is always multiclass).
	return model.Head(data.Multiclass, out, n, m.Classes, nil), nil
}

// modelFile is the saved form of a Model.
type modelFile struct {
	Version int           `json:"version"`
	Config  Config        `json:"config"`
	Classes int           `json:"classes"`
	TabCols int           `json:"tab_cols"`
	Shape   nn.Shape      `json:"shape"`
	Mean    []float32     `json:"mean,omitempty"`
	Std     []float32     `json:"std,omitempty"`
	Reports []StageReport `json:"reports,omitempty"`
	// Parts maps "body", "top", "image_head", "tab", "head" to their
	// parameters followed by their buffers, float32 little endian, base64.
	Parts map[string]string `json:"parts"`
}

func (p *parts) named() map[string]nn.Module {
	out := map[string]nn.Module{}
	if p.body != nil {
		out["body"], out["top"], out["image_head"] = p.body, p.top, p.imgHead
	}
	if p.tab != nil {
		out["tab"], out["head"] = p.tab, p.head
	}
	return out
}

// MarshalJSON saves the configuration and every weight and buffer.
func (m *Model) MarshalJSON() ([]byte, error) {
	if m.p == nil {
		return nil, errors.New("multimodal: cannot save an unfitted model")
	}
	f := modelFile{Version: 1, Config: m.Config, Classes: m.Classes, TabCols: m.TabCols, Shape: m.Shape,
		Mean: m.Mean, Std: m.Std, Reports: m.Reports, Parts: map[string]string{}}
	for name, mod := range m.p.named() {
		var s snapshot
		takeSnapshot(mod, &s)
		v := s.params
		for _, b := range s.bufs {
			v = append(v, b...)
		}
		buf := make([]byte, 4*len(v))
		for i, x := range v {
			binary.LittleEndian.PutUint32(buf[4*i:], math.Float32bits(x))
		}
		f.Parts[name] = base64.StdEncoding.EncodeToString(buf)
	}
	return json.Marshal(f)
}

// Limits on what a model file may declare (larger values are damage, not
// models: they would make loading or prediction allocate without bound).
// Each bounds one value; the memory that the image shape and the channel
// widths size together is bounded by maxImageValues (buildParts).
const (
	maxClasses   = 1 << 16
	maxTabCols   = 1 << 20
	maxImageSide = 1024
	maxWidth     = 1 << 16 // channels, hidden widths, embeddings
)

// check validates the saved sizes against each other and the encoded
// parts before any allocation sized by them: class and column counts,
// the image shape and its normalisation, the layer widths, and that every
// part holds at least the weights the configuration implies (the exact
// count is checked once the modules are built).
func (f *modelFile) check(cfg Config) error {
	if f.Classes < 2 || f.Classes > maxClasses {
		return fmt.Errorf("classes = %d: expected 2…%d", f.Classes, maxClasses)
	}
	widths := func(field string, ws ...int) error {
		for i, w := range ws {
			if w < 1 || w > maxWidth {
				return fmt.Errorf("config.%s[%d] = %d: expected 1…%d", field, i, w, maxWidth)
			}
		}
		return nil
	}
	// need is a lower bound of the values each part holds (weight
	// matrices only), in float64 so it cannot overflow.
	need := map[string]float64{}
	embed := 0
	if cfg.Image {
		sh := f.Shape
		if sh.C != 3 || sh.H < 1 || sh.H > maxImageSide || sh.W < 1 || sh.W > maxImageSide {
			return fmt.Errorf("shape = %v: expected 3 channels of 1…%d × 1…%d pixels", sh, maxImageSide, maxImageSide)
		}
		if len(f.Mean) != sh.C || len(f.Std) != sh.C {
			return fmt.Errorf("mean, std: %d and %d values: expected one per channel (%d)", len(f.Mean), len(f.Std), sh.C)
		}
		for c := range f.Mean {
			m, s := float64(f.Mean[c]), float64(f.Std[c])
			if math.IsNaN(m) || math.IsInf(m, 0) || !(s > 0) || math.IsInf(s, 0) {
				return fmt.Errorf("mean[%d] = %v, std[%d] = %v: expected a finite mean and a positive finite deviation", c, m, c, s)
			}
		}
		if err := widths("channels", cfg.Channels...); err != nil {
			return err
		}
		if err := widths("image_embed", cfg.ImageEmbed); err != nil {
			return err
		}
		in, body := float64(sh.C), 0.0
		for _, ch := range cfg.Channels {
			body += in * float64(ch) * 9
			in = float64(ch)
		}
		need["body"], need["top"] = body, in*float64(cfg.ImageEmbed)
		need["image_head"] = float64(cfg.ImageEmbed) * float64(f.Classes)
		embed += cfg.ImageEmbed
	}
	if cfg.Tabular != "" {
		if f.TabCols < 1 || f.TabCols > maxTabCols {
			return fmt.Errorf("tab_cols = %d: expected 1…%d", f.TabCols, maxTabCols)
		}
		switch cfg.Tabular {
		case "mlp":
			if err := widths("mlp_hidden", cfg.MLPHidden...); err != nil {
				return err
			}
			in, tab := float64(f.TabCols), 0.0
			for _, h := range cfg.MLPHidden {
				tab += in * float64(h)
				in = float64(h)
			}
			need["tab"] = tab
			embed += cfg.MLPHidden[len(cfg.MLPHidden)-1]
		default:
			if err := widths("tree_embed", cfg.TreeEmbed); err != nil {
				return err
			}
			leaves := float64(cfg.Trees) * math.Ldexp(1, cfg.Depth)
			need["tab"] = leaves*float64(cfg.TreeEmbed) + (leaves-float64(cfg.Trees))*float64(treeFeatures(f.TabCols, cfg.TreeFeatures))
			embed += cfg.TreeEmbed
		}
		need["head"] = float64(embed) * float64(f.Classes)
	}
	names := make([]string, 0, len(need))
	for name := range need {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		enc, ok := f.Parts[name]
		if !ok {
			return fmt.Errorf("parts: %q is missing", name)
		}
		if have := float64(base64.StdEncoding.DecodedLen(len(enc)) / 4); have < need[name] {
			return fmt.Errorf("parts: %q holds at most %.0f values: the configuration needs at least %.0f", name, have, need[name])
		}
	}
	return nil
}

// UnmarshalJSON restores a model saved with MarshalJSON.
func (m *Model) UnmarshalJSON(b []byte) error {
	var f modelFile
	if err := json.Unmarshal(b, &f); err != nil {
		return fmt.Errorf("multimodal: model: %w", err)
	}
	if f.Version != 1 {
		return fmt.Errorf("multimodal: model: version %d, expected 1", f.Version)
	}
	cfg := f.Config.Defaults()
	if err := cfg.Validate(); err != nil {
		return err
	}
	if err := f.check(cfg); err != nil {
		return fmt.Errorf("multimodal: model: %w", err)
	}
	p, err := buildParts(cfg, f.Shape, f.TabCols, f.Classes)
	if err != nil {
		return err
	}
	for name, mod := range p.named() {
		enc, ok := f.Parts[name]
		if !ok {
			return fmt.Errorf("multimodal: model: part %q is missing", name)
		}
		raw, err := base64.StdEncoding.DecodeString(enc)
		if err != nil {
			return fmt.Errorf("multimodal: model: part %q: %w", name, err)
		}
		np := nn.NumParams(mod)
		bufs := nn.Buffers(mod)
		want := np
		for _, bf := range bufs {
			want += len(bf.Value)
		}
		if len(raw) != 4*want {
			return fmt.Errorf("multimodal: model: part %q has %d values, the configuration needs %d", name, len(raw)/4, want)
		}
		v := make([]float32, want)
		for i := range v {
			v[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
			if math.IsNaN(float64(v[i])) || math.IsInf(float64(v[i]), 0) {
				return fmt.Errorf("multimodal: model: part %q value %d is %v: expected finite weights", name, i, v[i])
			}
		}
		if err := nn.SetParamVector(mod, v[:np]); err != nil {
			return err
		}
		off := np
		for _, bf := range bufs {
			copy(bf.Value, v[off:])
			off += len(bf.Value)
		}
	}
	*m = Model{Config: cfg, Classes: f.Classes, TabCols: f.TabCols, Shape: f.Shape, Mean: f.Mean, Std: f.Std, Reports: f.Reports, p: p}
	return nil
}
