package nn

import (
	"fmt"
	"sync/atomic"

	"github.com/gdt-ml/gdt/linalg"
	"github.com/gdt-ml/gdt/optim"
	"github.com/gdt-ml/gdt/rng"
	"github.com/viterin/vek/vek32"
)

// Dense is a fully connected layer y = x·W + b with W stored In×Out
// row-major and b of length Out.
type Dense struct {
	in, out int
	w, b    []float32
	gw, gb  []float32
	params  []optim.Param
	skipDX  bool
	pool    bool
	ovGrad  bool

	x   []float32
	bs  int
	y   []float32
	dx  []float32
	dyT [2][]float32 // dyᵀ for the split input-gradient product (see backwardHalves)
	sp  sparse       // live units and buffers of the compacted products (sparse.go)
}

// NewDense returns a dense layer with weights drawn by init from a stream
// seeded by seed, and zero biases.
func NewDense(in, out int, init Init, seed uint64) (*Dense, error) {
	return newDense(in, out, init, rng.New(streamSeed(seed, 0)))
}

func newDense(in, out int, init Init, r *rng.MT19937) (*Dense, error) {
	if in <= 0 || out <= 0 {
		return nil, fmt.Errorf("nn: NewDense: in = %d, out = %d, want both > 0", in, out)
	}
	if err := init.validate(); err != nil {
		return nil, err
	}
	d := &Dense{in: in, out: out}
	val := make([]float32, in*out+out)
	grad := make([]float32, in*out+out)
	d.w, d.b = val[:in*out:in*out], val[in*out:]
	d.gw, d.gb = grad[:in*out:in*out], grad[in*out:]
	init.fill(d.w, in, out, in, out, r)
	d.params = []optim.Param{
		{Name: "weight", Value: d.w, Grad: d.gw},
		{Name: "bias", Value: d.b, Grad: d.gb},
	}
	return d, nil
}

// In returns the input width.
func (d *Dense) In() int { return d.in }

// Out returns the output width.
func (d *Dense) Out() int { return d.out }

// Weight returns W (In×Out row-major, shared).
func (d *Dense) Weight() []float32 { return d.w }

// Bias returns b (shared).
func (d *Dense) Bias() []float32 { return d.b }

// Params returns "weight" (In×Out) and "bias" (Out).
func (d *Dense) Params() []optim.Param { return d.params }

// SetSkipInputGrad makes Backward skip dL/dx and return nil (for a first
// layer whose input is data).
func (d *Dense) SetSkipInputGrad(skip bool) { d.skipDX = skip }

// SetOverwriteGrad makes Backward overwrite the parameter gradients
// instead of adding to them, with the bits that adding to zeroed gradients
// gives, so that a caller that zeroes the gradients before every backward
// pass can skip that. Modules follow the add convention by default.
func (d *Dense) SetOverwriteGrad(on bool) { d.ovGrad = on }

// SetPool makes the layer's matrix products run on package linalg's
// helper pool (linalg.GemmPool) when they are large enough; results are
// bit-identical either way.
func (d *Dense) SetPool(on bool) { d.pool = on }

// gemm is linalg.Gemm, or linalg.GemmPool when the layer uses the pool.
func (d *Dense) gemm(transA, transB bool, m, n, k int, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if d.pool {
		linalg.GemmPool(transA, transB, m, n, k, 1, a, lda, b, ldb, beta, c, ldc)
		return
	}
	linalg.Gemm(transA, transB, m, n, k, 1, a, lda, b, ldb, beta, c, ldc)
}

// Forward computes x·W + b.
func (d *Dense) Forward(x []float32, B int, train bool) []float32 {
	checkForward("Dense", x, B, d.in)
	d.x, d.bs = x[:B*d.in], B
	d.resetSparse()
	d.y = grow(d.y, B*d.out)
	if B == 0 {
		return d.y
	}
	for r := 0; r < B; r++ {
		copy(d.y[r*d.out:(r+1)*d.out], d.b)
	}
	d.gemm(false, false, B, d.out, d.in, d.x, d.in, d.w, d.out, 1, d.y, d.out)
	return d.y
}

