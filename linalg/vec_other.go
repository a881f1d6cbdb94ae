//go:build !amd64

package linalg

func reluVec(dst, src []float32) int                  { return 0 }
func reluGradVec(dst, dy, x []float32) int            { return 0 }
func sumSquaresVec(x []float32, acc *[32]float64) int { return 0 }

func hasVec() bool { return false }

func biasReluVec(pre, post, bias []float32) int { return 0 }

func divMulVec(x []float32, d, m float32) int { return 0 }

func orBitsVec(acc []uint32, x []float32) int { return 0 }
