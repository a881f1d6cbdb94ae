package nn

import (
	"sync/atomic"

	"github.com/gdt-ml/gdt/linalg"
	"github.com/viterin/vek/vek32"
)

// Products that skip dead units.
//
// Behind a ReLU many units are zero on every row of a minibatch: in SYMPOL's
// 2×256 critic on CartPole about a third of the first hidden layer's units
// and over half of the second layer's output gradients are zero across a
// 64-row batch. A term with a zero factor adds nothing to a product's
// sum, so the split products of a wide layer (see halves) run on the live
// units only: the forward pass sums over the input's live columns, the
// weight gradient is computed on the live input rows × live output-gradient
// columns (the rest is zero), and the input gradient on the live input
// columns (a dead column is masked by the ReLU's gradient) as a sum over the
// live output-gradient columns.
//
// The bits are those of the full products (for finite weights). Package
// linalg's kernels sum each entry of a product with K ≤ linalg.KBlock from
// +0 by one multiply-add per term in increasing order; a sum started from
// +0 is never −0, so adding a term whose product is ±0 leaves it
// unchanged, and dropping such terms (in order) changes no bit. The
// skipped entries are written as the +0 the full product would give.
// Products whose dropped dimension is longer than linalg.KBlock (summed in
// several blocks) are not compacted.

// sparseMaxLive is the largest fraction (in 1/8) of live entries of a
// product that takes the compacted path: near a full product the gathers
// cost about what the skipped terms save (a set bound, not a tuned one;
// both paths give the same bits).
const sparseMaxLive = 7

// sparseOff turns the compacted products off (tests and benchmarks compare
// both paths).
var sparseOff bool

// sparseStats counts the backward passes that may compact and their live
// units (see SparseStats).
var sparseStats struct{ passes, liveX, nX, liveY, nY atomic.Int64 }

// SparseStats returns the number of backward passes of pooled Dense layers
// between ReLUs so far (those whose products may skip dead units) and the
// fractions of their input units and of their output-gradient units that
// were live (nonzero on some row of the batch).
func SparseStats() (passes int64, liveIn, liveOut float64) {
	s := &sparseStats
	passes = s.passes.Load()
	if passes == 0 {
		return 0, 0, 0
	}
	return passes, float64(s.liveX.Load()) / float64(s.nX.Load()), float64(s.liveY.Load()) / float64(s.nY.Load())
}

// sparse holds a layer's live-unit lists and the buffers of its compacted
// products.
type sparse struct {
	bits  []uint32    // OR of an operand's entries, by column
	liveX []int       // live columns of the layer's input x
	colsX linalg.Cols // liveX, for gathers
	xOK   bool        // liveX belongs to the layer's current input
	xc    []float32   // x's live columns (B × ldx), when xcOK
	ldx   int         // row stride of xc
	xcOK  bool        // xc belongs to the layer's current input
	liveY []int       // live columns of the output gradient dy
	colsY linalg.Cols // liveY, for gathers and scatters
	dyc   []float32   // dy's live columns (B × roundUp(len(liveY), 32))
	dycT  []float32   // dycᵀ (len(liveY) × B)
	wf    [][]float32 // per forward block: W's live rows, the block's columns
	part  [2]sparsePart
}

// sparsePart holds one backward part's buffers.
type sparsePart struct {
	g, wc, dxc []float32
	cols       linalg.Cols // the part's live input columns
}

// liveColumns returns the columns of the rows×cols matrix a that hold a
// nonzero entry (±0 counts as zero), in increasing order, in idx's storage.
func liveColumns(a []float32, rows, cols int, bits []uint32, idx []int) ([]uint32, []int) {
	bits = grow(bits, cols)
	clear(bits)
	for i := 0; i < rows; i++ {
		linalg.OrBits(bits, a[i*cols:(i+1)*cols])
	}
	idx = idx[:0]
	for k, b := range bits {
		if b&0x7fffffff != 0 {
			idx = append(idx, k)
		}
	}
	return bits, idx
}

