package bench

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/datasets"
	"github.com/gdt-ml/gdt/folds"
	"github.com/gdt-ml/gdt/metrics"
	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/multimodal"
)

// SuiteMultimodal is the HAM10000 image + tabular suite (issue 7).
const SuiteMultimodal = "multimodal"

// MultimodalLog receives one line per trained multimodal model (stages,
// epochs, mean epoch time); nil silences it. Default: standard error.
var MultimodalLog io.Writer = os.Stderr

// MultimodalOptions, if set, are applied (as `--set` options of the
// multimodal package, e.g. "pretrain_epochs": "5") to the configuration of
// the image models cnn, cnn+mlp and cnn+grande.
var MultimodalOptions map[string]string

// ThesisMetrics are the thesis's four-metric figures of a suite, per
// thesis method: macro one-vs-rest ROC-AUC, accuracy, balanced accuracy and
// macro F1 (spec §10.7, PAD-UFES-20; the MLP row is the figure).
var ThesisMetrics = map[string]map[string][4]float64{
	datasets.SuitePADTabular: {
		"GRANDE": {0.943, 0.792, 0.675, 0.690},
		"MLP":    {0.921, 0.761, 0.622, 0.636},
	},
	SuiteMultimodal: {
		// PAD-UFES-20, not HAM10000: shown for orientation only.
		"GRANDE (PAD-UFES-20, tabular)":        {0.943, 0.792, 0.675, 0.690},
		"ConvNeXt+GRANDE (PAD-UFES-20, fused)": {0.956, 0.823, 0.735, 0.747},
	},
}

func init() {
	suiteProtocols[datasets.SuitePADTabular] = CVProtocol{K: 5, ValidFraction: 0.1, Seed: 42, Pipeline: "gr-paper"}
	customSuites[SuiteMultimodal] = func() *Suite {
		return &Suite{Name: SuiteMultimodal, Protocol: MultimodalProtocol{K: 5, ValidFraction: 0.1, Seed: 42, Pipeline: "gr-paper"},
			ModelSeed: 42, LoadFunc: loadMultimodal,
			Entries: []datasets.SuiteEntry{{Dataset: "ham10000", Display: "HAM10000 (64×64 images; age, sex, localization)",
				ThesisTable: "no thesis figures on HAM10000 (the thesis used PAD-UFES-20, whose images are not available)"}}}
	}
	registerKind("mlp", "mlp", "tabular MLP (multimodal package's tabular-only network: 128 → 64 ReLU, dropout 0.2, AdamW, balanced class weights, early stopping)", "MLP", nil)
	registerKind("mlp-unweighted", "mlp", "tabular MLP as mlp but without class weights (plain cross-entropy)", "", map[string]string{"class_weights": "none"})
	Register(Model{Name: "tab-grande", Help: "the multimodal network's GRANDE backbone alone (256 trees of depth 6 with 32-value leaf embeddings, linear head; trained as the fused models' tabular branch)",
		UsesValidation: true, New: func(seed int64) Learner {
			l, err := multimodal.NewTabularLearner("grande", nil, seed)
			if err != nil {
				panic(err)
			}
			return l
		}})
	for _, v := range []struct{ name, tab, help string }{
		{"cnn", "", "image only: small CNN (4 conv stages 16-32-64-128 (stride-2 stem), batch norm, global average pooling, dense 64), augmentation, balanced class weights, early stopping"},
		{"cnn+mlp", "mlp", "pretrained CNN encoder (frozen except its last layer) + tabular MLP, intermediate fusion (concatenated embeddings → dropout → linear head)"},
		{"cnn+grande", "grande", "pretrained CNN encoder (frozen except its last layer) + GRANDE layer (256 trees, depth 6, leaf embeddings), intermediate fusion, trained end to end"},
	} {
		v := v
		Register(Model{Name: v.name, Help: v.help, UsesValidation: true, New: func(seed int64) Learner {
			return &imageLearner{name: v.name, cfg: multimodal.Config{Image: true, Tabular: v.tab, Seed: seed}, opts: MultimodalOptions}
		}})
	}
}

// --- data: images are attached to the prepared matrices ---------------

var (
	mmMu     sync.Mutex
	mmLoaded = map[string]*multimodal.Multimodal{} // by data folder
	mmByData = map[*data.Dataset]*multimodal.Multimodal{}
	// mmRows maps a prepared matrix of the multimodal protocol to its
	// rows of the data set (hence images).
	mmRows = map[*data.Matrix]mmRef{}
	// mmEncoders caches the pretrained image encoder of each fold.
	mmEncoders = map[string]*encoderEntry{}
)

type mmRef struct {
	set  *multimodal.Multimodal
	rows []int
}

type encoderEntry struct {
	once sync.Once
	m    *multimodal.Model
	err  error
}

