package tree

import "math"

// The fast node path (Config.Fast) computes a node's parameter gradients
// in float32, sixteen lanes at a time on amd64 with AVX-512:
//
//   - X[q] = Σ_b δ_b·x_b[F[q]] over the node's samples in sample order, per
//     column, each product and sum rounded to float32: one pass per depth
//     level adds every sample into its node's row (fastScatterRows; the
//     sums of one column never mix with another's, so a vector and a
//     scalar loop give the same bits, and the order of the samples does
//     not depend on how the work is split);
//   - the entmax-1.5 threshold τ of the node's logits by the Newton
//     iteration of entmaxSearch, whose per-iteration sums Σa, Σa² over
//     a = u − τ > 0 run in float32 (fastRowStats) and whose scalar solve
//     runs in float64, then one refinement at the accepted threshold
//     (fastEntmaxFirst does both for the common first iterate);
//   - the VJP: A = T·D − X, s = max(u − τ, 0), dz = s·(A − Σ s·A / Σ s)
//     in float32 (fastVJP, which gathers X from the node's row).
//
// Every sum over the columns of a row runs in a fixed order: lane l (of
// sixteen) adds the columns l, l+16, l+32, … in turn, then the lanes are
// added pairwise (l + l+8, l + l+4, l + l+2, l + l+1). The functions below
// are the scalar definition of that order, which the assembly repeats
// exactly (products and sums rounded separately, no FMA), so results do not
// depend on the machine's vector width. Compared with the float64 path the
// gradients of the index logits differ by float32 rounding of the
// intermediate sums (≈1e−7 of the largest entry).

// fastLanes is the number of lanes of the canonical summation order.
const fastLanes = 16

// reduceLanes adds the lanes of r pairwise in the canonical order.
func reduceLanes(r *[fastLanes]float32) float32 {
	for w := fastLanes / 2; w >= 1; w >>= 1 {
		for l := 0; l < w; l++ {
			r[l] += r[l+w]
		}
	}
	return r[0]
}

// rowStatsGo returns, over the columns k of z with a_k = (z_k − m)·½ − τ > 0,
// Σa, Σa², their number and the smallest such a (+Inf if none).
func rowStatsGo(z []float32, m, tau float32) (s1, s2 float32, cnt int, amin float32) {
	var r1, r2 [fastLanes]float32
	amin = float32(math.Inf(1))
	for base := 0; base < len(z); base += fastLanes {
		blk := z[base:min(base+fastLanes, len(z))]
		for l, v := range blk {
			if a := float32((v-m)*0.5) - tau; a > 0 {
				r1[l&(fastLanes-1)] += a
				r2[l&(fastLanes-1)] += float32(a * a)
				cnt++
				if a < amin {
					amin = a
				}
			}
		}
	}
	return reduceLanes(&r1), reduceLanes(&r2), cnt, amin
}

// vjpSumsGo returns Σ s and Σ s·A over the support, s_k = (z_k − m)·½ − τ > 0,
// A_k = T_k·D − X_k.
func vjpSumsGo(z, t, x []float32, m, tau, D float32) (ss, sg float32) {
	var r1, r2 [fastLanes]float32
	t, x = t[:len(z)], x[:len(z)]
	for base := 0; base < len(z); base += fastLanes {
		end := min(base+fastLanes, len(z))
		zb, tb, xb := z[base:end], t[base:end], x[base:end]
		for l, v := range zb {
			if s := float32((v-m)*0.5) - tau; s > 0 {
				A := float32(tb[l]*D) - xb[l]
				r1[l&(fastLanes-1)] += s
				r2[l&(fastLanes-1)] += float32(s * A)
			}
		}
	}
	return reduceLanes(&r1), reduceLanes(&r2)
}

// vjpWriteGo writes dz_k = s_k·(A_k − mean) on the support and 0 elsewhere
// and returns the mask of the non-zero dz_k (columns below 64).
func vjpWriteGo(z, t, x, dz []float32, m, tau, D, mean float32) uint64 {
	var nz uint64
	t, x, dz = t[:len(z)], x[:len(z)], dz[:len(z)]
	for k, v := range z {
		var g float32
		if s := float32((v-m)*0.5) - tau; s > 0 {
			A := float32(t[k]*D) - x[k]
			g = s * (A - mean)
		}
		dz[k] = g
		if g != 0 && k < 64 {
			nz |= 1 << uint(k)
		}
	}
	return nz
}

