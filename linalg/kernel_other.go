//go:build !amd64

package linalg

// kernel is the micro-kernel in use: the portable one on this architecture.
var kernel = goKernel

// Kernel names the micro-kernel in use: "go" on this architecture.
func Kernel() string { return kernel.name }

// kernelsAvailable lists the micro-kernels that can run on this machine.
func kernelsAvailable() []microKernel { return []microKernel{goKernel} }

// asmVec is unused on this architecture.
var asmVec = false

// transpose8 would transpose 8 rows with vector instructions; on this
// architecture it handles nothing and the caller does all of it.
func transpose8(kb int, src []float32, lds int, dst []float32, ldd int) int { return 0 }

// dot returns Σ x[i]·y[i] over len(x) elements (see dotGo).
func dot(x, y []float32) float32 { return dotGo(x, y) }

// dot4 sets out[r] = dot(x, a[r*lda:r*lda+len(x)]) for r < 4.
func dot4(x, a []float32, lda int, out *[4]float32) { dot4Go(x, a, lda, out) }

// axpy computes y[i] += alpha·x[i] for i < len(x).
func axpy(alpha float32, x, y []float32) { axpyGo(alpha, x, y) }

// gemvT would do the leading columns of a transposed matrix–vector
// product in registers; here it handles none.
func gemvT(x, a []float32, lda int, acc []float32) int { return 0 }

// directOK is false: the unpacked path needs the AVX-512 kernel.
func directOK(transB bool, m, n, k int) bool { return false }

// direct is never called on this architecture.
func direct(transA bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, c []float32, ldc int, zeroC bool) {
	panic("linalg: direct path unavailable")
}