// Backward accumulates dW += xᵀ·dy and db += Σ_rows dy, and returns
// dx = dy·Wᵀ.
func (d *Dense) Backward(dy []float32) []float32 { return d.backward(dy, nil, nil) }

// backward is Backward; with r (the ReLU whose output is this layer's
// input) it also runs r.Backward on dx, block by block as the pool
// computes dx, and returns r's input gradient. first (r's input layer,
// which skips its input gradient) may be given only when the layer splits
// (see splits): then first's gradients are computed too (see
// backwardHalves) and backward returns nil.
func (d *Dense) backward(dy []float32, r *ReLU, first *Dense) []float32 {
	B := d.bs
	checkBackward("Dense", dy, B, d.out)
	dy = dy[:B*d.out]
	beta := d.gradBeta()
	if d.ovGrad {
		// C = 0 + x has the bits of x added to a zeroed C (also for
		// x = −0), and the bias sum below starts from zero either way.
		clear(d.gb)
	}
	if B == 0 {
		if d.ovGrad {
			clear(d.gw)
		}
		d.dx = grow(d.dx, 0)
		if r != nil {
			return r.Backward(d.dx)
		}
		return d.dx
	}
	if d.splits() {
		return d.backwardHalves(dy, r, first)
	}
	d.gemm(true, false, d.in, d.out, B, d.x, d.in, dy, d.out, beta, d.gw, d.out)
	for r := 0; r < B; r++ {
		vek32.Add_Inplace(d.gb, dy[r*d.out:(r+1)*d.out])
	}
	if d.skipDX {
		return nil
	}
	d.dx = grow(d.dx, B*d.in)
	if r == nil {
		d.gemm(false, true, B, d.in, d.out, dy, d.out, d.w, d.out, 0, d.dx, d.in)
		return d.dx
	}
	dx, n := d.dx, d.in
	_, rdx := r.back("ReLU", dx)
	mask := r.x
	linalg.GemmPoolThen(false, true, B, n, d.out, 1, dy, d.out, d.w, d.out, 0, dx, n, func(r0, r1, c0, c1 int) {
		for i := r0; i < r1; i++ {
			linalg.ReluGrad(rdx[i*n+c0:i*n+c1], dx[i*n+c0:i*n+c1], mask[i*n+c0:i*n+c1])
		}
	})
	return rdx
}

// forwardReLU is Forward followed by r.Forward (r a ReLU on this layer's
// output), with the bias and the ReLU applied block by block as the pool
// computes x·W: y = (x·W) + b, the pre-activation that r keeps for its
// backward pass, and r's output max(y, 0). Only the sign of a zero
// pre-activation can differ from Forward's b + x·W (when b holds −0),
// which neither the ReLU nor its gradient sees. When the product splits
// and enough of x's columns are zero on every row, it runs on the live
// columns only (forwardSparse, same bits).
func (d *Dense) forwardReLU(x []float32, B int, r *ReLU) []float32 {
	checkForward("Dense", x, B, d.in)
	d.x, d.bs = x[:B*d.in], B
	d.resetSparse()
	d.y = grow(d.y, B*d.out)
	y, n, bias := d.y, d.out, d.b
	_, post := r.start("ReLU", y, B)
	if B == 0 {
		return post
	}
	if _, sj := d.halves(B); sj > 0 {
		// Column blocks of forwardBlock when the pool shares work: every
		// block reads all of W's rows, so no split keeps them local, and
		// small blocks let a core that joins late (busy with other work,
		// e.g. the actor's step in rl/ppo) take a fair share.
		blocks := n / forwardBlock
		if !linalg.Sharing() {
			blocks = 1 // alone, one product is fastest
		}
		if d.forwardSparse(B, post, blocks) {
			return post
		}
		w := n / blocks
		linalg.Run(blocks, func(p int) {
			c0, c1 := p*w, (p+1)*w
			linalg.Gemm(false, false, B, c1-c0, d.in, 1, d.x, d.in, d.w[c0:], n, 0, y[c0:], n)
			for i := 0; i < B; i++ {
				linalg.BiasRelu(y[i*n+c0:i*n+c1], post[i*n+c0:i*n+c1], bias[c0:c1])
			}
		})
		return post
	}
	linalg.GemmPoolThen(false, false, B, n, d.in, 1, d.x, d.in, d.w, n, 0, y, n, func(r0, r1, c0, c1 int) {
		for i := r0; i < r1; i++ {
			linalg.BiasRelu(y[i*n+c0:i*n+c1], post[i*n+c0:i*n+c1], bias[c0:c1])
		}
	})
	return post
}

