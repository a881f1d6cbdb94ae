package preprocess

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"

	"github.com/gdt-ml/gdt/data"
)

// Split is one split of a trained model on output column Feature: a row
// goes left iff its model-space value is below Threshold (package
// ensemble's rule).
type Split struct {
	Feature   int
	Threshold float32
}

// Cut is a raw cut point of a numeric column fixed by Snap: the
// pipeline maps every raw value v ≤ Raw below Low and every v > Raw to
// High or above, so each model threshold τ in [Low, High] of the column
// sends exactly the values v ≤ Raw left.
type Cut struct {
	Raw       float64
	Low, High float32
}

// ColumnCuts lists the cuts of numeric output column Output, by
// increasing Raw (and then increasing Low and High: High of one cut is
// below Low of the next).
type ColumnCuts struct {
	Output int
	Cuts   []Cut
}

// Snap returns a copy of p whose numeric columns route at short raw
// cuts that read as the data does: for every split of a trained model on
// a numeric column (the rule "x < τ" in model space), the exact raw cut
// c* (RawThresholdLess) lies between two neighbouring training values
// L ≤ c* < R of the column, and the cut is moved to the decimal with the
// fewest significant digits in [L, R) (the one nearest (L+R)/2 when
// several have as few digits; see ShortestIn). A cut below every training
// value moves into [R − max(1, |R|), R), one above every training value
// into [L, L + max(1, |L|)); infinite thresholds and infinite cuts
// (every number goes one way) stay.
//
// The returned pipeline carries the cuts (Cuts) and maps a raw value to
// the model-space side of every cut that "v ≤ cut" says, so for every
// raw value — training rows or not — the model routes exactly by the
// short cut, and RawThreshold, every rendering, generated code and ONNX
// report that cut. X holds the raw rows p was fitted on (before any
// oversampling; missing values are imputed as Transform does): no
// training value lies strictly between an exact cut and its short one,
// so Transform gives every training row the same model-space values as p
// did, bit for bit, and every training prediction is unchanged (Snap
// checks this and returns an error otherwise). Rows to predict change
// route only when a value falls between an old cut and its new one,
// inside the gap between two neighbouring training values.
//
// Categorical columns are not touched. Snap ignores cuts already in p
// (it starts from p without them).
func (p *Pipeline) Snap(X *data.Table, splits []Split) (*Pipeline, error) {
	if !p.Fitted() {
		return nil, fmt.Errorf("preprocess: snap: the pipeline is not fitted")
	}
	base := *p
	base.Cuts = nil
	byFeature := map[int][]float32{}
	for _, s := range splits {
		if s.Feature < 0 || s.Feature >= len(p.Outputs) {
			return nil, fmt.Errorf("preprocess: snap: a split on feature %d: expected 0…%d", s.Feature, len(p.Outputs)-1)
		}
		if math.IsNaN(float64(s.Threshold)) {
			return nil, fmt.Errorf("preprocess: snap: a split on feature %d has threshold NaN", s.Feature)
		}
		if p.Inputs[p.Outputs[s.Feature].Input].Kind == data.Numeric && !math.IsInf(float64(s.Threshold), 0) {
			byFeature[s.Feature] = append(byFeature[s.Feature], s.Threshold)
		}
	}
	features := make([]int, 0, len(byFeature))
	for j := range byFeature {
		features = append(features, j)
	}
	sort.Ints(features)
	out := base
	for _, j := range features {
		ic := &p.Inputs[p.Outputs[j].Input]
		col, err := p.inputColumn(X, ic)
		if err != nil {
			return nil, fmt.Errorf("preprocess: snap: %w", err)
		}
		vals := make([]float64, 0, len(col.Num))
		for _, v := range col.Num {
			if ic.Impute && math.IsNaN(v) {
				v = ic.Median
			}
			if !math.IsNaN(v) {
				vals = append(vals, v)
			}
		}
		if len(vals) == 0 {
			continue
		}
		slices.Sort(vals)
		vals = slices.Compact(vals)
		// The model-space values of the training values increase with
		// them, so the gap an exact cut lies in is found by bisecting
		// them: vals[i] is the first training value the split "x < τ"
		// sends right.
		ys := make([]float32, len(vals))
		for i, v := range vals {
			ys[i] = base.modelValue(j, v)
		}
		lowest, highest := base.modelValue(j, -math.MaxFloat64), base.modelValue(j, math.MaxFloat64)
		taus := byFeature[j]
		slices.Sort(taus)
		taus = slices.Compact(taus)
		var cuts []Cut
		gap, c := -1, 0.0
		for _, tau := range taus {
			if !(lowest < tau) || highest < tau {
				continue // no number goes left, or every number does
			}
			if i := sort.Search(len(ys), func(i int) bool { return !(ys[i] < tau) }); i != gap {
				gap, c = i, gapCut(vals, i) // taus increase, so do gaps
			}
			if n := len(cuts); n > 0 && cuts[n-1].Raw == c {
				cuts[n-1].High = tau // taus increase
				continue
			}
			cuts = append(cuts, Cut{Raw: c, Low: tau, High: tau})
		}
		if len(cuts) == 0 {
			continue
		}
		for k := 1; k < len(cuts); k++ {
			if !(cuts[k-1].Raw < cuts[k].Raw && cuts[k-1].High < cuts[k].Low) {
				return nil, fmt.Errorf("preprocess: snap: column %q: cut %v (thresholds %v…%v) does not precede cut %v (thresholds %v…%v)",
					ic.Name, cuts[k-1].Raw, cuts[k-1].Low, cuts[k-1].High, cuts[k].Raw, cuts[k].Low, cuts[k].High)
			}
		}
		out.Cuts = append(out.Cuts, ColumnCuts{Output: j, Cuts: cuts})
		// The promise, checked: training values keep their model-space
		// value, and each cut separates the values at and below it (below
		// every threshold of the cut) from those above (at or above
		// every threshold of it).
		for i, v := range vals {
			if b := out.modelValue(j, v); math.Float32bits(ys[i]) != math.Float32bits(b) {
				return nil, fmt.Errorf("preprocess: snap: column %q: training value %v would move from %v to %v in model space", ic.Name, v, ys[i], b)
			}
		}
		for _, c := range cuts {
			if !(out.modelValue(j, c.Raw) < c.Low) || out.modelValue(j, math.Nextafter(c.Raw, math.Inf(1))) < c.High {
				return nil, fmt.Errorf("preprocess: snap: column %q: the cut %v does not separate the values at thresholds %v…%v", ic.Name, c.Raw, c.Low, c.High)
			}
		}
	}
	return &out, nil
}

