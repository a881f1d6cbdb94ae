package tree

import (
	"fmt"

	"github.com/gdt-ml/gdt/ensemble"
)

// maxChunk caps the number of samples of one part of the per-sample phases
// (bounds the per-worker scratch).
const maxChunk = 256

// Forward evaluates the trees on the batch x ([B][n] row-major) and writes
// the raw outputs y ([B][C]) into out. keep is the estimator-dropout mask
// ([B][E], sample-major, true = tree kept; see DropoutMask) or nil for no
// dropout. A sample whose trees are all dropped gets output 0 and no
// gradient. Inputs must be finite (a NaN feature is routed right, but its
// gradients are NaN). The workspace remembers x, keep and the routing for
// Backward: x and keep must stay unchanged until then.
func (k *Kernel) Forward(ws *Workspace, x []float32, B int, keep []bool, out []float32) error {
	if err := k.checkWorkspace(ws); err != nil {
		return err
	}
	if err := k.checkBatch("Forward", x, B); err != nil {
		return err
	}
	if len(out) != B*k.c {
		return fmt.Errorf("tree: Forward: out has %d values: expected batch %d × %d outputs = %d", len(out), B, k.c, B*k.c)
	}
	if keep != nil && len(keep) != B*k.e {
		return fmt.Errorf("tree: Forward: keep mask has %d values: expected batch %d × %d trees = %d", len(keep), B, k.e, B*k.e)
	}
	ws.ready = false
	ws.growBatch(B)
	w := k.workers()
	ws.growWorkers(w)
	ws.x, ws.keep, ws.b, ws.out = x, keep, B, out
	ws.chunk, _ = k.sampleChunks(B, w, 4096/(k.e*(k.d+2)), maxChunk)
	_, parts := chunksOf(B, ws.chunk)
	ws.j.run = ws.fnFwd
	execute(&ws.j, parts, w)
	ws.out = nil
	ws.ready = true
	return nil
}

// sampleChunks returns the part size for B samples: about four parts per
// worker, at least minSize (and 16) samples, at most maxSize.
func (k *Kernel) sampleChunks(B, workers, minSize, maxSize int) (size, parts int) {
	size, _ = chunks(B, workers, max(minSize, 16))
	size = max(1, min(size, maxSize))
	return chunksOf(B, size)
}

func chunksOf(n, size int) (int, int) {
	if n <= 0 {
		return size, 0
	}
	return size, (n + size - 1) / size
}

func (ws *Workspace) forwardPart(p, w int) {
	lo, hi := p*ws.chunk, min((p+1)*ws.chunk, ws.b)
	bl := block{lo: lo, hi: hi, stride: ws.b, x: ws.x, keep: ws.keep, leaf: ws.leaf, a: ws.a, aw: ws.aw, msum: ws.msum}
	if ws.keep != nil {
		bl.keepT = ws.keepT
	}
	k := ws.k
	if ws.vecForward() && ws.forwardVec(&bl, ws.out) {
		return
	}
	k.routeBlock(&bl)
	k.weighBlock(&bl, &ws.scratch[w])
	k.outputBlock(&bl, &ws.scratch[w], ws.out)
}

// block addresses the per-(tree, sample) values of the samples lo…hi−1 of
// a batch: the value of tree e and sample b is at index e*stride + b − base.
// The loops below run over trees outside and samples inside, so that one
// tree's nodes and leaves stay in cache while a block of samples uses them;
// every per-sample sum still runs over the trees in order 0…E−1.
type block struct {
	lo, hi       int
	stride, base int
	x            []float32 // [B][n]
	keep         []bool    // [B][E] or nil
	leaf         []int32   // reached leaf
	a, aw        []float64 // tree weight before and after dropout
	msum         []float64 // [B] or nil: receives Σ a over the kept trees per sample
	keepT        []bool    // nil, or receives the keep mask tree-major (as aw)
}

// routeBlock hard-routes the block's samples through every tree. The
// routing step is branch-free (the direction is data, not control flow: a
// mispredicted branch per level would cost more than the level) and four
// samples descend together so that their independent chains of loads
// overlap.
func (k *Kernel) routeBlock(bl *block) {
	n, d := k.n, k.d
	for e := 0; e < k.e; e++ {
		base := e * k.ni
		feat, thr := k.selFeat[base:base+k.ni], k.selThr[base:base+k.ni]
		off := e*bl.stride - bl.base
		b := bl.lo
		for ; b+4 <= bl.hi; b += 4 {
			x0, x1 := bl.x[b*n:(b+1)*n], bl.x[(b+1)*n:(b+2)*n]
			x2, x3 := bl.x[(b+2)*n:(b+3)*n], bl.x[(b+3)*n:(b+4)*n]
			n0, n1, n2, n3 := 0, 0, 0, 0
			for j := 0; j < d; j++ {
				n0 = ensemble.Child(n0, x0[feat[n0]], thr[n0])
				n1 = ensemble.Child(n1, x1[feat[n1]], thr[n1])
				n2 = ensemble.Child(n2, x2[feat[n2]], thr[n2])
				n3 = ensemble.Child(n3, x3[feat[n3]], thr[n3])
			}
			leaf := bl.leaf[off+b : off+b+4]
			leaf[0] = int32(n0 - k.ni)
			leaf[1] = int32(n1 - k.ni)
			leaf[2] = int32(n2 - k.ni)
			leaf[3] = int32(n3 - k.ni)
		}
		for ; b < bl.hi; b++ {
			bl.leaf[off+b] = int32(k.descend(feat, thr, bl.x[b*n:(b+1)*n], 0, d))
		}
	}
}