// closedForm returns for the sums s1 = Σa, s2 = Σa² of n values a
// = u − τ the float64 terms a1 = s1, f = s2 − 1 and the discriminant
// a1² − n·f of the quadratic n·c² − 2·a1·c + f = 0 whose smaller root c
// moves τ to the threshold of that set (every operation rounded on its
// own, as the assembly does).
func closedForm(s1, s2 float32, n int) (a1, f, disc float64) {
	a1 = float64(s1)
	f = float64(s2) - 1
	disc = float64(a1*a1) - float64(float64(n)*f)
	return a1, f, disc
}

// entmaxFirstGo is the first Newton iterate τ = −1 of entmaxTau32 and, if
// the closed-form root there is accepted (the common case of a row whose
// every coordinate above u = −1 is in the support), the refinement at
// that root. ok = false leaves the search to entmaxTau32.
func entmaxFirstGo(z []float32, m float32) (tau float32, ok bool) {
	s1, s2, n, amin := rowStatsGo(z, m, -1)
	if n == 0 {
		return 0, false
	}
	a1, f, disc := closedForm(s1, s2, n)
	if !(disc >= 0) {
		return 0, false
	}
	c := f / (a1 + math.Sqrt(disc))
	if !(c <= float64(amin)) {
		return 0, false
	}
	return entmaxRefine(z, m, -1+c, rowStatsGo)
}

// entmaxRefine applies the closed form once more at the accepted
// threshold t (removing the rounding of the sums far from it).
func entmaxRefine(z []float32, m float32, t float64, stats func([]float32, float32, float32) (float32, float32, int, float32)) (float32, bool) {
	s1, s2, n, _ := stats(z, m, float32(t))
	if n == 0 {
		return 0, false
	}
	a1, f, disc := closedForm(s1, s2, n)
	if !(disc >= 0) {
		disc = 0
	}
	t += f / (a1 + math.Sqrt(disc))
	return float32(t), true
}

// entmaxTau32 returns the entmax-1.5 threshold of the logits z (maximum m)
// computed with fastRowStats sums, or ok = false if the iteration did not
// settle (the caller then uses the float64 path).
func entmaxTau32(z []float32, m float32) (tau float32, ok bool) {
	if tau, ok := fastEntmaxFirst(z, m); ok {
		return tau, true
	}
	t := -1.0
	for it := 0; it < entmaxMaxNewton; it++ {
		s1, s2, n, amin := fastRowStats(z, m, float32(t))
		if n == 0 {
			return 0, false
		}
		a1, f, disc := closedForm(s1, s2, n)
		if disc >= 0 {
			if c := f / (a1 + math.Sqrt(disc)); c <= float64(amin) {
				return entmaxRefine(z, m, t+c, fastRowStats)
			}
		}
		step := f / (2 * a1)
		if !(step > 0) {
			break
		}
		t += step
	}
	return 0, false
}

// vjpGo is vjpSumsGo and vjpWriteGo with X[k] = acc[idx[k]] (gathered
// into the scratch X, at least len(z) long): if Σs > 0 it writes dz (with
// mean = Σs·A / Σs) and returns its non-zero mask, else it leaves dz alone
// and returns 0.
func vjpGo(z, t, acc []float32, idx []int32, dz []float32, m, tau, D float32, X []float32) uint64 {
	X = X[:len(z)]
	for k, c := range idx[:len(z)] {
		X[k] = acc[c]
	}
	ss, sg := vjpSumsGo(z, t, X, m, tau, D)
	if !(ss > 0) {
		return 0
	}
	return vjpWriteGo(z, t, X, dz, m, tau, D, sg/ss)
}

