package nn

import (
	"fmt"
	"math"

	"github.com/gdt-ml/gdt/optim"
)

// pool holds what the pooling layers share.
type pool struct {
	in, out   Shape
	k, stride int
	bs        int
	y, dx     []float32
}

func newPool(who string, in Shape, k, stride int) (pool, error) {
	if err := in.validate(who); err != nil {
		return pool{}, err
	}
	if stride == 0 {
		stride = k
	}
	if k <= 0 || stride <= 0 || k > in.H || k > in.W {
		return pool{}, fmt.Errorf("nn: %s: window %d, stride %d on %v; want 0 < window ≤ H, W and stride > 0", who, k, stride, in)
	}
	return pool{in: in, out: Shape{C: in.C, H: (in.H-k)/stride + 1, W: (in.W-k)/stride + 1}, k: k, stride: stride}, nil
}

func (p *pool) In() int               { return p.in.Size() }
func (p *pool) Out() int              { return p.out.Size() }
func (p *pool) InShape() Shape        { return p.in }
func (p *pool) OutShape() Shape       { return p.out }
func (p *pool) Params() []optim.Param { return nil }

// MaxPool2D takes the maximum over k×k windows moved by the stride (no
// padding; a partial window at the border is dropped, as PyTorch's default).
// The gradient goes to the first value of each window (row-major) that
// equals its maximum.
type MaxPool2D struct {
	pool
	x []float32
}

// NewMaxPool2D returns max pooling over kernel×kernel windows; stride 0
// means stride = kernel.
func NewMaxPool2D(in Shape, kernel, stride int) (*MaxPool2D, error) {
	p, err := newPool("NewMaxPool2D", in, kernel, stride)
	if err != nil {
		return nil, err
	}
	return &MaxPool2D{pool: p}, nil
}

// Forward takes window maxima.
func (m *MaxPool2D) Forward(x []float32, B int, train bool) []float32 {
	in, out := m.in.Size(), m.out.Size()
	checkForward("MaxPool2D", x, B, in)
	m.bs, m.x = B, x[:B*in]
	m.y = grow(m.y, B*out)
	H, W, k, s := m.in.H, m.in.W, m.k, m.stride
	ho, wo := m.out.H, m.out.W
	for p := 0; p < B*m.in.C; p++ { // one channel of one image
		img := x[p*H*W : (p+1)*H*W]
		y := m.y[p*ho*wo : (p+1)*ho*wo]
		if k == 2 && s == 2 {
			for oy := 0; oy < ho; oy++ {
				r0 := img[2*oy*W : 2*oy*W+W]
				r1 := img[(2*oy+1)*W : (2*oy+1)*W+W]
				yr := y[oy*wo : (oy+1)*wo]
				for ox := range yr {
					yr[ox] = max(max(r0[2*ox], r0[2*ox+1]), max(r1[2*ox], r1[2*ox+1]))
				}
			}
			continue
		}
		for oy := 0; oy < ho; oy++ {
			for ox := 0; ox < wo; ox++ {
				bv := img[oy*s*W+ox*s]
				for ki := 0; ki < k; ki++ {
					row := img[(oy*s+ki)*W+ox*s:]
					for _, v := range row[:k] {
						bv = max(bv, v)
					}
				}
				y[oy*wo+ox] = bv
			}
		}
	}
	return m.y
}

// Backward routes every output gradient to the first value of its window
// that equals the window's maximum (the first value if none does, e.g. NaN).
func (m *MaxPool2D) Backward(dy []float32) []float32 {
	in, out := m.in.Size(), m.out.Size()
	checkBackward("MaxPool2D", dy, m.bs, out)
	m.dx = grow(m.dx, m.bs*in)
	clear(m.dx)
	H, W, k, s := m.in.H, m.in.W, m.k, m.stride
	ho, wo := m.out.H, m.out.W
	for p := 0; p < m.bs*m.in.C; p++ {
		img := m.x[p*H*W : (p+1)*H*W]
		dx := m.dx[p*H*W : (p+1)*H*W]
		y := m.y[p*ho*wo : (p+1)*ho*wo]
		g := dy[p*ho*wo : (p+1)*ho*wo]
		if k == 2 && s == 2 {
			for oy := 0; oy < ho; oy++ {
				r0 := img[2*oy*W : 2*oy*W+W]
				r1 := img[(2*oy+1)*W : (2*oy+1)*W+W]
				d0 := dx[2*oy*W : 2*oy*W+W]
				d1 := dx[(2*oy+1)*W : (2*oy+1)*W+W]
				yr, gr := y[oy*wo:(oy+1)*wo], g[oy*wo:(oy+1)*wo]
				for ox := range yr {
					// branch-free: the first of the four equal to the
					// maximum takes the gradient (the last one if none)
					m := yr[ox]
					ea := b2u(r0[2*ox] == m)
					eb := b2u(r0[2*ox+1] == m) &^ ea
					ec := b2u(r1[2*ox] == m) &^ (ea | eb)
					ed := 1 &^ (ea | eb | ec)
					gb := math.Float32bits(gr[ox])
					d0[2*ox] = math.Float32frombits(gb & -ea)
					d0[2*ox+1] = math.Float32frombits(gb & -eb)
					d1[2*ox] = math.Float32frombits(gb & -ec)
					d1[2*ox+1] = math.Float32frombits(gb & -ed)
				}
			}
			continue
		}
		for oy := 0; oy < ho; oy++ {
			for ox := 0; ox < wo; ox++ {
				o := oy*wo + ox
				best := oy*s*W + ox*s
			search:
				for ki := 0; ki < k; ki++ {
					row := (oy*s+ki)*W + ox*s
					for kj := 0; kj < k; kj++ {
						if img[row+kj] == y[o] {
							best = row + kj
							break search
						}
					}
				}
				dx[best] += g[o]
			}
		}
	}
	return m.dx
}

