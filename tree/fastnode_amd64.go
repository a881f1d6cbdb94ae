//go:build amd64 && !purego

package tree

import "golang.org/x/sys/cpu"

// haveFastAVX512 selects the AVX-512 loops of the fast node path.
var haveFastAVX512 = cpu.X86.HasAVX512F

// rowStatsAVX512 is rowStatsGo over nv vectors of sixteen columns of z
// (the last vector holds the columns of the bits of tail).
//
//go:noescape
func rowStatsAVX512(z *float32, nv int, tail uint32, m, tau float32) (s1, s2 float32, cnt int, amin float32)

// scatterRowsAVX512 is scatterRowsGo for rows of nv ≤ 4 vectors of
// sixteen columns, the last with the lanes of tail; the accumulator rows
// are read and written in whole vectors.
//
//go:noescape
func scatterRowsAVX512(acc, x *float32, xo, no *int32, dl *float32, cnt, nv int, tail uint32)

// entmaxFirstAVX512 is entmaxFirstGo (vectors as in rowStatsAVX512).
//
//go:noescape
func entmaxFirstAVX512(z *float32, nv int, tail uint32, m float32) (tau float32, ok bool)

// vjpAVX512 is vjpGo (vectors as in rowStatsAVX512, nv ≤ 4; idx has a
// column index for every column of z).
//
//go:noescape
func vjpAVX512(z, t, acc *float32, idx *int32, dz *float32, nv int, tail uint32, m, tau, D float32) uint64

func fastEntmaxFirst(z []float32, m float32) (float32, bool) {
	if !haveFastAVX512 || len(z) == 0 {
		return entmaxFirstGo(z, m)
	}
	nv, tail := vecTail(len(z))
	return entmaxFirstAVX512(&z[0], nv, tail, m)
}

func fastVJP(z, t, acc []float32, idx []int32, dz []float32, m, tau, D float32, X []float32) uint64 {
	lo, hi := idxRange(idx[:len(z)])
	return fastVJPIn(z, t, acc, idx, dz, m, tau, D, X, lo, hi)
}

// fastVJPIn is fastVJP given the smallest and largest of idx[:len(z)]
// (the bounds the assembly relies on).
func fastVJPIn(z, t, acc []float32, idx []int32, dz []float32, m, tau, D float32, X []float32, lo, hi int32) uint64 {
	if !haveFastAVX512 || len(z) == 0 || len(z) > 4*fastLanes {
		return vjpGo(z, t, acc, idx, dz, m, tau, D, X)
	}
	_, _, _ = t[len(z)-1], idx[len(z)-1], dz[len(z)-1]
	if lo < 0 || int(hi) >= len(acc) {
		panic("tree: fastVJP: column index outside acc")
	}
	nv, tail := vecTail(len(z))
	return vjpAVX512(&z[0], &t[0], &acc[0], &idx[0], &dz[0], nv, tail, m, tau, D)
}

// prefetchRows asks for the rows rows[0…n−1] (of ne values) of z and t
// to be brought into the caches (a hint; it never faults).
//
//go:noescape
func prefetchRows(z, t *float32, rows *int32, n, ne int)

// prefetchNodeRows hints that the index-logit and threshold rows of the
// given rows of [E][I] will be read soon.
func prefetchNodeRows(z, t []float32, rows []int32, ne int) {
	if len(rows) == 0 {
		return
	}
	for _, r := range rows {
		if r < 0 || (int(r)+1)*ne > len(z) || (int(r)+1)*ne > len(t) {
			panic("tree: prefetchNodeRows: row outside the tensors")
		}
	}
	prefetchRows(&z[0], &t[0], &rows[0], len(rows), ne)
}

func fastRowStats(z []float32, m, tau float32) (s1, s2 float32, cnt int, amin float32) {
	if !haveFastAVX512 || len(z) == 0 {
		return rowStatsGo(z, m, tau)
	}
	nv, tail := vecTail(len(z))
	return rowStatsAVX512(&z[0], nv, tail, m, tau)
}

func fastScatterRows(acc []float32, width int, x []float32, xo, no []int32, dl []float32) {
	if !haveFastAVX512 || width == 0 || width > 64 || len(xo) == 0 {
		scatterRowsGo(acc, width, x, xo, no, dl)
		return
	}
	// the bounds the assembly relies on (whole vectors of acc)
	nv, tail := vecTail(width)
	if len(no) < len(xo) || len(dl) < len(xo) {
		panic("tree: fastScatterRows: fewer accumulator rows or δ than input rows")
	}
	for i, o := range xo {
		if o < 0 || int(o)+width > len(x) || no[i] < 0 || int(no[i])+nv*fastLanes > len(acc) {
			panic("tree: fastScatterRows: row outside x or acc")
		}
	}
	scatterRowsAVX512(&acc[0], &x[0], &xo[0], &no[0], &dl[0], len(xo), nv, tail)
}
