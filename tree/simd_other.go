//go:build !amd64 || purego

package tree

const haveSIMD = false

func argmaxRowsSIMD(z, t []float32, ne int, feat, sel, selFeat []int32, selThr []float32) bool {
	panic("tree: no SIMD")
}

func sigmoidSlopesSIMD(d, z []float64) bool { panic("tree: no SIMD") }

// axpy adds a·float64(x[i]) to acc[i] for every i < len(x) (len(acc) ≥
// len(x)); every entry is one multiply and one add, rounded separately.
func axpy(acc []float64, x []float32, a float64) {
	acc = acc[:len(x)]
	for i, v := range x {
		acc[i] += a * float64(v)
	}
}

func counterfactuals8(feat []int32, thr []float32, x []float32, n int, off *[8]int32, R, pos *[8]int, z []float64, cf []int, cft []int32) {
	panic("tree: no SIMD")
}