// b2u converts a bool to 0 or 1 (compiled without a branch).
func b2u(b bool) uint32 {
	var u uint32
	if b {
		u = 1
	}
	return u
}

// AvgPool2D averages over k×k windows moved by the stride (no padding).
type AvgPool2D struct{ pool }

// NewAvgPool2D returns average pooling over kernel×kernel windows; stride 0
// means stride = kernel.
func NewAvgPool2D(in Shape, kernel, stride int) (*AvgPool2D, error) {
	p, err := newPool("NewAvgPool2D", in, kernel, stride)
	if err != nil {
		return nil, err
	}
	return &AvgPool2D{pool: p}, nil
}

// Forward takes window means.
func (a *AvgPool2D) Forward(x []float32, B int, train bool) []float32 {
	in, out := a.in.Size(), a.out.Size()
	checkForward("AvgPool2D", x, B, in)
	a.bs = B
	a.y = grow(a.y, B*out)
	H, W, k, s := a.in.H, a.in.W, a.k, a.stride
	ho, wo := a.out.H, a.out.W
	inv := 1 / float32(k*k)
	for b := 0; b < B; b++ {
		img := x[b*in : (b+1)*in]
		for ch := 0; ch < a.in.C; ch++ {
			base := ch * H * W
			o := b*out + ch*ho*wo
			for oy := 0; oy < ho; oy++ {
				for ox := 0; ox < wo; ox++ {
					var sum float32
					for ki := 0; ki < k; ki++ {
						row := img[base+(oy*s+ki)*W+ox*s:]
						for _, v := range row[:k] {
							sum += v
						}
					}
					a.y[o+oy*wo+ox] = sum * inv
				}
			}
		}
	}
	return a.y
}

// Backward spreads every output gradient evenly over its window.
func (a *AvgPool2D) Backward(dy []float32) []float32 {
	in, out := a.in.Size(), a.out.Size()
	checkBackward("AvgPool2D", dy, a.bs, out)
	a.dx = grow(a.dx, a.bs*in)
	clear(a.dx)
	H, W, k, s := a.in.H, a.in.W, a.k, a.stride
	ho, wo := a.out.H, a.out.W
	inv := 1 / float32(k*k)
	for b := 0; b < a.bs; b++ {
		dx := a.dx[b*in : (b+1)*in]
		for ch := 0; ch < a.in.C; ch++ {
			base := ch * H * W
			o := b*out + ch*ho*wo
			for oy := 0; oy < ho; oy++ {
				for ox := 0; ox < wo; ox++ {
					g := dy[o+oy*wo+ox] * inv
					for ki := 0; ki < k; ki++ {
						row := dx[base+(oy*s+ki)*W+ox*s:]
						for kj := range row[:k] {
							row[kj] += g
						}
					}
				}
			}
		}
	}
	return a.dx
}

// GlobalAvgPool averages every channel over its H×W positions: C×H×W → C.
type GlobalAvgPool struct {
	in    Shape
	bs    int
	y, dx []float32
}

// NewGlobalAvgPool returns global average pooling of images of shape in.
func NewGlobalAvgPool(in Shape) (*GlobalAvgPool, error) {
	if err := in.validate("NewGlobalAvgPool"); err != nil {
		return nil, err
	}
	return &GlobalAvgPool{in: in}, nil
}

// In returns C·H·W.
func (g *GlobalAvgPool) In() int { return g.in.Size() }

// Out returns C.
func (g *GlobalAvgPool) Out() int { return g.in.C }

// InShape returns the input image shape.
func (g *GlobalAvgPool) InShape() Shape { return g.in }

// OutShape returns C×1×1.
func (g *GlobalAvgPool) OutShape() Shape { return Shape{C: g.in.C, H: 1, W: 1} }

// Params returns nil.
func (g *GlobalAvgPool) Params() []optim.Param { return nil }

// Forward averages every channel (float64 sums).
func (g *GlobalAvgPool) Forward(x []float32, B int, train bool) []float32 {
	in, hw := g.in.Size(), g.in.H*g.in.W
	checkForward("GlobalAvgPool", x, B, in)
	g.bs = B
	g.y = grow(g.y, B*g.in.C)
	for b := 0; b < B; b++ {
		for ch := 0; ch < g.in.C; ch++ {
			var s float64
			for _, v := range x[b*in+ch*hw : b*in+(ch+1)*hw] {
				s += float64(v)
			}
			g.y[b*g.in.C+ch] = float32(s / float64(hw))
		}
	}
	return g.y
}

// Backward spreads dy/(H·W) over every channel's positions.
func (g *GlobalAvgPool) Backward(dy []float32) []float32 {
	in, hw := g.in.Size(), g.in.H*g.in.W
	checkBackward("GlobalAvgPool", dy, g.bs, g.in.C)
	g.dx = grow(g.dx, g.bs*in)
	inv := 1 / float32(hw)
	for b := 0; b < g.bs; b++ {
		for ch := 0; ch < g.in.C; ch++ {
			v := dy[b*g.in.C+ch] * inv
			row := g.dx[b*in+ch*hw : b*in+(ch+1)*hw]
			for i := range row {
				row[i] = v
			}
		}
	}
	return g.dx
}
