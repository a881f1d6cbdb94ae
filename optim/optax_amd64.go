//go:build amd64 && !purego

package optim

// optaxAVX2 runs the Optax update over n entries (n a multiple of 8), with
// the same IEEE operations in the same order as coef.denseOptax and its
// moments flushed to a zero of their sign below the smallest normal float32:
// m = ftz(c1·g + b1·m); v = ftz(c2·(g·g) + b2·v);
// u = (m/bc1)/(√(v/bc2)+ε) [+ owd·p if decay]; p += u·negLR.
//
//go:noescape
func optaxAVX2(p, grad, m, v *float32, n int, k *optaxConsts)

// optaxAVX512 is optaxAVX2 over n entries (n a multiple of 16) with
// AVX-512, bit for bit: the divisions by bc1 and bc2 use k.rbc1 and k.rbc2
// (RN(1/bc1), RN(1/bc2)) with Markstein's correction, which gives the
// correctly rounded quotient (see the assembly for the conditions it
// checks per vector).
//
//go:noescape
func optaxAVX512(p, grad, m, v *float32, n int, k *optaxConsts)

// optaxConsts are the per-step scalars of the Optax loop, in the order the
// assembly reads them.
type optaxConsts struct {
	c1, c2, b1, b2, bc1, bc2, eps, negLR, owd float32
	decay                                     uint32
	rbc1, rbc2                                float32 // RN(1/bc1), RN(1/bc2) (AVX-512 only)
}
