package tree

import (
	"errors"
	"fmt"
	"math/bits"

	"github.com/gdt-ml/gdt/ensemble"
)

// Backward computes the gradient of the loss with respect to all parameters
// from dOut = dL/dy ([B][C], for the batch of the last Forward on ws) and
// writes (overwrites) it into grad, which must have the kernel's shapes and
// must not be the kernel's own Params. (With Workspace.ReuseGradient the
// caller promises to keep the zeros of grad between calls instead, and only
// the entries written by the previous call are cleared.) If dX is not nil
// ([B][n]) it receives (overwritten) the straight-through gradient with
// respect to the inputs.
func (k *Kernel) Backward(ws *Workspace, dOut []float32, grad *Params, dX []float32) error {
	if err := k.checkWorkspace(ws); err != nil {
		return err
	}
	if !ws.ready {
		return errors.New("tree: Backward: no successful Forward on this workspace: call Forward first")
	}
	B := ws.b
	if len(dOut) != B*k.c {
		return fmt.Errorf("tree: Backward: dOut has %d values: expected batch %d × %d outputs = %d", len(dOut), B, k.c, B*k.c)
	}
	if err := k.checkShape(grad, "Backward: grad"); err != nil {
		return err
	}
	if len(grad.IndexLogits) > 0 && &grad.IndexLogits[0] == &k.params.IndexLogits[0] {
		return errors.New("tree: Backward: grad is the kernel's own Params: expected a separate tensor set (NewParams)")
	}
	if dX != nil && len(dX) != B*k.n {
		return fmt.Errorf("tree: Backward: dX has %d values: expected batch %d × %d features = %d", len(dX), B, k.n, B*k.n)
	}
	w := k.workers()
	ws.growWorkers(w)
	if ws.single == nil {
		ws.single = make([]uint64, k.e*k.ni)
	}
	ws.dOut, ws.grad, ws.dX = dOut, grad, dX
	// with ReuseGradient, the entries the previous call wrote into this
	// same grad are the only non-zero node entries: clear just those
	track := ws.reuse && k.ne <= 64 && len(grad.IndexLogits) > 0 && ws.updater == nil
	ws.sparseClear = track && ws.written && ws.lastZ == &grad.IndexLogits[0] && ws.lastT == &grad.Thresholds[0]
	ws.track = track
	ws.written = false
	if track && ws.zmask == nil {
		ws.zmask = make([]uint64, k.e*k.ni)
		ws.tcol = make([]int32, k.e*k.ni)
		words := (k.e*k.ni*k.ne + 63) / 64
		ws.zbits, ws.tbits = make([]uint64, words), make([]uint64, words)
	}
	if track {
		clear(ws.zbits)
		clear(ws.tbits)
		ws.bitsInline = w == 1
		ws.bitsPending = false
	}

	if ws.updater != nil {
		// the rows the updater changes are selected anew (stamped) in
		// phase 2
		if k.stamp == nil {
			k.stamp = make([]uint64, k.e*k.ni)
		}
		k.stampCtr++
		ws.updStamp = k.stampCtr
	}

	// fused: with many trees and no input gradients, phase 1 computes only
	// the tree-weight gradients γ (per-sample sums over the trees), and one
	// pass per tree then computes the tree's δ into the worker's buffer and
	// at once its node and leaf gradients (and node updates), while the
	// tree's state is in the caches. Every value is computed by the same
	// code, in the same order, as in the plain pass.
	ws.fused = dX == nil && k.e >= 4*w
	if ws.fused {
		var parts int
		ws.chunk, parts = k.sampleChunks(B, w, 2048/(k.e*4), maxChunk)
		ws.j.run = ws.fnW
		execute(&ws.j, parts, w)
		// sixteen parts per worker: the workers finish close together
		ws.chunk = max(1, k.e/(16*w))
		ws.j.run = ws.fnT
		execute(&ws.j, (k.e+ws.chunk-1)/ws.chunk, w)
		ws.finishBackward(grad, track)
		return nil
	}
	if len(ws.delta) < k.e*B*k.d {
		ws.delta = make([]float64, k.e*ws.capB*k.d)
		ws.h = make([]float64, k.e*ws.capB)
		ws.gamma = make([]float64, k.e*ws.capB)
	}

	// 1. per sample: tree-weight gradients γ, path-node gradients δ, dX
	var parts int
	ws.chunk, parts = k.sampleChunks(B, w, 2048/(k.e*(k.d*k.d/2+k.d+2)), maxChunk)
	ws.j.run = ws.fnB1
	execute(&ws.j, parts, w)

	// 2. per (tree, depth levels): accumulate every node's samples in sample
	// order (float64), then dT and the entmax VJP once per touched node; per
	// (tree, leaves): leaf value and weight gradients
	// Units are whole trees when there are many trees (or one worker), else
	// single depth levels, one per part and the deepest (usually the
	// busiest) first, so that the workers take them as they come free;
	// every node is owned by one unit either way, so the partition does not
	// change any result.
	units := 2 * k.e
	ws.unitsPerTree = 2
	ws.chunk, parts = chunks(units, w, max(1, 8192/(max(B, 1)*k.d*(k.ne+2))))
	if w > 1 && ws.chunk > 1 {
		// sixteen parts per worker rather than four: the workers finish
		// closer together (a unit is a tree's worth of work, more with an
		// updater)
		ws.chunk = max(ws.chunk/4, 8192/(max(B, 1)*k.d*(k.ne+2)), 1)
		parts = (units + ws.chunk - 1) / ws.chunk
	}
	if k.e < 4*w && w > 1 {
		ws.unitsPerTree = k.d + 1
		ws.chunk, parts = 1, k.e*ws.unitsPerTree
	}
	ws.j.run = ws.fnB2
	execute(&ws.j, parts, w)
	ws.finishBackward(grad, track)
	return nil
}