// loadMultimodal loads HAM10000 (images decoded once per process).
func loadMultimodal(root, name string) (*data.Dataset, error) {
	if name != "ham10000" {
		return nil, fmt.Errorf("multimodal suite: unknown dataset %q (known: ham10000)", name)
	}
	dir := filepath.Join(root, multimodal.HAM10000Dir)
	mmMu.Lock()
	defer mmMu.Unlock()
	m := mmLoaded[dir]
	if m == nil {
		var err error
		if m, err = multimodal.LoadHAM10000(dir, multimodal.LoadOptions{}); err != nil {
			return nil, err
		}
		mmLoaded[dir] = m
	}
	ds := m.Dataset()
	mmByData[ds] = m
	return ds, nil
}

// MultimodalProtocol is K-fold cross-validation stratified by class and
// grouped (HAM10000: by lesion_id, so no lesion spans training and test),
// with a validation split of about ValidFraction taken from each training
// fold the same way, and the tabular preprocessing Pipeline fitted on each
// training part. The prepared matrices carry the rows' images for the image
// models (cnn, cnn+mlp, cnn+grande); tabular models see only the table.
type MultimodalProtocol struct {
	K             int
	ValidFraction float64
	Seed          uint32
	Pipeline      string
}

// Name describes the protocol.
func (p MultimodalProtocol) Name() string {
	return fmt.Sprintf("%d-fold CV stratified by class and grouped by lesion (seed %d, %g validation, %s preprocessing)", p.K, p.Seed, p.ValidFraction, p.Pipeline)
}

// DefaultTrials returns K.
func (p MultimodalProtocol) DefaultTrials() int { return p.K }

func groupsOf(ds *data.Dataset) ([]string, *multimodal.Multimodal, error) {
	mmMu.Lock()
	m := mmByData[ds]
	mmMu.Unlock()
	if m == nil {
		return nil, nil, fmt.Errorf("multimodal protocol: dataset %s was not loaded by the multimodal suite", ds.Name)
	}
	return m.Groups, m, nil
}

// Folds returns the K grouped, stratified folds (trials capped at K).
func (p MultimodalProtocol) Folds(ds *data.Dataset, trials int) ([]Fold, error) {
	groups, _, err := groupsOf(ds)
	if err != nil {
		return nil, err
	}
	tests, err := multimodal.StratifiedGroupKFold(ds.Y, groups, p.K, true, p.Seed)
	if err != nil {
		return nil, err
	}
	if trials <= 0 || trials > p.K {
		trials = p.K
	}
	out := make([]Fold, trials)
	for k := range out {
		rest := data.Complement(len(ds.Y), tests[k])
		f := Fold{Trial: k, Seed: int(p.Seed), Test: tests[k], Train: rest}
		if p.ValidFraction > 0 {
			y := make([]float64, len(rest))
			g := make([]string, len(rest))
			for i, j := range rest {
				y[i], g[i] = ds.Y[j], groups[j]
			}
			tr, va, err := multimodal.GroupSplit(y, g, p.ValidFraction, p.Seed+uint32(k))
			if err != nil {
				return nil, fmt.Errorf("fold %d: validation split: %w", k, err)
			}
			f.Train, f.Valid = folds.Pick(rest, tr), folds.Pick(rest, va)
		}
		out[k] = f
	}
	return out, nil
}

// Prepare fits the pipeline on the fold's training rows and attaches the
// rows' images to the prepared matrices.
func (p MultimodalProtocol) Prepare(ds *data.Dataset, f Fold) (*Prepared, error) {
	_, m, err := groupsOf(ds)
	if err != nil {
		return nil, err
	}
	prep, err := CVProtocol{Pipeline: p.Pipeline}.Prepare(ds, f)
	if err != nil {
		return nil, err
	}
	mmMu.Lock()
	mmRows[prep.Train.X] = mmRef{m, f.Train}
	mmRows[prep.Valid.X] = mmRef{m, f.Valid}
	mmRows[prep.Test.X] = mmRef{m, f.Test}
	mmMu.Unlock()
	return prep, nil
}

func imagesOf(x *data.Matrix, y []float64) (*multimodal.Inputs, error) {
	mmMu.Lock()
	ref, ok := mmRows[x]
	mmMu.Unlock()
	if !ok {
		return nil, errors.New("image models need the multimodal suite (no images are attached to these rows)")
	}
	return &multimodal.Inputs{Images: ref.set.Images, Rows: ref.rows, Tab: x, Y: y}, nil
}

// imageLearner is a bench model with an image branch.
type imageLearner struct {
	name string
	cfg  multimodal.Config
	opts map[string]string
	m    *multimodal.Model
}

func rowsKey(parts ...[]int) string {
	h := fnv.New64a()
	for _, p := range parts {
		for _, v := range p {
			fmt.Fprintf(h, "%d,", v)
		}
		h.Write([]byte{';'})
	}
	return fmt.Sprintf("%x", h.Sum64())
}

// encoder returns the fold's pretrained image-only model, training it once.
func encoder(ctx context.Context, cfg multimodal.Config, tr, va *multimodal.Inputs, classes int) (*multimodal.Model, error) {
	c := cfg
	c.Tabular = ""
	key := fmt.Sprintf("%p/%s/%+v", tr.Images, rowsKey(tr.Rows, va.Rows), c)
	mmMu.Lock()
	e := mmEncoders[key]
	if e == nil {
		e = &encoderEntry{}
		mmEncoders[key] = e
	}
	mmMu.Unlock()
	e.once.Do(func() {
		m := multimodal.New(c)
		e.err = m.Fit(ctx, tr, va, classes)
		e.m = m
		logModel("cnn (encoder)", m)
	})
	if e.err != nil {
		return nil, e.err
	}
	return e.m, nil
}

