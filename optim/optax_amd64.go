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

// optaxConsts are the per-step scalars of the Optax loop, in the order the
// assembly reads them.
type optaxConsts struct {
	c1, c2, b1, b2, bc1, bc2, eps, negLR, owd float32
	decay                                     uint32
}
