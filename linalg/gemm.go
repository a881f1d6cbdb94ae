package linalg

import (
	"fmt"
	"math"
	"runtime"
	"sync"
)

// Blocking parameters: op(A) is packed in mc×kc blocks (L2-resident) and
// op(B) in kc×nc panels; one kc×nr strip of packed B (16 or 32 KiB) stays in
// L1 while the mr-row strips of A stream past it. mc and nc are multiples
// of every micro-kernel's mr and nr.
const (
	kc      = 256
	mc      = 96
	nc      = 1024
	maxTile = 8 * 32 // largest mr·nr
	// directMax is the largest operand (op(A) or op(B), in elements) of
	// the unpacked path.
	directMax = 1 << 18
)

// KBlock is the length of the K blocks in which Gemm sums each entry of a
// product: an entry starts from +0, adds one multiply-add per term of a
// block in increasing order and is then added to C, block after block. A
// caller that drops terms with a zero factor from a product of K ≤ KBlock
// keeps every bit (a sum started from +0 is never −0, so a ±0 term leaves
// it unchanged).
const KBlock = kc

// microKernel is a register-tiled kernel with its tile shape. fn
// accumulates the product of a packed kb×mr strip of A (a[p*mr+r]) and a
// packed kb×nr strip of B (b[p*nr+q]) from zero, in increasing p, with one
// multiply-add per term, then adds alpha times the result (rounded) to the
// mr×nr tile of c with row stride ldc — or, with overwrite, to +0 without
// reading c (the bits of clearing the tile first). kb must be ≥ 1.
type microKernel struct {
	name   string
	mr, nr int
	fn     func(kb int, a, b, c []float32, ldc int, alpha float32, overwrite bool)
}

// goKernel is the portable micro-kernel.
var goKernel = microKernel{"go", 6, 16, kernelGo}

// workspace holds the packing buffers of one goroutine.
type workspace struct {
	ap   []float32        // mc×kc packed A block, strips of mr rows
	bp   []float32        // kc×nc packed B panel, strips of nr columns
	tile [maxTile]float32 // edge tiles before they are added to C
}

// wsPool recycles workspaces; their buffers grow on demand up to mc×kc
// and kc×nc.
var wsPool = sync.Pool{New: func() any { return new(workspace) }}

// need returns s with length n, reallocated if its capacity is smaller.
func need(s []float32, n int) []float32 {
	if cap(s) < n {
		return make([]float32, n)
	}
	return s[:n]
}

// roundUp returns x rounded up to a multiple of unit.
func roundUp(x, unit int) int { return (x + unit - 1) / unit * unit }

