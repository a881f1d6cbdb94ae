package tree

import (
	"math/bits"
	"unsafe"
)

// The vector pass of a tree's per-sample backward quantities: for trees of
// depth ≤ 6 with one output, instance-wise leaf weights and the softsign
// split (GRANDE's defaults at the reference configuration), the fused
// backward pass computes a tree's γ and its path-node δ sixteen samples
// at a time (treeDeltasAVX512, AVX-512): the path and the counterfactual
// descents route all sixteen samples together, the node and leaf lookups
// being register permutes of the tree's at most 64 entries, and every
// float64 value is the same operation, in the same order, as in
// treeWeights and pathDeltas, so the results are the same bits
// (TestTreeDeltasMatchGo). δ is written depth-major ([d][B]) there.

// deltaArgs is the argument block of treeDeltasAVX512 (the offsets of its
// fields are part of the assembly).
type deltaArgs struct {
	leaf             *int32   // [B] reached leaf of the tree
	a, aw            *float64 // [B] its weights before and after dropout
	msum, hbar, rbar *float64 // [B] per-sample sums (weightSums)
	keep             *bool    // [B] keep mask of the tree, or nil (all kept)
	dOut             *float32 // [B] dL/dy (one output)
	lam, w           *float32 // [L] the tree's leaf values and weight logits
	feat             *int32   // [I] selected feature of every node
	thr              *float32 // [I] its threshold
	x                *float32 // [B][n]
	g                *float64 // out [B]: γ
	td               *float64 // out [d][B]: δ
	n, d, b          int
	nodeLo, nodeHi   uint64 // lane masks of the node tables' vectors 0, 1
	leafLo, leafHi   uint64 // and of the leaf tables'
	node2, node3     uint64 // vectors 2, 3 (depth 6)
	leaf2, leaf3     uint64
}

var _ = [1]struct{}{}[unsafe.Offsetof(deltaArgs{}.leaf3)-200] // the assembly's offsets

// lanes returns the masks of the two sixteen-lane vectors that hold a
// table of n ≤ 32 entries (the first 32 entries of a longer one).
func lanes(n int) (lo, hi uint64) {
	lo = 1<<uint(min(n, 16)) - 1
	hi = 1<<uint(min(max(n-16, 0), 16)) - 1
	return lo, hi
}

// vecDeltas reports whether the fused backward pass computes γ and δ with
// treeDeltasAVX512 (δ then depth-major).
func (ws *Workspace) vecDeltas() bool {
	k := ws.k
	return haveDeltasAVX512 && ws.fused && k.cfg.Fast && k.d <= 6 && k.c == 1 &&
		k.mode == LeafWeights && k.split == Softsign && k.e > 1
}

// treeDeltasVec writes γ of tree e into g ([B]) and δ of its path nodes
// into td ([d][B], depth-major) with treeDeltasAVX512: the values of
// treeWeights and pathDeltas.
func (ws *Workspace) treeDeltasVec(e int, g, td []float64) {
	k := ws.k
	B, L, ni := ws.b, k.nl, k.ni
	if B == 0 {
		return
	}
	// the bounds the assembly relies on
	_, _ = g[B-1], td[k.d*B-1]
	_, _, _ = ws.leaf[(e+1)*B-1], ws.a[(e+1)*B-1], ws.aw[(e+1)*B-1]
	_, _, _ = ws.msum[B-1], ws.hbar[B-1], ws.rbar[B-1]
	_, _ = ws.dOut[B-1], ws.x[B*k.n-1]
	args := deltaArgs{
		leaf: &ws.leaf[e*B], a: &ws.a[e*B], aw: &ws.aw[e*B],
		msum: &ws.msum[0], hbar: &ws.hbar[0], rbar: &ws.rbar[0],
		dOut: &ws.dOut[0],
		lam:  &k.params.Leaves[e*L], w: &k.params.LeafWeights[e*L],
		feat: &k.selFeat[e*ni], thr: &k.selThr[e*ni],
		x: &ws.x[0], g: &g[0], td: &td[0],
		n: k.n, d: k.d, b: B,
	}
	if ws.keep != nil {
		_ = ws.keepT[(e+1)*B-1]
		args.keep = &ws.keepT[e*B]
	}
	args.nodeLo, args.nodeHi = lanes(ni)
	args.leafLo, args.leafHi = lanes(L)
	args.node2, args.node3 = lanes(max(ni-32, 0))
	args.leaf2, args.leaf3 = lanes(max(L-32, 0))
	treeDeltasAVX512(&args)
}

