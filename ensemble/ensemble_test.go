package ensemble

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// grid returns a value on a coarse grid, so that rows often equal a
// threshold exactly (the strict rule: equal goes right).
func grid(r *rand.Rand) float32 { return float32(r.IntN(9)-4) / 2 }

// randomComplete returns trees complete trees of depth d with random
// splits, values and weights.
func randomComplete(r *rand.Rand, features, outputs, trees, d int, w Weighting, spread float64) *Ensemble {
	m := NewComplete(features, outputs, trees, d, w)
	for n := range m.Feature {
		if m.Feature[n] >= 0 {
			m.Feature[n], m.Threshold[n] = int32(r.IntN(features)), grid(r)
			continue
		}
		for c := 0; c < outputs; c++ {
			m.Value[n*outputs+c] = float32(r.NormFloat64())
		}
		if w == LeafWeights {
			m.LeafWeight[n] = float32(spread * r.NormFloat64())
		}
	}
	for t := range m.TreeWeight {
		m.TreeWeight[t] = float32(spread * r.NormFloat64())
	}
	return m
}

// randomIrregular returns trees of random shapes stored in preorder.
func randomIrregular(r *rand.Rand, features, outputs, trees int, w Weighting) *Ensemble {
	m := &Ensemble{Features: features, Outputs: outputs, Weighting: w}
	var grow func(depth int) int32
	grow = func(depth int) int32 {
		n := int32(len(m.Feature))
		m.Feature = append(m.Feature, -1)
		m.Threshold = append(m.Threshold, 0)
		m.Left = append(m.Left, -1)
		m.Right = append(m.Right, -1)
		if w == LeafWeights {
			m.LeafWeight = append(m.LeafWeight, float32(r.NormFloat64()))
		}
		for c := 0; c < outputs; c++ {
			m.Value = append(m.Value, 0)
		}
		if depth < 5 && r.IntN(3) > 0 {
			m.Feature[n], m.Threshold[n] = int32(r.IntN(features)), grid(r)
			l := grow(depth + 1)
			m.Left[n] = l
			m.Right[n] = grow(depth + 1)
			return n
		}
		for c := 0; c < outputs; c++ {
			m.Value[int(n)*outputs+c] = float32(r.NormFloat64())
		}
		return n
	}
	for t := 0; t < trees; t++ {
		m.Roots = append(m.Roots, grow(0))
		if w == TreeWeights {
			m.TreeWeight = append(m.TreeWeight, float32(r.NormFloat64()))
		}
	}
	return m
}

func randomRows(r *rand.Rand, rows, features int) []float32 {
	x := make([]float32, rows*features)
	for i := range x {
		switch r.IntN(10) {
		case 0:
			x[i] = float32(math.NaN())
		case 1, 2, 3:
			x[i] = grid(r)
		default:
			x[i] = float32(2 * r.NormFloat64())
		}
	}
	return x
}

// reference is the ensemble read by hand, one row at a time: Leaf in every
// tree, Shares, Σ share·value in tree order in float64 (Mean: Σ value / E).
func reference(t *testing.T, m *Ensemble, x []float32, rows int) []float32 {
	E, C, F := m.Trees(), m.Outputs, m.Features
	out := make([]float32, rows*C)
	a := make([]float64, E)
	acc := make([]float64, C)
	for i := 0; i < rows; i++ {
		row := x[i*F : (i+1)*F]
		if err := m.Shares(row, a); err != nil {
			t.Fatal(err)
		}
		clear(acc)
		for e := 0; e < E; e++ {
			v := m.LeafValue(m.Leaf(e, row))
			for c := range acc {
				switch {
				case m.Weighting == Mean:
					acc[c] += float64(v[c])
				case a[e] != 0:
					acc[c] += a[e] * float64(v[c])
				}
			}
		}
		for c, v := range acc {
			if m.Weighting == Mean {
				v /= float64(E)
			}
			out[i*C+c] = float32(v)
		}
	}
	return out
}

func TestPredictMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const F, rows = 5, 300
	for _, tc := range []struct {
		name  string
		m     *Ensemble
		exact bool // bit-equal to the reference
		fast  bool // complete trees (implicit children)
	}{
		{"one complete tree", randomComplete(r, F, 1, 1, 4, Mean, 0), true, true},
		{"complete mean 3 outputs", randomComplete(r, F, 3, 7, 3, Mean, 0), true, true},
		{"complete leaf weights", randomComplete(r, F, 1, 40, 4, LeafWeights, 2), false, true},
		{"complete leaf weights 3 outputs", randomComplete(r, F, 3, 40, 2, LeafWeights, 2), false, true},
		{"complete leaf weights wide range", randomComplete(r, F, 2, 30, 3, LeafWeights, 400), true, true},
		{"complete tree weights", randomComplete(r, F, 2, 20, 3, TreeWeights, 3), true, true},
		{"irregular one tree", randomIrregular(r, F, 2, 1, Mean), true, false},
		{"irregular forest", randomIrregular(r, F, 3, 25, Mean), true, false},
		{"irregular leaf weights", randomIrregular(r, F, 1, 25, LeafWeights), false, false},
		{"irregular tree weights", randomIrregular(r, F, 1, 25, TreeWeights), true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := tc.m.Compile(F)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.depth > 0; got != tc.fast {
				t.Fatalf("complete-tree path %v, want %v", got, tc.fast)
			}
			x := randomRows(r, rows, F)
			want := reference(t, tc.m, x, rows)
			var first []float32
			for _, workers := range []int{1, 2, 3, 8, -1} {
				p.asm = p.tabF != nil
				if workers < 0 { // the Go descent
					workers, p.asm = 1, false
				}
				got := make([]float32, rows*tc.m.Outputs)
				if err := p.Predict(x, rows, got, workers); err != nil {
					t.Fatal(err)
				}
				for i, g := range got {
					w := want[i]
					if tc.exact && math.Float32bits(g) != math.Float32bits(w) {
						t.Fatalf("workers %d value %d: %v, reference %v", workers, i, g, w)
					}
					if d := math.Abs(float64(g - w)); d > 1e-6*max(1, math.Abs(float64(w))) {
						t.Fatalf("workers %d value %d: %v, reference %v", workers, i, g, w)
					}
				}
				if first == nil {
					first = got
				}
				for i := range got {
					if math.Float32bits(got[i]) != math.Float32bits(first[i]) {
						t.Fatalf("workers %d value %d: %v, with 1 worker %v", workers, i, got[i], first[i])
					}
				}
			}
		})
	}
}

// TestCompleteRoutingEqualsLeaf checks the level-by-level descents of
// complete trees (Child in Go, and the AVX-512 one where the CPU has it)
// against Ensemble.Leaf, row by row and tree by tree, on full and partial
// blocks.
func TestCompleteRoutingEqualsLeaf(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const F, rows = 4, 195 // the last block has 3 rows (routeFew)
	for _, depth := range []int{1, 2, 5, 6, 7} {
		m := randomComplete(r, F, 1, 2*chunk+9, depth, Mean, 0)
		p, err := m.Compile(F)
		if err != nil {
			t.Fatal(err)
		}
		if p.depth != depth {
			t.Fatalf("depth %d, want the complete-tree path at depth %d", p.depth, depth)
		}
		x := randomRows(r, rows, F)
		s := p.pool.Get().(*scratch)
		for _, asm := range []bool{false, true} {
			if asm && depth > 6 {
				continue
			}
			if asm && !haveRouteAVX512 {
				t.Log("no AVX-512: the vector descent is not tested on this CPU")
				continue
			}
			p.asm = asm
			for t0 := 0; t0 < m.Trees(); t0 += chunk {
				t1 := min(t0+chunk, m.Trees())
				for lo := 0; lo < rows; lo += Block {
					hi := min(lo+Block, rows)
					p.routeChunk(t0, t1, x, lo, hi, s.leaf, s.off)
					for e := t0; e < t1; e++ {
						for b := 0; b < hi-lo; b++ {
							if got, want := s.leaf[(e-t0)*Block+b], p.leafID[m.Leaf(e, x[(lo+b)*F:(lo+b+1)*F])]; got != want {
								t.Fatalf("depth %d asm %v tree %d row %d: leaf row %d, Leaf gives %d", depth, asm, e, lo+b, got, want)
							}
						}
					}
				}
			}
		}
	}
}

func TestLeafStrictRule(t *testing.T) {
	m := NewComplete(1, 1, 1, 1, Mean)
	m.Threshold[0] = 0.5
	m.Value[1], m.Value[2] = 10, 20
	for _, tc := range []struct {
		x    float32
		leaf int
	}{{0.25, 1}, {0.5, 2}, {0.75, 2}, {float32(math.NaN()), 2}, {float32(math.Inf(-1)), 1}} {
		if got := m.Leaf(0, []float32{tc.x}); got != tc.leaf {
			t.Errorf("x = %v: leaf %d, want %d", tc.x, got, tc.leaf)
		}
	}
}

