package preprocess

import (
	"encoding/json"
	"math"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/rng"
)

func TestShortestIn(t *testing.T) {
	cases := []struct {
		lo, hi, want float64
	}{
		{38, 39, 38},
		{38, 40, 39},
		{29, 31, 30},
		{0.98, 1.02, 1},
		{0.351, 0.36, 0.355},
		{-5, 5, 0},
		{-2.5, -1.5, -2},
		{1234.5, 1234.6, 1234.5},
		{0.1000005, 0.1000007, 0.1000006},
		{16, 17, 16},
		{90, 180, 100},
		{1e-9, 3e-9, 2e-9},
		{7, 7, 7}, // empty interval: lo
	}
	for _, c := range cases {
		if got := ShortestIn(c.lo, c.hi); got != c.want {
			t.Errorf("ShortestIn(%v, %v) = %v, want %v", c.lo, c.hi, got, c.want)
		}
	}
	// Adjacent floats: the interval holds lo only.
	lo := 0.1
	if got := ShortestIn(lo, math.Nextafter(lo, 1)); got != lo {
		t.Errorf("ShortestIn(0.1, next float) = %v, want 0.1", got)
	}
}

// snapSplits draws model thresholds on every numeric output column of p,
// spread over the transformed training values (and a few outside them).
func snapSplits(p *Pipeline, M *data.Matrix, seed uint32) []Split {
	r := rng.New(seed)
	var out []Split
	for j := range p.Outputs {
		if p.Inputs[p.Outputs[j].Input].Kind != data.Numeric {
			continue
		}
		for k := 0; k < 40; k++ {
			x := M.At(r.Intn(M.Rows), j)
			out = append(out, Split{Feature: j, Threshold: x + float32(0.02*r.NormFloat64())})
		}
		out = append(out, Split{j, -6}, Split{j, 6}, Split{j, float32(math.Inf(1))})
	}
	return out
}

func TestSnap(t *testing.T) {
	X, y := mixedTable(400, 3, 0.4)
	Xtr, ytr, Xte, _ := split(X, y, 300)
	for _, proto := range []string{"gt-paper", "gr-paper", "standard", "none"} {
		t.Run(proto, func(t *testing.T) {
			newPipe, _ := Protocol(proto)
			p := newPipe(Options{Task: data.Binary, Seed: 1})
			M, _, err := p.FitTransform(Xtr, ytr)
			if err != nil {
				t.Fatal(err)
			}
			splits := snapSplits(p, M, 9)
			q, err := p.Snap(Xtr, splits)
			if err != nil {
				t.Fatal(err)
			}
			if len(q.Cuts) == 0 || p.Cuts != nil {
				t.Fatalf("snapped pipeline has %d cut columns, the original %d: want some and none", len(q.Cuts), len(p.Cuts))
			}
			if err := q.Validate(); err != nil {
				t.Fatalf("snapped pipeline does not validate: %v", err)
			}
			// Training rows keep their model-space values bit for bit.
			a, _ := p.Transform(Xtr)
			b, _ := q.Transform(Xtr)
			for i := range a.Data {
				if math.Float32bits(a.Data[i]) != math.Float32bits(b.Data[i]) {
					t.Fatalf("training row %d column %d: %v before snapping, %v after", i/a.Cols, i%a.Cols, a.Data[i], b.Data[i])
				}
			}
			// Every split now cuts at a short value between two
			// neighbouring training values, and routes every raw value —
			// test rows and values between the training values — by it.
			bt, _ := q.Transform(Xte)
			for _, s := range splits {
				rs, err := q.RawThresholdLess(s.Feature, s.Threshold)
				if err != nil {
					t.Fatal(err)
				}
				old, _ := p.RawThresholdLess(s.Feature, s.Threshold)
				if math.IsInf(old.Threshold, 0) || math.IsInf(float64(s.Threshold), 0) {
					if rs.Threshold != old.Threshold || rs.Snapped {
						t.Errorf("%s: infinite cut %v became %v (snapped %v)", rs.Column, old.Threshold, rs.Threshold, rs.Snapped)
					}
					continue
				}
				if !rs.Snapped {
					t.Errorf("%s: cut %v is not marked snapped", rs.Column, rs.Threshold)
				}
				var vals []float64
				for _, v := range Xtr.Col(rs.Column).Num {
					if math.IsNaN(v) {
						v = p.Inputs[p.Outputs[s.Feature].Input].Median
					}
					vals = append(vals, v)
				}
				slices.Sort(vals)
				vals = slices.Compact(vals)
				if c := gapCut(vals, sort.SearchFloat64s(vals, math.Nextafter(old.Threshold, math.Inf(1)))); c != rs.Threshold {
					t.Errorf("%s: threshold %v cuts at %v: want the short cut %v (exact cut %v)", rs.Column, s.Threshold, rs.Threshold, c, old.Threshold)
				}
				for _, v := range vals {
					if (v <= old.Threshold) != (v <= rs.Threshold) {
						t.Errorf("%s: training value %v is on different sides of the exact cut %v and the short cut %v", rs.Column, v, old.Threshold, rs.Threshold)
					}
				}
				for _, v := range []float64{rs.Threshold, math.Nextafter(rs.Threshold, math.Inf(1)), math.Nextafter(rs.Threshold, math.Inf(-1)),
					old.Threshold, math.Nextafter(old.Threshold, math.Inf(1)), (rs.Threshold + old.Threshold) / 2} {
					if got, want := q.modelValue(s.Feature, v) < s.Threshold, v <= rs.Threshold; got != want {
						t.Errorf("%s: value %v goes left %v at threshold %v: want %v (v <= %v)", rs.Column, v, got, s.Threshold, want, rs.Threshold)
					}
				}
				col := Xte.Col(rs.Column).Num
				for i, v := range col {
					if math.IsNaN(v) {
						continue
					}
					if got, want := bt.At(i, s.Feature) < s.Threshold, v <= rs.Threshold; got != want {
						t.Errorf("%s: test row %d (value %v) goes left %v: want %v (v <= %v)", rs.Column, i, v, got, want, rs.Threshold)
					}
				}
			}
			// The cuts survive the model file's JSON.
			js, err := json.Marshal(q)
			if err != nil {
				t.Fatal(err)
			}
			var r Pipeline
			if err := json.Unmarshal(js, &r); err != nil {
				t.Fatal(err)
			}
			if err := r.Validate(); err != nil {
				t.Fatal(err)
			}
			c, _ := r.Transform(Xte)
			if !slices.Equal(c.Data, bt.Data) {
				t.Error("the decoded snapped pipeline transforms test rows differently")
			}
		})
	}
}