// gatherColumns writes columns c of the rows×cols matrix a into the
// rows×ld matrix dst (row stride ld ≥ c.Len()); dst's columns past c.Len()
// are set to zero.
func gatherColumns(dst, a []float32, rows, cols, ld int, c *linalg.Cols) {
	for i := 0; i < rows; i++ {
		row := dst[i*ld : (i+1)*ld]
		linalg.Gather(row, a[i*cols:(i+1)*cols], c)
		clear(row[c.Len():])
	}
}

// worth reports whether a product over live of n units (and the other
// factor's live fraction, liveOther of nOther) should be compacted.
func worth(live, n, liveOther, nOther int) bool {
	return 8*live*liveOther <= sparseMaxLive*n*nOther
}

// roundUp rounds n up to a multiple of unit (the micro-kernel's 8 rows or
// 32 columns).
func roundUp(n, unit int) int { return (n + unit - 1) / unit * unit }

// live finds the live columns of the layer's current input (once per
// batch).
func (d *Dense) live(B int) []int {
	sp := &d.sp
	if !sp.xOK {
		sp.bits, sp.liveX = liveColumns(d.x, B, d.in, sp.bits, sp.liveX)
		sp.colsX.SetCols(sp.liveX, d.in)
		sp.xOK = true
	}
	return sp.liveX
}

// gatherX writes the live columns of the layer's current input into sp.xc
// (once per batch), with room for a part's products to read up to 8
// columns past the last live one (zeros there).
func (d *Dense) gatherX(B int) {
	sp := &d.sp
	if sp.xcOK {
		return
	}
	live := d.live(B)
	sp.ldx = roundUp(len(live)+8, 32)
	sp.xc = grow(sp.xc, B*sp.ldx)
	gatherColumns(sp.xc, d.x, B, d.in, sp.ldx, &sp.colsX)
	sp.xcOK = true
}

// resetSparse forgets the live units of the previous input.
func (d *Dense) resetSparse() { d.sp.xOK, d.sp.xcOK = false, false }

// forwardSparse is the split forward product of forwardReLU on the live
// columns of x only, or false (nothing done) when too few are dead.
func (d *Dense) forwardSparse(B int, post []float32, blocks int) bool {
	if sparseOff {
		return false
	}
	sp := &d.sp
	in, n := d.in, d.out
	if in > linalg.KBlock {
		return false
	}
	live := d.live(B)
	k := len(live)
	if !worth(k, in, 1, 1) {
		return false
	}
	y, bias := d.y, d.b
	if k == 0 {
		for i := 0; i < B; i++ {
			row := y[i*n : (i+1)*n]
			clear(row)
			linalg.BiasRelu(row, post[i*n:(i+1)*n], bias)
		}
		return true
	}
	d.gatherX(B)
	w := n / blocks
	for len(sp.wf) < blocks {
		sp.wf = append(sp.wf, nil)
	}
	linalg.Run(blocks, func(p int) {
		c0, c1 := p*w, (p+1)*w
		wc := grow(sp.wf[p], k*w)
		sp.wf[p] = wc
		for t, row := range live {
			copy(wc[t*w:(t+1)*w], d.w[row*n+c0:row*n+c1])
		}
		linalg.Gemm(false, false, B, w, k, 1, sp.xc, sp.ldx, wc, w, 0, y[c0:], n)
		for i := 0; i < B; i++ {
			linalg.BiasRelu(y[i*n+c0:i*n+c1], post[i*n+c0:i*n+c1], bias[c0:c1])
		}
	})
	return true
}