func TestSharesSumToOne(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, w := range []Weighting{Mean, LeafWeights, TreeWeights} {
		m := randomComplete(r, 3, 1, 12, 3, w, 1)
		a := make([]float64, 12)
		if err := m.Shares(randomRows(r, 1, 3), a); err != nil {
			t.Fatal(err)
		}
		var s float64
		for _, v := range a {
			s += v
		}
		if math.Abs(s-1) > 1e-12 {
			t.Errorf("%s: shares sum to %v", w, s)
		}
	}
	m := randomComplete(r, 3, 1, 2, 1, Mean, 0)
	if err := m.Shares([]float32{1}, make([]float64, 2)); err == nil {
		t.Error("a short row gave no error")
	}
}

func TestJSONRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	m := randomIrregular(r, 4, 2, 5, LeafWeights)
	m.Count = make([]int64, m.Nodes())
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var back Ensemble
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if err := back.Validate(4); err != nil {
		t.Fatal(err)
	}
	b2, _ := json.Marshal(&back)
	if string(b) != string(b2) {
		t.Fatal("the ensemble changed in a JSON round trip")
	}
}

func TestValidateRejects(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	base := func() *Ensemble { return randomComplete(r, 3, 2, 2, 2, LeafWeights, 1) }
	for _, tc := range []struct {
		name, want string
		edit       func(m *Ensemble)
	}{
		{"no trees", "no trees", func(m *Ensemble) { m.Roots = nil }},
		{"bad weighting", "weighting", func(m *Ensemble) { m.Weighting = "softmax" }},
		{"zero outputs", "outputs 0", func(m *Ensemble) { m.Outputs = 0 }},
		{"short threshold", "threshold has", func(m *Ensemble) { m.Threshold = m.Threshold[1:] }},
		{"short value", "value has", func(m *Ensemble) { m.Value = m.Value[1:] }},
		{"short leaf weights", "leaf_weight", func(m *Ensemble) { m.LeafWeight = m.LeafWeight[1:] }},
		{"tree weights with leaf weighting", "tree_weight", func(m *Ensemble) { m.TreeWeight = Float32s{1, 2} }},
		{"short count", "count has", func(m *Ensemble) { m.Count = []int64{1} }},
		{"first root", "roots[0]", func(m *Ensemble) { m.Roots[0] = 1 }},
		{"roots decrease", "roots[1]", func(m *Ensemble) { m.Roots[1] = 0 }},
		{"root out of range", "roots[1]", func(m *Ensemble) { m.Roots[1] = 99 }},
		{"feature out of range", "tests feature 3", func(m *Ensemble) { m.Feature[0] = 3 }},
		{"child out of range", "child 99", func(m *Ensemble) { m.Left[0] = 99 }},
		{"child into next tree", "child 7", func(m *Ensemble) { m.Left[1] = 7 }},
		{"cycle", "child 0", func(m *Ensemble) { m.Right[2] = 0 }},
		{"same children", "both children", func(m *Ensemble) { m.Right[0] = m.Left[0] }},
		{"two parents", "parents", func(m *Ensemble) { m.Right[1] = 5 }},
		{"half leaf", "expected a leaf", func(m *Ensemble) { m.Left[3] = 4 }},
		{"NaN threshold", "threshold NaN", func(m *Ensemble) { m.Threshold[0] = float32(math.NaN()) }},
		{"infinite value", "value[1] = +Inf", func(m *Ensemble) { m.Value[3*2+1] = float32(math.Inf(1)) }},
		{"NaN leaf weight", "leaf_weight NaN", func(m *Ensemble) { m.LeafWeight[4] = float32(math.NaN()) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := base()
			if err := m.Validate(3); err != nil {
				t.Fatalf("the unedited ensemble: %v", err)
			}
			tc.edit(m)
			err := m.Validate(3)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one mentioning %q", err, tc.want)
			}
			if _, err := m.Compile(3); err == nil {
				t.Fatal("Compile accepted an invalid ensemble")
			}
		})
	}
	if err := base().Validate(4); err == nil || !strings.Contains(err.Error(), "features 3: expected 4") {
		t.Fatalf("width mismatch: %v", err)
	}
}

func TestPredictRejectsShapes(t *testing.T) {
	m := NewComplete(2, 1, 1, 1, Mean)
	p, err := m.Compile(2)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Predict(make([]float32, 3), 2, make([]float32, 2), 0); err == nil {
		t.Error("a ragged input gave no error")
	}
	if err := p.Predict(make([]float32, 4), 2, make([]float32, 1), 0); err == nil {
		t.Error("a short output gave no error")
	}
	if err := p.Predict(nil, 0, nil, 0); err != nil {
		t.Errorf("no rows: %v", err)
	}
}