// scatterArgs is the argument block of scatterTreeAVX512 (the offsets of
// its fields are part of the assembly).
type scatterArgs struct {
	td     *float64 // [d][B] δ
	leaf   *int32   // [B] reached leaf
	x      *float32 // [B][n]
	acc    *float32 // [I][stride] node rows Σ float32(δ)·x, zeroed
	D      *float64 // [I] node sums Σδ, zeroed
	n, d   int
	b      int
	stride int    // floats per row of acc, a multiple of sixteen
	nv     int    // vectors of a row of x (1 … 4)
	tail   uint64 // lanes of the last
}

var _ = [1]struct{}{}[unsafe.Offsetof(scatterArgs{}.tail)-80] // the assembly's offsets

// accumulateTreeVec is accumulateLevelsFast for all depths of tree e when
// treeDeltasVec wrote its δ (depth-major) and the accumulator rows hold
// every input feature (n ≤ 64): scatterTreeAVX512 forms every node's Σδ
// and Σ float32(δ)·x over its samples in sample order (the sums of
// accumulateLevelsFast, the same bits), then nodeGradFast finishes every
// node with a sample of non-zero δ.
func (ws *Workspace) accumulateTreeVec(e int, s *scratch) {
	k := ws.k
	B, n, ni := ws.b, k.n, k.ni
	stride := (n + fastLanes - 1) &^ (fastLanes - 1)
	s.fAcc = growFloat32(s.fAcc, ni*stride)
	acc := s.fAcc[:ni*stride]
	clear(acc)
	s.fD = growFloat64(s.fD, ni)
	D := s.fD[:ni]
	clear(D)
	td := ws.treeDelta(e, s)
	// the bounds the assembly relies on (leaves below 2^d: Forward)
	_, _, _ = td[k.d*B-1], ws.leaf[(e+1)*B-1], ws.x[B*n-1]
	nv, tail := vecTail(n)
	args := scatterArgs{td: &td[0], leaf: &ws.leaf[e*B], x: &ws.x[0], acc: &acc[0], D: &D[0],
		n: n, d: k.d, b: B, stride: stride, nv: nv, tail: uint64(tail)}
	touched := scatterTreeAVX512(&args)
	base := e * ni
	feat := k.feat[e*k.ne : (e+1)*k.ne]
	for m := touched; m != 0; m &= m - 1 {
		node := bits.TrailingZeros64(m)
		ws.nodeGradFast(base+node, D[node], acc[node*stride:node*stride+n], feat, s)
	}
}

// vecScatter reports whether accumulateTreeVec takes tree e's node
// gradients (δ from treeDeltasVec, rows of every input feature).
func (ws *Workspace) vecScatter() bool {
	k := ws.k
	return ws.vecDeltas() && k.n <= 64 && !(k.n > 2*k.ne+16)
}

// sumArgs is the argument block of weightSumsAVX512 (the offsets of its
// fields are part of the assembly).
type sumArgs struct {
	leaf             *int32   // [E][B]
	a, aw            *float64 // [E][B]
	keep             *bool    // [E][B] keep mask, tree-major, or nil
	dOut             *float32 // [B]
	lam              *float32 // [E][L]
	hbar, msum, rbar *float64 // [B]
	e, b, l          int
	lo, hi           int
}

var _ = [1]struct{}{}[unsafe.Offsetof(sumArgs{}.hi)-104] // the assembly's offsets

// vecSums reports whether weightSums runs in weightSumsAVX512 (one output,
// leaf weights).
func (ws *Workspace) vecSums() bool {
	k := ws.k
	return haveDeltasAVX512 && k.c == 1 && k.mode == LeafWeights && k.e > 1
}