// backwardSparse is backwardHalves on the live units (see the top of this
// file), for a layer whose input is r's output, or false (nothing done)
// when too few units are dead.
func (d *Dense) backwardSparse(dy []float32, r *ReLU, first *Dense) ([]float32, bool) {
	if sparseOff {
		return nil, false
	}
	sp := &d.sp
	B, in, out := d.bs, d.in, d.out
	if out > linalg.KBlock {
		return nil, false
	}
	liveX := d.live(B)
	sp.bits, sp.liveY = liveColumns(dy, B, out, sp.bits, sp.liveY)
	liveY := sp.liveY
	st := &sparseStats
	st.passes.Add(1)
	st.liveX.Add(int64(len(liveX)))
	st.nX.Add(int64(in))
	st.liveY.Add(int64(len(liveY)))
	st.nY.Add(int64(out))
	if !worth(len(liveX), in, len(liveY), out) {
		return nil, false
	}
	si, sj := d.halves(B)
	beta := d.gradBeta()
	d.dx = grow(d.dx, B*in)
	dx := d.dx
	_, rdx := r.back("ReLU", dx)
	mask := r.x
	k2 := len(liveY)
	ld2 := roundUp(k2, 32)
	if k2 > 0 && len(liveX) > 0 {
		d.gatherX(B)
		sp.dyc = grow(sp.dyc, B*ld2)
		sp.colsY.SetCols(liveY, out)
		gatherColumns(sp.dyc, dy, B, out, ld2, &sp.colsY)
		sp.dycT = grow(sp.dycT, k2*B)
		linalg.Transpose(sp.dycT, B, sp.dyc, ld2, B, k2)
	}
	// cut is the first entry of liveX in the second part's rows.
	cut := len(liveX)
	for t, k := range liveX {
		if k >= si {
			cut = t
			break
		}
	}
	linalg.Run(2, func(p int) {
		r0, r1 := halfRange(p, si, in)
		c0, c1 := halfRange(p, sj, out)
		off, live := 0, liveX[:cut]
		if p == 1 {
			off, live = cut, liveX[cut:]
		}
		bp := &sp.part[p]
		k1 := len(live)
		n1 := roundUp(k1, 8)
		gb := d.gb[c0:c1]
		for i := 0; i < B; i++ {
			vek32.Add_Inplace(gb, dy[i*out+c0:i*out+c1])
		}
		if d.ovGrad {
			clear(d.gw[r0*out : r1*out])
		}
		if k1 == 0 || k2 == 0 {
			for i := 0; i < B; i++ {
				clear(rdx[i*in+r0 : i*in+r1])
			}
			if first != nil {
				first.gradColumns(rdx, r0, r1)
			}
			return
		}
		// Weight gradient: rows live × columns liveY of xᵀ·dy (the
		// rest is +0); rows past k1 of g are not used.
		bp.g = grow(bp.g, n1*ld2)
		linalg.Gemm(true, false, n1, ld2, B, 1, sp.xc[off:], sp.ldx, sp.dyc, ld2, 0, bp.g, ld2)
		for t, k := range live {
			row := d.gw[k*out : (k+1)*out]
			g := bp.g[t*ld2 : t*ld2+k2]
			if beta == 0 {
				linalg.Scatter(row, g, &sp.colsY)
				continue
			}
			for s, j := range liveY {
				row[j] += g[s]
			}
		}
		// Input gradient through r: the live columns of dy·Wᵀ summed
		// over liveY, masked by r's gradient; dead columns are +0.
		bp.wc = grow(bp.wc, n1*ld2)
		for t, k := range live {
			linalg.Gather(bp.wc[t*ld2:t*ld2+k2], d.w[k*out:(k+1)*out], &sp.colsY)
		}
		clear(bp.wc[k1*ld2 : n1*ld2])
		bp.cols.SetCols(live, in)
		bp.dxc = grow(bp.dxc, B*n1)
		linalg.GemmNT(B, n1, k2, sp.dyc, ld2, sp.dycT, bp.wc, ld2, bp.dxc, n1)
		for i := 0; i < B; i++ {
			src := bp.dxc[i*n1 : i*n1+k1]
			row := dx[i*in : (i+1)*in]
			clear(row[r0:r1])
			linalg.Scatter(row, src, &bp.cols)
			linalg.ReluGrad(rdx[i*in+r0:i*in+r1], row[r0:r1], mask[i*in+r0:i*in+r1])
		}
		if first != nil {
			first.gradColumns(rdx, r0, r1)
		}
	})
	if first != nil {
		return nil, true
	}
	return rdx, true
}