// finishBackward records what the Backward into grad wrote.
func (ws *Workspace) finishBackward(grad *Params, track bool) {
	if track {
		// without bitsInline, GradientSupport derives the bitsets from
		// zmask and tcol when it is asked
		ws.bitsPending = !ws.bitsInline
		ws.written, ws.lastZ, ws.lastT = true, &grad.IndexLogits[0], &grad.Thresholds[0]
		ws.lastGrad = grad
	}
	ws.dOut, ws.grad, ws.dX = nil, nil, nil
}

// treePart is phase 2 of the fused backward pass for the trees of part p:
// per tree its path-node gradients δ (into the worker's buffer), its leaf
// gradients, then its node gradients and updates.
func (ws *Workspace) treePart(p, w int) {
	k := ws.k
	s := &ws.scratch[w]
	s.td = growFloat64(s.td, ws.b*k.d)
	s.th = growFloat64(s.th, ws.b)
	s.tg = growFloat64(s.tg, ws.b)
	lo, hi := p*ws.chunk, min((p+1)*ws.chunk, k.e)
	vec := ws.vecDeltas()
	for e := lo; e < hi; e++ {
		if vec {
			ws.treeDeltasVec(e, s.tg, s.td) // δ depth-major
		} else {
			ws.treeWeights(e, 0, ws.b, s.th, s.tg)
			ws.pathDeltas(e, 0, ws.b, s.td, nil, s)
		}
		ws.accumulateLeaves(e, s)
		ws.accumulateNodes(e, 0, k.d, s)
		ws.updateNodes(e, 0, k.d, s)
	}
}

// treeDelta returns δ of tree e's path nodes ([B][d]): the worker's buffer
// in the fused pass, else the tree's rows of ws.delta.
func (ws *Workspace) treeDelta(e int, s *scratch) []float64 {
	if ws.fused {
		return s.td
	}
	B, d := ws.b, ws.k.d
	return ws.delta[e*B*d : (e+1)*B*d]
}

// deltaStrides returns the strides of sample b and depth j in treeDelta's
// slice: δ_j of sample b is at b·sb + j·sj ([B][d], or [d][B] where
// treeDeltasVec wrote it).
func (ws *Workspace) deltaStrides() (sb, sj int) {
	if ws.vecDeltas() {
		return 1, ws.b
	}
	return ws.k.d, 1
}

func dot(g []float32, v []float32) float64 {
	var s float64
	for c, x := range g {
		s += float64(x) * float64(v[c])
	}
	return s
}

// back1Part is phase 1 of the plain backward pass for the samples of part
// p: the tree-weight gradients γ, then every tree's path-node gradients δ
// into ws.delta and the input gradients.
func (ws *Workspace) back1Part(p, w int) {
	k := ws.k
	s := &ws.scratch[w]
	B, d := ws.b, k.d
	lo, hi := p*ws.chunk, min((p+1)*ws.chunk, B)
	ws.weightSums(lo, hi)
	for e := 0; e < k.e; e++ {
		ws.treeWeights(e, lo, hi, ws.h[e*B+lo:e*B+hi], ws.gamma[e*B+lo:e*B+hi])
	}
	var dx []float64
	if ws.dX != nil {
		dx = growFloat64(s.dx, (hi-lo)*k.n)
		s.dx = dx
		clear(dx)
	}
	for e := 0; e < k.e; e++ {
		ws.pathDeltas(e, lo, hi, ws.delta[(e*B+lo)*d:(e*B+hi)*d], dx, s)
	}
	if dx != nil {
		out := ws.dX[lo*k.n : hi*k.n]
		for i, v := range dx {
			out[i] = float32(v)
		}
	}
}

// weightPart is phase 1 of the fused backward pass (Backward) for the
// samples of part p: the per-sample sums over the trees only.
func (ws *Workspace) weightPart(p, _ int) {
	ws.weightSums(p*ws.chunk, min((p+1)*ws.chunk, ws.b))
}

// hOf returns h = ⟨dL/dy, Λ[e,R]⟩ of tree e and sample b.
func (ws *Workspace) hOf(e, b int) float64 {
	k := ws.k
	C := k.c
	return dot(ws.dOut[b*C:(b+1)*C], k.params.Leaves[(e*k.nl+int(ws.leaf[e*ws.b+b]))*C:][:C])
}