// Gemm computes C = alpha·op(A)·op(B) + beta·C for row-major matrices,
// where op(A) is m×k and op(B) is k×n. If transA is false A is stored m×k
// with row stride lda (lda ≥ k), otherwise A is stored k×m (lda ≥ m) and
// op(A) = Aᵀ; likewise for B (k×n with ldb ≥ n, or n×k with ldb ≥ k when
// transB). C is m×n with row stride ldc ≥ n. When beta is 0, C is not read
// (NaNs in C do not propagate); when k is 0 or alpha is 0, A and B are not
// read. Gemm runs on the calling goroutine and does not allocate in the
// steady state. It panics if a dimension is negative, a stride is too
// small or a slice is too short.
func Gemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	check(transA, transB, m, n, k, a, lda, b, ldb, c, ldc)
	gemm(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// GemmParallel is Gemm with C split into contiguous blocks of rows (or of
// columns, when C is wider than tall) computed on up to workers goroutines
// (GOMAXPROCS when workers ≤ 0), the last block on the calling goroutine.
// The result is bit-identical to Gemm's whatever the number of workers.
func GemmParallel(workers int, transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	check(transA, transB, m, n, k, a, lda, b, ldb, c, ldc)
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers, part := split(workers, 32*32*32, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, nil)
	if workers <= 1 {
		gemm(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	var wg sync.WaitGroup
	wg.Add(workers - 1)
	for w := 0; w < workers-1; w++ {
		go func() {
			defer wg.Done()
			part(w)
		}()
	}
	part(workers - 1)
	wg.Wait()
}

// PoolMinWork is the number of multiply-adds (m·n·k) from which GemmPool
// splits a product.
const PoolMinWork = 1 << 18

// GemmPool is Gemm with C split into blocks of whole micro-tiles (as
// GemmParallel) that the calling goroutine and the package's helper pool
// (see Run) compute together; products of fewer than PoolMinWork
// multiply-adds run on the calling goroutine. The result is bit-identical
// to Gemm's whatever the number of helpers and however busy they are; the
// hand-off is cheap enough for the 64-row products of small networks.
func GemmPool(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	GemmPoolThen(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, nil)
}

// GemmPoolThen is GemmPool followed by then(r0, r1, c0, c1) for every
// block C[r0:r1, c0:c1] it computed, called on the goroutine that computed
// the block right after it (while the block is in its cache): a place for
// elementwise work on the result (bias, activation) that then runs in
// parallel too. The blocks cover C exactly once; then must only touch
// memory of its own block. A nil then is GemmPool.
func GemmPoolThen(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int, then func(r0, r1, c0, c1 int)) {
	check(transA, transB, m, n, k, a, lda, b, ldb, c, ldc)
	workers := 1
	if m*n*k >= PoolMinWork {
		if serial() {
			pool.alone.Add(1)
		} else {
			workers = Helpers() + 1
		}
		if workers > 1 && directOK(transB, m, n, k) && !directOff {
			// Blocks cost no packing on the unpacked path: smaller ones
			// let a helper that frees up late still take a share.
			workers *= 2
		}
	}
	workers, part := split(workers, PoolMinWork/4, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, then)
	if workers <= 1 {
		gemm(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		if then != nil {
			then(0, m, 0, n)
		}
		return
	}
	Run(workers, part)
}

// split chooses how many blocks (≤ workers, each of at least minWork
// multiply-adds) C is split into for parallel work and returns the
// function that computes block w.
func split(workers, minWork int, transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int, then func(r0, r1, c0, c1 int)) (int, func(w int)) {
	// Splitting rows repacks op(B) in every goroutine, splitting columns
	// repacks op(A): split the dimension whose other operand is smaller.
	// Blocks are whole micro-tiles (columns: at least nr wide, so no block
	// takes the matrix–vector path unless C is a column), with enough work
	// per goroutine to pay for its start.
	byCols := n > m && n >= 2*kernel.nr
	unit, dim := kernel.mr, m
	if byCols {
		unit, dim = kernel.nr, n
	}
	tiles := (dim + unit - 1) / unit
	if byCols {
		tiles = dim / unit
	}
	workers = min(workers, tiles, max(1, m*n*k/minWork))
	part := func(w int) {
		lo := w * tiles / workers * unit
		hi := min(dim, (w+1)*tiles/workers*unit)
		if w == workers-1 {
			hi = dim
		}
		if lo >= hi {
			return
		}
		if byCols {
			var bb []float32
			if transB {
				bb = b[lo*ldb:]
			} else {
				bb = b[lo:]
			}
			gemm(transA, transB, m, hi-lo, k, alpha, a, lda, bb, ldb, beta, c[lo:], ldc)
			if then != nil {
				then(0, m, lo, hi)
			}
			return
		}
		var aa []float32
		if transA {
			aa = a[lo:]
		} else {
			aa = a[lo*lda:]
		}
		gemm(transA, transB, hi-lo, n, k, alpha, aa, lda, b, ldb, beta, c[lo*ldc:], ldc)
		if then != nil {
			then(lo, hi, 0, n)
		}
	}
	return workers, part
}

// check panics unless the arguments describe valid matrices.
func check(transA, transB bool, m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	if m < 0 || n < 0 || k < 0 {
		panic(fmt.Sprintf("linalg: Gemm: m = %d, n = %d, k = %d, want all ≥ 0", m, n, k))
	}
	checkMat("A", transA, m, k, a, lda)
	checkMat("B", transB, k, n, b, ldb)
	checkMat("C", false, m, n, c, ldc)
}

// checkMat checks the storage of an r×c operand, stored transposed (c×r)
// when trans.
func checkMat(name string, trans bool, r, c int, s []float32, ld int) {
	if trans {
		r, c = c, r
	}
	if ld < max(1, c) {
		panic(fmt.Sprintf("linalg: Gemm: ld%s = %d, want ≥ %d (stored columns of %s)", lowerName(name), ld, max(1, c), name))
	}
	if r == 0 || c == 0 {
		return
	}
	if want := (r-1)*ld + c; len(s) < want {
		panic(fmt.Sprintf("linalg: Gemm: len(%s) = %d, want ≥ %d (%d×%d stored with stride %d)", lowerName(name), len(s), want, r, c, ld))
	}
}

func lowerName(s string) string { return string(rune(s[0]) + 'a' - 'A') }

// gemm is Gemm without the argument checks.
func gemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if m == 0 || n == 0 {
		return
	}
	// The blocked path writes C = 0 + … itself when beta is 0.
	tiled := k > 0 && alpha != 0 && n > 1
	zeroC := tiled && beta == 0
	if beta != 1 && !zeroC {
		scale(m, n, beta, c, ldc)
	}
	if k == 0 || alpha == 0 {
		return
	}
	if tiled && !directOff && !(n < kernel.nr && m > n) {
		if directOK(transB, m, n, k) {
			direct(transA, m, n, k, alpha, a, lda, b, ldb, c, ldc, zeroC)
			return
		}
		if zeroC && transB && !transA && k <= kc && directOK(false, n, m, k) {
			directNT(m, n, k, alpha, a, lda, b, ldb, c, ldc)
			return
		}
		if zeroC && transA && !transB && m < 8 && directOK(false, 8, n, k) {
			directFewRows(m, n, k, alpha, a, lda, b, ldb, c, ldc)
			return
		}
	}
	ws := wsPool.Get().(*workspace)
	switch {
	case !tiled:
		gemv(transA, transB, m, k, alpha, a, lda, b, ldb, c, ldc, ws)
	case n < kernel.nr && m > n:
		// Narrow C: compute Cᵀ = op(B)ᵀ·op(A)ᵀ so the wide dimension
		// runs along the vector lanes. Same operations per element.
		blocked(!transB, !transA, n, m, k, alpha, b, ldb, a, lda, c, 1, ldc, zeroC, ws)
	default:
		blocked(transA, transB, m, n, k, alpha, a, lda, b, ldb, c, ldc, 1, zeroC, ws)
	}
	wsPool.Put(ws)
}

// scale sets C = beta·C (C = 0 when beta is 0).
func scale(m, n int, beta float32, c []float32, ldc int) {
	if ldc == n {
		m, n = 1, m*n // contiguous: one long row
	}
	for i := 0; i < m; i++ {
		row := c[i*ldc : i*ldc+n]
		switch {
		case beta == 0 && n >= 16:
			clear(row)
		case beta == 0:
			for j := range row {
				row[j] = 0
			}
		default:
			for j := range row {
				row[j] *= beta
			}
		}
	}
}

// directNT sets C = 0 + alpha·A·Bᵀ (one K block, k ≤ kc) by computing
// Cᵀ = B·Aᵀ on the unpacked path: B is read in place as the A operand and
// only A (usually the smaller operand, e.g. the m = 64 rows of a
// minibatch) is transposed, instead of packing all of Bᵀ. Each element is
// the same sum of the same products in the same order (a product's
// operands commute exactly), so the bits are those of the packed path.
func directNT(m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	ws := wsPool.Get().(*workspace)
	ws.ap = need(ws.ap, k*m)
	ws.bp = need(ws.bp, n*m)
	at, ct := ws.ap, ws.bp
	transposeInto(at, m, a, lda, m, k) // at[p*m+i] = a[i*lda+p]
	direct(false, n, m, k, alpha, b, ldb, at, m, ct, m, true)
	transposeInto(c, ldc, ct, m, n, m) // c[i*ldc+j] = ct[j*m+i]
	wsPool.Put(ws)
}

// directFewRows sets C = 0 + alpha·Aᵀ·B for fewer than 8 rows of C (say
// the weight gradient xᵀ·dy of a first layer on a few features) on the
// unpacked path: Aᵀ is padded with zero rows to the kernel's 8 and the
// product written to a scratch C whose first m rows are copied. Each kept
// entry is computed by the same operations as on the packed path, which
// would pack all of B for these few rows.
func directFewRows(m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	ws := wsPool.Get().(*workspace)
	ws.ap = need(ws.ap, k*8)
	ws.bp = need(ws.bp, 8*n)
	ap, cp := ws.ap, ws.bp
	for p := 0; p < k; p++ {
		row := ap[p*8 : p*8+8]
		copy(row, a[p*lda:p*lda+m])
		clear(row[m:])
	}
	direct(true, 8, n, k, alpha, ap, 8, b, ldb, cp, n, true)
	for i := 0; i < m; i++ {
		copy(c[i*ldc:i*ldc+n], cp[i*n:(i+1)*n])
	}
	wsPool.Put(ws)
}

// NTTransposes reports whether GemmNT's product of these dimensions reads
// Aᵀ (the unpacked path of an NT product, see directNT), so that callers
// that split one NT product into column blocks can transpose A once for
// all of them.
func NTTransposes(m, n, k int) bool {
	return m > 0 && n > 1 && k > 0 && k <= kc && !directOff && !(n < kernel.nr && m > n) && directOK(false, n, m, k)
}

// GemmNT sets C = A·Bᵀ (Gemm(false, true, m, n, k, 1, a, lda, b, ldb, 0,
// c, ldc), with its bits). When NTTransposes(m, n, k) and at is not nil,
// at must hold Aᵀ (k×m, row stride m; see Transpose), which it reads
// instead of transposing A itself; otherwise at is not read.
func GemmNT(m, n, k int, a []float32, lda int, at, b []float32, ldb int, c []float32, ldc int) {
	check(false, true, m, n, k, a, lda, b, ldb, c, ldc)
	if at == nil || !NTTransposes(m, n, k) {
		gemm(false, true, m, n, k, 1, a, lda, b, ldb, 0, c, ldc)
		return
	}
	checkMat("Aᵀ", false, k, m, at, m)
	ws := wsPool.Get().(*workspace)
	ws.bp = need(ws.bp, n*m)
	ct := ws.bp
	direct(false, n, m, k, 1, b, ldb, at, m, ct, m, true)
	transposeInto(c, ldc, ct, m, n, m) // c[i*ldc+j] = ct[j*m+i]
	wsPool.Put(ws)
}

// Transpose sets dst[p*ldd+r] = src[r*lds+p] for r < rows and p < cols:
// dst holds the cols×rows transpose of the rows×cols matrix in src.
func Transpose(dst []float32, ldd int, src []float32, lds, rows, cols int) {
	if rows == 0 || cols == 0 {
		return
	}
	checkMat("src", false, rows, cols, src, lds)
	checkMat("dst", false, cols, rows, dst, ldd)
	transposeInto(dst, ldd, src, lds, rows, cols)
}

// transposeInto sets dst[p*ldd+r] = src[r*lds+p] for r < rows and
// p < cols, eight rows at a time with the vector transpose.
func transposeInto(dst []float32, ldd int, src []float32, lds, rows, cols int) {
	if asmVec && rows >= 16 && cols >= 2*transposeBlock {
		// Blocks of transposeBlock columns: the destination rows of a
		// block stay in the L1 cache while every source row passes,
		// instead of a strip of 8 entries going to each of cols
		// destination rows at a time, which for power-of-two strides
		// maps those rows onto a few cache sets that cannot hold them.
		c := cols &^ (transposeBlock - 1)
		for p0 := 0; p0 < c; p0 += transposeBlock {
			r0 := 0
			for ; r0+8 <= rows; r0 += 8 {
				transpose8(transposeBlock, src[r0*lds+p0:], lds, dst[p0*ldd+r0:], ldd)
			}
			for r := r0; r < rows; r++ {
				for p := p0; p < p0+transposeBlock; p++ {
					dst[p*ldd+r] = src[r*lds+p]
				}
			}
		}
		if c < cols {
			transposeInto(dst[c*ldd:], ldd, src[c:], lds, rows, cols-c)
		}
		return
	}
	r0 := 0
	for ; r0+8 <= rows; r0 += 8 {
		done := transpose8(cols, src[r0*lds:], lds, dst[r0:], ldd)
		for r := r0; r < r0+8; r++ {
			for p := done; p < cols; p++ {
				dst[p*ldd+r] = src[r*lds+p]
			}
		}
	}
	for r := r0; r < rows; r++ {
		for p := 0; p < cols; p++ {
			dst[p*ldd+r] = src[r*lds+p]
		}
	}
}

// transposeBlock is the column block of transposeInto (32 float32: two
// cache lines of a destination row per 8-row strip; `go test -bench
// Transpose ./linalg` measured 16 and 8 slower).
const transposeBlock = 32

// directOff disables the unpacked path (tests compare it with the packed
// one).
var directOff bool

// negZero is −0, the additive identity that preserves the sign of every
// addend (−0 + x = x for x = ±0 too).
var negZero = float32(math.Copysign(0, -1))

// negZeroTile is a tile of −0, the starting value of edge tiles.
var negZeroTile = func() (t [maxTile]float32) {
	for i := range t {
		t[i] = negZero
	}
	return t
}()

// blocked adds alpha·op(A)·op(B) to C, whose element (i, j) is
// c[i*rsc+j*csc]; with zeroC it adds it to zero instead, without reading C.
func blocked(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, c []float32, rsc, csc int, zeroC bool, ws *workspace) {
	kern := kernel
	mr, nr, fn := kern.mr, kern.nr, kern.fn
	tile := ws.tile[:mr*nr]
	kmax := min(k, kc)
	ws.ap = need(ws.ap, kmax*roundUp(min(m, mc), mr))
	ws.bp = need(ws.bp, kmax*roundUp(min(n, nc), nr))
	for j0 := 0; j0 < n; j0 += nc {
		nb := min(nc, n-j0)
		for p0 := 0; p0 < k; p0 += kc {
			kb := min(kc, k-p0)
			ow := zeroC && p0 == 0
			packB(ws.bp, nr, transB, b, ldb, p0, kb, j0, nb)
			for i0 := 0; i0 < m; i0 += mc {
				mb := min(mc, m-i0)
				packA(ws.ap, mr, transA, a, lda, i0, mb, p0, kb)
				for jr := 0; jr < nb; jr += nr {
					bs := ws.bp[jr*kb : (jr+nr)*kb]
					nn := min(nr, nb-jr)
					for ir := 0; ir < mb; ir += mr {
						as := ws.ap[ir*kb : (ir+mr)*kb]
						mm := min(mr, mb-ir)
						off := (i0+ir)*rsc + (j0+jr)*csc
						if mm == mr && nn == nr && csc == 1 {
							fn(kb, as, bs, c[off:], rsc, alpha, ow)
							continue
						}
						copy(tile, negZeroTile[:])
						fn(kb, as, bs, tile, nr, alpha, false)
						if ow {
							for r := 0; r < mm; r++ {
								for q := 0; q < nn; q++ {
									c[off+r*rsc+q*csc] = tile[r*nr+q] + 0
								}
							}
							continue
						}
						for r := 0; r < mm; r++ {
							if csc == 1 {
								row := c[off+r*rsc : off+r*rsc+nn]
								for q := range row {
									row[q] += tile[r*nr+q]
								}
								continue
							}
							for q := 0; q < nn; q++ {
								c[off+r*rsc+q*csc] += tile[r*nr+q]
							}
						}
					}
				}
			}
		}
	}
}

// packA copies rows [i0, i0+mb) and columns [p0, p0+kb) of op(A) into dst
// as strips of mr rows: element (i0+s·mr+r, p0+p) goes to
// dst[s·mr·kb + p·mr + r]; rows past mb are zero.
func packA(dst []float32, mr int, trans bool, a []float32, lda, i0, mb, p0, kb int) {
	for s := 0; s < mb; s += mr {
		d := dst[s*kb : (s+mr)*kb]
		rows := min(mr, mb-s)
		if trans {
			// op(A)(i, p) = a[p*lda+i]: contiguous rows of the strip.
			if rows == 8 && mr == 8 {
				for p := 0; p < kb; p++ {
					src := a[(p0+p)*lda+i0+s : (p0+p)*lda+i0+s+8 : (p0+p)*lda+i0+s+8]
					dp := d[p*8 : p*8+8 : p*8+8]
					dp[0], dp[1], dp[2], dp[3] = src[0], src[1], src[2], src[3]
					dp[4], dp[5], dp[6], dp[7] = src[4], src[5], src[6], src[7]
				}
				continue
			}
			for p := 0; p < kb; p++ {
				src := a[(p0+p)*lda+i0+s:]
				dp := d[p*mr : p*mr+mr]
				copy(dp, src[:rows])
				clear(dp[rows:])
			}
			continue
		}
		if rows < mr {
			for p := 0; p < kb; p++ {
				dp := d[p*mr : p*mr+mr]
				for r := 0; r < rows; r++ {
					dp[r] = a[(i0+s+r)*lda+p0+p]
				}
				clear(dp[rows:])
			}
			continue
		}
		// One sequential stream per row of the strip.
		if mr == 6 {
			packRows6(d, a, (i0+s)*lda+p0, lda, kb)
		} else {
			packRows8(d, a, (i0+s)*lda+p0, lda, kb)
		}
	}
}

// packRows6 interleaves six rows of kb elements of a, starting at off with
// stride lda, into d[p*6+r].
func packRows6(d, a []float32, off, lda, kb int) {
	s0, s1, s2 := a[off:off+kb], a[off+lda:off+lda+kb], a[off+2*lda:off+2*lda+kb]
	s3, s4, s5 := a[off+3*lda:off+3*lda+kb], a[off+4*lda:off+4*lda+kb], a[off+5*lda:off+5*lda+kb]
	for p := 0; p < kb; p++ {
		dp := d[p*6 : p*6+6 : p*6+6]
		dp[0], dp[1], dp[2], dp[3], dp[4], dp[5] = s0[p], s1[p], s2[p], s3[p], s4[p], s5[p]
	}
}

// packRows8 interleaves eight rows of kb elements of a, starting at off
// with stride lda, into d[p*8+r].
func packRows8(d, a []float32, off, lda, kb int) {
	done := transpose8(kb, a[off:], lda, d, 8)
	if done == kb {
		return
	}
	s0, s1, s2, s3 := a[off:off+kb], a[off+lda:off+lda+kb], a[off+2*lda:off+2*lda+kb], a[off+3*lda:off+3*lda+kb]
	s4, s5, s6, s7 := a[off+4*lda:off+4*lda+kb], a[off+5*lda:off+5*lda+kb], a[off+6*lda:off+6*lda+kb], a[off+7*lda:off+7*lda+kb]
	for p := done; p < kb; p++ {
		dp := d[p*8 : p*8+8 : p*8+8]
		dp[0], dp[1], dp[2], dp[3] = s0[p], s1[p], s2[p], s3[p]
		dp[4], dp[5], dp[6], dp[7] = s4[p], s5[p], s6[p], s7[p]
	}
}

// packB copies rows [p0, p0+kb) and columns [j0, j0+nb) of op(B) into dst
// as strips of nr columns: element (p0+p, j0+t·nr+q) goes to
// dst[t·nr·kb + p·nr + q]; columns past nb are zero.
func packB(dst []float32, nr int, trans bool, b []float32, ldb, p0, kb, j0, nb int) {
	for t := 0; t < nb; t += nr {
		d := dst[t*kb : (t+nr)*kb]
		cols := min(nr, nb-t)
		if !trans {
			for p := 0; p < kb; p++ {
				src := b[(p0+p)*ldb+j0+t:]
				dp := d[p*nr : p*nr+nr]
				copy(dp, src[:cols])
				if cols < nr {
					clear(dp[cols:])
				}
			}
			continue
		}
		// op(B)(p, j) = b[j*ldb+p]: read the strip's rows of B as nr
		// sequential streams, write packed rows contiguously.
		if cols < nr {
			for p := 0; p < kb; p++ {
				dp := d[p*nr : p*nr+nr]
				for q := 0; q < cols; q++ {
					dp[q] = b[(j0+t+q)*ldb+p0+p]
				}
				clear(dp[cols:])
			}
			continue
		}
		for h := 0; h < nr; h += 16 {
			packCols16(d[h:], nr, b, (j0+t+h)*ldb+p0, ldb, kb)
		}
	}
}

// packCols16 transposes 16 rows of kb elements of b, starting at off with
// stride ldb, into d[p*nr+q] for q < 16.
func packCols16(d []float32, nr int, b []float32, off, ldb, kb int) {
	done := transpose8(kb, b[off:], ldb, d, nr)
	if done > 0 {
		transpose8(kb, b[off+8*ldb:], ldb, d[8:], nr)
	}
	if done == kb {
		return
	}
	var s [16][]float32
	for q := range s {
		s[q] = b[off+q*ldb : off+q*ldb+kb]
	}
	s0, s1, s2, s3, s4, s5, s6, s7 := s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]
	s8, s9, s10, s11, s12, s13, s14, s15 := s[8], s[9], s[10], s[11], s[12], s[13], s[14], s[15]
	for p := done; p < kb; p++ {
		dp := d[p*nr : p*nr+16 : p*nr+16]
		dp[0], dp[1], dp[2], dp[3] = s0[p], s1[p], s2[p], s3[p]
		dp[4], dp[5], dp[6], dp[7] = s4[p], s5[p], s6[p], s7[p]
		dp[8], dp[9], dp[10], dp[11] = s8[p], s9[p], s10[p], s11[p]
		dp[12], dp[13], dp[14], dp[15] = s12[p], s13[p], s14[p], s15[p]
	}
}

// gemv adds alpha·op(A)·x to the column c[i*ldc] (x = op(B), k×1). With op(A) = A (rows contiguous)
// each element is alpha times one dot product; with op(A) = Aᵀ the column
// is accumulated by axpys over the rows of A, K block by K block, exactly
// as the blocked path orders its operations.
func gemv(transA, transB bool, m, k int, alpha float32, a []float32, lda int, b []float32, ldb int, c []float32, ldc int, ws *workspace) {
	x := b[:k]
	if !transB && ldb != 1 {
		ws.bp = need(ws.bp, k)
		x = ws.bp
		for p := range x {
			x[p] = b[p*ldb]
		}
	}
	if !transA {
		i := 0
		var out [4]float32
		for ; i+4 <= m; i += 4 {
			dot4(x, a[i*lda:], lda, &out)
			for r, d := range out {
				c[(i+r)*ldc] += float32(alpha * d)
			}
		}
		for ; i < m; i++ {
			d := dot(x, a[i*lda:i*lda+k])
			c[i*ldc] += float32(alpha * d)
		}
		return
	}
	ws.ap = need(ws.ap, min(m, mc*kc))
	acc := ws.ap
	for i0 := 0; i0 < m; i0 += len(acc) {
		mb := min(len(acc), m-i0)
		acc := acc[:mb]
		for p0 := 0; p0 < k; p0 += kc {
			p1 := min(k, p0+kc)
			done := gemvT(x[p0:p1], a[p0*lda+i0:], lda, acc)
			clear(acc[done:])
			for p := p0; p < p1; p++ {
				axpy(x[p], a[p*lda+i0+done:p*lda+i0+mb], acc[done:])
			}
			for i, v := range acc {
				c[(i0+i)*ldc] += float32(alpha * v)
			}
		}
	}
}
