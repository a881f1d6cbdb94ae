package linalg

import "golang.org/x/sys/cpu"

// CPU features of the assembly kernels (x/sys/cpu also checks that the OS
// saves the wide registers).
var (
	hasAVX2FMA = cpu.X86.HasAVX2 && cpu.X86.HasFMA
	hasAVX512  = hasAVX2FMA && cpu.X86.HasAVX512F
)

var (
	avx2Kernel   = microKernel{"avx2", 6, 16, kernelAVX2}
	avx512Kernel = microKernel{"avx512", 8, 32, kernelAVX512}
)

// kernel is the micro-kernel in use: the widest this CPU supports. The
// assembly kernels perform the same operations per element, so they give
// identical results.
var kernel = kernelsAvailable()[0]

// kernelsAvailable lists the micro-kernels that can run on this machine,
// preferred first.
func kernelsAvailable() []microKernel {
	var ks []microKernel
	if hasAVX512 {
		ks = append(ks, avx512Kernel)
	}
	if hasAVX2FMA {
		ks = append(ks, avx2Kernel)
	}
	return append(ks, goKernel)
}

// Kernel names the micro-kernel in use: "avx512", "avx2" or "go".
func Kernel() string { return kernel.name }

// asmVec enables the assembly vector routines below (packing transposes,
// matrix–vector paths); tests turn it off to cover the Go loops.
var asmVec = hasAVX2FMA

// transpose8 sets dst[p*ldd+r] = src[r*lds+p] for r < 8 and p < kb and
// returns how many leading p it handled (a multiple of 8; the caller does
// the rest).
func transpose8(kb int, src []float32, lds int, dst []float32, ldd int) int {
	kb8 := kb &^ 7
	if !asmVec || kb8 == 0 {
		return 0
	}
	_ = src[7*lds+kb8-1]
	_ = dst[(kb8-1)*ldd+7]
	transpose8AVX2(kb8, &src[0], lds, &dst[0], ldd)
	return kb8
}

// dot returns Σ x[i]·y[i] over len(x) elements (see dot1AVX2 and dotGo
// for the order of the operations).
func dot(x, y []float32) float32 {
	if !asmVec || len(x) == 0 {
		return dotGo(x, y)
	}
	_ = y[len(x)-1]
	var out float32
	dot1AVX2(len(x), &x[0], &y[0], 0, &out)
	return out
}

// dot4 sets out[r] = dot(x, a[r*lda:r*lda+len(x)]) for r < 4.
func dot4(x, a []float32, lda int, out *[4]float32) {
	if !asmVec || len(x) == 0 {
		dot4Go(x, a, lda, out)
		return
	}
	_ = a[3*lda+len(x)-1]
	dot4AVX2(len(x), &x[0], &a[0], lda, &out[0])
}

// axpy computes y[i] += alpha·x[i] for i < len(x), fused on AVX2 CPUs.
func axpy(alpha float32, x, y []float32) {
	if !asmVec || len(x) == 0 {
		axpyGo(alpha, x, y)
		return
	}
	_ = y[len(x)-1]
	axpyAVX2(len(x), alpha, &x[0], &y[0])
}

// gemvT sets acc[j] = Σ_p x[p]·a[p*lda+j] for p < len(x), accumulated from
// zero in increasing p with the operations of axpy, for the leading
// columns j it handles, a multiple of 32 whose count it returns.
func gemvT(x, a []float32, lda int, acc []float32) int {
	nblk := len(acc) / 32
	if !asmVec || nblk == 0 || len(x) == 0 {
		return 0
	}
	_ = a[(len(x)-1)*lda+nblk*32-1]
	gemvT32AVX2(len(x), &x[0], &a[0], lda, &acc[0], nblk)
	return nblk * 32
}

// kernelAVX2 is the 6×16 AVX2+FMA micro-kernel.
func kernelAVX2(kb int, a, b, c []float32, ldc int, alpha float32, overwrite bool) {
	_ = a[kb*6-1]
	_ = b[kb*16-1]
	_ = c[5*ldc+15]
	kernel6x16(kb, &a[0], &b[0], &c[0], ldc, alpha, overwrite)
}

// kernelAVX512 is the 8×32 AVX-512 micro-kernel.
func kernelAVX512(kb int, a, b, c []float32, ldc int, alpha float32, overwrite bool) {
	_ = a[kb*8-1]
	_ = b[kb*32-1]
	_ = c[7*ldc+31]
	kernel8x32(kb, &a[0], &b[0], &c[0], ldc, alpha, overwrite)
}

//go:noescape
func kernel6x16(kb int, a, b, c *float32, ldc int, alpha float32, overwrite bool)

//go:noescape
func kernel8x32(kb int, a, b, c *float32, ldc int, alpha float32, overwrite bool)

//go:noescape
func kernel8x32s(kb int, a *float32, ars, aps int, b *float32, bps int, c *float32, ldc int, alpha float32, overwrite bool)

// directOK reports whether the product can take the unpacked path (see
// direct): the AVX-512 kernel in use, whole 8×32 tiles, op(B) stored by
// rows, and operands small enough to stay in the L2 cache unpacked.
func directOK(transB bool, m, n, k int) bool {
	return kernel.name == "avx512" && !transB && m%8 == 0 && n%32 == 0 && m*k <= directMax && k*n <= directMax
}

// direct adds alpha·op(A)·B to C (or sets C = 0 + alpha·op(A)·B with
// zeroC) with kernel8x32s reading A and B in place: the same operations
// per element as the blocked path (K blocks of kc in increasing order, one
// tile at a time), without packing. See directOK for the conditions.
func direct(transA bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, c []float32, ldc int, zeroC bool) {
	ars, aps := lda, 1
	if transA {
		ars, aps = 1, lda
	}
	_ = a[(m-1)*ars+(k-1)*aps]
	_ = b[(k-1)*ldb+n-1]
	_ = c[(m-1)*ldc+n-1]
	for p0 := 0; p0 < k; p0 += kc {
		kb := min(kc, k-p0)
		ow := zeroC && p0 == 0
		for j := 0; j < n; j += 32 {
			for i := 0; i < m; i += 8 {
				kernel8x32s(kb, &a[i*ars+p0*aps], ars, aps, &b[p0*ldb+j], ldb, &c[i*ldc+j], ldc, alpha, ow)
			}
		}
	}
}

//go:noescape
func dot1AVX2(n int, x, a *float32, lda int, out *float32)

//go:noescape
func dot4AVX2(n int, x, a *float32, lda int, out *float32)

//go:noescape
func gemvT32AVX2(kb int, x, a *float32, lda int, acc *float32, nblk int)

//go:noescape
func axpyAVX2(n int, alpha float32, x, y *float32)

//go:noescape
func transpose8AVX2(kb int, src *float32, lds int, dst *float32, ldd int)
