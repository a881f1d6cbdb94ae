//go:build amd64 && !purego

package optim

import "golang.org/x/sys/cpu"

// useAVX2 selects the AVX2 loop of the Keras rule. Its packed operations
// (VSUBPS, VMULPS, VADDPS, VSQRTPS, VDIVPS; no FMA) are the same correctly
// rounded IEEE operations in the same order as the scalar code, so both give
// the same bits.
var useAVX2 = cpu.X86.HasAVX2

// useAVX512 selects optaxAVX512 for the Optax rule (the same bits as the
// scalar code); tests switch it off to compare.
var useAVX512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX2

// kerasAVX2 runs the Keras update over n entries (n a multiple of 8):
// m += (g−m)·c1; v += (g·g−v)·c2; p −= (m·α)/(√v+ε).
//
//go:noescape
func kerasAVX2(p, grad, m, v *float32, n int, c1, c2, alpha, eps float32)

// nzMasksAVX2 writes, for each of words 64-entry words of grad, the mask of
// its entries that are neither +0 nor −0 (NaN counts as non-zero).
//
//go:noescape
func nzMasksAVX2(grad *float32, words int, out *uint64)

// kerasHotAVX2 runs the Keras update over words 64-entry words and writes
// for each word the mask of its entries that are not cold afterwards (see
// lazy.go).
//
//go:noescape
func kerasHotAVX2(p, grad, m, v *float32, words int, c1, c2, alpha, eps float32, hot *uint64)

// kerasListAVX runs the Keras update on the n entries idx[0…n−1] of p,
// grad, m, v (scalar AVX operations, the same bits as kerasFTZ).
//
//go:noescape
func kerasListAVX(p, grad, m, v *float32, idx *int32, n int, c1, c2, alpha, eps float32)
