package preprocess

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gdt-ml/gdt/data"
)

// RawSplit describes, in the units of a raw column, which values a split
// "x_j ≤ t" on output column j sends to the left child. It is exact: a raw
// value v goes left if and only if Transform maps it to a float32 value ≤ t.
type RawSplit struct {
	Feature  string   // output feature name
	Column   string   // raw column name
	Encoding Encoding // encoding of the raw column
	Numeric  bool     // the raw column is numeric

	// Numeric columns: left ⇔ v ≤ Threshold (+Inf: every value, −Inf: none).
	// Threshold is the largest float64 whose transformed value is ≤ t (found
	// by bisection through the fitted transform, so it reproduces routing
	// exactly). Inverse is the spec §7.3 inverse-transform value Q⁻¹(t)
	// (sklearn inverse_transform), which is only approximately the cut.
	Threshold float64
	Inverse   float64
	// Snapped tells that Threshold is one of the short cuts Snap fixed
	// after training: renderings show it exactly as it is.
	Snapped bool `json:",omitempty"`

	// Categorical columns: the training levels sent left and right, and
	// where a level never seen in training goes.
	Level       string // one-hot: the level of the indicator column
	LeftLevels  []string
	RightLevels []string
	UnseenLeft  bool

	// MissingLeft tells where a missing value goes.
	MissingLeft bool
}

// RawThreshold describes the split "x_j ≤ t" on output column j in raw
// units: for a numeric column the raw threshold, for a categorical column
// the set of levels whose encoded value (as used for non-training rows)
// transforms to ≤ t, for a one-hot indicator "column == level" or
// "column != level". For a model whose rule is "x_j < t → left" call
// RawThresholdLess.
//
// Categorical sets describe rows encoded without a target (validation,
// test, inference). Training rows that FitTransform encoded with their own
// target (GT-paper's leave-one-out) carry row-specific values and may fall
// on the other side than their level's description.
func (p *Pipeline) RawThreshold(j int, t float32) (RawSplit, error) {
	if !p.Fitted() {
		return RawSplit{}, fmt.Errorf("preprocess: raw threshold: the pipeline is not fitted")
	}
	if j < 0 || j >= len(p.Outputs) {
		return RawSplit{}, fmt.Errorf("preprocess: raw threshold: feature index %d outside 0..%d", j, len(p.Outputs)-1)
	}
	if math.IsNaN(float64(t)) {
		return RawSplit{}, fmt.Errorf("preprocess: raw threshold: threshold of feature %d (%q) is NaN", j, p.Outputs[j].Name)
	}
	src := p.Outputs[j]
	ic := &p.Inputs[src.Input]
	s := RawSplit{Feature: src.Name, Column: src.Column, Encoding: src.Encoding, Level: src.Level}
	if ic.Kind == data.Numeric {
		s.Numeric = true
		left := func(v float64) bool { return p.modelValue(j, v) <= t }
		s.Threshold = lastTrue(left)
		for _, c := range p.cutsOf(j) {
			s.Snapped = s.Snapped || c.Raw == s.Threshold
		}
		missing := math.NaN()
		if ic.Impute {
			missing = ic.Median
		}
		s.MissingLeft = left(missing)
		switch {
		case p.Quantile != nil:
			s.Inverse = p.Quantile.Inverse(j, float64(t))
		case p.Standard != nil:
			s.Inverse = float64(t)*p.Standard.Scale[j] + p.Standard.Mean[j]
		default:
			s.Inverse = float64(t)
		}
		return s, nil
	}
	// Categorical: encode every training level, an unseen level and a
	// missing value through the same code path as Transform.
	enc := ic.Encoder()
	var cats *Categories
	switch e := enc.(type) {
	case *LeaveOneOut:
		cats = &e.Categories
	case *TargetMean:
		cats = &e.Categories
	case *OneHot:
		cats = &e.Categories
	case *Ordinal:
		cats = &e.Categories
	case *Frequency:
		cats = &e.Categories
	default:
		return RawSplit{}, fmt.Errorf("preprocess: raw threshold: column %q has no fitted encoder", ic.Name)
	}
	nl := len(cats.Levels)
	unseen := "\x00unseen"
	for slicesContains(cats.Levels, unseen) {
		unseen += "\x00"
	}
	col := &data.Column{Name: ic.Name, Kind: data.Categorical, Levels: append(append([]string(nil), cats.Levels...), unseen), Codes: make([]int32, nl+2)}
	for i := 0; i <= nl; i++ {
		col.Codes[i] = int32(i)
	}
	col.Codes[nl+1] = data.Missing
	dst := make([][]float64, ic.Width)
	for k := range dst {
		dst[k] = make([]float64, nl+2)
	}
	if err := p.encodeInput(ic, col, nil, dst); err != nil {
		return RawSplit{}, err
	}
	vals := dst[j-ic.First]
	for i := range vals {
		goesLeft := float32(p.scaleValue(j, vals[i])) <= t
		switch {
		case i < nl && goesLeft:
			s.LeftLevels = append(s.LeftLevels, cats.Levels[i])
		case i < nl:
			s.RightLevels = append(s.RightLevels, cats.Levels[i])
		case i == nl:
			s.UnseenLeft = goesLeft
		default:
			s.MissingLeft = goesLeft
		}
	}
	return s, nil
}

