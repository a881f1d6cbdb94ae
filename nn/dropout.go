package nn

import (
	"fmt"
	"math"

	"github.com/gdt-ml/gdt/optim"
)

// Dropout zeroes each value with probability Rate in training mode and
// scales the kept ones by 1/(1 − Rate) (inverted dropout, as PyTorch); in
// evaluation mode it is the identity. The mask of the t-th training Forward
// is a pure function of (seed, t, index), so runs are reproducible whatever
// the scheduling.
type Dropout struct {
	elementwise
	rate  float64
	seed  uint64
	step  uint64
	scale float32
	mask  []float32 // 0 or scale per value of the last training Forward
	train bool
}

// NewDropout returns dropout on rows of n values with the given rate in
// [0, 1).
func NewDropout(n int, rate float64, seed uint64) (*Dropout, error) {
	if n <= 0 {
		return nil, fmt.Errorf("nn: NewDropout: width %d, want > 0", n)
	}
	if !(rate >= 0 && rate < 1) {
		return nil, fmt.Errorf("nn: NewDropout: rate %v, want 0 ≤ rate < 1", rate)
	}
	return &Dropout{elementwise: elementwise{n: n}, rate: rate, seed: seed, scale: float32(1 / (1 - rate))}, nil
}

// Rate returns the drop probability.
func (d *Dropout) Rate() float64 { return d.rate }

// Params returns nil.
func (d *Dropout) Params() []optim.Param { return nil }

// mix64 is the SplitMix64 finaliser.
func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Forward applies the mask (training) or copies x (evaluation).
func (d *Dropout) Forward(x []float32, B int, train bool) []float32 {
	x, y := d.start("Dropout", x, B)
	d.train = train && d.rate > 0
	if !d.train {
		copy(y, x)
		return y
	}
	d.mask = grow(d.mask, len(x))
	base := mix64(d.seed ^ mix64(d.step+0x632be59bd9b4e019))
	d.step++
	// keep iff u ≥ rate with u uniform on [0, 1) from the top 53 bits
	thr := uint64(math.Ceil(d.rate * (1 << 53)))
	for i := range x {
		u := mix64(base+uint64(i)*0x9e3779b97f4a7c15) >> 11
		m := d.scale
		if u < thr {
			m = 0
		}
		d.mask[i] = m
		y[i] = x[i] * m
	}
	return y
}

// Backward multiplies dy by the mask of the last Forward.
func (d *Dropout) Backward(dy []float32) []float32 {
	dy, dx := d.back("Dropout", dy)
	if !d.train {
		copy(dx, dy)
		return dx
	}
	for i := range dy {
		dx[i] = dy[i] * d.mask[i]
	}
	return dx
}