// weightSums writes the per-sample sums over the trees (in tree order) that
// the tree-weight gradients γ need, for the samples lo…hi−1 (spec §3.2):
// h̄ = Σ a″_e h_e and r̄ = Σ a_e r_e with r_e = dL/da_e = (h_e − h̄)/M for
// a kept tree (else 0), where M = Σ a_e over the kept trees (written by
// Forward with a keep mask, else 1).
func (ws *Workspace) weightSums(lo, hi int) {
	k := ws.k
	B, E := ws.b, k.e
	if k.mode == NoWeights || E <= 1 {
		return
	}
	if ws.vecSums() {
		ws.weightSumsVec(lo, hi)
		return
	}
	a, aw := ws.a, ws.aw
	hbar, M, rbar := ws.hbar[lo:hi], ws.msum[lo:hi], ws.rbar[lo:hi]
	clear(hbar)
	clear(rbar)
	// trees outside, samples inside (see block)
	for e := 0; e < E; e++ {
		for b := lo; b < hi; b++ {
			hbar[b-lo] += aw[e*B+b] * ws.hOf(e, b)
		}
	}
	if ws.keep == nil {
		for i := range M {
			M[i] = 1
		}
	} // else Forward wrote them (weighBlock)
	for e := 0; e < E; e++ {
		for b := lo; b < hi; b++ {
			var r float64
			if m := M[b-lo]; m > 0 && (ws.keep == nil || ws.keep[b*E+e]) {
				r = (ws.hOf(e, b) - hbar[b-lo]) / m
			}
			rbar[b-lo] += a[e*B+b] * r
		}
	}
}

// treeWeights writes h_e and the tree-weight gradient γ_e = dL/dω_e =
// a_e·(r_e − r̄) of tree e for the samples lo…hi−1 into h and g (index
// b − lo), from the sums of weightSums.
func (ws *Workspace) treeWeights(e, lo, hi int, h, g []float64) {
	k := ws.k
	B, E := ws.b, k.e
	h, g = h[:hi-lo], g[:hi-lo]
	for b := lo; b < hi; b++ {
		h[b-lo] = ws.hOf(e, b)
	}
	if k.mode == NoWeights || E <= 1 {
		clear(g)
		return
	}
	a := ws.a[e*B : (e+1)*B]
	for b := lo; b < hi; b++ {
		var r float64 // dL/da_e
		if m := ws.msum[b]; m > 0 && (ws.keep == nil || ws.keep[b*E+e]) {
			r = (h[b-lo] - ws.hbar[b]) / m
		}
		g[b-lo] = a[b] * (r - ws.rbar[b])
	}
}

// treeHG returns h and γ of tree e's samples (index b): the worker's
// buffers in the fused pass, else the tree's rows of ws.h and ws.gamma.
func (ws *Workspace) treeHG(e int, s *scratch) (h, g []float64) {
	if ws.fused {
		return s.th, s.tg
	}
	B := ws.b
	return ws.h[e*B : (e+1)*B], ws.gamma[e*B : (e+1)*B]
}

