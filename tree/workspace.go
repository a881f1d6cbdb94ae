package tree

import (
	"errors"
	"fmt"
	"math/bits"
)

// Workspace holds the per-batch state of one Forward/Backward pair and the
// scratch of the workers. It grows with the batch and is reused; one
// workspace must not be used by two calls at once. Create it with
// Kernel.NewWorkspace.
type Workspace struct {
	k    *Kernel
	capB int

	// state of the last Forward, read by Backward
	ready bool
	x     []float32
	keep  []bool
	keepT []bool // [E][B] keep, tree-major (written by Forward with a keep mask)
	b     int
	leaf  []int32   // [E][B] reached leaf
	a     []float64 // [E][B] softmax weight before dropout
	aw    []float64 // [E][B] final weight a″
	h     []float64 // [E][B] ⟨dL/dy, Λ[e,R]⟩
	delta []float64 // [E][B][d] dL/dz of every path node (plain Backward)
	fused bool      // the last Backward ran the fused pass
	gamma []float64 // [E][B] dL/dω (plain Backward)
	// per sample the sums over the trees of Backward (weightSums)
	hbar, msum, rbar []float64
	leafSlot         []int32 // [E][L] accumulator slot of a leaf during its unit, else −1

	out      []float32
	dOut     []float32
	grad     *Params
	dX       []float32
	px       []float32
	pb       int
	pOut     []float32
	pLeaves  []int32
	pWeights []float32

	// ReuseGradient state: the node entries the last Backward wrote into
	// the grad at lastZ/lastT (valid if written)
	reuse, track, sparseClear, written bool
	lastZ, lastT                       *float32
	zmask                              []uint64 // [E][I] written index-logit columns
	tcol                               []int32  // [E][I] written threshold column, or −1
	// zbits and tbits: the written entries as bitsets over IndexLogits and
	// Thresholds (GradientSupport); set in accumulateNode by a single
	// worker (bitsInline), else from zmask and tcol after phase 2
	zbits, tbits []uint64
	bitsInline   bool
	bitsPending  bool    // zbits, tbits still to be derived (GradientSupport)
	lastGrad     *Params // the grad of the last Backward with tracking
	// single[row] is the kernel's preparation stamp (rowStamp) at which
	// node row had an entmax support of one column (0: unknown)
	single []uint64

	// updater, if set, updates node rows right after their gradients
	// (SetNodeUpdater); updStamp is the preparation stamp of the rows it
	// changed in the current Backward
	updater  NodeUpdater
	updStamp uint64

	chunk        int
	unitsPerTree int
	scratch      []scratch
	j            job
	fnFwd        func(part, worker int)
	fnB1         func(part, worker int)
	fnB2         func(part, worker int)
	fnW, fnT     func(part, worker int)
	fnPred       func(part, worker int)
}

type scratch struct {
	col1, col2, col3 []float64 // per sample of a part
	acc              []float64 // [part][C]
	dx               []float64 // [part][n]
	z                []float64 // [part][d] split arguments of the path nodes
	cf               []int     // [part][d] their counterfactual leaves
	cft              []int32   // [d][8] counterfactual routes of eight samples (SIMD)
	act              []int32   // samples of the part with a non-zero weight or weight gradient
	pleaf            []int32   // Predict: [E][part]
	pa, paw          []float64 // Predict: [E][part]
	rows             []int32   // leaves: touched leaves of the current unit
	accT             []float64 // leaves: per touched leaf the weight gradient
	accZ             []float64 // leaves: per touched leaf the value gradient; nodes: Σ δ·x on the support
	supp             []int32   // the node's entmax support coordinates
	cols             []int32   // their input features
	soff             []int     // a node's samples with a non-zero δ: row offsets b·n in x
	sdl              []float64 // and their δ
	accX             []float64 // [n] Σ δ·x of a node over every input feature
	sval             []float64 // their s = sqrt(p)
	order, count     []int32   // sortByNode: samples in node order, radix counts
	foff             []int32   // fast path: per depth the samples with a non-zero δ (row offsets in x)
	fdl              []float32 // their δ
	fnode            []int32   // their node's accumulator row offset in fAcc
	fD               []float64 // per depth, per touched node: Σδ
	ftouch           []int32   // per depth the touched nodes (tree rows), in order of first sample
	nslot            []int32   // per node of a tree: its slot among the touched of its depth, or −1
	frows            []int32   // the touched nodes' rows (of [E][I])
	fAcc             []float32 // fast path: Σ δ·x over every input feature (or column)
	fX               []float32 // fast path: a node's Σ δ·x in column order (scalar VJP)
	vjpIdx           *int32    // the index slice whose range vjpLo…vjpHi is known
	vjpLen           int
	vjpLo, vjpHi     int32
	td               []float64 // fused backward: δ of the current tree's path nodes [B][d]
	th, tg           []float64 // and its h and γ per sample [B]
	// the node gradients of the current unit: rows gbase… of gz and gt
	// (grad's tensors, or with a NodeUpdater the buffers ugz and ugt)
	gz, gt   []float32
	gbase    int
	ugz, ugt []float32
}