// RawThresholdLess describes the split "x_j < t" (the models' routing
// rule, spec §7.2): for float32 values, x < t ⇔ x ≤ the next float32 below t.
func (p *Pipeline) RawThresholdLess(j int, t float32) (RawSplit, error) {
	return p.RawThreshold(j, math.Nextafter32(t, float32(math.Inf(-1))))
}

func slicesContains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// orderedKey maps float64 to int64 preserving order (−0 and +0 both to 0).
func orderedKey(v float64) int64 {
	b := math.Float64bits(v)
	if b>>63 != 0 {
		return -int64(b &^ (1 << 63))
	}
	return int64(b)
}

func fromOrderedKey(k int64) float64 {
	if k < 0 {
		return -math.Float64frombits(uint64(-k))
	}
	return math.Float64frombits(uint64(k))
}

// lastTrue returns the largest finite float64 v with left(v) for a
// predicate that is true up to some point and false after it; +Inf when
// it holds for every finite value, −Inf when for none.
func lastTrue(left func(float64) bool) float64 {
	lo, hi := -math.MaxFloat64, math.MaxFloat64
	if left(hi) {
		return math.Inf(1)
	}
	if !left(lo) {
		return math.Inf(-1)
	}
	kl, kh := orderedKey(lo), orderedKey(hi)
	// kl < kh always; their difference may exceed MaxInt64, so it is taken
	// in uint64 arithmetic.
	for uint64(kh)-uint64(kl) > 1 {
		mid := kl + int64((uint64(kh)-uint64(kl))/2)
		if left(fromOrderedKey(mid)) {
			kl = mid
		} else {
			kh = mid
		}
	}
	return fromOrderedKey(kl)
}

// Text renders the condition for going left, e.g. `age <= 37.5`,
// `workclass in {"Private", "State-gov"}`, `color != "red"`.
func (s RawSplit) Text() string {
	if s.Numeric {
		var b strings.Builder
		switch {
		case math.IsInf(s.Threshold, 1):
			b.WriteString(s.Column + " is any number")
		case math.IsInf(s.Threshold, -1):
			b.WriteString(s.Column + " is no number")
		default:
			b.WriteString(s.Column + " <= " + strconv.FormatFloat(s.Threshold, 'g', -1, 64))
		}
		if s.MissingLeft {
			b.WriteString(" or " + s.Column + " is missing")
		}
		return b.String()
	}
	list := func(levels []string) string {
		q := make([]string, len(levels))
		for i, l := range levels {
			q[i] = strconv.Quote(l)
		}
		return "{" + strings.Join(q, ", ") + "}"
	}
	var text string
	if s.UnseenLeft {
		switch len(s.RightLevels) {
		case 0:
			text = s.Column + " is any level"
		case 1:
			text = s.Column + " != " + strconv.Quote(s.RightLevels[0])
		default:
			text = s.Column + " not in " + list(s.RightLevels)
		}
	} else {
		switch len(s.LeftLevels) {
		case 0:
			text = s.Column + " is no level"
		case 1:
			text = s.Column + " == " + strconv.Quote(s.LeftLevels[0])
		default:
			text = s.Column + " in " + list(s.LeftLevels)
		}
	}
	// Missing values follow unseen levels in the text above.
	switch {
	case s.MissingLeft && !s.UnseenLeft:
		text += " or " + s.Column + " is missing"
	case !s.MissingLeft && s.UnseenLeft:
		text += " and " + s.Column + " is not missing"
	}
	return text
}