// pathDeltas writes δ of every path node of tree e for the samples
// lo…hi−1 into dblock ([hi−lo][d]) through the counterfactual leaves: the
// leaf-value differences D_j and the split arguments z_j of the samples,
// then δ_j = D_j·S'(z_j) in one pass. If dx is not nil ([hi−lo][n]) the
// straight-through input gradients are subtracted into it.
func (ws *Workspace) pathDeltas(e, lo, hi int, dblock, dx []float64, s *scratch) {
	k := ws.k
	B, C, L, d := ws.b, k.c, k.nl, k.d
	nb := hi - lo
	lam := k.params.Leaves
	leafW := k.mode == LeafWeights
	h, gamma := ws.treeHG(e, s)
	aw := ws.aw[e*B : (e+1)*B]
	zs := growFloat64(s.z, nb*d)
	s.z = zs
	s.cf = growInt(s.cf, nb*d)
	cfs := s.cf
	base := e * k.ni
	feat, thr := k.selFeat[base:base+k.ni], k.selThr[base:base+k.ni]
	lamE := lam[e*L*C : (e+1)*L*C]
	var wE []float32
	if leafW {
		wE = k.params.LeafWeights[e*L : (e+1)*L]
	}
	// the samples with a weight or weight gradient (others get δ = 0)
	act := s.act[:0]
	for b := lo; b < hi; b++ {
		if aw[b] == 0 && gamma[b] == 0 {
			clear(dblock[(b-lo)*d : (b-lo+1)*d])
			clear(zs[(b-lo)*d : (b-lo+1)*d])
			continue
		}
		act = append(act, int32(b))
	}
	s.act = act
	// split arguments and counterfactual leaves, eight, four or two
	// samples at a time (their independent chains overlap)
	n := k.n
	i := 0
	if haveSIMD && d > 1 {
		s.cft = growInt32(s.cft, 8*d)
		var off [8]int32
		var R, pos [8]int
		for ; i+7 < len(act); i += 8 {
			for l := range off {
				b := int(act[i+l])
				off[l], R[l], pos[l] = int32(b*n), int(ws.leaf[e*B+b]), b-lo
			}
			counterfactuals8(feat, thr, ws.x, n, &off, &R, &pos, zs, cfs, s.cft[:8*d])
		}
	}
	for ; i+3 < len(act); i += 4 {
		b0, b1, b2, b3 := int(act[i]), int(act[i+1]), int(act[i+2]), int(act[i+3])
		counterfactuals4(feat, thr,
			[4][]float32{ws.x[b0*n : (b0+1)*n], ws.x[b1*n : (b1+1)*n], ws.x[b2*n : (b2+1)*n], ws.x[b3*n : (b3+1)*n]},
			[4]int{int(ws.leaf[e*B+b0]), int(ws.leaf[e*B+b1]), int(ws.leaf[e*B+b2]), int(ws.leaf[e*B+b3])},
			zs[(b0-lo)*d:(b0-lo+1)*d], zs[(b1-lo)*d:(b1-lo+1)*d], zs[(b2-lo)*d:(b2-lo+1)*d], zs[(b3-lo)*d:(b3-lo+1)*d],
			cfs[(b0-lo)*d:(b0-lo+1)*d], cfs[(b1-lo)*d:(b1-lo+1)*d], cfs[(b2-lo)*d:(b2-lo+1)*d], cfs[(b3-lo)*d:(b3-lo+1)*d])
	}
	for ; i+1 < len(act); i += 2 {
		b0, b1 := int(act[i]), int(act[i+1])
		counterfactuals2(feat, thr, ws.x[b0*n:(b0+1)*n], ws.x[b1*n:(b1+1)*n],
			int(ws.leaf[e*B+b0]), int(ws.leaf[e*B+b1]),
			zs[(b0-lo)*d:(b0-lo+1)*d], zs[(b1-lo)*d:(b1-lo+1)*d],
			cfs[(b0-lo)*d:(b0-lo+1)*d], cfs[(b1-lo)*d:(b1-lo+1)*d])
	}
	if i < len(act) {
		b := int(act[i])
		counterfactuals(feat, thr, ws.x[b*n:(b+1)*n], int(ws.leaf[e*B+b]), zs[(b-lo)*d:(b-lo+1)*d], cfs[(b-lo)*d:(b-lo+1)*d])
	}
	// D_j = dL/dŝ: G_R − G_C for a left turn, G_C − G_R for a right one
	for _, bi := range act {
		b := int(bi)
		R := int(ws.leaf[e*B+b])
		awe, ge := aw[b], gamma[b]
		drow := dblock[(b-lo)*d : (b-lo+1)*d]
		cf := cfs[(b-lo)*d : (b-lo+1)*d]
		g := ws.dOut[b*C : (b+1)*C]
		gR := awe * h[b]
		if leafW {
			gR += ge * float64(wE[R])
		}
		for j, cl := range cf {
			var gC float64
			if C == 1 {
				gC = awe * (float64(g[0]) * float64(lamE[cl]))
			} else {
				gC = awe * dot(g, lamE[cl*C:(cl+1)*C])
			}
			if leafW {
				gC += ge * float64(wE[cl])
			}
			// the sign without a branch (the turn is data): −(gR − gC)
			// is gC − gR exactly (up to the sign of a zero)
			drow[j] = (gR - gC) * turnSign[(R>>(d-1-j))&1]
		}
	}
	k.split.scaleBySlopes(dblock, zs[:nb*d])
	if dx != nil {
		for b := lo; b < hi; b++ {
			R := int(ws.leaf[e*B+b])
			drow := dblock[(b-lo)*d : (b-lo+1)*d]
			dxb := dx[(b-lo)*k.n : (b-lo+1)*k.n]
			node := 0
			for j := 0; j < d; j++ {
				dxb[feat[node]] -= drow[j]
				node = 2*node + 1 + (R>>(d-1-j))&1
			}
		}
	}
}

// turnSign is the sign of dL/dŝ for a left (0) and a right (1) turn.
var turnSign = [2]float64{1, -1}

// counterfactuals computes for a sample x that reached leaf R of a tree
// of depth d = len(z) (feat, thr: selected features and thresholds of its
// nodes) the split arguments z_j = thr − x[feat] of its path nodes and the
// counterfactual leaves cf[j]: the leaf reached by taking the other branch
// at depth j and routing on below it. The subtrees are descended one level
// of all of them at a time, so that their independent chains of loads
// overlap.
func counterfactuals(feat []int32, thr []float32, x []float32, R int, z []float64, cf []int) {
	d := len(z)
	cf = cf[:d]
	node := 0
	for j := range z {
		right := (R >> (d - 1 - j)) & 1
		cf[j] = 2*node + 2 - right
		z[j] = float64(thr[node]) - float64(x[feat[node]])
		node = 2*node + 1 + right
	}
	for t := 1; t < d; t++ {
		for j, c := range cf[:d-t] {
			cf[j] = ensemble.Child(c, x[feat[c]], thr[c])
		}
	}
	ni := len(feat)
	for j := range cf {
		cf[j] -= ni
	}
}