// accumulateLevelsFast writes the gradients of the index logits and
// thresholds of tree e's nodes at depths jlo…jhi−1 (Config.Fast). One
// pass over the batch in sample order adds every sample with a non-zero δ
// at a depth into its node's Σδ (float64; the depths' sums are independent
// chains) and lists it for its node's Σδ·x (float32, fastScatterRows), so
// that every node's sums run over its samples in sample order whatever the
// units of work are; then per depth nodeGradFast finishes every node that
// has such a sample (the others keep zero gradients).
func (ws *Workspace) accumulateLevelsFast(e, jlo, jhi int, s *scratch) {
	k := ws.k
	B, d, n, ne := ws.b, k.d, k.n, k.ne
	leaf := ws.leaf[e*B : (e+1)*B]
	delta := ws.treeDelta(e, s)
	levels := jhi - jlo
	// the accumulator rows: every input feature, or for many features the
	// tree's columns (gathered per sample)
	width := n
	gather := n > 2*ne+16 || n > 64
	if gather {
		width = ne
	}
	stride := (width + fastLanes - 1) &^ (fastLanes - 1) // whole vectors
	// nslot[r]: the slot of the tree's node r among the touched of its
	// depth, or −1
	if len(s.nslot) < k.ni {
		s.nslot = make([]int32, k.ni)
		for i := range s.nslot {
			s.nslot[i] = -1
		}
	}
	// per depth (of the unit) a region of B entries: the samples with a
	// non-zero δ (row offsets in x, δ, accumulator row offset), the
	// touched nodes in order of first sample and their Σδ
	s.foff = growInt32(s.foff, levels*B)
	s.fdl = growFloat32(s.fdl, levels*B)
	s.fnode = growInt32(s.fnode, levels*B)
	s.ftouch = growInt32(s.ftouch, levels*B)
	s.fD = growFloat64(s.fD, levels*B)
	xo, dl, no := s.foff, s.fdl, s.fnode
	touched, fD, nslot := s.ftouch, s.fD, s.nslot[:k.ni]
	var cnt, nt [MaxDepth]int32
	// every sample passes the root: its Σδ in a register (the same sum)
	var root float64
	sb, sj := ws.deltaStrides()
	for b, r := range leaf[:B] {
		j := jlo
		if jlo == 0 {
			if v := delta[b*sb]; v != 0 {
				if nt[0] == 0 {
					nslot[0], touched[0], nt[0] = 0, 0, 1
				}
				root += v
				c := int(cnt[0])
				xo[c], dl[c], no[c] = int32(b*n), float32(v), 0
				cnt[0]++
			}
			j = 1
		}
		for ; j < jhi; j++ {
			v := delta[b*sb+j*sj]
			if v == 0 {
				continue
			}
			lv := j - jlo
			node := (1 << j) - 1 + int(r)>>(d-j)
			slot := nslot[node]
			if slot < 0 {
				slot = nt[lv]
				nslot[node] = slot
				touched[lv*B+int(slot)] = int32(node)
				fD[lv*B+int(slot)] = 0
				nt[lv]++
			}
			fD[lv*B+int(slot)] += v
			c := lv*B + int(cnt[lv])
			xo[c], dl[c], no[c] = int32(b*n), float32(v), slot*int32(stride)
			cnt[lv]++
		}
	}
	if jlo == 0 {
		fD[0] = root
	}
	feat := k.feat[e*ne : (e+1)*ne]
	idx := feat
	if gather {
		idx = k.iota[:ne]
	}
	base := e * k.ni
	for lv := 0; lv < levels; lv++ {
		tl := touched[lv*B : lv*B+int(nt[lv])]
		// the touched nodes' logits and thresholds, read below, on their
		// way while the sums are formed
		s.frows = growInt32(s.frows, len(tl))
		for i, node := range tl {
			s.frows[i] = int32(base) + node
		}
		prefetchNodeRows(k.params.IndexLogits, k.params.Thresholds, s.frows[:len(tl)], ne)
		s.fAcc = growFloat32(s.fAcc, len(tl)*stride)
		acc := s.fAcc[:len(tl)*stride]
		clear(acc)
		lxo, ldl, lno := xo[lv*B:lv*B+int(cnt[lv])], dl[lv*B:lv*B+int(cnt[lv])], no[lv*B:lv*B+int(cnt[lv])]
		if gather {
			for i, o := range lxo {
				row := acc[lno[i] : int(lno[i])+ne]
				x := ws.x[o : int(o)+n]
				for q, c := range feat {
					row[q] += float32(ldl[i] * x[c])
				}
			}
		} else {
			fastScatterRows(acc, width, ws.x, lxo, lno, ldl)
		}
		for slot, node := range tl {
			nslot[node] = -1
			ws.nodeGradFast(base+int(node), fD[lv*B+slot], acc[slot*stride:slot*stride+width], idx, s)
		}
	}
}

