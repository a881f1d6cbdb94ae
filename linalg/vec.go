package linalg

import "math"

// Relu sets dst[i] = max(src[i], 0) for i < len(src), bit for bit as Go's
// max on amd64: +0 for every src[i] ≤ 0 (−0 included), src[i] itself when
// it is positive, and a NaN src[i] with its sign bit cleared. dst and src
// may be the same slice; dst must be at least as long as src.
func Relu(dst, src []float32) {
	dst = dst[:len(src)]
	done := reluVec(dst, src)
	for i := done; i < len(src); i++ {
		dst[i] = max(src[i], 0)
	}
}

// ReluGrad sets dst[i] = dy[i] where x[i] > 0 and +0 elsewhere, for
// i < len(dy), deciding on the bits of x: the gradient passes where x has a
// clear sign bit and is not +0 (so also for a NaN with a clear sign bit). x
// may be the input of Relu or its output: both give the same mask except
// for NaNs with the sign bit set (Relu clears it). dst may alias dy; x and
// dst must be at least as long as dy.
func ReluGrad(dst, dy, x []float32) {
	dst, x = dst[:len(dy)], x[:len(dy)]
	done := reluGradVec(dst, dy, x)
	for i := done; i < len(dy); i++ {
		b := math.Float32bits(x[i])
		m := -(((b | -b) >> 31) & (^b >> 31))
		dst[i] = math.Float32frombits(math.Float32bits(dy[i]) & m)
	}
}

// SumSquares returns Σ x[i]² accumulated in float64 (each square is exact)
// over 32 interleaved partial sums (entries i ≡ j mod 32) that are added
// at the end in a fixed order: the same bits on every machine and
// for every number of goroutines. It is meant for bounds (e.g. to know
// that a gradient norm is below a clipping threshold), not to reproduce
// another summation order.
func SumSquares(x []float32) float64 {
	var acc [32]float64
	n := sumSquaresVec(x, &acc)
	for i := n; i < len(x); i++ {
		v := float64(x[i])
		acc[i&31] += v * v
	}
	// Pairwise: lanes j and j+16, then j and j+8, …
	for w := 16; w >= 1; w /= 2 {
		for j := 0; j < w; j++ {
			acc[j] += acc[j+w]
		}
	}
	return acc[0]
}

// BiasRelu adds bias to pre in place and sets post to the ReLU of the sum:
// pre[i] += bias[i], post[i] = max(pre[i], 0) (bits as Relu), for
// i < len(pre). bias and post must be at least as long as pre.
func BiasRelu(pre, post, bias []float32) {
	post, bias = post[:len(pre)], bias[:len(pre)]
	done := biasReluVec(pre, post, bias)
	for i := done; i < len(pre); i++ {
		v := pre[i] + bias[i]
		pre[i] = v
		post[i] = max(v, 0)
	}
}

// DivMul sets x[i] = (x[i]/d)·m for every i, each operation rounded to
// float32 (the bits of Go's float32(x[i]/d)*m): the rescaling of a
// gradient clipped to a maximum norm (d the norm, m the maximum).
func DivMul(x []float32, d, m float32) {
	done := divMulVec(x, d, m)
	for i := done; i < len(x); i++ {
		x[i] = float32(x[i]/d) * m
	}
}

// OrBits sets acc[i] |= the bits of x[i] for every i < len(x) (acc at
// least as long): after it has seen every row of a matrix, column j holds
// a nonzero entry exactly when acc[j]&0x7fffffff != 0 (±0 count as zero).
func OrBits(acc []uint32, x []float32) {
	acc = acc[:len(x)]
	done := orBitsVec(acc, x)
	for i := done; i < len(x); i++ {
		acc[i] |= math.Float32bits(x[i])
	}
}