// TestLessOrEqual checks x < LessOrEqual(t) ⇔ float64(x) ≤ t on values
// around t, for thresholds between float32 values, on them and at the
// extremes.
func TestLessOrEqual(t *testing.T) {
	for _, th := range []float64{0, 0.1, -0.1, 0.5, 1.0000000001, -3e-45, 1e30, math.MaxFloat32, 2 * math.MaxFloat32, -2 * math.MaxFloat32} {
		tau := LessOrEqual(th)
		f := float32(th)
		for _, x := range []float32{f, math.Nextafter32(f, 2*f+1), math.Nextafter32(f, 2*f-1), 0, float32(math.Inf(1)), float32(math.Inf(-1)), math.MaxFloat32} {
			if got, want := x < tau, float64(x) <= th; got != want {
				t.Errorf("t = %v, x = %v: x < %v is %v, x ≤ t is %v", th, x, tau, got, want)
			}
		}
	}
}

func TestJoin(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	a, b := randomIrregular(r, 3, 2, 1, Mean), randomIrregular(r, 3, 2, 2, Mean)
	m, err := Join([]*Ensemble{a, b})
	if err != nil {
		t.Fatal(err)
	}
	x := randomRows(r, 50, 3)
	for i := 0; i < 50; i++ {
		row := x[i*3 : (i+1)*3]
		for e, want := range []float32{a.LeafValue(a.Leaf(0, row))[1], b.LeafValue(b.Leaf(0, row))[1], b.LeafValue(b.Leaf(1, row))[1]} {
			if got := m.LeafValue(m.Leaf(e, row))[1]; got != want {
				t.Fatalf("row %d tree %d: %v, part's %v", i, e, got, want)
			}
		}
	}
	if _, err := Join([]*Ensemble{a, randomIrregular(r, 4, 2, 1, Mean)}); err == nil {
		t.Fatal("parts over different features were joined")
	}
}

// TestPredictorShares checks the batched shares against Ensemble.Shares,
// row by row, for every weighting, with one and several workers.
func TestPredictorShares(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	const F, rows = 4, 150
	for _, m := range []*Ensemble{randomComplete(r, F, 1, 40, 4, LeafWeights, 2), randomComplete(r, F, 2, 9, 3, TreeWeights, 1),
		randomIrregular(r, F, 1, 12, LeafWeights), randomIrregular(r, F, 1, 5, Mean)} {
		p, err := m.Compile(F)
		if err != nil {
			t.Fatal(err)
		}
		x := randomRows(r, rows, F)
		E := m.Trees()
		want := make([]float64, E)
		for _, workers := range []int{1, 3} {
			got := make([]float32, rows*E)
			if err := p.Shares(x, rows, got, workers); err != nil {
				t.Fatal(err)
			}
			for i := 0; i < rows; i++ {
				if err := m.Shares(x[i*F:(i+1)*F], want); err != nil {
					t.Fatal(err)
				}
				for e, w := range want {
					if got[i*E+e] != float32(w) {
						t.Fatalf("%s workers %d row %d tree %d: %v, Shares %v", m.Weighting, workers, i, e, got[i*E+e], w)
					}
				}
			}
		}
	}
}

// TestCompleteJSON checks the compact encoding of complete trees: no roots
// or child links are written, and decoding rebuilds them.
func TestCompleteJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	m := randomComplete(r, 3, 2, 4, 3, LeafWeights, 1)
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), `"left"`) || !strings.Contains(string(b), `"complete_depth":3`) {
		t.Fatalf("complete trees encoded with their links: %.200s", b)
	}
	var back Ensemble
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if err := back.Validate(3); err != nil {
		t.Fatal(err)
	}
	b2, err := json.Marshal((*ensembleJSON)(&back))
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := json.Marshal((*ensembleJSON)(m)); string(b2) != string(want) {
		t.Fatal("the ensemble changed in the round trip")
	}
	for _, bad := range []string{
		`{"complete_depth":2,"features":1,"outputs":1,"weighting":"mean","feature":[0,0,0,0],"threshold":[0,0,0,0],"value":[1,2,3,4,5,6,7,8]}`,
		`{"complete_depth":1,"features":1,"outputs":1,"weighting":"mean","roots":[0],"feature":[0],"threshold":[0],"value":[1,2]}`,
		`{"complete_depth":1,"features":1,"outputs":1,"weighting":"mean","feature":[0],"threshold":[0],"value":[1,2,3]}`,
		`{"complete_depth":1,"features":1,"outputs":1,"weighting":"leaf","feature":[0],"threshold":[0],"value":[1,2],"leaf_weight":[1]}`,
		`{"complete_depth":31,"features":1,"outputs":1,"weighting":"mean","feature":[0]}`,
	} {
		if err := json.Unmarshal([]byte(bad), &back); err == nil {
			t.Errorf("%s was accepted", bad)
		}
	}
}