// gapCut returns the short cut for a split that sends the sorted
// distinct training values vals[:i] left and vals[i:] right.
func gapCut(vals []float64, i int) float64 {
	switch {
	case i == 0:
		r := vals[0]
		return ShortestIn(r-math.Max(1, math.Abs(r)), r)
	case i == len(vals):
		l := vals[len(vals)-1]
		return ShortestIn(l, l+math.Max(1, math.Abs(l)))
	}
	return ShortestIn(vals[i-1], vals[i])
}

// ShortestIn returns the number of [lo, hi) (lo < hi) with the fewest
// significant decimal digits, 0 when the interval holds it; when several
// have as few digits, the one nearest the middle (lo+hi)/2 (the lower on
// a tie): for the training values 38 and 39 it is 38, for 38 and 40 it
// is 39, for 29 and 31 it is 30, for 0.98 and 1.02 it is 1. lo is
// returned when lo ≥ hi.
func ShortestIn(lo, hi float64) float64 {
	switch {
	case !(lo < hi):
		return lo
	case lo <= 0 && 0 < hi:
		return 0
	}
	top := int(math.Floor(math.Log10(math.Max(math.Abs(lo), math.Abs(hi))))) + 1
	mid := lo/2 + hi/2
	for k := top; k >= -320; k-- {
		scale := math.Pow(10, float64(k))
		n0, n1 := math.Floor(lo/scale), math.Ceil(hi/scale)
		margin := 2 + math.Max(math.Abs(n0), math.Abs(n1))*1e-15
		best, found := 0.0, false
		for n := n0 - margin; n <= n1+margin; n++ {
			v, err := strconv.ParseFloat(strconv.FormatFloat(math.Round(n), 'f', 0, 64)+"e"+strconv.Itoa(k), 64)
			if err != nil || !(v >= lo && v < hi) {
				continue
			}
			if !found || math.Abs(v-mid) < math.Abs(best-mid) {
				best, found = v, true
			}
		}
		if found {
			return best
		}
	}
	return lo
}

