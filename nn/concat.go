package nn

import (
	"fmt"
	"strconv"

	"github.com/gdt-ml/gdt/optim"
)

// Concat runs several branches side by side and concatenates their outputs:
// an input row is the concatenation of the branches' input rows (branch 0
// first), an output row the concatenation of their output rows. It is the
// fusion point of a multimodal network, e.g. Concat(image encoder, tabular
// encoder) followed by a dense head; a branch may be an Identity to pass raw
// features through. Parameter and buffer names carry the branch index
// ("0.3.weight", "1.leaf").
type Concat struct {
	branches []Module
	params   []optim.Param
	in, out  int
	inOff    []int
	outOff   []int
	skipDX   bool

	bs  int
	xs  [][]float32 // per-branch gathered input (nil when a single branch)
	y   []float32
	dys [][]float32
	dx  []float32
}

// NewConcat returns the side-by-side composition of the branches.
func NewConcat(branches ...Module) (*Concat, error) {
	if len(branches) == 0 {
		return nil, fmt.Errorf("nn: NewConcat: no branches")
	}
	c := &Concat{branches: branches}
	for i, b := range branches {
		if b == nil {
			return nil, fmt.Errorf("nn: NewConcat: branch %d is nil", i)
		}
		c.inOff = append(c.inOff, c.in)
		c.outOff = append(c.outOff, c.out)
		c.in += b.In()
		c.out += b.Out()
		for _, p := range b.Params() {
			p.Name = strconv.Itoa(i) + "." + p.Name
			c.params = append(c.params, p)
		}
	}
	c.xs = make([][]float32, len(branches))
	c.dys = make([][]float32, len(branches))
	return c, nil
}

// Branches returns the branches (shared).
func (c *Concat) Branches() []Module { return c.branches }

// In returns the sum of the branches' input widths.
func (c *Concat) In() int { return c.in }

// Out returns the sum of the branches' output widths.
func (c *Concat) Out() int { return c.out }

// Params returns the branches' parameters, names prefixed with the branch
// index.
func (c *Concat) Params() []optim.Param { return c.params }

// Buffers returns the branches' buffers, names prefixed with the branch
// index.
func (c *Concat) Buffers() []Buffer {
	var out []Buffer
	for i, b := range c.branches {
		out = prefixBuffers(out, strconv.Itoa(i)+".", b)
	}
	return out
}

// InputOffset returns where branch i's columns start in an input row.
func (c *Concat) InputOffset(i int) int { return c.inOff[i] }

// OutputOffset returns where branch i's columns start in an output row.
func (c *Concat) OutputOffset(i int) int { return c.outOff[i] }

// SetSkipInputGrad makes Backward skip dL/dx (returning nil) and tells the
// branches to skip theirs where they can.
func (c *Concat) SetSkipInputGrad(skip bool) {
	c.skipDX = skip
	for _, b := range c.branches {
		if k, ok := b.(InputGradSkipper); ok {
			k.SetSkipInputGrad(skip)
		}
	}
}

// gather copies columns [off, off+w) of every row of src (width sw) into dst.
func gather(dst, src []float32, B, sw, off, w int) {
	for r := 0; r < B; r++ {
		copy(dst[r*w:(r+1)*w], src[r*sw+off:r*sw+off+w])
	}
}

// scatter copies the B×w matrix src into columns [off, off+w) of dst (width dw).
func scatter(dst, src []float32, B, dw, off, w int) {
	for r := 0; r < B; r++ {
		copy(dst[r*dw+off:r*dw+off+w], src[r*w:(r+1)*w])
	}
}

// Forward evaluates every branch on its columns and concatenates.
func (c *Concat) Forward(x []float32, B int, train bool) []float32 {
	checkForward("Concat", x, B, c.in)
	c.bs = B
	c.y = grow(c.y, B*c.out)
	for i, b := range c.branches {
		xi := x[:B*c.in]
		if len(c.branches) > 1 {
			c.xs[i] = grow(c.xs[i], B*b.In())
			gather(c.xs[i], x, B, c.in, c.inOff[i], b.In())
			xi = c.xs[i]
		}
		yi := b.Forward(xi, B, train)
		scatter(c.y, yi, B, c.out, c.outOff[i], b.Out())
	}
	return c.y
}

// Backward splits dy by branch, runs the branches' backward passes and
// concatenates their input gradients (zeros for a branch that returns nil).
func (c *Concat) Backward(dy []float32) []float32 {
	B := c.bs
	checkBackward("Concat", dy, B, c.out)
	if !c.skipDX {
		c.dx = grow(c.dx, B*c.in)
	}
	for i, b := range c.branches {
		c.dys[i] = grow(c.dys[i], B*b.Out())
		gather(c.dys[i], dy, B, c.out, c.outOff[i], b.Out())
		dxi := b.Backward(c.dys[i])
		if c.skipDX {
			continue
		}
		if dxi == nil {
			for r := 0; r < B; r++ {
				clear(c.dx[r*c.in+c.inOff[i] : r*c.in+c.inOff[i]+b.In()])
			}
			continue
		}
		scatter(c.dx, dxi, B, c.in, c.inOff[i], b.In())
	}
	if c.skipDX {
		return nil
	}
	return c.dx
}
