package grande

import (
	"math"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/ensemble"
)

// SmallRows is the training-set size below which GRANDE fits its output
// intercept on the validation rows (SmallData).
const SmallRows = 256

// SmallData reports whether n training rows are few enough for GRANDE to
// fit its output intercept on the validation rows after training: fewer
// than SmallRows (256: four rows per leaf of one tree at the published
// depth 6). With so few rows the ensemble can give nearly every training
// row a leaf of its own, so it can separate the training rows by
// anything that tells them apart — including traces of their own labels
// that no new row carries (a leave-one-out target encoding computed on the
// training rows, SMOTE's synthetic rows) — and then the level of its
// outputs on new rows is pinned by nothing it was trained on. On the
// GradTree suite's Hepatitis (146 training rows after SMOTE) every trial
// then predicted the majority class for every new row. The bound is a
// row count, not scaled with the depth: an ensemble of hundreds of trees
// of depth 5 (grande-fast) separates 146 rows as easily.
// The validation rows are the only data that show that level, so they set
// it (see fitIntercept). The rule never triggers on the 15 GRANDE
// benchmark datasets: their smallest training split has 360 rows.
func SmallData(n int) bool { return n < SmallRows }

// fitIntercept returns the constant b (one per output) that minimises the
// cross-entropy of raw + b on the labels y ([rows][C] raw logits, binary
// C = 1: sigmoid, else softmax), every row weighted 1/(rows of its class)
// when balanced (each class counts equally, as the training loss's
// balanced class weights), else 1/rows. It returns nil, making no change,
// when a class is missing from y (its intercept would run off to −∞).
// Diagonal Newton steps (exact for C = 1) run until they move less than
// 1e−7 or 200 times.
func fitIntercept(raw []float32, y []float64, C, classes int, balanced bool) []float32 {
	n := len(y)
	count := make([]float64, classes)
	for _, v := range y {
		count[int(v)]++
	}
	w := make([]float64, classes)
	for k, c := range count {
		if c == 0 {
			return nil
		}
		w[k] = 1 / float64(n)
		if balanced {
			w[k] = 1 / (float64(classes) * c)
		}
	}
	b := make([]float64, C)
	p := make([]float64, C)
	g := make([]float64, C)
	h := make([]float64, C)
	var mx, sum [1]float64
	for it := 0; it < 200; it++ {
		clear(g)
		clear(h)
		for i, v := range y {
			o := raw[i*C : (i+1)*C]
			wi := w[int(v)]
			if C == 1 {
				p[0] = 1 / (1 + math.Exp(-(float64(o[0]) + b[0])))
				g[0] += wi * (p[0] - v)
				h[0] += wi * p[0] * (1 - p[0])
				continue
			}
			for c := range p {
				p[c] = float64(o[c]) + b[c]
			}
			ensemble.SoftmaxAcross(p, len(p), 1, 1, mx[:], sum[:])
			for c := range p {
				t := 0.0
				if c == int(v) {
					t = 1
				}
				g[c] += wi * (p[c] - t)
				h[c] += wi * p[c] * (1 - p[c])
			}
		}
		// diagonal Newton steps, each at most 1 in logit units
		var move float64
		for c := range b {
			d := g[c] / max(h[c], 1e-12)
			d = max(-1, min(1, d))
			b[c] -= d
			move = max(move, math.Abs(d))
		}
		if move < 1e-7 {
			break
		}
	}
	out := make([]float32, C)
	for c := range b {
		if math.IsNaN(b[c]) || math.IsInf(b[c], 0) {
			return nil
		}
		out[c] = float32(b[c])
	}
	return out
}

// shiftLeaves adds b[c] to output c of every leaf. Every prediction is a
// convex combination of one leaf per tree (the weights of the selected
// leaves are a softmax across trees), so this adds b to every raw output.
func shiftLeaves(leaves []float32, b []float32) {
	C := len(b)
	for i := range leaves {
		leaves[i] += b[i%C]
	}
}

// fitIntercept fits the output intercept of the trained kernel on the
// validation rows and adds it to the leaf values (classification only).
func (m *Model) fitIntercept(vx *data.Matrix, vy []float64, balanced bool) error {
	if m.Task == data.Regression {
		return nil
	}
	raw := make([]float32, vx.Rows*m.Outputs)
	if err := m.kernel.Predict(m.kernel.NewWorkspace(), vx.Data, vx.Rows, raw); err != nil {
		return err
	}
	b := fitIntercept(raw, vy, m.Outputs, m.Classes, balanced)
	if b == nil {
		return nil
	}
	shiftLeaves(m.kernel.Params().Leaves, b)
	m.kernel.Prepare()
	m.Intercept = b
	return nil
}