// nodeGradFast writes the gradients of node row from D = Σδ and acc (Σδ·x,
// column q's sum at acc[idx[q]]): dT at the selected column, and
// J_entmaxᵀ(T·D − X) for the index logits, in float32 (see above).
func (ws *Workspace) nodeGradFast(row int, D float64, acc []float32, idx []int32, s *scratch) {
	k := ws.k
	ne := k.ne
	sel := int(k.sel[row])
	D32 := float32(D)
	s.gt[(row-s.gbase)*ne+sel] = D32
	z := k.params.IndexLogits[row*ne : (row+1)*ne]
	t := k.params.Thresholds[row*ne : (row+1)*ne]
	dz := s.gz[(row-s.gbase)*ne : (row-s.gbase+1)*ne]
	var nz uint64
	m := z[sel]
	tau, ok := float32(0), false
	if !math.IsInf(float64(m), 0) && !math.IsNaN(float64(m)) {
		tau, ok = entmaxTau32(z, m)
		if !ok {
			// the float64 search (rows with NaNs, or rounding that stalls)
			if _, t64 := entmaxTau(z); !math.IsNaN(t64) {
				tau, ok = float32(t64), true
			}
		}
	}
	if ok {
		s.fX = growFloat32(s.fX, ne)
		// the range of the column indices, once per index slice (the
		// rows of k.feat and k.iota never change)
		if s.vjpIdx != &idx[0] || s.vjpLen != ne {
			s.vjpIdx, s.vjpLen = &idx[0], ne
			s.vjpLo, s.vjpHi = idxRange(idx[:ne])
		}
		nz = fastVJPIn(z, t, acc, idx, dz, m, tau, D32, s.fX, s.vjpLo, s.vjpHi)
	}
	if ws.track {
		ws.tcol[row] = int32(sel)
		ws.zmask[row] = nz
		if ws.bitsInline {
			if D32 != 0 {
				setRowBits(ws.tbits, row, ne, 1<<uint(sel))
			}
			if nz != 0 {
				setRowBits(ws.zbits, row, ne, nz)
			}
		}
	}
}

// scatterRowsGo adds dl[i]·x[xo[i]+c] to acc[no[i]+c] for c < width, for
// every i in order (products and sums rounded to float32). (The vector
// version may also add ±0 to the lanes of a row past width, up to a
// multiple of sixteen: accumulator rows are that far apart.)
func scatterRowsGo(acc []float32, width int, x []float32, xo, no []int32, dl []float32) {
	for i, o := range xo {
		d := dl[i]
		row := acc[no[i] : int(no[i])+width]
		for c, v := range x[o : int(o)+width] {
			row[c] += float32(d * v)
		}
	}
}

// vecTail returns the number of sixteen-lane vectors of a row of n ≥ 1
// columns and the lane mask of the last.
func vecTail(n int) (nv int, tail uint32) {
	nv = (n + fastLanes - 1) / fastLanes
	r := n - (nv-1)*fastLanes
	return nv, uint32(1)<<uint(r) - 1
}

// idxRange returns the smallest and largest of idx (0, −1 if empty).
func idxRange(idx []int32) (lo, hi int32) {
	if len(idx) == 0 {
		return 0, -1
	}
	lo, hi = idx[0], idx[0]
	for _, c := range idx[1:] {
		lo, hi = min(lo, c), max(hi, c)
	}
	return lo, hi
}

// growFloat32 is growFloat64 for float32.
func growFloat32(v []float32, n int) []float32 {
	if n <= cap(v) {
		return v[:n]
	}
	return append(v[:cap(v)], make([]float32, n-cap(v)+cap(v)/2)...)[:n]
}
