//go:build amd64 && !purego

package tree

import "golang.org/x/sys/cpu"

// haveSIMD selects the AVX2 loops of Prepare (arg-max) and of the sigmoid
// slopes.
var haveSIMD = cpu.X86.HasAVX2

// haveAVX512 selects the eight-lane loop of the sigmoid slopes.
var haveAVX512 = cpu.X86.HasAVX2 && cpu.X86.HasAVX512F

// argmaxRowsAVX2 writes for every row r of z (rows rows of ne values,
// 8 ≤ ne ≤ 64) the index c of its largest value, the lowest on ties
// (−0 = +0), into sel[r], feat[c] into selFeat[r] and t[r·ne + c] into
// selThr[r]; for a row that holds a NaN it writes sel[r] = −1 only. It
// returns false if there was such a row.
//
//go:noescape
func argmaxRowsAVX2(z, t *float32, rows, ne int, feat *int32, sel, selFeat *int32, selThr *float32) bool

func argmaxRowsSIMD(z, t []float32, ne int, feat, sel, selFeat []int32, selThr []float32) bool {
	// the bounds the assembly relies on
	_, _, _ = t[len(z)-1], selFeat[len(sel)-1], selThr[len(sel)-1]
	_, _ = z[len(sel)*ne-1], feat[ne-1]
	return argmaxRowsAVX2(&z[0], &t[0], len(sel), ne, &feat[0], &sel[0], &selFeat[0], &selThr[0])
}

// sigmoidSlopesAVX2 multiplies d[i] by σ'(z[i]) for i < n (n a multiple of
// 4) with the operations of sigmoidSlope, except where −|z[i]| < −700 or z
// is NaN: those d[i] are left unchanged, and it returns false if there are
// any.
//
//go:noescape
func sigmoidSlopesAVX2(d, z *float64, n int, c *[18]float64) bool

func sigmoidSlopesSIMD(d, z []float64) bool {
	if len(d)%4 != 0 {
		panic("tree: sigmoidSlopesSIMD: length not a multiple of 4")
	}
	_ = z[len(d)-1]
	ok := true
	i := 0
	if haveAVX512 && len(d) >= 8 {
		i = len(d) &^ 7
		ok = sigmoidSlopesAVX512(&d[0], &z[0], i, &expConst)
	}
	if i < len(d) {
		ok = sigmoidSlopesAVX2(&d[i], &z[i], len(d)-i, &expConst) && ok
	}
	return ok
}

// sigmoidSlopesAVX512 is sigmoidSlopesAVX2 with eight lanes (n a multiple
// of 8).
//
//go:noescape
func sigmoidSlopesAVX512(d, z *float64, n int, c *[18]float64) bool

// axpyAVX2 adds a·float64(x[i]) to acc[i] for i < n (n a multiple of 4),
// with the operations of the scalar loop of axpy.
//
//go:noescape
func axpyAVX2(acc *float64, x *float32, n int, a float64)

// axpy adds a·float64(x[i]) to acc[i] for every i < len(x) (len(acc) ≥
// len(x)); every entry is one multiply and one add, rounded separately.
func axpy(acc []float64, x []float32, a float64) {
	acc = acc[:len(x)]
	k := 0
	if haveSIMD {
		if k = len(x) &^ 3; k > 0 {
			axpyAVX2(&acc[0], &x[0], k, a)
		}
	}
	for i := k; i < len(x); i++ {
		acc[i] += a * float64(x[i])
	}
}

// cfRoutesAVX2 routes eight samples down their counterfactual subtrees (see
// counterfactuals8).
//
//go:noescape
func cfRoutesAVX2(feat *int32, thr *float32, x *float32, off *int32, cf *int32, d int)

// counterfactuals8 is counterfactuals for eight samples at once: sample l
// is row off[l]/n of x (n features), reached leaf R[l], and its split
// arguments and counterfactual leaves go to z and cf at pos[l]·d (d =
// len(cft)/8, the tree's depth). The descents run in cfRoutesAVX2 with the
// same comparisons as counterfactuals.
func counterfactuals8(feat []int32, thr []float32, x []float32, n int, off *[8]int32, R, pos *[8]int, z []float64, cf []int, cft []int32) {
	ni := len(feat)
	d := len(cft) / 8
	// the bounds the assembly relies on: the nodes above the leaves index
	// feat and thr (ni = 2^d − 1), every feature is below n, and every
	// offset leaves room for a row of x
	_ = thr[ni-1]
	for l := range off {
		_ = x[int(off[l])+n-1]
	}
	for l := 0; l < 8; l++ {
		xr := x[off[l]:]
		zl := z[pos[l]*d : (pos[l]+1)*d]
		Rl := R[l]
		node := 0
		for j := range zl {
			right := (Rl >> (d - 1 - j)) & 1
			cft[j*8+l] = int32(2*node + 2 - right)
			zl[j] = float64(thr[node]) - float64(xr[feat[node]])
			node = 2*node + 1 + right
		}
	}
	if d > 1 {
		cfRoutesAVX2(&feat[0], &thr[0], &x[0], &off[0], &cft[0], d)
	}
	for l := 0; l < 8; l++ {
		cl := cf[pos[l]*d : (pos[l]+1)*d]
		for j := range cl {
			cl[j] = int(cft[j*8+l]) - ni
		}
	}
}
