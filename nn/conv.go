package nn

import (
	"fmt"

	"github.com/gdt-ml/gdt/linalg"
	"github.com/gdt-ml/gdt/optim"
	"github.com/gdt-ml/gdt/rng"
	"github.com/viterin/vek/vek32"
)

// Conv2D is a 2-D convolution (cross-correlation, as torch.nn.Conv2d) of
// NCHW images with a square kernel, a stride and zero padding. The weight is
// stored K×(C·k·k) row-major (PyTorch's [K][C][k][k] layout), the bias has K
// entries. Each sample is lowered to a (C·k·k)×(H_o·W_o) column matrix
// (im2col) and multiplied by the weight with linalg.Gemm, which writes the
// output directly in channel-major order.
type Conv2D struct {
	in, out        Shape
	k, stride, pad int
	ckk            int
	w, b           []float32
	gw, gb         []float32
	params         []optim.Param
	skipDX         bool
	x              []float32
	bs             int
	y, dx          []float32
	partial        []float32 // per-chunk weight and bias gradients
	ws             []*convScratch
}

// NewConv2D returns a convolution of images of shape in to outChannels
// channels with a kernel×kernel window, the given stride (≥ 1) and zero
// padding (≥ 0) on every side; the output size is
// H_o = (H + 2·padding − kernel)/stride + 1 (floor), likewise W_o. Weights
// are drawn by init with fan_in = C·k·k and fan_out = K·k·k; biases are 0.
func NewConv2D(in Shape, outChannels, kernel, stride, padding int, init Init, seed uint64) (*Conv2D, error) {
	if err := in.validate("NewConv2D"); err != nil {
		return nil, err
	}
	if outChannels <= 0 || kernel <= 0 || stride <= 0 || padding < 0 {
		return nil, fmt.Errorf("nn: NewConv2D: outChannels %d, kernel %d, stride %d, padding %d; want the first three > 0 and padding ≥ 0",
			outChannels, kernel, stride, padding)
	}
	if err := init.validate(); err != nil {
		return nil, err
	}
	ho := (in.H+2*padding-kernel)/stride + 1
	wo := (in.W+2*padding-kernel)/stride + 1
	if in.H+2*padding < kernel || in.W+2*padding < kernel {
		return nil, fmt.Errorf("nn: NewConv2D: kernel %d does not fit the padded input %v (padding %d)", kernel, in, padding)
	}
	c := &Conv2D{in: in, out: Shape{C: outChannels, H: ho, W: wo}, k: kernel, stride: stride, pad: padding}
	c.ckk = in.C * kernel * kernel
	nw := outChannels * c.ckk
	val, grad := make([]float32, nw+outChannels), make([]float32, nw+outChannels)
	c.w, c.b, c.gw, c.gb = val[:nw:nw], val[nw:], grad[:nw:nw], grad[nw:]
	init.fill(c.w, outChannels, c.ckk, c.ckk, outChannels*kernel*kernel, rng.New(streamSeed(seed, 0)))
	c.params = []optim.Param{{Name: "weight", Value: c.w, Grad: c.gw}, {Name: "bias", Value: c.b, Grad: c.gb}}
	return c, nil
}

// In returns C·H·W of the input.
func (c *Conv2D) In() int { return c.in.Size() }

// Out returns K·H_o·W_o.
func (c *Conv2D) Out() int { return c.out.Size() }

// InShape returns the input image shape.
func (c *Conv2D) InShape() Shape { return c.in }

// OutShape returns the output image shape.
func (c *Conv2D) OutShape() Shape { return c.out }

// Params returns "weight" (K×C·k·k) and "bias" (K).
func (c *Conv2D) Params() []optim.Param { return c.params }

// SetSkipInputGrad makes Backward skip dL/dx (for a first layer on pixels).
func (c *Conv2D) SetSkipInputGrad(skip bool) { c.skipDX = skip }

// span returns the range [lo, hi) of output columns ox whose input column
// ox·s − p + kj lies inside [0, W).
func span(wo, W, s, p, kj int) (lo, hi int) {
	// ox·s ≥ p − kj  and  ox·s ≤ W − 1 + p − kj
	a := p - kj
	if a > 0 {
		lo = (a + s - 1) / s
	}
	b := W - 1 + p - kj
	if b < 0 {
		return 0, 0
	}
	hi = min(wo, b/s+1)
	if lo > hi {
		lo = hi
	}
	return lo, hi
}

// im2col writes the (C·k·k)×(H_o·W_o) column matrix of one image.
func (c *Conv2D) im2col(col, x []float32) {
	H, W, k, s, p := c.in.H, c.in.W, c.k, c.stride, c.pad
	ho, wo := c.out.H, c.out.W
	r := 0
	for ch := 0; ch < c.in.C; ch++ {
		img := x[ch*H*W : (ch+1)*H*W]
		for ki := 0; ki < k; ki++ {
			for kj := 0; kj < k; kj++ {
				dst := col[r*ho*wo : (r+1)*ho*wo]
				r++
				lo, hi := span(wo, W, s, p, kj)
				for oy := 0; oy < ho; oy++ {
					iy := oy*s - p + ki
					row := dst[oy*wo : (oy+1)*wo]
					if iy < 0 || iy >= H || lo >= hi {
						clear(row)
						continue
					}
					clear(row[:lo])
					clear(row[hi:])
					src := img[iy*W : (iy+1)*W]
					if s == 1 {
						copy(row[lo:hi], src[lo-p+kj:hi-p+kj])
						continue
					}
					ix := lo*s - p + kj
					for ox := lo; ox < hi; ox++ {
						row[ox] = src[ix]
						ix += s
					}
				}
			}
		}
	}
}

