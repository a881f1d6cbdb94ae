//go:build amd64 && !purego

package tree

import "golang.org/x/sys/cpu"

// haveDeltasAVX512 selects treeDeltasAVX512 (it uses AVX-512 F, BW and
// VL).
var haveDeltasAVX512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VL

// treeDeltasAVX512 computes γ and δ of one tree for every sample (see
// deltaArgs and treeDeltasVec).
//
//go:noescape
func treeDeltasAVX512(p *deltaArgs)

// scatterTreeAVX512 forms a tree's node sums (see scatterArgs and
// accumulateTreeVec) and returns the mask of the nodes with a sample of
// non-zero δ.
//
//go:noescape
func scatterTreeAVX512(p *scatterArgs) uint64

// weightSumsAVX512 is weightSums for one output (see sumArgs and
// weightSumsVec).
//
//go:noescape
func weightSumsAVX512(p *sumArgs)

// haveForwardAVX512 selects forwardBlockAVX512: AVX-512 (F, BW, VL) and
// math.Exp's FMA path (AVX and FMA), whose operations it repeats.
var haveForwardAVX512 = haveDeltasAVX512 && cpu.X86.HasAVX && cpu.X86.HasFMA

// forwardBlockAVX512 is the training forward pass of a block of samples
// (see fwdArgs and forwardVec).
//
//go:noescape
func forwardBlockAVX512(p *fwdArgs) bool
