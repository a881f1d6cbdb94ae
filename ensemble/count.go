package ensemble

import (
	"fmt"
	"runtime"
	"sync"
)

// CountRows sets m.Count to the number of rows of X ([rows][Features]
// row-major, model space) that reach every node of every tree: each row
// is routed by Leaf (the one routing) and every internal node counts the
// rows of its two children. It works on workers goroutines over trees (0 =
// GOMAXPROCS); the counts do not depend on workers. m must be valid.
func (m *Ensemble) CountRows(X []float32, rows, workers int) error {
	if rows < 0 || len(X) != rows*m.Features {
		return fmt.Errorf("ensemble: CountRows: %d values for %d rows × %d features", len(X), rows, m.Features)
	}
	count := make([]int64, m.Nodes())
	E := m.Trees()
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, E))
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for t := w; t < E; t += workers {
				for r := 0; r < rows; r++ {
					count[m.Leaf(t, X[r*m.Features:(r+1)*m.Features])]++
				}
				lo, hi := m.Span(t)
				for n := hi - 1; n >= lo; n-- { // children lie after their parent
					if m.Feature[n] >= 0 {
						count[n] = count[m.Left[n]] + count[m.Right[n]]
					}
				}
			}
		}(w)
	}
	wg.Wait()
	m.Count = count
	return nil
}

// Tree returns tree t of m as an ensemble of one tree (its nodes renumbered
// from 0, in the same order): its splits, leaf values, counts and — unless
// m weighs uniformly — its leaf weights (a tree weight becomes the weight
// of each of its leaves). It routes every row as tree t of m. The arrays
// are copies.
func (m *Ensemble) Tree(t int) *Ensemble {
	lo, hi := m.Span(t)
	N, C := hi-lo, m.Outputs
	out := &Ensemble{Features: m.Features, Outputs: C, Weighting: Mean, Roots: Int32s{0},
		Feature: append(Int32s(nil), m.Feature[lo:hi]...), Threshold: append(Float32s(nil), m.Threshold[lo:hi]...),
		Left: append(Int32s(nil), m.Left[lo:hi]...), Right: append(Int32s(nil), m.Right[lo:hi]...),
		Value: append(Float32s(nil), m.Value[lo*C:hi*C]...)}
	for n := 0; n < N; n++ {
		if out.Left[n] >= 0 {
			out.Left[n] -= int32(lo)
			out.Right[n] -= int32(lo)
		}
	}
	if m.Count != nil {
		out.Count = append([]int64(nil), m.Count[lo:hi]...)
	}
	if m.Weighting != Mean {
		out.Weighting, out.LeafWeight = LeafWeights, make(Float32s, N)
		for n := lo; n < hi; n++ {
			if m.Feature[n] < 0 {
				out.LeafWeight[n-lo] = m.Weight(t, n)
			}
		}
	}
	return out
}
