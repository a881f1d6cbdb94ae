package linalg

import "fmt"

// Cols is a list of indices checked once against a bound, for Gather and
// Scatter (which then check only the bound).
type Cols struct {
	idx   []int32
	bound int
}

// SetCols makes c hold idx (reusing c's storage), each entry in [0, bound).
// It panics on an entry out of range.
func (c *Cols) SetCols(idx []int, bound int) {
	c.idx = c.idx[:0]
	for _, k := range idx {
		if k < 0 || k >= bound {
			panic(fmt.Sprintf("linalg: Cols: index %d out of [0, %d)", k, bound))
		}
		c.idx = append(c.idx, int32(k))
	}
	c.bound = bound
}

// Len returns the number of indices.
func (c *Cols) Len() int { return len(c.idx) }

// Gather sets dst[t] = src[c[t]] for every index t of c.
func Gather(dst, src []float32, c *Cols) {
	n := len(c.idx)
	if n == 0 {
		return
	}
	dst, src = dst[:n], src[:c.bound]
	done := gatherVec(dst, src, c.idx)
	for t := done; t < n; t++ {
		dst[t] = src[c.idx[t]]
	}
}

// Scatter sets dst[c[t]] = src[t] for every index t of c.
func Scatter(dst, src []float32, c *Cols) {
	n := len(c.idx)
	if n == 0 {
		return
	}
	dst, src = dst[:c.bound], src[:n]
	done := scatterVec(dst, src, c.idx)
	for t := done; t < n; t++ {
		dst[c.idx[t]] = src[t]
	}
}