// halves returns where the pooled products of a B-row batch split into
// two parts with fixed ownership — in the backward pass part p owns rows
// [p·si, …) of W (its gradient rows, and in a split optimiser their state,
// see RowHalf) and the bias gradient's columns [p·sj, …); the forward pass
// splits into column blocks (forwardBlock) — or 0, 0 when the layer's
// products do not split (off the pool, too small, or widths that are not
// multiples of 64). Each backward part runs on the same core from step to
// step when the pool's helper is free (linalg.Run's submitter runs part
// 0), so the weights, their gradients and the optimiser's
// moments stay in that core's cache: a split that changed from product to
// product (as GemmPool's) moves most of them between the cores' caches on
// every step, which costs about as much as the split saves.
func (d *Dense) halves(B int) (si, sj int) {
	if !d.pool || B*d.in*d.out < linalg.PoolMinWork || d.RowHalf() == 0 {
		return 0, 0
	}
	return d.RowHalf(), d.out / 2
}

// RowHalf returns the first row of W that the second part owns when the
// layer splits its pooled products in two (see SetPool), or 0 when it never
// does (widths that are not multiples of 64). An optimiser split at that
// row keeps each part's weights on the core that computes their gradient.
func (d *Dense) RowHalf() int {
	if d.in%64 != 0 || d.out%64 != 0 {
		return 0
	}
	return d.in / 2
}

// forwardBlock is the width of the column blocks of a split forward
// product (a divisor of every width that splits, see RowHalf, and a
// multiple of the micro-kernel's 32 columns).
const forwardBlock = 32

// halfRange returns part p's range [lo, hi) of n entries cut at h.
func halfRange(p, h, n int) (lo, hi int) {
	if p == 0 {
		return 0, h
	}
	return h, n
}

