package interpret

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gdt-ml/gdt/preprocess"
)

// Condition is the test of an internal node, "x[Feature] < Threshold" in
// model space, and its rendering in raw units.
type Condition struct {
	// Feature is the model-space column and Threshold the model-space
	// threshold: rows with x[Feature] < Threshold go left.
	Feature   int     `json:"feature"`
	Threshold float32 `json:"threshold"`
	// Name is the model-space column's name; Column the raw column it
	// comes from (equal to Name without a pipeline).
	Name   string `json:"name"`
	Column string `json:"column"`
	// Raw describes the split in raw units (nil without a pipeline);
	// it is exact (see preprocess.RawSplit).
	Raw *preprocess.RawSplit `json:"raw,omitempty"`
	// True is the condition under which a row goes left, e.g.
	// "income <= 37950" or `housing in {rent, mortgage} or unseen`; False
	// is its negation, the else branch ("income > 37950",
	// "housing in {own}"). A categorical side names the training levels
	// that go there and, on the side unseen levels go, "or unseen" (the
	// unseen-level rule, see UnseenRule).
	True  string `json:"true"`
	False string `json:"false"`
	// Unreached is "left" or "right" when no raw value — no training
	// level, no unseen level, no missing value — goes to that side at
	// prediction time, "" otherwise. It happens when the pipeline encodes
	// training rows with their own target (gt-paper's leave-one-out): a
	// training row's value differs from its level's, so training rows can
	// reach (and be counted in) a branch no row to predict can reach.
	Unreached string `json:"unreached,omitempty"`
}

// Condition renders the split "x[feature] < threshold": in raw units
// through the pipeline when there is one (numeric cuts exactly when the
// pipeline was snapped after training, preprocess.Pipeline.Snap — the cut
// is then a short decimal between two neighbouring training values that
// the model routes by; else, for model files written before snapping, as
// the shortest decimal within a relative 1e-6 of the exact cut, see
// numericSides;
// categorical columns as the sets of
// training levels on each side), else as "name < t" with the exact float32
// threshold.
func (o *Options) Condition(feature int, threshold float32) (Condition, error) {
	c := Condition{Feature: feature, Threshold: threshold, Name: o.featureName(feature)}
	c.Column = c.Name
	if o == nil || o.Pipeline == nil {
		t := strconv.FormatFloat(float64(threshold), 'g', -1, 32)
		c.True, c.False = c.Name+" < "+t, c.Name+" >= "+t
		return c, nil
	}
	s, err := o.Pipeline.RawThresholdLess(feature, threshold)
	if err != nil {
		return Condition{}, err
	}
	c.Raw, c.Column = &s, s.Column
	if s.Numeric {
		switch {
		case math.IsInf(s.Threshold, 1):
			c.True, c.False = s.Column+" is any number", s.Column+" is no number"
		case math.IsInf(s.Threshold, -1):
			c.True, c.False = s.Column+" is no number", s.Column+" is any number"
		case s.Snapped:
			t := decimalText(s.Threshold)
			c.True, c.False = s.Column+" <= "+t, s.Column+" > "+t
		default:
			c.True, c.False = numericSides(s.Column, s.Threshold)
		}
		switch {
		case math.IsInf(s.Threshold, -1) && !s.MissingLeft:
			c.Unreached = "left"
		case math.IsInf(s.Threshold, 1) && s.MissingLeft:
			c.Unreached = "right"
		}
		return c, nil
	}
	c.True, c.False = categorical(&s)
	switch {
	case len(s.LeftLevels) == 0 && !s.UnseenLeft && !s.MissingLeft:
		c.Unreached = "left"
	case len(s.RightLevels) == 0 && s.UnseenLeft && s.MissingLeft:
		c.Unreached = "right"
	}
	return c, nil
}

