//go:build !amd64 || purego

package tree

const haveFastAVX512 = false

func fastRowStats(z []float32, m, tau float32) (s1, s2 float32, cnt int, amin float32) {
	return rowStatsGo(z, m, tau)
}

func fastScatterRows(acc []float32, width int, x []float32, xo, no []int32, dl []float32) {
	scatterRowsGo(acc, width, x, xo, no, dl)
}

func fastEntmaxFirst(z []float32, m float32) (float32, bool) { return entmaxFirstGo(z, m) }

func fastVJP(z, t, acc []float32, idx []int32, dz []float32, m, tau, D float32, X []float32) uint64 {
	return vjpGo(z, t, acc, idx, dz, m, tau, D, X)
}

func prefetchNodeRows(z, t []float32, rows []int32, ne int) {}

func fastVJPIn(z, t, acc []float32, idx []int32, dz []float32, m, tau, D float32, X []float32, _, _ int32) uint64 {
	return vjpGo(z, t, acc, idx, dz, m, tau, D, X)
}
