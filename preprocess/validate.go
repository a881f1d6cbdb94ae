package preprocess

import (
	"fmt"
	"math"

	"github.com/gdt-ml/gdt/data"
)

// Validate checks a fitted pipeline decoded from an untrusted model file
// before it is used: every input column's kind, encoding and fitted
// encoder (per-category arrays as long as the categories, finite values),
// the output columns First…First+Width−1 of the inputs tiling the outputs
// in order, every output's source input, and the scaling (one quantile
// row per output, references in [0, 1] and quantiles non-decreasing, all
// finite; or a finite mean and a finite non-zero scale per output). The
// error names the field and what was expected.
func (p *Pipeline) Validate() error {
	if len(p.Inputs) == 0 {
		return fmt.Errorf("pipeline: Inputs is empty: expected at least one fitted input column")
	}
	if len(p.Outputs) == 0 {
		return fmt.Errorf("pipeline: Outputs is empty: expected at least one output column")
	}
	next := 0
	names := make(map[string]bool, len(p.Inputs))
	for i := range p.Inputs {
		ic := &p.Inputs[i]
		where := fmt.Sprintf("pipeline: Inputs[%d] (%q)", i, ic.Name)
		if names[ic.Name] {
			return fmt.Errorf("%s: the column name is repeated: expected distinct input names", where)
		}
		names[ic.Name] = true
		if ic.First != next {
			return fmt.Errorf("%s: First = %d: expected %d (each input's outputs follow the previous input's)", where, ic.First, next)
		}
		if ic.Width < 1 || ic.Width > len(p.Outputs)-next {
			return fmt.Errorf("%s: Width = %d: expected 1…%d (the outputs left)", where, ic.Width, len(p.Outputs)-next)
		}
		next += ic.Width
		if err := ic.validate(); err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
	}
	if next != len(p.Outputs) {
		return fmt.Errorf("pipeline: the inputs fill %d output columns: expected %d (len(Outputs))", next, len(p.Outputs))
	}
	for j, o := range p.Outputs {
		if o.Input < 0 || o.Input >= len(p.Inputs) {
			return fmt.Errorf("pipeline: Outputs[%d] (%q): Input = %d: expected 0…%d", j, o.Name, o.Input, len(p.Inputs)-1)
		}
		ic := &p.Inputs[o.Input]
		if j < ic.First || j >= ic.First+ic.Width {
			return fmt.Errorf("pipeline: Outputs[%d] (%q): Input = %d, whose outputs are %d…%d: expected the input that produces output %d", j, o.Name, o.Input, ic.First, ic.First+ic.Width-1, j)
		}
		if o.Column != ic.Name || o.Encoding != ic.Encoding {
			return fmt.Errorf("pipeline: Outputs[%d] (%q): column %q encoded %q: expected input %d's %q encoded %q", j, o.Name, o.Column, o.Encoding, o.Input, ic.Name, ic.Encoding)
		}
	}
	if p.Quantile != nil && p.Standard != nil {
		return fmt.Errorf("pipeline: both Quantile and Standard scaling: expected at most one")
	}
	if q := p.Quantile; q != nil {
		if err := q.validateFitted(len(p.Outputs)); err != nil {
			return fmt.Errorf("pipeline: Quantile: %w", err)
		}
	}
	if s := p.Standard; s != nil {
		if len(s.Mean) != len(p.Outputs) || len(s.Scale) != len(p.Outputs) {
			return fmt.Errorf("pipeline: Standard: %d means and %d scales: expected one of each per output (%d)", len(s.Mean), len(s.Scale), len(p.Outputs))
		}
		for j := range s.Mean {
			if !finite(s.Mean[j]) {
				return fmt.Errorf("pipeline: Standard.Mean[%d] = %v: expected a finite number", j, s.Mean[j])
			}
			if !finite(s.Scale[j]) || s.Scale[j] == 0 {
				return fmt.Errorf("pipeline: Standard.Scale[%d] = %v: expected a finite non-zero number", j, s.Scale[j])
			}
		}
	}
	if err := p.validateCuts(); err != nil {
		return err
	}
	return nil
}

