package linalg

import (
	"math/rand/v2"
	"testing"
)

// TestGatherScatter checks Gather and Scatter against plain loops, with
// and without the vector routines, for lengths around the 16-entry blocks.
func TestGatherScatter(t *testing.T) {
	defer func(v bool) { asmVec = v }(asmVec)
	r := rand.New(rand.NewPCG(1, 2))
	for _, vec := range []bool{false, true} {
		asmVec = vec && hasVec()
		for _, n := range []int{0, 1, 15, 16, 17, 33, 100, 256} {
			const bound = 300
			src := make([]float32, bound)
			for i := range src {
				src[i] = r.Float32()
			}
			idx := r.Perm(bound)[:n]
			var c Cols
			c.SetCols(idx, bound)
			if c.Len() != n {
				t.Fatalf("Len %d, want %d", c.Len(), n)
			}
			got := make([]float32, n)
			Gather(got, src, &c)
			for k, i := range idx {
				if got[k] != src[i] {
					t.Fatalf("vec=%v n=%d: Gather entry %d = %g, want %g", vec, n, k, got[k], src[i])
				}
			}
			dst := make([]float32, bound)
			Scatter(dst, got, &c)
			want := make([]float32, bound)
			for k, i := range idx {
				want[i] = got[k]
			}
			for i := range dst {
				if dst[i] != want[i] {
					t.Fatalf("vec=%v n=%d: Scatter entry %d = %g, want %g", vec, n, i, dst[i], want[i])
				}
			}
		}
	}
}

// TestColsBounds checks that an index out of range panics when the list is
// set, and a slice shorter than the bound when it is used.
func TestColsBounds(t *testing.T) {
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"negative index", func() { var c Cols; c.SetCols([]int{-1}, 4) }},
		{"index at bound", func() { var c Cols; c.SetCols([]int{1, 4}, 4) }},
		{"short source", func() {
			var c Cols
			c.SetCols([]int{1}, 4)
			Gather(make([]float32, 1), make([]float32, 3), &c)
		}},
		{"short destination", func() {
			var c Cols
			c.SetCols([]int{1}, 4)
			Scatter(make([]float32, 3), make([]float32, 1), &c)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			c.f()
		})
	}
}
