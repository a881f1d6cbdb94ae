package ensemble

import (
	"fmt"
	"math"
)

// This file is the only leaf weighting: how the trees' shares of a row's
// output are computed. Shares and the Predictor's exact path apply
// softmax; the Predictor's fast path uses expTable, the same softmax with
// the exponentials taken once per leaf.

// Shares writes into a ([E]) every tree's share a_t(x) of row x's output
// (x has at least Features values): for LeafWeights the softmax across the
// trees of the reached leaves' weight logits (GRANDE's instance-wise
// estimator weights, its local explanation), for TreeWeights the softmax
// of the tree weights, for Mean 1/E. The softmax runs in float64 with the
// GRANDE kernel's operations (max, exp(v − max), running sum, division).
func (m *Ensemble) Shares(x []float32, a []float64) error {
	E := m.Trees()
	if len(a) != E {
		return fmt.Errorf("ensemble: Shares: %d shares for %d trees", len(a), E)
	}
	if len(x) < m.Features {
		return fmt.Errorf("ensemble: Shares: a row of %d values for %d features", len(x), m.Features)
	}
	switch m.Weighting {
	case Mean:
		for t := range a {
			a[t] = 1 / float64(E)
		}
		return nil
	case TreeWeights:
		for t, v := range m.TreeWeight {
			a[t] = float64(v)
		}
	default:
		for t := range a {
			a[t] = float64(m.LeafWeight[m.Leaf(t, x)])
		}
	}
	softmax(a)
	return nil
}

// softmax replaces the logits a by their softmax: max, exp(v − max),
// running sum in index order, division (SoftmaxAcross with one column).
func softmax(a []float64) {
	var mx, sum [1]float64
	SoftmaxAcross(a, len(a), 1, 1, mx[:], sum[:])
}

// SoftmaxAcross is the one softmax across trees: a holds trees rows of
// stride values (row t, column j at a[t·stride+j]), and for every column
// j < n the values a[t·stride+j], t = 0…trees−1, are replaced by their
// softmax, computed in float64 with the GRANDE kernel's operations: the
// maximum, exp(v − max), a running sum in tree order, a division. mx and
// sum are scratch of at least n values. The kernel's training forward
// (package tree) weighs its blocks of samples with it, and Shares and the
// Predictor's exact path weigh single rows with it (n = 1), so training
// and prediction share the rule bit for bit.
func SoftmaxAcross(a []float64, trees, stride, n int, mx, sum []float64) {
	mx, sum = mx[:n], sum[:n]
	for j := range mx {
		mx[j] = math.Inf(-1)
	}
	for t := 0; t < trees; t++ {
		row := a[t*stride:][:n]
		for j, v := range row {
			mx[j] = max(mx[j], v) // math.Max's semantics, compiled inline
		}
	}
	clear(sum)
	for t := 0; t < trees; t++ {
		row := a[t*stride:][:n]
		for j, v := range row {
			row[j] = math.Exp(v - mx[j])
			sum[j] += row[j]
		}
	}
	for t := 0; t < trees; t++ {
		row := a[t*stride:][:n]
		for j := range row {
			row[j] /= sum[j]
		}
	}
}

// expRange is the widest range of leaf weight logits for which expTable
// is used: every exp(w − max) is then at least e^−600 ≈ 2.7e−261, a normal
// float64, so no share underflows to zero and none overflows (all ≤ 1).
const expRange = 600

// expTable returns exp(w − M) for the given logits, M their maximum, and
// whether the logits span at most expRange (else nil, false). Softmax is
// shift-invariant, so Σ_t e_t·v_t / Σ_t e_t with these e equals the
// softmax-weighted sum; it differs from the per-row-max softmax only by
// float64 rounding (a few units in 1e−16, relative).
func expTable(logits []float32) ([]float64, bool) {
	mx, mn := math.Inf(-1), math.Inf(1)
	for _, v := range logits {
		mx, mn = max(mx, float64(v)), min(mn, float64(v))
	}
	if mx-mn > expRange {
		return nil, false
	}
	e := make([]float64, len(logits))
	for i, v := range logits {
		e[i] = math.Exp(float64(v) - mx)
	}
	return e, true
}

// Shares writes every row's tree shares a_t(x) (as Ensemble.Shares, rounded
// to float32) of the row-major matrix x ([rows][Features]) into a
// ([rows][E], row-major), in parallel over blocks of rows with workers
// goroutines (0 = GOMAXPROCS); the result does not depend on workers.
func (p *Predictor) Shares(x []float32, rows int, a []float32, workers int) error {
	if rows < 0 || len(x) != rows*p.f {
		return fmt.Errorf("ensemble: Shares: %d input values for %d rows × %d features", len(x), rows, p.f)
	}
	if len(a) != rows*p.e {
		return fmt.Errorf("ensemble: Shares: %d shares for %d rows × %d trees", len(a), rows, p.e)
	}
	return p.blocks(rows, workers, func(lo, hi int, s *scratch) {
		if len(s.all) < max(chunk, p.e)*Block {
			s.all, s.a = make([]int32, max(chunk, p.e)*Block), make([]float64, p.e)
		}
		leaf, logit := s.all, s.a
		p.routeChunk(0, p.e, x, lo, hi, leaf, s.off)
		m := p.m
		for b := 0; b < hi-lo; b++ {
			switch m.Weighting {
			case Mean:
				for t := range logit {
					logit[t] = 1 / float64(p.e)
				}
			case TreeWeights:
				for t, v := range m.TreeWeight {
					logit[t] = float64(v)
				}
				softmax(logit)
			default:
				for t := range logit {
					logit[t] = float64(m.LeafWeight[p.leafNode[leaf[t*Block+b]]])
				}
				softmax(logit)
			}
			for t, v := range logit {
				a[(lo+b)*p.e+t] = float32(v)
			}
		}
	})
}