// counterfactuals2 is counterfactuals for two samples at once.
func counterfactuals2(feat []int32, thr []float32, x0, x1 []float32, R0, R1 int, z0, z1 []float64, cf0, cf1 []int) {
	d := len(z0)
	z1, cf0, cf1 = z1[:d], cf0[:d], cf1[:d]
	n0, n1 := 0, 0
	for j := range z0 {
		r0 := (R0 >> (d - 1 - j)) & 1
		r1 := (R1 >> (d - 1 - j)) & 1
		cf0[j] = 2*n0 + 2 - r0
		cf1[j] = 2*n1 + 2 - r1
		z0[j] = float64(thr[n0]) - float64(x0[feat[n0]])
		z1[j] = float64(thr[n1]) - float64(x1[feat[n1]])
		n0 = 2*n0 + 1 + r0
		n1 = 2*n1 + 1 + r1
	}
	for t := 1; t < d; t++ {
		for j := 0; j < d-t; j++ {
			c0, c1 := cf0[j], cf1[j]
			cf0[j] = ensemble.Child(c0, x0[feat[c0]], thr[c0])
			cf1[j] = ensemble.Child(c1, x1[feat[c1]], thr[c1])
		}
	}
	ni := len(feat)
	for j := range cf0 {
		cf0[j] -= ni
		cf1[j] -= ni
	}
}

// counterfactuals4 is counterfactuals for four samples at once.
func counterfactuals4(feat []int32, thr []float32, x [4][]float32, R [4]int, z0, z1, z2, z3 []float64, cf0, cf1, cf2, cf3 []int) {
	d := len(z0)
	z1, z2, z3 = z1[:d], z2[:d], z3[:d]
	cf0, cf1, cf2, cf3 = cf0[:d], cf1[:d], cf2[:d], cf3[:d]
	x0, x1, x2, x3 := x[0], x[1], x[2], x[3]
	n0, n1, n2, n3 := 0, 0, 0, 0
	for j := range z0 {
		r0 := (R[0] >> (d - 1 - j)) & 1
		r1 := (R[1] >> (d - 1 - j)) & 1
		r2 := (R[2] >> (d - 1 - j)) & 1
		r3 := (R[3] >> (d - 1 - j)) & 1
		cf0[j] = 2*n0 + 2 - r0
		cf1[j] = 2*n1 + 2 - r1
		cf2[j] = 2*n2 + 2 - r2
		cf3[j] = 2*n3 + 2 - r3
		z0[j] = float64(thr[n0]) - float64(x0[feat[n0]])
		z1[j] = float64(thr[n1]) - float64(x1[feat[n1]])
		z2[j] = float64(thr[n2]) - float64(x2[feat[n2]])
		z3[j] = float64(thr[n3]) - float64(x3[feat[n3]])
		n0 = 2*n0 + 1 + r0
		n1 = 2*n1 + 1 + r1
		n2 = 2*n2 + 1 + r2
		n3 = 2*n3 + 1 + r3
	}
	for t := 1; t < d; t++ {
		for j := 0; j < d-t; j++ {
			c0, c1, c2, c3 := cf0[j], cf1[j], cf2[j], cf3[j]
			cf0[j] = ensemble.Child(c0, x0[feat[c0]], thr[c0])
			cf1[j] = ensemble.Child(c1, x1[feat[c1]], thr[c1])
			cf2[j] = ensemble.Child(c2, x2[feat[c2]], thr[c2])
			cf3[j] = ensemble.Child(c3, x3[feat[c3]], thr[c3])
		}
	}
	ni := len(feat)
	for j := range cf0 {
		cf0[j] -= ni
		cf1[j] -= ni
		cf2[j] -= ni
		cf3[j] -= ni
	}
}

func (ws *Workspace) back2Part(p, w int) {
	k := ws.k
	s := &ws.scratch[w]
	upt := ws.unitsPerTree
	lo, hi := p*ws.chunk, min((p+1)*ws.chunk, k.e*upt)
	for u := lo; u < hi; u++ {
		e, r := u/upt, u%upt
		jlo, jhi := 0, k.d
		switch {
		case r == upt-1:
			ws.accumulateLeaves(e, s)
			continue
		case upt == 2:
			ws.accumulateNodes(e, 0, k.d, s)
		default:
			jlo = k.d - 1 - r
			jhi = jlo + 1
			ws.accumulateNodes(e, jlo, jhi, s)
		}
		ws.updateNodes(e, jlo, jhi, s)
	}
}

// updateNodes hands the final gradients of tree e's nodes at depths
// jlo…jhi−1 to the updater, if any, and selects the rows anew, while they
// are in the caches.
func (ws *Workspace) updateNodes(e, jlo, jhi int, s *scratch) {
	if ws.updater == nil {
		return
	}
	k := ws.k
	first := e*k.ni + (1 << jlo) - 1
	last := e*k.ni + (1 << jhi) - 1
	ws.updater.UpdateNodes(first, last, s.gz, s.gt, k.sel[first:last])
	ne := k.ne
	selectRows(k.params.IndexLogits[first*ne:last*ne], k.params.Thresholds[first*ne:last*ne], ne,
		k.feat[e*ne:(e+1)*ne], k.sel[first:last], k.selFeat[first:last], k.selThr[first:last])
	for row := first; row < last; row++ {
		k.stamp[row] = ws.updStamp
	}
}