// backwardHalves is backward on two parts with fixed ownership (see
// halves): part p computes the gradient rows [r0, r1) it owns (xᵀ·dy over
// them), the bias gradient of its output columns and the input-gradient
// columns [r0, r1) (dy·W[r0:r1]ᵀ, through r's gradient when r is not nil).
// Every entry is computed by the same operations as on one goroutine.
//
// With first (a Dense layer whose output r's input is, and which skips its
// own input gradient), part p also computes first's weight and bias
// gradients for first's output columns [r0, r1) from the input-gradient
// columns it has just computed (r's output), and backwardHalves returns
// nil: each part's columns stay on the core that computed them.
//
// With r, when enough of x's and dy's columns are zero on every row, the
// products run on the live units only (backwardSparse, same bits).
func (d *Dense) backwardHalves(dy []float32, r *ReLU, first *Dense) []float32 {
	if r != nil && !d.skipDX {
		if rdx, ok := d.backwardSparse(dy, r, first); ok {
			return rdx
		}
	}
	B, in, out := d.bs, d.in, d.out
	si, sj := d.halves(B)
	beta := d.gradBeta()
	var dx, rdx, mask []float32
	if !d.skipDX {
		d.dx = grow(d.dx, B*in)
		dx, rdx = d.dx, d.dx
		if r != nil {
			_, rdx = r.back("ReLU", dx)
			mask = r.x
		}
	}
	// The input-gradient product reads dyᵀ. The first part to run
	// transposes dy into dyT[0] and says so; a part that starts after that
	// (the second one when both run on one goroutine) reuses it, one that
	// starts before it is done (the parts run on two cores) transposes dy
	// into its own buffer: reading dy and transposing it locally moves half
	// the data that reading the other core's dyᵀ would.
	shareT := dx != nil && linalg.NTTransposes(B, si, out) && linalg.NTTransposes(B, in-si, out)
	var claimed, ready atomic.Bool
	if shareT {
		for k := range d.dyT {
			d.dyT[k] = grow(d.dyT[k], out*B)
		}
	}
	linalg.Run(2, func(p int) {
		r0, r1 := halfRange(p, si, in)
		c0, c1 := halfRange(p, sj, out)
		linalg.Gemm(true, false, r1-r0, out, B, 1, d.x[r0:], in, dy, out, beta, d.gw[r0*out:], out)
		gb := d.gb[c0:c1]
		for i := 0; i < B; i++ {
			vek32.Add_Inplace(gb, dy[i*out+c0:i*out+c1])
		}
		if dx == nil {
			return
		}
		var at []float32
		switch {
		case !shareT:
		case ready.Load():
			at = d.dyT[0]
		case claimed.CompareAndSwap(false, true):
			at = d.dyT[0]
			linalg.Transpose(at, B, dy, out, B, out)
			ready.Store(true)
		default:
			at = d.dyT[1]
			linalg.Transpose(at, B, dy, out, B, out)
		}
		linalg.GemmNT(B, r1-r0, out, dy, out, at, d.w[r0*out:], out, dx[r0:], in)
		if mask != nil {
			for i := 0; i < B; i++ {
				linalg.ReluGrad(rdx[i*in+r0:i*in+r1], dx[i*in+r0:i*in+r1], mask[i*in+r0:i*in+r1])
			}
		}
		if first != nil {
			first.gradColumns(rdx, r0, r1)
		}
	})
	if dx == nil || first != nil {
		return nil
	}
	return rdx
}

// splits reports whether the layer's backward pass on its current batch
// runs in two parts (see halves).
func (d *Dense) splits() bool {
	si, _ := d.halves(d.bs)
	return si > 0 && d.bs > 0
}

// gradBeta returns the factor of the old weight gradient in the backward
// pass: 1 (add to it) or, when the layer overwrites its gradients, 0.
func (d *Dense) gradBeta() float32 {
	if d.ovGrad {
		return 0
	}
	return 1
}

// gradColumns is the parameter-gradient part of Backward for the output
// columns [c0, c1) only, from the rows of dy (B×Out, the layer's output
// gradient, of which only those columns are read): dW[:, c0:c1] += xᵀ·dy
// and db[c0:c1] += Σ_rows dy (overwritten when the layer overwrites its
// gradients), with the bits of Backward's whole product.
func (d *Dense) gradColumns(dy []float32, c0, c1 int) {
	B, out := d.bs, d.out
	gb := d.gb[c0:c1]
	if d.ovGrad {
		clear(gb)
	}
	linalg.Gemm(true, false, d.in, c1-c0, B, 1, d.x, d.in, dy[c0:], out, d.gradBeta(), d.gw[c0:], out)
	for i := 0; i < B; i++ {
		vek32.Add_Inplace(gb, dy[i*out+c0:i*out+c1])
	}
}

