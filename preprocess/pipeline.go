package preprocess

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/gdt-ml/gdt/data"
)

// Scaling names the transform applied to the encoded columns.
type Scaling string

// Scalings.
const (
	// ScalingQuantileNormal is the papers' noised quantile-to-normal
	// transform (QuantileNormal), applied to every output column.
	ScalingQuantileNormal Scaling = "quantile-normal"
	// ScalingStandard subtracts the training mean and divides by the
	// training population standard deviation (1 when it is 0), for every
	// output column except one-hot indicators.
	ScalingStandard Scaling = "standard"
	// ScalingNone leaves the encoded values as they are.
	ScalingNone Scaling = "none"
)

// Impute names the treatment of missing numeric values.
type Impute string

// Imputations.
const (
	// ImputeMedian replaces NaN by the column's training median (the mean of
	// the two middle values for an even count, as pandas; 0 when the column
	// has no value in training).
	ImputeMedian Impute = "median"
	// ImputeNone keeps NaN: the quantile transform maps NaN to NaN and the
	// output matrix then contains NaN, which models must reject.
	ImputeNone Impute = "none"
)

// CardinalityRule picks the encoding of a categorical column from its
// number of distinct non-missing levels in the training rows.
type CardinalityRule struct {
	MaxLevels int      // the rule applies to columns with at most MaxLevels levels; 0 = any number
	Encoding  Encoding // a categorical encoding
}

// Config describes a preprocessing pipeline. The named protocols (GTPaper,
// GRPaper, Standard, Plain) return filled-in configurations; all fields are
// exported and JSON-serialisable.
type Config struct {
	Protocol string    // protocol name, informational
	Task     data.Task // learning task; oversampling is for classification only

	// Categorical lists cardinality rules, tried in order; the first whose
	// MaxLevels is 0 or ≥ the column's distinct level count applies.
	// Columns names per-column encodings that override the rules.
	Categorical []CardinalityRule
	Columns     map[string]Encoding `json:",omitempty"`
	// LOOTrainWithTarget encodes the training rows of leave-one-out columns
	// with their own target (true leave-one-out, GT-paper); when false they
	// get the plain category mean like any other row (GR-paper).
	LOOTrainWithTarget bool
	// TargetSmoothing is the additive smoothing m of target-mean encoding.
	TargetSmoothing float64

	ImputeNumeric Impute
	Scaling       Scaling
	// Quantile transform settings (ScalingQuantileNormal).
	NQuantiles    int
	Subsample     int
	QuantileNoise float64
	RandomState   uint32

	// Balance enables GT-paper's oversampling of the training rows when
	// NeedsBalancing(y, BalanceThreshold) holds (classification only).
	Balance          bool
	BalanceThreshold float64
	SMOTE            SMOTE
	// SMOTEContinuesNoise makes SMOTE draw from the quantile fit's noise
	// generator where its draws ended, as the GT-paper reference did
	// (SMOTE() without a seed used numpy's global generator, which the
	// quantile step had seeded with 42 and advanced by the N×F noise
	// draws). With it, the published runs' synthetic rows are reproduced
	// except where nearest-neighbour distances tie.
	SMOTEContinuesNoise bool `json:",omitempty"`
}

// Options are the run-specific settings of a named protocol.
type Options struct {
	Task data.Task
	// Seed seeds the oversampling (GT-paper passes the trial's data seed,
	// 42 + trial, to its RandomOverSampler fallback).
	Seed uint32
}