// NewWorkspace returns an empty workspace for this kernel.
func (k *Kernel) NewWorkspace() *Workspace {
	ws := &Workspace{k: k, leafSlot: make([]int32, k.e*k.nl)}
	for i := range ws.leafSlot {
		ws.leafSlot[i] = -1
	}
	ws.fnFwd = ws.forwardPart
	ws.fnB1 = ws.back1Part
	ws.fnB2 = ws.back2Part
	ws.fnW = ws.weightPart
	ws.fnT = ws.treePart
	ws.fnPred = ws.predictPart
	return ws
}

func (ws *Workspace) growBatch(B int) {
	if B <= ws.capB {
		return
	}
	k := ws.k
	ws.capB = B
	ws.leaf = make([]int32, k.e*B)
	ws.a = make([]float64, k.e*B)
	ws.aw = make([]float64, k.e*B)
	ws.keepT = make([]bool, k.e*B)
	ws.delta = nil // allocated by the plain Backward
	ws.gamma = nil // allocated by the plain Backward
	ws.h = nil
	ws.hbar = make([]float64, B)
	ws.msum = make([]float64, B)
	ws.rbar = make([]float64, B)
}

func (ws *Workspace) growWorkers(w int) {
	for len(ws.scratch) < w {
		ws.scratch = append(ws.scratch, scratch{})
	}
}

// errNotPrepared is returned when the kernel was not prepared.
var errNotPrepared = errors.New("tree: kernel not prepared: call Prepare after setting the parameters")

func (k *Kernel) checkWorkspace(ws *Workspace) error {
	if ws == nil {
		return errors.New("tree: workspace is nil: create one with Kernel.NewWorkspace")
	}
	if ws.k != k {
		return errors.New("tree: workspace belongs to another kernel")
	}
	if !k.prepared {
		return errNotPrepared
	}
	return nil
}

func (k *Kernel) checkBatch(what string, x []float32, B int) error {
	if B < 0 {
		return fmt.Errorf("tree: %s: batch size %d: expected 0 or more", what, B)
	}
	if len(x) != B*k.n {
		return fmt.Errorf("tree: %s: x has %d values: expected batch %d × %d features = %d", what, len(x), B, k.n, B*k.n)
	}
	return nil
}

// growFloat64 returns v with length n; existing values are kept, new ones
// are not initialised.
func growFloat64(v []float64, n int) []float64 {
	if n <= cap(v) {
		return v[:n]
	}
	return append(v[:cap(v)], make([]float64, n-cap(v)+cap(v)/2)...)[:n]
}

// growInt is growFloat64 for int.
func growInt(v []int, n int) []int {
	if n <= cap(v) {
		return v[:n]
	}
	return append(v[:cap(v)], make([]int, n-cap(v)+cap(v)/2)...)[:n]
}

// growInt32 is growFloat64 for int32.
func growInt32(v []int32, n int) []int32 {
	if n <= cap(v) {
		return v[:n]
	}
	return append(v[:cap(v)], make([]int32, n-cap(v)+cap(v)/2)...)[:n]
}