// accumulateNodes writes the gradients of the index logits and thresholds
// of the nodes at depths jlo…jhi−1 of tree e. The samples are visited in
// the (stable) order of their node at depth jhi−1, so that at every depth
// of the unit the samples of one node form a run, in sample order. Nodes
// without a sample with a non-zero δ keep zero gradients.
func (ws *Workspace) accumulateNodes(e, jlo, jhi int, s *scratch) {
	k := ws.k
	B, d, ne := ws.b, k.d, k.ne
	gZ, gT := ws.grad.IndexLogits, ws.grad.Thresholds
	// rows (of [E][I]) of the nodes at depths jlo…jhi−1
	first := e*k.ni + (1 << jlo) - 1
	last := e*k.ni + (1 << jhi) - 1
	s.gz, s.gt, s.gbase = gZ, gT, 0
	switch {
	case ws.updater != nil:
		// the unit's gradients go to the worker's own buffers, which the
		// updater receives (grad's node tensors stay untouched)
		s.ugz = growFloat32(s.ugz, (last-first)*ne)
		s.ugt = growFloat32(s.ugt, (last-first)*ne)
		clear(s.ugz)
		clear(s.ugt)
		s.gz, s.gt, s.gbase = s.ugz, s.ugt, first
	case ws.sparseClear:
		// only the entries the previous call wrote can be non-zero
		full := ^uint64(0) >> uint(64-ne) // every column (ne ≤ 64 here)
		for row := first; row < last; row++ {
			if m := ws.zmask[row]; m == full {
				clear(gZ[row*ne : (row+1)*ne])
			} else {
				for ; m != 0; m &= m - 1 {
					gZ[row*ne+bits.TrailingZeros64(m)] = 0
				}
			}
			if c := ws.tcol[row]; c >= 0 {
				gT[row*ne+int(c)] = 0
			}
		}
	default:
		clear(gZ[first*ne : last*ne])
		clear(gT[first*ne : last*ne])
	}
	if ws.track {
		clear(ws.zmask[first:last])
		for row := first; row < last; row++ {
			ws.tcol[row] = -1
		}
	}
	if B == 0 {
		return
	}
	if k.cfg.Fast {
		if jlo == 0 && jhi == d && ws.vecScatter() {
			ws.accumulateTreeVec(e, s)
		} else {
			ws.accumulateLevelsFast(e, jlo, jhi, s)
		}
		return
	}
	s.supp = growInt32(s.supp, ne)
	s.cols = growInt32(s.cols, ne)
	s.sval = growFloat64(s.sval, ne)
	s.accZ = growFloat64(s.accZ, ne)
	leaf := ws.leaf[e*B : (e+1)*B]
	delta := ws.treeDelta(e, s)
	order := s.sortByNode(leaf, d-(jhi-1))
	for j := jlo; j < jhi; j++ {
		shift := d - j
		for i := 0; i < B; {
			b := int(order[i])
			if delta[b*d+j] == 0 {
				i++
				continue
			}
			node := int(leaf[b]) >> shift
			end := i + 1
			for end < B && int(leaf[order[end]])>>shift == node {
				end++
			}
			ws.accumulateNode(e*k.ni+(1<<j)-1+node, j, order[i:end], delta, s)
			i = end
		}
	}
}