// cutsOf returns the cuts of output column j (nil when it has none).
func (p *Pipeline) cutsOf(j int) []Cut {
	for i := range p.Cuts {
		if p.Cuts[i].Output == j {
			return p.Cuts[i].Cuts
		}
	}
	return nil
}

// modelValue returns the model-space value of raw value v (imputed
// already) of output column j: the scaled value as float32, moved to the
// side of every snapped cut that "v ≤ cut" says.
func (p *Pipeline) modelValue(j int, v float64) float32 {
	return snapValue(p.cutsOf(j), v, float32(p.scaleValue(j, v)))
}

// snapValue moves y, the model-space value of raw value v, into
// [High of the last cut below v, Low of the first cut at or above v).
func snapValue(cuts []Cut, v float64, y float32) float32 {
	if len(cuts) == 0 || math.IsNaN(v) {
		return y
	}
	k := sort.Search(len(cuts), func(k int) bool { return v <= cuts[k].Raw })
	if k < len(cuts) && !(y < cuts[k].Low) {
		y = math.Nextafter32(cuts[k].Low, float32(math.Inf(-1)))
	}
	if k > 0 && !(y >= cuts[k-1].High) {
		y = cuts[k-1].High
	}
	return y
}

// validateCuts checks the cuts of a decoded pipeline: numeric output
// columns in increasing order, each with finite, strictly increasing
// cuts whose threshold ranges are ordered and do not overlap.
func (p *Pipeline) validateCuts() error {
	prev := -1
	for i, cc := range p.Cuts {
		if cc.Output <= prev || cc.Output >= len(p.Outputs) {
			return fmt.Errorf("pipeline: Cuts[%d]: output %d: expected increasing output columns in %d…%d", i, cc.Output, prev+1, len(p.Outputs)-1)
		}
		prev = cc.Output
		if in := p.Outputs[cc.Output].Input; in < 0 || in >= len(p.Inputs) || p.Inputs[in].Kind != data.Numeric {
			return fmt.Errorf("pipeline: Cuts[%d]: output %d is not a numeric column", i, cc.Output)
		}
		if len(cc.Cuts) == 0 {
			return fmt.Errorf("pipeline: Cuts[%d]: no cuts: expected at least one", i)
		}
		for k, c := range cc.Cuts {
			if !finite(c.Raw) || !finite(float64(c.Low)) || !finite(float64(c.High)) || !(c.Low <= c.High) {
				return fmt.Errorf("pipeline: Cuts[%d].Cuts[%d] = {%v, %v, %v}: expected a finite raw cut and finite thresholds Low ≤ High", i, k, c.Raw, c.Low, c.High)
			}
			if k > 0 && !(cc.Cuts[k-1].Raw < c.Raw && cc.Cuts[k-1].High < c.Low) {
				return fmt.Errorf("pipeline: Cuts[%d].Cuts[%d]: raw cut %v and thresholds %v…%v: expected them above the previous cut's (%v, %v…%v)", i, k, c.Raw, c.Low, c.High, cc.Cuts[k-1].Raw, cc.Cuts[k-1].Low, cc.Cuts[k-1].High)
			}
		}
	}
	return nil
}