func TestSnapShortText(t *testing.T) {
	X, y := mixedTable(300, 5, 0.4)
	p := GTPaper(Options{Task: data.Binary, Seed: 1})
	M, _, err := p.FitTransform(X, y)
	if err != nil {
		t.Fatal(err)
	}
	q, err := p.Snap(X, snapSplits(p, M, 2))
	if err != nil {
		t.Fatal(err)
	}
	// age holds values like 31 and 31.5: every cut reads with at most one
	// decimal; hours holds multiples of 5 between 20 and 40.
	for _, s := range snapSplits(p, M, 2) {
		rs, _ := q.RawThresholdLess(s.Feature, s.Threshold)
		if math.IsInf(rs.Threshold, 0) {
			continue
		}
		txt := rs.ShortText()
		num := txt[strings.LastIndex(txt, " ")+1:]
		if i := strings.IndexByte(num, '.'); i >= 0 && len(num)-i-1 > 1 {
			t.Errorf("%q: more decimals than the data has", txt)
		}
	}
}

func TestValidateCuts(t *testing.T) {
	X, y := mixedTable(200, 5, 0.4)
	p := GTPaper(Options{Task: data.Binary, Seed: 1})
	if _, _, err := p.FitTransform(X, y); err != nil {
		t.Fatal(err)
	}
	good := []Cut{{Raw: 30, Low: -0.5, High: -0.4}, {Raw: 40, Low: 0.1, High: 0.1}}
	cases := []struct {
		name string
		cuts []ColumnCuts
		want string
	}{
		{"categorical column", []ColumnCuts{{Output: 1, Cuts: good}}, "not a numeric column"},
		{"column out of range", []ColumnCuts{{Output: 99, Cuts: good}}, "output 99"},
		{"no cuts", []ColumnCuts{{Output: 0}}, "no cuts"},
		{"NaN", []ColumnCuts{{Output: 0, Cuts: []Cut{{Raw: math.NaN()}}}}, "finite"},
		{"decreasing", []ColumnCuts{{Output: 0, Cuts: []Cut{good[1], good[0]}}}, "above the previous cut"},
		{"overlapping thresholds", []ColumnCuts{{Output: 0, Cuts: []Cut{{Raw: 30, Low: 0, High: 0.2}, {Raw: 40, Low: 0.1, High: 0.3}}}}, "above the previous cut"},
		{"Low above High", []ColumnCuts{{Output: 0, Cuts: []Cut{{Raw: 30, Low: 1, High: 0}}}}, "Low ≤ High"},
		{"repeated column", []ColumnCuts{{Output: 0, Cuts: good}, {Output: 0, Cuts: good}}, "increasing output columns"},
	}
	for _, c := range cases {
		q := *p
		q.Cuts = c.cuts
		if err := q.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Validate() = %v, want an error containing %q", c.name, err, c.want)
		}
	}
	q := *p
	q.Cuts = []ColumnCuts{{Output: 0, Cuts: good}}
	if err := q.Validate(); err != nil {
		t.Errorf("valid cuts: %v", err)
	}
}