// growZero returns v extended to length n ≥ len(v), the new tail zeroed.
func growZero(v []float64, n int) []float64 {
	old := len(v)
	if n <= cap(v) {
		v = v[:n]
	} else {
		v = append(v[:cap(v)], make([]float64, n-cap(v))...)[:n]
	}
	clear(v[old:])
	return v
}

// ReuseGradient(true) lets Backward on this workspace clear only the
// index-logit and threshold entries it wrote in its previous call instead of
// the whole of grad (a batch touches a small part of those tensors, which
// are large). In exchange the caller promises that, between two Backward
// calls with the same grad tensors, every entry of grad that Backward left
// zero stays zero (scaling, clipping or zeroing grad is fine; adding other
// terms into it is not). The result is then the same as without it. A call
// with other grad tensors clears them fully. It needs n_e ≤ 64 and is
// ignored otherwise. ReuseGradient(false), the default, restores the plain
// contract.
func (ws *Workspace) ReuseGradient(on bool) {
	ws.reuse = on
	if !on {
		ws.written = false
	}
}

// GradientSupport returns, after a Backward on ws with ReuseGradient, two
// bitsets over the entries of IndexLogits and Thresholds (bit i%64 of word
// i/64 for entry i) that hold exactly the entries of the gradient that are
// not ±0 (e.g. for optim.Adam.HintGrad); nil, nil when the
// workspace does not track them (ReuseGradient off, nodes of more than 64
// columns, or no Backward yet). They are the workspace's own, valid until
// the next Backward.
func (ws *Workspace) GradientSupport() (z, t []uint64) {
	if !ws.track || !ws.written {
		return nil, nil
	}
	if ws.bitsPending {
		// the written entries that are not ±0
		ws.bitsPending = false
		ne := ws.k.ne
		grad := ws.lastGrad
		for row, m := range ws.zmask {
			var nz uint64
			for ; m != 0; m &= m - 1 {
				if c := bits.TrailingZeros64(m); grad.IndexLogits[row*ne+c] != 0 {
					nz |= 1 << uint(c)
				}
			}
			if nz != 0 {
				setRowBits(ws.zbits, row, ne, nz)
			}
			if c := int(ws.tcol[row]); c >= 0 && grad.Thresholds[row*ne+c] != 0 {
				setRowBits(ws.tbits, row, ne, 1<<uint(c))
			}
		}
	}
	return ws.zbits, ws.tbits
}

// setRowBits ORs the row mask m (bits of columns 0…ne−1) of node row into
// bitset b.
func setRowBits(b []uint64, row, ne int, m uint64) {
	pos := row * ne
	w, sh := pos>>6, uint(pos&63)
	b[w] |= m << sh
	if int(sh)+ne > 64 {
		b[w+1] |= m >> (64 - sh)
	}
}

// NodeUpdater receives the gradients of node rows as soon as Backward has
// computed them and updates the rows' parameters (an optimiser step fused
// into the backward pass, while the rows are still in the caches).
type NodeUpdater interface {
	// UpdateNodes receives the gradients of the index logits (gz) and
	// thresholds (gt) of the node rows [lo, hi) of [E][I], (hi−lo)·n_e
	// values each (row lo first); a threshold gradient is zero except in
	// the row's selected column sel[r] (for row lo+r). It may change the
	// rows' parameters
	// (entries [lo·n_e, hi·n_e) of IndexLogits and Thresholds). It is
	// called once per row and Backward, from the worker that computed the
	// rows; calls for different rows run concurrently. The slices are
	// the worker's and valid during the call only. Backward reads no
	// parameter it changes.
	UpdateNodes(lo, hi int, gz, gt []float32, sel []int32)
}

// SetNodeUpdater makes every later Backward on ws hand the gradients of
// all node rows to u (nil switches it off); Backward then leaves the
// IndexLogits and Thresholds of its grad untouched (ReuseGradient and
// GradientSupport do not apply to them) and writes only the leaf and
// weight gradients. It also selects the changed rows' columns anew, so that
// after it the kernel is prepared for the new index logits and thresholds;
// the caller still calls PrepareWeights (or Prepare) after changing the
// leaf weights. While Backward runs with an updater, no other call may use
// the kernel.
func (ws *Workspace) SetNodeUpdater(u NodeUpdater) { ws.updater = u }