// GTPaper returns the preprocessing of the published GradTree experiments
// (spec §6.1): every categorical column leave-one-out encoded (training rows
// with their own target), the quantile-to-normal transform with fit noise
// 1e-3 and random_state 42 on all columns, and SMOTE (k = 5) on the
// training rows of classification tasks when min_c N_c/N ≤ 0.25/(C − 1).
// As in the reference, SMOTE draws from the quantile noise generator where
// its draws ended (SMOTEContinuesNoise) and falls back to random
// oversampling seeded with o.Seed when a class has ≤ 5 rows. With the
// numpy-compatible splits this reproduces the published CART column of the
// GradTree study to three decimals (BENCHMARKS.md).
//
// Missing numeric values: the GradTree loaders impute them before this
// step, so the reference never saw NaN here (it would have turned whole
// columns into NaN). GTPaper imputes the training median, which changes
// nothing for data that has no NaN.
func GTPaper(o Options) *Pipeline {
	return New(Config{
		Protocol:            "gt-paper",
		Task:                o.Task,
		Categorical:         []CardinalityRule{{0, EncodingLeaveOneOut}},
		LOOTrainWithTarget:  true,
		ImputeNumeric:       ImputeMedian,
		Scaling:             ScalingQuantileNormal,
		NQuantiles:          DefaultQuantiles,
		Subsample:           DefaultSubsample,
		QuantileNoise:       DefaultQuantileNoise,
		RandomState:         DefaultRandomState,
		Balance:             true,
		BalanceThreshold:    DefaultBalanceThreshold,
		SMOTE:               SMOTE{K: 5, Seed: o.Seed, ReferenceFallback: true},
		SMOTEContinuesNoise: true,
	})
}

// GRPaper returns the preprocessing of the published GRANDE experiments
// (spec §6.2): numeric NaN → median; categorical columns by their number u
// of distinct levels: u ≤ 2 ordinal (LabelEncoder), 3 ≤ u ≤ 9 one-hot,
// u ≥ 10 leave-one-out fitted with the target but applied without it to
// every row (= target-mean encoding, singletons → ȳ); then the
// quantile-to-normal transform (noise 1e-3, random_state 42); no
// oversampling (GRANDE uses class weights in the loss instead).
//
// Deviation: the reference computed the medians, the distinct counts, the
// label and the one-hot encodings on the full data set before splitting;
// here everything is fitted on the training rows. For the full-data
// medians, call FillMedians on the whole table before splitting.
func GRPaper(o Options) *Pipeline {
	return New(Config{
		Protocol: "gr-paper",
		Task:     o.Task,
		Categorical: []CardinalityRule{
			{2, EncodingOrdinal},
			{9, EncodingOneHot},
			{0, EncodingLeaveOneOut},
		},
		LOOTrainWithTarget: false,
		ImputeNumeric:      ImputeMedian,
		Scaling:            ScalingQuantileNormal,
		NQuantiles:         DefaultQuantiles,
		Subsample:          DefaultSubsample,
		QuantileNoise:      DefaultQuantileNoise,
		RandomState:        DefaultRandomState,
		SMOTE:              SMOTE{K: 5, Seed: o.Seed},
	})
}

// Standard returns a general-purpose pipeline ("standard"): one-hot
// categorical columns, numeric NaN → training median, numeric columns
// standardised with the training mean and standard deviation; no
// oversampling.
func Standard(o Options) *Pipeline {
	return New(Config{
		Protocol:      "standard",
		Task:          o.Task,
		Categorical:   []CardinalityRule{{0, EncodingOneHot}},
		ImputeNumeric: ImputeMedian,
		Scaling:       ScalingStandard,
		SMOTE:         SMOTE{K: 5, Seed: o.Seed},
	})
}

// Plain returns the minimal pipeline ("none"): one-hot categorical
// columns, numeric NaN → training median, no scaling, no oversampling.
func Plain(o Options) *Pipeline {
	p := Standard(o)
	p.Config.Protocol = "none"
	p.Config.Scaling = ScalingNone
	return p
}

var protocols = map[string]func(Options) *Pipeline{
	"gt-paper": GTPaper,
	"gr-paper": GRPaper,
	"standard": Standard,
	"none":     Plain,
}

