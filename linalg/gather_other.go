//go:build !amd64

package linalg

func gatherVec(dst, src []float32, idx []int32) int  { return 0 }
func scatterVec(dst, src []float32, idx []int32) int { return 0 }
