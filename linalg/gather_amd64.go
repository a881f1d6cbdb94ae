package linalg

// gatherVec does the leading multiple of 16 entries of Gather with
// AVX-512 and returns how many it did (the caller has checked the indices).
func gatherVec(dst, src []float32, idx []int32) int {
	n := len(idx) &^ 15
	if !asmVec || !hasAVX512 || n == 0 {
		return 0
	}
	gatherAVX512(n, &src[0], &idx[0], &dst[0])
	return n
}

// scatterVec does the leading multiple of 16 entries of Scatter with
// AVX-512 and returns how many it did (the caller has checked the
// indices).
func scatterVec(dst, src []float32, idx []int32) int {
	n := len(idx) &^ 15
	if !asmVec || !hasAVX512 || n == 0 {
		return 0
	}
	scatterAVX512(n, &src[0], &idx[0], &dst[0])
	return n
}

//go:noescape
func gatherAVX512(n int, src *float32, idx *int32, dst *float32)

//go:noescape
func scatterAVX512(n int, src *float32, idx *int32, dst *float32)