// transpose writes the cols×rows transpose of the rows×cols matrix src into
// dst: 8×8 blocks unrolled (few cache lines live at once even for
// power-of-two strides), the ragged edges element by element.
func transpose(dst, src []float32, rows, cols int) {
	if rows == 0 || cols == 0 {
		return
	}
	_ = src[rows*cols-1]
	_ = dst[rows*cols-1]
	r8, c8 := rows&^7, cols&^7
	for i0 := 0; i0 < r8; i0 += 8 {
		for j0 := 0; j0 < c8; j0 += 8 {
			o := i0*cols + j0
			s0 := src[o : o+8 : o+8]
			s1 := src[o+1*cols : o+1*cols+8 : o+1*cols+8]
			s2 := src[o+2*cols : o+2*cols+8 : o+2*cols+8]
			s3 := src[o+3*cols : o+3*cols+8 : o+3*cols+8]
			s4 := src[o+4*cols : o+4*cols+8 : o+4*cols+8]
			s5 := src[o+5*cols : o+5*cols+8 : o+5*cols+8]
			s6 := src[o+6*cols : o+6*cols+8 : o+6*cols+8]
			s7 := src[o+7*cols : o+7*cols+8 : o+7*cols+8]
			p := j0*rows + i0
			d0 := dst[p : p+8 : p+8]
			d1 := dst[p+1*rows : p+1*rows+8 : p+1*rows+8]
			d2 := dst[p+2*rows : p+2*rows+8 : p+2*rows+8]
			d3 := dst[p+3*rows : p+3*rows+8 : p+3*rows+8]
			d4 := dst[p+4*rows : p+4*rows+8 : p+4*rows+8]
			d5 := dst[p+5*rows : p+5*rows+8 : p+5*rows+8]
			d6 := dst[p+6*rows : p+6*rows+8 : p+6*rows+8]
			d7 := dst[p+7*rows : p+7*rows+8 : p+7*rows+8]
			d0[0] = s0[0]
			d0[1] = s1[0]
			d0[2] = s2[0]
			d0[3] = s3[0]
			d0[4] = s4[0]
			d0[5] = s5[0]
			d0[6] = s6[0]
			d0[7] = s7[0]
			d1[0] = s0[1]
			d1[1] = s1[1]
			d1[2] = s2[1]
			d1[3] = s3[1]
			d1[4] = s4[1]
			d1[5] = s5[1]
			d1[6] = s6[1]
			d1[7] = s7[1]
			d2[0] = s0[2]
			d2[1] = s1[2]
			d2[2] = s2[2]
			d2[3] = s3[2]
			d2[4] = s4[2]
			d2[5] = s5[2]
			d2[6] = s6[2]
			d2[7] = s7[2]
			d3[0] = s0[3]
			d3[1] = s1[3]
			d3[2] = s2[3]
			d3[3] = s3[3]
			d3[4] = s4[3]
			d3[5] = s5[3]
			d3[6] = s6[3]
			d3[7] = s7[3]
			d4[0] = s0[4]
			d4[1] = s1[4]
			d4[2] = s2[4]
			d4[3] = s3[4]
			d4[4] = s4[4]
			d4[5] = s5[4]
			d4[6] = s6[4]
			d4[7] = s7[4]
			d5[0] = s0[5]
			d5[1] = s1[5]
			d5[2] = s2[5]
			d5[3] = s3[5]
			d5[4] = s4[5]
			d5[5] = s5[5]
			d5[6] = s6[5]
			d5[7] = s7[5]
			d6[0] = s0[6]
			d6[1] = s1[6]
			d6[2] = s2[6]
			d6[3] = s3[6]
			d6[4] = s4[6]
			d6[5] = s5[6]
			d6[6] = s6[6]
			d6[7] = s7[6]
			d7[0] = s0[7]
			d7[1] = s1[7]
			d7[2] = s2[7]
			d7[3] = s3[7]
			d7[4] = s4[7]
			d7[5] = s5[7]
			d7[6] = s6[7]
			d7[7] = s7[7]
		}
		for j := c8; j < cols; j++ {
			for i := i0; i < i0+8; i++ {
				dst[j*rows+i] = src[i*cols+j]
			}
		}
	}
	for i := r8; i < rows; i++ {
		for j := 0; j < cols; j++ {
			dst[j*rows+i] = src[i*cols+j]
		}
	}
}