// weightSumsVec is weightSums for the samples lo…hi−1 with
// weightSumsAVX512.
func (ws *Workspace) weightSumsVec(lo, hi int) {
	k := ws.k
	B, E := ws.b, k.e
	if lo >= hi {
		return
	}
	// the bounds the assembly relies on (leaves below L: Forward)
	_, _, _ = ws.leaf[E*B-1], ws.a[E*B-1], ws.aw[E*B-1]
	_, _, _, _ = ws.dOut[hi-1], ws.hbar[hi-1], ws.msum[hi-1], ws.rbar[hi-1]
	_ = k.params.Leaves[E*k.nl-1]
	args := sumArgs{leaf: &ws.leaf[0], a: &ws.a[0], aw: &ws.aw[0], dOut: &ws.dOut[0],
		lam: &k.params.Leaves[0], hbar: &ws.hbar[0], msum: &ws.msum[0], rbar: &ws.rbar[0],
		e: E, b: B, l: k.nl, lo: lo, hi: hi}
	if ws.keep != nil {
		_ = ws.keepT[E*B-1]
		args.keep = &ws.keepT[0]
	}
	weightSumsAVX512(&args)
}

// fwdArgs is the argument block of forwardBlockAVX512 (the offsets of its
// fields are part of the assembly).
type fwdArgs struct {
	x              *float32 // [B][n]
	keep           *bool    // [B][E] keep mask, sample-major, or nil
	feat           *int32   // [E][I] selected features
	thr            *float32 // [E][I] their thresholds
	w              *float32 // [E][L] leaf weight logits
	lam            *float32 // [E][L] leaf values
	leaf           *int32   // out [E][B]
	a, aw          *float64 // out [E][B]
	msum           *float64 // out [B] (with keep)
	keepT          *bool    // out [E][B] (with keep)
	out            *float32 // out [B]
	n, d, e, b     int
	lo, hi         int
	nodeLo, nodeHi uint64
	leafLo, leafHi uint64
}

var _ = [1]struct{}{}[unsafe.Offsetof(fwdArgs{}.leafHi)-168] // the assembly's offsets

// vecForward reports whether the training forward pass runs in
// forwardBlockAVX512 (one output, leaf weights, depth ≤ 5, and math.Exp
// on its FMA path, whose operations the assembly repeats).
func (ws *Workspace) vecForward() bool {
	k := ws.k
	return haveForwardAVX512 && k.c == 1 && k.mode == LeafWeights && k.d <= 5 && k.e > 1
}

// forwardVec is routeBlock, weighBlock and outputBlock for the block bl
// of Forward (base 0, stride B) with forwardBlockAVX512; false (a weight
// logit outside math.Exp's plain range) leaves the block to them.
func (ws *Workspace) forwardVec(bl *block, out []float32) bool {
	k := ws.k
	B, E, ni, L := ws.b, k.e, k.ni, k.nl
	if bl.lo >= bl.hi {
		return true
	}
	// the bounds the assembly relies on (selected features below n)
	_, _, _ = ws.x[B*k.n-1], ws.leaf[E*B-1], ws.a[E*B-1]
	_, _, _ = ws.aw[E*B-1], ws.msum[B-1], out[B-1]
	_, _ = k.selFeat[E*ni-1], k.selThr[E*ni-1]
	_, _ = k.params.LeafWeights[E*L-1], k.params.Leaves[E*L-1]
	args := fwdArgs{x: &ws.x[0], feat: &k.selFeat[0], thr: &k.selThr[0],
		w: &k.params.LeafWeights[0], lam: &k.params.Leaves[0],
		leaf: &ws.leaf[0], a: &ws.a[0], aw: &ws.aw[0], msum: &ws.msum[0], out: &out[0],
		n: k.n, d: k.d, e: E, b: B, lo: bl.lo, hi: bl.hi}
	if ws.keep != nil {
		_, _ = ws.keep[B*E-1], ws.keepT[E*B-1]
		args.keep, args.keepT = &ws.keep[0], &ws.keepT[0]
	}
	args.nodeLo, args.nodeHi = lanes(ni)
	args.leafLo, args.leafHi = lanes(L)
	return forwardBlockAVX512(&args)
}