// numericSides renders "v <= cut" and its negation for display: the cut
// is shown as the shortest decimal within a relative 1e-6 below it
// (absolute 1e-6 for |cut| < 1, as preprocess.RawSplit.ShortText), e.g.
// "income <= 37949.5", or, when a decimal within that distance above it is
// shorter, as "income < 37950" (so a threshold of 37950 on an unscaled
// column reads as written). Only raw values in that sliver would be shown
// on the wrong side; JSON and the generated code keep the exact cut.
func numericSides(col string, cut float64) (string, string) {
	eps := 1e-6 * math.Max(1, math.Abs(cut))
	le := decimalText(shortestIn(cut-eps, cut))
	if v := shortestIn(math.Nextafter(cut, math.Inf(1)), cut+eps); !math.IsNaN(v) {
		if lt := decimalText(v); len(lt) < len(le) {
			return col + " < " + lt, col + " >= " + lt
		}
	}
	return col + " <= " + le, col + " > " + le
}

// shortestIn returns a number of [lo, hi] with the fewest significant
// decimal digits (0 when the interval holds it), NaN for an empty interval.
func shortestIn(lo, hi float64) float64 {
	switch {
	case !(lo <= hi):
		return math.NaN()
	case lo <= 0 && hi >= 0:
		return 0
	case hi < 0:
		return -shortestIn(-hi, -lo)
	}
	for prec := 1; prec <= 17; prec++ {
		// lo rounded to prec digits, and the next prec-digit decimal above
		d, err := strconv.ParseFloat(strconv.FormatFloat(lo, 'e', prec-1, 64), 64)
		if err != nil {
			break
		}
		if d >= lo && d <= hi {
			return d
		}
		e := math.Floor(math.Log10(d))
		up, err := strconv.ParseFloat(strconv.FormatFloat(d+math.Pow(10, e-float64(prec-1)), 'e', prec-1, 64), 64)
		if err == nil && up >= lo && up <= hi {
			return up
		}
	}
	return hi
}

// decimalText writes v without exponent for moderate magnitudes.
func decimalText(v float64) string {
	if a := math.Abs(v); a != 0 && (a >= 1e15 || a < 1e-5) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// categorical renders both sides of a categorical split under the
// unseen-level rule (package documentation):
// the side unseen levels go reads "or unseen" (or "!= level" for a
// one-hot indicator, or "is an unseen level" when no training level goes
// there); a side no value goes to reads "is no level".
func categorical(s *preprocess.RawSplit) (string, string) {
	col := s.Column
	if s.Encoding == preprocess.EncodingOneHot && s.Level != "" {
		lv := levelText(s.Level)
		switch {
		case slices.Contains(s.RightLevels, s.Level) && s.UnseenLeft:
			return col + " != " + lv, col + " == " + lv
		case slices.Contains(s.LeftLevels, s.Level) && !s.UnseenLeft:
			return col + " == " + lv, col + " != " + lv
		}
	}
	left := append([]string(nil), s.LeftLevels...)
	right := append([]string(nil), s.RightLevels...)
	// A missing value that does not follow unseen levels is a training
	// category of its own: list it.
	if s.MissingLeft != s.UnseenLeft {
		if s.MissingLeft {
			left = append(left, preprocess.MissingLevelName)
		} else {
			right = append(right, preprocess.MissingLevelName)
		}
	}
	side := func(levels []string, unseen bool) string {
		q := make([]string, len(levels))
		for i, l := range levels {
			q[i] = levelText(l)
		}
		switch {
		case len(q) == 0 && unseen:
			return col + " is an unseen level"
		case len(q) == 0:
			return col + " is no level"
		}
		txt := col + " in {" + strings.Join(q, ", ") + "}"
		if unseen {
			txt += " or unseen"
		}
		return txt
	}
	return side(left, s.UnseenLeft), side(right, !s.UnseenLeft)
}

// levelText shows a level bare when that is unambiguous, else quoted.
func levelText(l string) string {
	if l == "" || l != strings.TrimSpace(l) || strings.ContainsAny(l, ",{}\"'\\\n\t") {
		return strconv.Quote(l)
	}
	return l
}
