package ppo

import (
	"math"
	"testing"
)

// TestSelectionSD checks the spread behind EvalRecord.SelectionSD: the sample
// standard deviation (n − 1), 0 below two values.
func TestSelectionSD(t *testing.T) {
	for _, c := range []struct {
		x    []float64
		want float64
	}{
		{nil, 0},
		{[]float64{-500}, 0},
		{[]float64{1, 2, 3, 4}, math.Sqrt(5.0 / 3)},
		{[]float64{0.95, 0.95, 0.95}, 0},
		{[]float64{-80, -120}, math.Sqrt(800)},
	} {
		if got := selectionSD(c.x); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("selectionSD(%v) = %v, want %v", c.x, got, c.want)
		}
	}
}
