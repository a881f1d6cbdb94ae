//go:build amd64

package linalg

// reluVec does the leading multiple of 32 entries of Relu with AVX2 and
// returns how many it did.
func reluVec(dst, src []float32) int {
	n := len(src) &^ 31
	if !asmVec || n == 0 {
		return 0
	}
	_ = dst[n-1]
	reluAVX2(n, &src[0], &dst[0])
	return n
}

// reluGradVec does the leading multiple of 32 entries of ReluGrad with
// AVX2 and returns how many it did.
func reluGradVec(dst, dy, x []float32) int {
	n := len(dy) &^ 31
	if !asmVec || n == 0 {
		return 0
	}
	_ = dst[n-1]
	_ = x[n-1]
	reluGradAVX2(n, &dy[0], &x[0], &dst[0])
	return n
}

// sumSquaresVec adds the squares of the leading multiple of 32 entries of
// x into acc[i mod 32] with AVX2 and returns how many it did.
func sumSquaresVec(x []float32, acc *[32]float64) int {
	n := len(x) &^ 31
	if !asmVec || n == 0 {
		return 0
	}
	sumSquaresAVX2(n, &x[0], &acc[0])
	return n
}

//go:noescape
func reluAVX2(n int, src, dst *float32)

//go:noescape
func reluGradAVX2(n int, dy, x, dst *float32)

//go:noescape
func sumSquaresAVX2(n int, x *float32, acc *float64)

// hasVec reports whether the vector routines can run on this CPU.
func hasVec() bool { return hasAVX2FMA }

// biasReluVec does the leading multiple of 32 entries of BiasRelu with
// AVX2 and returns how many it did.
func biasReluVec(pre, post, bias []float32) int {
	n := len(pre) &^ 31
	if !asmVec || n == 0 {
		return 0
	}
	biasReluAVX2(n, &pre[0], &post[0], &bias[0])
	return n
}

//go:noescape
func biasReluAVX2(n int, pre, post, bias *float32)

// divMulVec does the leading multiple of 32 entries of DivMul with AVX2
// and returns how many it did.
func divMulVec(x []float32, d, m float32) int {
	n := len(x) &^ 31
	if !asmVec || n == 0 {
		return 0
	}
	divMulAVX2(n, &x[0], d, m)
	return n
}

//go:noescape
func divMulAVX2(n int, x *float32, d, m float32)

// orBitsVec does the leading multiple of 32 entries of OrBits with AVX2
// and returns how many it did.
func orBitsVec(acc []uint32, x []float32) int {
	n := len(x) &^ 31
	if !asmVec || n == 0 {
		return 0
	}
	_ = acc[n-1]
	orBitsAVX2(n, &x[0], &acc[0])
	return n
}

//go:noescape
func orBitsAVX2(n int, x *float32, acc *uint32)