func logModel(name string, m *multimodal.Model) {
	if MultimodalLog == nil {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s:", name)
	for _, r := range m.Reports {
		fmt.Fprintf(&b, " %s %d epochs (best %d), %.2f s/epoch, %.1f s;", r.Stage, r.Epochs, r.BestEpoch, r.EpochSeconds, r.Seconds)
	}
	fmt.Fprintln(MultimodalLog, b.String())
}

func (l *imageLearner) Fit(ctx context.Context, p Problem, tr, va *Data) error {
	if p.Task == data.Regression {
		return fmt.Errorf("%s: regression is not supported", l.name)
	}
	if va == nil {
		return fmt.Errorf("%s: a validation split is required", l.name)
	}
	trIn, err := imagesOf(tr.X, tr.Y)
	if err != nil {
		return fmt.Errorf("%s: %w", l.name, err)
	}
	vaIn, err := imagesOf(va.X, va.Y)
	if err != nil {
		return fmt.Errorf("%s: %w", l.name, err)
	}
	if l.opts != nil {
		tab := l.cfg.Tabular
		if l.cfg, err = multimodal.ParseOptions(l.cfg, l.opts); err != nil {
			return fmt.Errorf("%s: %w", l.name, err)
		}
		l.cfg.Image, l.cfg.Tabular = true, tab
	}
	classes := max(p.NumClasses, 2)
	enc, err := encoder(ctx, l.cfg, trIn, vaIn, classes)
	if err != nil {
		return err
	}
	if l.cfg.Tabular == "" {
		l.m = enc
		return nil
	}
	l.m = multimodal.New(l.cfg)
	if err := l.m.UseEncoder(enc); err != nil {
		return err
	}
	if err := l.m.Fit(ctx, trIn, vaIn, classes); err != nil {
		return err
	}
	logModel(l.name, l.m)
	return nil
}

func (l *imageLearner) PredictProba(X *data.Matrix) (*data.Matrix, error) {
	if l.m == nil {
		return nil, fmt.Errorf("%s: not fitted", l.name)
	}
	in, err := imagesOf(X, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", l.name, err)
	}
	return l.m.PredictProba(in)
}

func (l *imageLearner) NumNodes() int { return 0 }

var _ model.Learner = (*imageLearner)(nil)

// --- the four-metric table ---------------------------------------------

// WriteMetricsTable writes, per dataset, one row per model with the mean ±
// std over trials of macro one-vs-rest ROC-AUC, accuracy, balanced accuracy
// and macro F1 and the mean fit time, followed by the thesis's figures of
// the suite (ThesisMetrics) — the layout of the thesis's multimodal table.
func WriteMetricsTable(w io.Writer, suite string, models []string, rs []Result) error {
	by := map[string]map[string][]Result{}
	var order []string
	for _, r := range rs {
		if by[r.Dataset] == nil {
			by[r.Dataset] = map[string][]Result{}
			order = append(order, r.Dataset)
		}
		if r.Err == "" {
			by[r.Dataset][r.Model] = append(by[r.Dataset][r.Model], r)
		}
	}
	var b strings.Builder
	for _, d := range order {
		fmt.Fprintf(&b, "#### %s\n\n| model | ROC-AUC | accuracy | balanced accuracy | macro F1 | fit s | trials |\n|---|---|---|---|---|---|---|\n", d)
		for _, m := range models {
			list := by[d][m]
			if len(list) == 0 {
				fmt.Fprintf(&b, "| %s | – | – | – | – | – | 0 |\n", m)
				continue
			}
			col := func(f func(Result) float64) string {
				v := make([]float64, len(list))
				for i, r := range list {
					v[i] = f(r)
				}
				return fmt.Sprintf("%.3f ± %.3f", metrics.Mean(v), metrics.Std(v, 0))
			}
			var fit float64
			for _, r := range list {
				fit += r.FitSeconds
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %.1f | %d |\n", m,
				col(func(r Result) float64 { return r.ROCAUC }), col(func(r Result) float64 { return r.Accuracy }),
				col(func(r Result) float64 { return r.BalancedAccuracy }), col(func(r Result) float64 { return r.F1Macro }),
				fit/float64(len(list)), len(list))
		}
		th := ThesisMetrics[suite]
		names := make([]string, 0, len(th))
		for n := range th {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			v := th[n]
			fmt.Fprintf(&b, "| thesis %s | %.3f | %.3f | %.3f | %.3f | | |\n", n, v[0], v[1], v[2], v[3])
		}
		b.WriteString("\n")
	}
	if b.Len() == 0 {
		b.WriteString("(no results)\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// HasMetricsTable reports whether suite is reported with WriteMetricsTable
// (all four metrics) rather than the macro-F1 table alone.
func HasMetricsTable(suite string) bool {
	_, ok := ThesisMetrics[suite]
	return ok
}