// String returns Text().
func (s RawSplit) String() string { return s.Text() }

// jsonFloat encodes non-finite values as the strings "+Inf", "-Inf", "NaN".
type jsonFloat float64

func (f jsonFloat) MarshalJSON() ([]byte, error) {
	v := float64(f)
	switch {
	case math.IsInf(v, 1):
		return []byte(`"+Inf"`), nil
	case math.IsInf(v, -1):
		return []byte(`"-Inf"`), nil
	case math.IsNaN(v):
		return []byte(`"NaN"`), nil
	}
	return json.Marshal(v)
}

func (f *jsonFloat) UnmarshalJSON(b []byte) error {
	switch string(b) {
	case `"+Inf"`:
		*f = jsonFloat(math.Inf(1))
		return nil
	case `"-Inf"`:
		*f = jsonFloat(math.Inf(-1))
		return nil
	case `"NaN"`:
		*f = jsonFloat(math.NaN())
		return nil
	}
	var v float64
	if err := json.Unmarshal(b, &v); err != nil {
		return fmt.Errorf("preprocess: raw split: threshold %s is not a number", b)
	}
	*f = jsonFloat(v)
	return nil
}

type rawSplitFields RawSplit

type rawSplitJSON struct {
	rawSplitFields
	Threshold jsonFloat
	Inverse   jsonFloat
}

// MarshalJSON encodes the split; infinite thresholds become "+Inf"/"-Inf".
func (s RawSplit) MarshalJSON() ([]byte, error) {
	return json.Marshal(rawSplitJSON{rawSplitFields(s), jsonFloat(s.Threshold), jsonFloat(s.Inverse)})
}

// UnmarshalJSON decodes what MarshalJSON wrote.
func (s *RawSplit) UnmarshalJSON(b []byte) error {
	var r rawSplitJSON
	if err := json.Unmarshal(b, &r); err != nil {
		return err
	}
	*s = RawSplit(r.rawSplitFields)
	s.Threshold, s.Inverse = float64(r.Threshold), float64(r.Inverse)
	return nil
}

// ShortText renders the condition for display: like Text, but a numeric
// threshold is written as the shortest decimal within a relative 1e-6
// below the exact cut (so "income <= 83100" rather than
// "income <= 83100.00390625"; only raw values in that sliver would route
// differently), and the missing-value clause of numeric columns is left
// out (missing values follow the imputed median; see the model's
// preprocessing). The exact cut stays in Threshold. A snapped cut
// (Snapped) is written exactly: it is already short.
func (s RawSplit) ShortText() string {
	if !s.Numeric || math.IsInf(s.Threshold, 0) {
		return s.Text()
	}
	if s.Snapped {
		return s.Column + " <= " + strconv.FormatFloat(s.Threshold, 'f', -1, 64)
	}
	return s.Column + " <= " + ShortDecimal(s.Threshold-1e-6*math.Max(1, math.Abs(s.Threshold)), s.Threshold)
}

// ShortDecimal returns the shortest decimal representation of a number in
// [lo, hi] (hi when lo > hi).
func ShortDecimal(lo, hi float64) string {
	if !(lo <= hi) {
		return strconv.FormatFloat(hi, 'g', -1, 64)
	}
	for prec := 1; prec <= 17; prec++ {
		for _, v := range []float64{hi, (lo + hi) / 2} {
			txt := strconv.FormatFloat(v, 'g', prec, 64)
			d, err := strconv.ParseFloat(txt, 64)
			if err == nil && d >= lo && d <= hi {
				if strings.ContainsAny(txt, "e") {
					txt = strconv.FormatFloat(d, 'f', -1, 64)
				}
				return txt
			}
		}
	}
	return strconv.FormatFloat(hi, 'g', -1, 64)
}