// ProtocolNames lists the names accepted by Protocol.
func ProtocolNames() []string {
	names := make([]string, 0, len(protocols))
	for n := range protocols {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Protocol returns the constructor of the named protocol: "gt-paper",
// "gr-paper", "standard" or "none".
func Protocol(name string) (func(Options) *Pipeline, error) {
	if f, ok := protocols[strings.ToLower(name)]; ok {
		return f, nil
	}
	return nil, fmt.Errorf("preprocess: unknown protocol %q (want one of %s)", name, strings.Join(ProtocolNames(), ", "))
}

// InputColumn is the fitted treatment of one raw column. Exactly one
// encoder pointer is set for a categorical column.
type InputColumn struct {
	Name     string
	Kind     data.Kind
	Encoding Encoding
	Impute   bool    // numeric: NaN is replaced by Median
	Median   float64 // numeric: training median

	LeaveOneOut *LeaveOneOut `json:",omitempty"`
	TargetMean  *TargetMean  `json:",omitempty"`
	OneHot      *OneHot      `json:",omitempty"`
	Ordinal     *Ordinal     `json:",omitempty"`
	Frequency   *Frequency   `json:",omitempty"`

	First, Width int // output columns First … First+Width−1
}

// Encoder returns the column's categorical encoder (nil for numeric
// columns).
func (c *InputColumn) Encoder() Encoder {
	switch {
	case c.LeaveOneOut != nil:
		return c.LeaveOneOut
	case c.TargetMean != nil:
		return c.TargetMean
	case c.OneHot != nil:
		return c.OneHot
	case c.Ordinal != nil:
		return c.Ordinal
	case c.Frequency != nil:
		return c.Frequency
	}
	return nil
}

func (c *InputColumn) setEncoder(e Encoder) {
	switch e := e.(type) {
	case *LeaveOneOut:
		c.LeaveOneOut = e
	case *TargetMean:
		c.TargetMean = e
	case *OneHot:
		c.OneHot = e
	case *Ordinal:
		c.Ordinal = e
	case *Frequency:
		c.Frequency = e
	}
}

// Source says where an output column comes from.
type Source struct {
	Name     string   // output feature name
	Column   string   // raw column name
	Input    int      // index of the raw column in Pipeline.Inputs (its position in the training table)
	Encoding Encoding // how the raw column was encoded
	Level    string   // one-hot: the level of this indicator ("" otherwise)
}

// Standardizer holds per-output-column z = (x − Mean)/Scale.
type Standardizer struct {
	Mean, Scale []float64
}

// Pipeline turns a data.Table into the float32 matrix models train on. It
// is fitted on training rows only (Fit / FitTransform) and then applied to
// any rows (Transform); Transform never needs or sees a target. All fitted
// state is in exported fields, so a fitted Pipeline round-trips through
// encoding/json and can be stored inside a model file.
type Pipeline struct {
	Config Config

	// Fitted state.
	Inputs    []InputColumn
	Outputs   []Source
	Quantile  *QuantileNormal `json:",omitempty"`
	Standard  *Standardizer   `json:",omitempty"`
	Resampled int             // synthetic rows appended by the last FitTransform
	// Cuts are the short raw cuts of numeric columns that Snap fixed
	// after training (none until then, and in model files written
	// before them): Transform maps every raw value to the model-space
	// side of each cut that "value ≤ cut" says.
	Cuts []ColumnCuts `json:",omitempty"`
}

// New returns an unfitted pipeline with configuration cfg.
func New(cfg Config) *Pipeline { return &Pipeline{Config: cfg} }

// Fitted reports whether the pipeline has been fitted.
func (p *Pipeline) Fitted() bool { return len(p.Outputs) > 0 }

// NumFeatures returns the number of output columns.
func (p *Pipeline) NumFeatures() int { return len(p.Outputs) }

// FeatureNames returns the output column names: the raw name for numeric
// and single-column encodings, "column=level" for one-hot indicators.
func (p *Pipeline) FeatureNames() []string {
	out := make([]string, len(p.Outputs))
	for j, s := range p.Outputs {
		out[j] = s.Name
	}
	return out
}

// Source returns the origin of output column j (zero Source when j is out
// of range).
func (p *Pipeline) Source(j int) Source {
	if j < 0 || j >= len(p.Outputs) {
		return Source{}
	}
	return p.Outputs[j]
}

// Schema returns a data.Schema that types the raw columns as in training,
// for reading validation, test or inference files consistently.
func (p *Pipeline) Schema() data.Schema {
	var s data.Schema
	for _, c := range p.Inputs {
		if c.Kind == data.Categorical {
			s.Categorical = append(s.Categorical, c.Name)
		} else {
			s.Numeric = append(s.Numeric, c.Name)
		}
	}
	return s
}

func (cfg *Config) validate() error {
	switch cfg.Scaling {
	case ScalingQuantileNormal:
		q := QuantileNormal{NQuantiles: cfg.NQuantiles, Subsample: cfg.Subsample, Noise: cfg.QuantileNoise}
		if err := q.validate(); err != nil {
			return err
		}
	case ScalingStandard, ScalingNone:
	default:
		return fmt.Errorf("preprocess: config: unknown scaling %q (want quantile-normal, standard or none)", cfg.Scaling)
	}
	switch cfg.ImputeNumeric {
	case ImputeMedian, ImputeNone:
	default:
		return fmt.Errorf("preprocess: config: unknown numeric imputation %q (want median or none)", cfg.ImputeNumeric)
	}
	if len(cfg.Categorical) == 0 {
		return fmt.Errorf("preprocess: config: no categorical encoding rule")
	}
	last := cfg.Categorical[len(cfg.Categorical)-1]
	if last.MaxLevels != 0 {
		return fmt.Errorf("preprocess: config: the last categorical rule must have MaxLevels 0 (any number of levels), got %d", last.MaxLevels)
	}
	for i, r := range cfg.Categorical {
		if _, err := newEncoder(r.Encoding, 0); err != nil {
			return fmt.Errorf("preprocess: config: categorical rule %d: %w", i, err)
		}
		if r.MaxLevels < 0 {
			return fmt.Errorf("preprocess: config: categorical rule %d: MaxLevels %d < 0", i, r.MaxLevels)
		}
	}
	for name, e := range cfg.Columns {
		if _, err := newEncoder(e, 0); err != nil {
			return fmt.Errorf("preprocess: config: column %q: %w", name, err)
		}
	}
	if cfg.TargetSmoothing < 0 || math.IsNaN(cfg.TargetSmoothing) || math.IsInf(cfg.TargetSmoothing, 0) {
		return fmt.Errorf("preprocess: config: TargetSmoothing %v, want a finite value ≥ 0", cfg.TargetSmoothing)
	}
	if cfg.Balance && (cfg.BalanceThreshold < 0 || math.IsNaN(cfg.BalanceThreshold)) {
		return fmt.Errorf("preprocess: config: BalanceThreshold %v, want ≥ 0", cfg.BalanceThreshold)
	}
	if cfg.SMOTE.K < 0 {
		return fmt.Errorf("preprocess: config: SMOTE.K %d, want ≥ 0 (0 = 5)", cfg.SMOTE.K)
	}
	return nil
}

// encodingFor picks the encoding of categorical column c.
func (cfg *Config) encodingFor(c *data.Column) Encoding {
	if e, ok := cfg.Columns[c.Name]; ok {
		return e
	}
	seen := make([]bool, len(c.Levels))
	distinct := map[string]bool{}
	for _, code := range c.Codes {
		if code != data.Missing && !seen[code] {
			seen[code] = true
			distinct[c.Levels[code]] = true
		}
	}
	for _, r := range cfg.Categorical {
		if r.MaxLevels == 0 || len(distinct) <= r.MaxLevels {
			return r.Encoding
		}
	}
	return cfg.Categorical[len(cfg.Categorical)-1].Encoding
}

// checkTable checks X before fitting or transforming; row i of X is called
// row firstRow+i in messages.
func checkTable(X *data.Table, what string, firstRow int) error {
	if X == nil {
		return fmt.Errorf("preprocess: %s: nil table", what)
	}
	if err := X.Validate(); err != nil {
		return fmt.Errorf("preprocess: %s: %w", what, err)
	}
	for _, c := range X.Columns {
		if c.Kind == data.Numeric {
			for i, v := range c.Num {
				if math.IsInf(v, 0) {
					return fmt.Errorf("preprocess: %s: column %q row %d is %v; want a finite number or missing", what, c.Name, firstRow+i, v)
				}
			}
		}
	}
	return nil
}

// median returns the median of the non-NaN values (0 if none).
func median(v []float64) float64 {
	s := make([]float64, 0, len(v))
	for _, x := range v {
		if !math.IsNaN(x) {
			s = append(s, x)
		}
	}
	if len(s) == 0 {
		return 0
	}
	sort.Float64s(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

// FillMedians replaces the missing values of every numeric column of X by
// the column's median over all rows of X, in place, and returns the
// medians by column name. GR-paper imputes this way on the full data set
// before splitting (spec §6.2 step 2).
func FillMedians(X *data.Table) map[string]float64 {
	out := map[string]float64{}
	for _, c := range X.Columns {
		if c.Kind != data.Numeric {
			continue
		}
		m := median(c.Num)
		out[c.Name] = m
		for i, v := range c.Num {
			if math.IsNaN(v) {
				c.Num[i] = m
			}
		}
	}
	return out
}

// Fit fits the pipeline on training rows X with target y (y may be nil
// when no column needs a supervised encoder). No resampling happens.
func (p *Pipeline) Fit(X *data.Table, y []float64) error {
	_, _, err := p.fit(X, y, false)
	return err
}

// FitTransform fits the pipeline on the training rows X, y and returns the
// training matrix as the protocol defines it: leave-one-out columns encoded
// with each row's own target when Config.LOOTrainWithTarget, and, when
// Config.Balance and the rule triggers, the synthetic SMOTE rows appended
// after the original rows (yOut holds their labels; otherwise yOut is a
// copy of y).
func (p *Pipeline) FitTransform(X *data.Table, y []float64) (*data.Matrix, []float64, error) {
	return p.fit(X, y, true)
}

func (p *Pipeline) fit(X *data.Table, y []float64, resample bool) (*data.Matrix, []float64, error) {
	cfg := &p.Config
	if err := cfg.validate(); err != nil {
		return nil, nil, err
	}
	if err := checkTable(X, "fit", 0); err != nil {
		return nil, nil, err
	}
	n := X.NumRows()
	if X.NumCols() == 0 || n == 0 {
		return nil, nil, fmt.Errorf("preprocess: fit: the training table has %d rows and %d columns, want at least one of each", n, X.NumCols())
	}
	if y != nil {
		if err := checkTarget(y, n, "fit", true); err != nil {
			return nil, nil, err
		}
		if cfg.Task != data.Regression {
			for i, v := range y {
				if v < 0 || v != math.Trunc(v) {
					return nil, nil, fmt.Errorf("preprocess: fit: %v task: target row %d is %v, want a class index 0, 1, …", cfg.Task, i, v)
				}
			}
		}
	}
	for name := range cfg.Columns {
		c := X.Col(name)
		if c == nil {
			return nil, nil, fmt.Errorf("preprocess: config names column %q, which the training table does not have (columns: %s)", name, strings.Join(X.Names(), ", "))
		}
		if c.Kind != data.Categorical {
			return nil, nil, fmt.Errorf("preprocess: config gives an encoding to column %q, which is numeric; encodings apply to categorical columns", name)
		}
	}

	// Fit the per-column encoders.
	p.Inputs = make([]InputColumn, len(X.Columns))
	p.Outputs = nil
	p.Quantile, p.Standard, p.Resampled, p.Cuts = nil, nil, 0, nil
	for i, c := range X.Columns {
		ic := &p.Inputs[i]
		ic.Name, ic.Kind, ic.First = c.Name, c.Kind, len(p.Outputs)
		if c.Kind == data.Numeric {
			ic.Encoding, ic.Width = EncodingNumeric, 1
			if cfg.ImputeNumeric == ImputeMedian {
				ic.Impute, ic.Median = true, median(c.Num)
			}
			p.Outputs = append(p.Outputs, Source{Name: c.Name, Column: c.Name, Input: i, Encoding: EncodingNumeric})
			continue
		}
		ic.Encoding = cfg.encodingFor(c)
		if supervised(ic.Encoding) && y == nil {
			p.Inputs, p.Outputs = nil, nil
			return nil, nil, fmt.Errorf("preprocess: fit: column %q uses %s encoding, which needs the target y", c.Name, ic.Encoding)
		}
		enc, _ := newEncoder(ic.Encoding, cfg.TargetSmoothing)
		if err := enc.Fit(c, y); err != nil {
			p.Inputs, p.Outputs = nil, nil
			return nil, nil, err
		}
		ic.setEncoder(enc)
		ic.Width = enc.Width()
		names := enc.OutputNames(c.Name)
		for k, name := range names {
			s := Source{Name: name, Column: c.Name, Input: i, Encoding: ic.Encoding}
			if ic.Encoding == EncodingOneHot {
				s.Level = enc.(*OneHot).CategoryName(k)
			}
			p.Outputs = append(p.Outputs, s)
		}
	}
	if len(p.Outputs) == 0 {
		p.Inputs = nil
		return nil, nil, fmt.Errorf("preprocess: fit: the encoded training table has no columns")
	}

	// Encode the training rows.
	var ytrain []float64
	if cfg.LOOTrainWithTarget {
		ytrain = y
	}
	cols, err := p.encode(X, ytrain)
	if err != nil {
		p.Inputs, p.Outputs = nil, nil
		return nil, nil, err
	}

	// Fit and apply the scaling.
	switch cfg.Scaling {
	case ScalingQuantileNormal:
		q := &QuantileNormal{NQuantiles: cfg.NQuantiles, Subsample: cfg.Subsample, Noise: cfg.QuantileNoise, RandomState: cfg.RandomState}
		if err := q.Fit(cols); err != nil {
			p.Inputs, p.Outputs = nil, nil
			return nil, nil, err
		}
		p.Quantile = q
	case ScalingStandard:
		s := &Standardizer{Mean: make([]float64, len(cols)), Scale: make([]float64, len(cols))}
		for j, c := range cols {
			s.Mean[j], s.Scale[j] = 0, 1
			if p.Outputs[j].Encoding == EncodingOneHot {
				continue
			}
			var sum float64
			cnt := 0
			for _, v := range c {
				if !math.IsNaN(v) {
					sum += v
					cnt++
				}
			}
			if cnt == 0 {
				continue
			}
			mean := sum / float64(cnt)
			var ss float64
			for _, v := range c {
				if !math.IsNaN(v) {
					ss += (v - mean) * (v - mean)
				}
			}
			s.Mean[j] = mean
			if sd := math.Sqrt(ss / float64(cnt)); sd > 0 {
				s.Scale[j] = sd
			}
		}
		p.Standard = s
	}
	if !resample {
		return nil, nil, nil
	}
	p.scale(cols)

	f := len(cols)
	yOut := append([]float64(nil), y...)
	if cfg.Balance && cfg.Task != data.Regression && y != nil && NeedsBalancing(y, cfg.BalanceThreshold) {
		x64 := make([]float64, n*f)
		for j, c := range cols {
			for i, v := range c {
				x64[i*f+j] = v
			}
		}
		sm := cfg.SMOTE
		if cfg.SMOTEContinuesNoise && p.Quantile != nil {
			sm.Stream = p.Quantile.NoiseStream()
		}
		out, yr, err := sm.resample64(x64, n, f, y)
		if err != nil {
			return nil, nil, err
		}
		m := data.NewMatrix(len(yr), f)
		for i, v := range out {
			m.Data[i] = float32(v)
		}
		p.Resampled = len(yr) - n
		return m, yr, nil
	}
	return toMatrix(cols, n), yOut, nil
}

// inputColumn returns the column of X that input ic reads, checking that
// it exists and has the kind it had in training.
func (p *Pipeline) inputColumn(X *data.Table, ic *InputColumn) (*data.Column, error) {
	c := X.Col(ic.Name)
	if c == nil {
		return nil, fmt.Errorf("preprocess: transform: the table has no column %q (the pipeline was fitted on columns %s)", ic.Name, strings.Join(p.inputNames(), ", "))
	}
	if c.Kind != ic.Kind {
		return nil, fmt.Errorf("preprocess: transform: column %q is %v, but was %v in training (read the file with Pipeline.Schema())", ic.Name, c.Kind, ic.Kind)
	}
	return c, nil
}

// encode returns the encoded (unscaled) columns of X, column-major.
func (p *Pipeline) encode(X *data.Table, y []float64) ([][]float64, error) {
	n := X.NumRows()
	buf := make([]float64, n*len(p.Outputs))
	cols := make([][]float64, len(p.Outputs))
	for j := range cols {
		cols[j] = buf[j*n : (j+1)*n : (j+1)*n]
	}
	for i := range p.Inputs {
		ic := &p.Inputs[i]
		c, err := p.inputColumn(X, ic)
		if err != nil {
			return nil, err
		}
		if err := p.encodeInput(ic, c, y, cols[ic.First:ic.First+ic.Width]); err != nil {
			return nil, err
		}
	}
	return cols, nil
}

func (p *Pipeline) inputNames() []string {
	out := make([]string, len(p.Inputs))
	for i, c := range p.Inputs {
		out[i] = fmt.Sprintf("%q", c.Name)
	}
	return out
}

// encodeInput encodes one raw column into dst (Width columns).
func (p *Pipeline) encodeInput(ic *InputColumn, c *data.Column, y []float64, dst [][]float64) error {
	if ic.Kind == data.Numeric {
		out := dst[0]
		for i, v := range c.Num {
			if ic.Impute && math.IsNaN(v) {
				v = ic.Median
			}
			out[i] = v
		}
		return nil
	}
	enc := ic.Encoder()
	if enc == nil {
		return fmt.Errorf("preprocess: column %q: the pipeline has no fitted encoder", ic.Name)
	}
	if _, ok := enc.(*LeaveOneOut); !ok {
		y = nil
	}
	return enc.Encode(c, y, dst)
}

// scaleValue applies output column j's scaling to v.
func (p *Pipeline) scaleValue(j int, v float64) float64 {
	switch {
	case p.Quantile != nil:
		return p.Quantile.Forward(j, v)
	case p.Standard != nil:
		return (v - p.Standard.Mean[j]) / p.Standard.Scale[j]
	}
	return v
}

// scale applies the scaling to all columns in place.
func (p *Pipeline) scale(cols [][]float64) {
	if p.Quantile == nil && p.Standard == nil {
		return
	}
	for j, c := range cols {
		for i, v := range c {
			c[i] = p.scaleValue(j, v)
		}
	}
}

func toMatrix(cols [][]float64, n int) *data.Matrix {
	f := len(cols)
	m := data.NewMatrix(n, f)
	for j, c := range cols {
		for i, v := range c {
			m.Data[i*f+j] = float32(v)
		}
	}
	return m
}