// col2im adds the column-matrix gradient dcol into the image gradient dx.
func (c *Conv2D) col2im(dx, dcol []float32) {
	H, W, k, s, p := c.in.H, c.in.W, c.k, c.stride, c.pad
	ho, wo := c.out.H, c.out.W
	r := 0
	for ch := 0; ch < c.in.C; ch++ {
		img := dx[ch*H*W : (ch+1)*H*W]
		for ki := 0; ki < k; ki++ {
			for kj := 0; kj < k; kj++ {
				src := dcol[r*ho*wo : (r+1)*ho*wo]
				r++
				lo, hi := span(wo, W, s, p, kj)
				if lo >= hi {
					continue
				}
				for oy := 0; oy < ho; oy++ {
					iy := oy*s - p + ki
					if iy < 0 || iy >= H {
						continue
					}
					dst := img[iy*W : (iy+1)*W]
					row := src[oy*wo : (oy+1)*wo]
					if s == 1 {
						vek32.Add_Inplace(dst[lo-p+kj:hi-p+kj], row[lo:hi])
						continue
					}
					ix := lo*s - p + kj
					for ox := lo; ox < hi; ox++ {
						dst[ix] += row[ox]
						ix += s
					}
				}
			}
		}
	}
}

// scratch is one worker's buffers.
type convScratch struct {
	col, dcol []float32
}

func (c *Conv2D) scratch(workers int) {
	for len(c.ws) < workers {
		c.ws = append(c.ws, &convScratch{})
	}
}

// Forward convolves every image of the batch (images in parallel).
func (c *Conv2D) Forward(x []float32, B int, train bool) []float32 {
	in, out := c.in.Size(), c.out.Size()
	checkForward("Conv2D", x, B, in)
	c.x, c.bs = x[:B*in], B
	c.y = grow(c.y, B*out)
	hw := c.out.H * c.out.W
	parts := numChunks(B)
	c.scratch(numWorkers(parts))
	parallel(parts, func(part, worker int) {
		ws := c.ws[worker]
		ws.col = grow(ws.col, c.ckk*hw)
		lo, hi := chunkBounds(B, parts, part)
		for s := lo; s < hi; s++ {
			c.im2col(ws.col, x[s*in:(s+1)*in])
			ys := c.y[s*out : (s+1)*out]
			for ch := 0; ch < c.out.C; ch++ {
				row := ys[ch*hw : (ch+1)*hw]
				for i := range row {
					row[i] = c.b[ch]
				}
			}
			linalg.Gemm(false, false, c.out.C, hw, c.ckk, 1, c.w, c.ckk, ws.col, hw, 1, ys, hw)
		}
	})
	return c.y
}

// weightGrad adds dY_s·col_sᵀ (K×C·k·k) into g; both factors have the
// spatial positions as their contiguous axis.
func (c *Conv2D) weightGrad(g, dys []float32, hw int, ws *convScratch) {
	K := c.out.C
	linalg.Gemm(false, true, K, c.ckk, hw, 1, dys, hw, ws.col, hw, 1, g, c.ckk)
}

// Backward accumulates dW += Σ_s dY_s·col_sᵀ and db += Σ dY and returns
// dx = col2im(Wᵀ·dY_s) per sample. Images are processed in parallel in
// fixed chunks whose partial weight gradients are added in chunk order.
func (c *Conv2D) Backward(dy []float32) []float32 {
	in, out := c.in.Size(), c.out.Size()
	B := c.bs
	checkBackward("Conv2D", dy, B, out)
	hw := c.out.H * c.out.W
	K := c.out.C
	if !c.skipDX {
		c.dx = grow(c.dx, B*in)
	}
	parts := numChunks(B)
	c.scratch(numWorkers(parts))
	np := len(c.w) + len(c.b)
	c.partial = grow(c.partial, parts*np)
	clear(c.partial)
	parallel(parts, func(part, worker int) {
		ws := c.ws[worker]
		ws.col = grow(ws.col, c.ckk*hw)
		g := c.partial[part*np : (part+1)*np]
		gw, gb := g[:len(c.w)], g[len(c.w):]
		lo, hi := chunkBounds(B, parts, part)
		for s := lo; s < hi; s++ {
			dys := dy[s*out : (s+1)*out]
			for ch := 0; ch < K; ch++ {
				var sum float64
				for _, v := range dys[ch*hw : (ch+1)*hw] {
					sum += float64(v)
				}
				gb[ch] += float32(sum)
			}
			c.im2col(ws.col, c.x[s*in:(s+1)*in])
			c.weightGrad(gw, dys, hw, ws)
			if c.skipDX {
				continue
			}
			ws.dcol = grow(ws.dcol, c.ckk*hw)
			linalg.Gemm(true, false, c.ckk, hw, K, 1, c.w, c.ckk, dys, hw, 0, ws.dcol, hw)
			dx := c.dx[s*in : (s+1)*in]
			clear(dx)
			c.col2im(dx, ws.dcol)
		}
	})
	for part := 0; part < parts; part++ {
		g := c.partial[part*np : (part+1)*np]
		vek32.Add_Inplace(c.gw, g[:len(c.w)])
		vek32.Add_Inplace(c.gb, g[len(c.w):])
	}
	if c.skipDX {
		return nil
	}
	return c.dx
}
