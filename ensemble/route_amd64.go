//go:build amd64 && !purego

package ensemble

import "golang.org/x/sys/cpu"

// haveRouteAVX512 selects the AVX-512 descent of complete trees.
var haveRouteAVX512 = cpu.X86.HasAVX512F

// routeAVX512 routes Block rows (row r at x + off[r]) down trees complete
// trees of depth 1…6 and writes every tree's Block leaf rows
// node − (2^depth − 1) + base + t·step into leaf[t·Block : …]. Tree t's
// features and thresholds are the 64 entries at tabF[64t:] and tabT[64t:]
// (routeTables). It is the descent of Child, sixteen rows per vector,
// with the node lookups as register permutes and one gather per level.
//
//go:noescape
func routeAVX512(tabF *int32, tabT *float32, x *float32, off *int32, leaf *int32, trees, depth int, base, step int32)

// accumAVX512 adds, for trees trees of Block leaf rows each (tree after
// tree from leaf), every row's expW[leaf] into sum[row] and value[leaf]
// into acc[row] (Block rows, one output): the Go loop's additions in the
// same order, eight rows per vector.
//
//go:noescape
func accumAVX512(leaf *int32, expW, value, sum, acc *float64, trees int)