// accumulateNode writes the gradients of node row (at depth j) from its
// samples (in sample order; the first has a non-zero δ): its entmax support
// (once per step), D = Σδ (= dT at the selected column) and X = Σ δ·x on
// the support (the VJP is 0 elsewhere), summed in sample order in float64,
// then A[k] = Σ δ (T[k] − x[F[k]]) = T[k]·D − X[k] and dZ = J_entmaxᵀ A.
func (ws *Workspace) accumulateNode(row, j int, samples []int32, delta []float64, s *scratch) {
	k := ws.k
	ne, n, d := k.ne, k.n, k.d
	z := k.params.IndexLogits[row*ne : (row+1)*ne]
	supp, sval := s.supp[:ne], s.sval[:ne]
	// a row whose logits are unchanged since it last had a one-column
	// support has it still: that column is the selected one, s = 1
	var cnt int
	st := k.rowStamp(row)
	if ws.single[row] == st {
		supp[0], sval[0], cnt = k.sel[row], 1, 1
	} else {
		cnt = entmaxSupport(z, float64(z[k.sel[row]]), supp, sval)
		if cnt == 1 {
			ws.single[row] = st
		}
	}
	supp, sval = supp[:cnt], sval[:cnt]
	// input columns of the support
	cols := s.cols[:cnt]
	if k.identity {
		copy(cols, supp)
	} else {
		feat := k.feat[(row/k.ni)*ne : (row/k.ni+1)*ne]
		for q, c := range supp {
			cols[q] = feat[c]
		}
	}
	X := s.accZ[:cnt]
	x := ws.x
	var D float64
	if cnt == 1 {
		// the common case of a trained node
		c0 := int(cols[0])
		var x0 float64
		for _, b := range samples {
			dl := delta[int(b)*d+j]
			if dl == 0 {
				continue
			}
			D += dl
			x0 += dl * float64(x[int(b)*n+c0])
		}
		X[0] = x0
	} else if cnt <= 4 && cnt > 0 {
		// four accumulators in registers; short supports repeat a column
		// (the surplus sums are discarded)
		c0, c1, c2, c3 := int(cols[0]), int(cols[min(1, cnt-1)]), int(cols[min(2, cnt-1)]), int(cols[cnt-1])
		var x0, x1, x2, x3 float64
		for _, b := range samples {
			dl := delta[int(b)*d+j]
			if dl == 0 {
				continue
			}
			xb := x[int(b)*n : (int(b)+1)*n]
			D += dl
			x0 += dl * float64(xb[c0])
			x1 += dl * float64(xb[c1])
			x2 += dl * float64(xb[c2])
			x3 += dl * float64(xb[c3])
		}
		X[0] = x0
		if cnt > 1 {
			X[1] = x1
		}
		if cnt > 2 {
			X[2] = x2
		}
		if cnt > 3 {
			X[3] = x3
		}
	} else if haveSIMD && 2*cnt >= n {
		// a wide support: Σ δ·x over every input feature, four lanes at a
		// time on the contiguous rows (no gather), then the support's
		// columns picked out (each sum runs in sample order as below)
		s.accX = growFloat64(s.accX, n)
		acc := s.accX[:n]
		clear(acc)
		for _, b := range samples {
			dl := delta[int(b)*d+j]
			if dl == 0 {
				continue
			}
			D += dl
			axpy(acc, x[int(b)*n:(int(b)+1)*n], dl)
		}
		for q, c := range cols {
			X[q] = acc[c]
		}
	} else {
		// the samples with a non-zero δ (their row offsets and δ), then
		// four support columns at a time over them, with the sums in
		// registers (each column's sum still runs in sample order)
		s.soff = growInt(s.soff, len(samples))
		s.sdl = growFloat64(s.sdl, len(samples))
		soff, sdl := s.soff[:0], s.sdl[:0]
		for _, b := range samples {
			dl := delta[int(b)*d+j]
			if dl == 0 {
				continue
			}
			D += dl
			soff = append(soff, int(b)*n)
			sdl = append(sdl, dl)
		}
		sdl = sdl[:len(soff)]
		q := 0
		for ; q+8 <= cnt; q += 8 {
			c := cols[q : q+8]
			c0, c1, c2, c3 := int(c[0]), int(c[1]), int(c[2]), int(c[3])
			c4, c5, c6, c7 := int(c[4]), int(c[5]), int(c[6]), int(c[7])
			var x0, x1, x2, x3, x4, x5, x6, x7 float64
			for i, o := range soff {
				dl := sdl[i]
				xb := x[o : o+n]
				x0 += dl * float64(xb[c0])
				x1 += dl * float64(xb[c1])
				x2 += dl * float64(xb[c2])
				x3 += dl * float64(xb[c3])
				x4 += dl * float64(xb[c4])
				x5 += dl * float64(xb[c5])
				x6 += dl * float64(xb[c6])
				x7 += dl * float64(xb[c7])
			}
			X := X[q : q+8]
			X[0], X[1], X[2], X[3], X[4], X[5], X[6], X[7] = x0, x1, x2, x3, x4, x5, x6, x7
		}
		for ; q < cnt; q += 4 {
			// a short last group repeats its last column (discarded)
			c0, c1 := int(cols[q]), int(cols[min(q+1, cnt-1)])
			c2, c3 := int(cols[min(q+2, cnt-1)]), int(cols[min(q+3, cnt-1)])
			var x0, x1, x2, x3 float64
			for i, o := range soff {
				dl := sdl[i]
				xb := x[o : o+n]
				x0 += dl * float64(xb[c0])
				x1 += dl * float64(xb[c1])
				x2 += dl * float64(xb[c2])
				x3 += dl * float64(xb[c3])
			}
			X[q] = x0
			if q+1 < cnt {
				X[q+1] = x1
			}
			if q+2 < cnt {
				X[q+2] = x2
			}
			if q+3 < cnt {
				X[q+3] = x3
			}
		}
	}
	s.gt[(row-s.gbase)*ne+int(k.sel[row])] = float32(D)
	if ws.track {
		ws.tcol[row] = k.sel[row]
		var m uint64
		if cnt == ne {
			m = ^uint64(0) >> uint(64-ne)
		} else {
			for _, c := range supp {
				m |= 1 << uint(c)
			}
		}
		ws.zmask[row] = m
		if ws.bitsInline && float32(D) != 0 {
			setRowBits(ws.tbits, row, ne, 1<<uint(k.sel[row]))
		}
	}
	if cnt == 0 {
		return
	}
	t := k.params.Thresholds[row*ne : (row+1)*ne]
	var ss, sg float64
	for q, v := range sval {
		X[q] = float64(t[supp[q]])*D - X[q] // A
		ss += v
		sg += v * X[q]
	}
	mean := sg / ss
	dz := s.gz[(row-s.gbase)*ne : (row-s.gbase+1)*ne]
	var nz uint64 // the columns with a non-zero gradient
	for q, c := range supp {
		v := float32(sval[q] * (X[q] - mean))
		dz[c] = v
		if v != 0 {
			nz |= 1 << uint(c)
		}
	}
	if ws.bitsInline && nz != 0 {
		setRowBits(ws.zbits, row, ne, nz)
	}
}