// descend hard-routes x from node through levels more levels of one tree
// (feat, thr: its selected features and thresholds) and returns the node
// reached minus I (the leaf number when it reaches the leaves).
func (k *Kernel) descend(feat []int32, thr []float32, x []float32, node, levels int) int {
	for ; levels > 0; levels-- {
		node = ensemble.Child(node, x[feat[node]], thr[node])
	}
	return node - k.ni
}

// weighBlock computes the tree weights a (softmax over the trees of the
// reached leaves' weights, the estimator weights, or 1/E) and a″ (after the
// dropout mask, renormalised).
func (k *Kernel) weighBlock(bl *block, s *scratch) {
	nb := bl.hi - bl.lo
	if k.e == 1 {
		for b := bl.lo; b < bl.hi; b++ {
			i := b - bl.base
			bl.a[i], bl.aw[i] = 1, 1
			if bl.keep != nil && !bl.keep[b] {
				bl.aw[i] = 0
			}
		}
		return
	}
	var M []float64 // Σ a over the kept trees of every sample
	switch k.mode {
	case LeafWeights:
		W := k.params.LeafWeights
		for e := 0; e < k.e; e++ {
			off := e*bl.stride - bl.base
			for b := bl.lo; b < bl.hi; b++ {
				bl.a[off+b] = float64(W[e*k.nl+int(bl.leaf[off+b])])
			}
		}
		mx, sum := growFloat64(s.col1, nb), growFloat64(s.col2, nb)
		s.col1, s.col2 = mx, sum
		// the trained form's one softmax across trees (package ensemble)
		ensemble.SoftmaxAcross(bl.a[bl.lo-bl.base:], k.e, bl.stride, nb, mx, sum)
		// with a keep mask, M (below): Σ a over the kept trees
		M = keptSums(bl, s, nb)
		if M != nil {
			for e := 0; e < k.e; e++ {
				off := e*bl.stride - bl.base
				for b := bl.lo; b < bl.hi; b++ {
					if bl.keep[b*k.e+e] {
						M[b-bl.lo] += bl.a[off+b]
					}
				}
			}
		}
	case EstimatorWeights:
		for e := 0; e < k.e; e++ {
			off := e*bl.stride - bl.base
			for b := bl.lo; b < bl.hi; b++ {
				bl.a[off+b] = k.estA[e]
			}
		}
	default:
		inv := 1 / float64(k.e)
		for e := 0; e < k.e; e++ {
			off := e*bl.stride - bl.base
			for b := bl.lo; b < bl.hi; b++ {
				bl.a[off+b] = inv
			}
		}
	}
	if bl.keep == nil {
		for e := 0; e < k.e; e++ {
			off := e*bl.stride - bl.base
			copy(bl.aw[off+bl.lo:off+bl.hi], bl.a[off+bl.lo:off+bl.hi])
		}
		return
	}
	if M == nil {
		M = keptSums(bl, s, nb)
		for e := 0; e < k.e; e++ {
			off := e*bl.stride - bl.base
			for b := bl.lo; b < bl.hi; b++ {
				if bl.keep[b*k.e+e] {
					M[b-bl.lo] += bl.a[off+b]
				}
			}
		}
	}
	for e := 0; e < k.e; e++ {
		off := e*bl.stride - bl.base
		for b := bl.lo; b < bl.hi; b++ {
			kept := bl.keep[b*k.e+e]
			if bl.keepT != nil {
				bl.keepT[off+b] = kept
			}
			if m := M[b-bl.lo]; kept && m > 0 {
				bl.aw[off+b] = bl.a[off+b] / m
			} else {
				bl.aw[off+b] = 0
			}
		}
	}
}

// keptSums returns the zeroed sums M of the block's samples (index b − lo):
// bl.msum's, else the scratch's; nil without a keep mask.
func keptSums(bl *block, s *scratch, nb int) []float64 {
	if bl.keep == nil {
		return nil
	}
	var M []float64
	if bl.msum != nil {
		M = bl.msum[bl.lo:bl.hi]
	} else {
		M = growFloat64(s.col3, nb)
		s.col3 = M
	}
	clear(M)
	return M
}

// outputBlock writes y_b = Σ_e a″_e Λ[e, R_e] for the block's samples.
func (k *Kernel) outputBlock(bl *block, s *scratch, out []float32) {
	C, L := k.c, k.nl
	lam := k.params.Leaves
	if k.e == 1 {
		for b := bl.lo; b < bl.hi; b++ {
			i := b - bl.base
			ob := out[b*C : (b+1)*C]
			row := lam[int(bl.leaf[i])*C:][:C]
			switch aw := bl.aw[i]; aw {
			case 1:
				copy(ob, row)
			default:
				for c, v := range row {
					ob[c] = float32(aw * float64(v))
				}
			}
		}
		return
	}
	nb := bl.hi - bl.lo
	acc := growFloat64(s.acc, nb*C)
	s.acc = acc
	clear(acc)
	for e := 0; e < k.e; e++ {
		off := e*bl.stride - bl.base
		for b := bl.lo; b < bl.hi; b++ {
			aw := bl.aw[off+b]
			if aw == 0 {
				continue
			}
			row := lam[(e*L+int(bl.leaf[off+b]))*C:][:C]
			ab := acc[(b-bl.lo)*C : (b-bl.lo+1)*C]
			for c, v := range row {
				ab[c] += aw * float64(v)
			}
		}
	}
	for i, v := range acc {
		out[bl.lo*C+i] = float32(v)
	}
}