// validate checks one fitted input column (its position is checked by
// Pipeline.Validate).
func (ic *InputColumn) validate() error {
	n := 0
	for _, set := range []bool{ic.LeaveOneOut != nil, ic.TargetMean != nil, ic.OneHot != nil, ic.Ordinal != nil, ic.Frequency != nil} {
		if set {
			n++
		}
	}
	switch ic.Kind {
	case data.Numeric:
		if ic.Encoding != EncodingNumeric {
			return fmt.Errorf("numeric column with Encoding %q: expected %q", ic.Encoding, EncodingNumeric)
		}
		if n != 0 {
			return fmt.Errorf("numeric column with a categorical encoder: expected none")
		}
		if ic.Width != 1 {
			return fmt.Errorf("numeric column with Width %d: expected 1", ic.Width)
		}
		if !finite(ic.Median) {
			return fmt.Errorf("Median = %v: expected a finite number", ic.Median)
		}
		return nil
	case data.Categorical:
	default:
		return fmt.Errorf("Kind = %d: expected %d (numeric) or %d (categorical)", ic.Kind, data.Numeric, data.Categorical)
	}
	if n != 1 {
		return fmt.Errorf("categorical column with %d fitted encoders: expected exactly one", n)
	}
	var want Encoding
	var k *Categories
	type arr = struct {
		name string
		v    []float64
	}
	var arrays, scalars []arr
	switch {
	case ic.LeaveOneOut != nil:
		e := ic.LeaveOneOut
		want, k = EncodingLeaveOneOut, &e.Categories
		arrays = []arr{{"Sum", e.Sum}, {"Count", e.Count}}
		scalars = []arr{{"Mean", []float64{e.Mean}}}
	case ic.TargetMean != nil:
		e := ic.TargetMean
		want, k = EncodingTargetMean, &e.Categories
		arrays = []arr{{"Sum", e.Sum}, {"Count", e.Count}}
		scalars = []arr{{"Mean", []float64{e.Mean}}, {"Smoothing", []float64{e.Smoothing}}}
		if e.Smoothing < 0 {
			return fmt.Errorf("TargetMean.Smoothing = %v: expected ≥ 0", e.Smoothing)
		}
	case ic.OneHot != nil:
		want, k = EncodingOneHot, &ic.OneHot.Categories
	case ic.Ordinal != nil:
		want, k = EncodingOrdinal, &ic.Ordinal.Categories
		arrays = []arr{{"Rank", ic.Ordinal.Rank}}
	case ic.Frequency != nil:
		want, k = EncodingFrequency, &ic.Frequency.Categories
		arrays = []arr{{"Freq", ic.Frequency.Freq}}
	}
	if ic.Encoding != want {
		return fmt.Errorf("Encoding %q with a fitted %s encoder: expected %q", ic.Encoding, want, want)
	}
	nc := k.NumCategories()
	seen := make(map[string]bool, len(k.Levels))
	for i, l := range k.Levels {
		if seen[l] {
			return fmt.Errorf("%s encoder: Levels[%d] = %q is repeated: expected distinct levels", want, i, l)
		}
		seen[l] = true
	}
	for _, a := range arrays {
		if len(a.v) != nc {
			return fmt.Errorf("%s encoder: %s has %d entries: expected one per category (%d)", want, a.name, len(a.v), nc)
		}
		for i, v := range a.v {
			if !finite(v) {
				return fmt.Errorf("%s encoder: %s[%d] = %v: expected a finite number", want, a.name, i, v)
			}
		}
	}
	for _, s := range scalars {
		if !finite(s.v[0]) {
			return fmt.Errorf("%s encoder: %s = %v: expected a finite number", want, s.name, s.v[0])
		}
	}
	wantWidth := 1
	if want == EncodingOneHot {
		wantWidth = nc
	}
	if ic.Width != wantWidth {
		return fmt.Errorf("%s encoder of %d categories: Width = %d: expected %d", want, nc, ic.Width, wantWidth)
	}
	return nil
}

// validateFitted checks a fitted quantile transform over features
// output columns.
func (q *QuantileNormal) validateFitted(features int) error {
	Q := len(q.References)
	if Q < 1 {
		return fmt.Errorf("References is empty: expected at least one quantile reference")
	}
	if len(q.Quantiles) != features {
		return fmt.Errorf("Quantiles has %d rows: expected one per output column (%d)", len(q.Quantiles), features)
	}
	for i, r := range q.References {
		if !(r >= 0 && r <= 1) || (i > 0 && r < q.References[i-1]) {
			return fmt.Errorf("References[%d] = %v: expected non-decreasing values in [0, 1]", i, r)
		}
	}
	for f, qs := range q.Quantiles {
		if len(qs) != Q {
			return fmt.Errorf("Quantiles[%d] has %d entries: expected one per reference (%d)", f, len(qs), Q)
		}
		for i, v := range qs {
			if !finite(v) || (i > 0 && v < qs[i-1]) {
				return fmt.Errorf("Quantiles[%d][%d] = %v: expected finite, non-decreasing values", f, i, v)
			}
		}
	}
	return nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