// sortByNode returns the sample indices 0…len(leaf)−1 stably sorted by
// leaf>>shift (the node at depth d − shift): an LSD radix sort with digits
// of at most 5 bits (its cost is dominated by the passes over the bins
// when the digits are wide).
func (s *scratch) sortByNode(leaf []int32, shift int) []int32 {
	B := len(leaf)
	s.order = growInt32(s.order, 2*B)
	order, tmp := s.order[:B], s.order[B:2*B]
	for b := range order {
		order[b] = int32(b)
	}
	m := 0
	for _, r := range leaf {
		m |= int(r) >> shift
	}
	nb := bits.Len(uint(m)) // bits of the largest key
	passes := (nb + 4) / 5
	for p := 0; p < passes; p++ {
		lo, w := p*nb/passes, (p+1)*nb/passes-p*nb/passes
		s.count = growInt32(s.count, 1<<w+1)
		count := s.count[:1<<w+1]
		clear(count)
		mask := 1<<w - 1
		for _, b := range order {
			count[(int(leaf[b])>>shift>>lo)&mask+1]++
		}
		for i := 1; i < len(count); i++ {
			count[i] += count[i-1]
		}
		for _, b := range order {
			key := (int(leaf[b]) >> shift >> lo) & mask
			tmp[count[key]] = b
			count[key]++
		}
		order, tmp = tmp, order
	}
	return order
}

// accumulateLeaves1 is accumulateLeaves for one output, leaf weights and at
// most 64 leaves: every leaf's sums in registers of a dense array instead
// of slots (the same additions in the same order).
func (ws *Workspace) accumulateLeaves1(e int, gam []float64, gL, gW []float32) {
	B := ws.b
	leaf := ws.leaf[e*B : (e+1)*B]
	aw := ws.aw[e*B : (e+1)*B]
	gam, g := gam[:B], ws.dOut[:B]
	var accZ, accT [64]float64
	var touched uint64
	for b, r := range leaf {
		a, ga := aw[b], gam[b]
		if a == 0 && ga == 0 {
			continue
		}
		R := int(r) & 63
		touched |= 1 << uint(R)
		if a != 0 {
			accZ[R] += a * float64(g[b])
		}
		accT[R] += ga
	}
	for m := touched; m != 0; m &= m - 1 {
		R := bits.TrailingZeros64(m)
		gL[R] = float32(accZ[R])
		gW[R] = float32(accT[R])
	}
}

// accumulateLeaves writes the gradients of tree e's leaf values and weights,
// summing the batch in sample order in float64.
func (ws *Workspace) accumulateLeaves(e int, s *scratch) {
	k := ws.k
	B, C, L := ws.b, k.c, k.nl
	gL := ws.grad.Leaves[e*L*C : (e+1)*L*C]
	clear(gL)
	var gW []float32
	switch k.mode {
	case LeafWeights:
		gW = ws.grad.LeafWeights[e*L : (e+1)*L]
	case EstimatorWeights:
		gW = ws.grad.LeafWeights[e : e+1]
	}
	clear(gW)
	_, gam := ws.treeHG(e, s)
	if C == 1 && L <= 64 && k.mode == LeafWeights {
		ws.accumulateLeaves1(e, gam, gL, gW)
		return
	}
	s.rows, s.accT, s.accZ = s.rows[:0], s.accT[:0], s.accZ[:0]
	var est float64
	for b := 0; b < B; b++ {
		R := int(ws.leaf[e*B+b])
		aw, ga := ws.aw[e*B+b], gam[b]
		if k.mode == EstimatorWeights {
			est += ga
			ga = 0
		}
		if aw == 0 && ga == 0 {
			continue
		}
		slot := int(ws.leafSlot[e*L+R])
		if slot < 0 {
			slot = len(s.rows)
			ws.leafSlot[e*L+R] = int32(slot)
			s.rows = append(s.rows, int32(R))
			s.accT = append(s.accT, 0)
			s.accZ = growZero(s.accZ, (slot+1)*C)
		}
		if aw != 0 {
			acc := s.accZ[slot*C : (slot+1)*C]
			g := ws.dOut[b*C : (b+1)*C]
			for c := range acc {
				acc[c] += aw * float64(g[c])
			}
		}
		s.accT[slot] += ga
	}
	for slot, r := range s.rows {
		R := int(r)
		ws.leafSlot[e*L+R] = -1
		row := gL[R*C : (R+1)*C]
		for c := range row {
			row[c] = float32(s.accZ[slot*C+c])
		}
		if k.mode == LeafWeights {
			gW[R] = float32(s.accT[slot])
		}
	}
	if k.mode == EstimatorWeights {
		gW[0] = float32(est)
	}
}
