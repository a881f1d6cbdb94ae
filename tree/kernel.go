package tree

import (
	"fmt"
	"math/bits"

	"github.com/gdt-ml/gdt/ensemble"
)

// Kernel evaluates E hard trees of depth d on batches and computes the
// sparse straight-through gradients. It owns its parameters (Params) and the
// per-step prepared state (selected feature and threshold of every node).
//
// Prepare, Init and changes to the parameters must not run concurrently
// with other calls; Forward, Backward and Predict may run concurrently on
// different Workspaces.
type Kernel struct {
	cfg      Config
	e, d     int // trees, depth
	ni, nl   int // internal nodes, leaves per tree
	c, n, ne int // outputs, input features, features per tree
	mode     WeightMode
	split    SplitFunc
	feat     []int32 // [E][ne] global feature of every column
	identity bool    // feat[e][k] == k for all trees
	iota     []int32 // 0, 1, …, n_e − 1
	params   Params

	prepared  bool
	sel       []int32   // [E][I] selected column k*
	selFeat   []int32   // [E][I] its global feature F[e,k*]
	selThr    []float32 // [E][I] its threshold T[e,i,k*]
	estA      []float64 // [E] softmax of W for EstimatorWeights
	prepJob   job
	prepChunk int
	// Preparation stamps: the logits of node row were last prepared at
	// stamp max(stampBase, stamp[row]) (Prepare renews every row,
	// PrepareChanged the rows it selects anew); workspaces remember which
	// rows had a one-column entmax support at which stamp.
	stampCtr, stampBase uint64
	stamp               []uint64
}

// New validates cfg and returns a kernel with zeroed parameters. Call Init
// (or fill Params) and Prepare before Forward.
func New(cfg Config) (*Kernel, error) {
	ne, err := cfg.validate()
	if err != nil {
		return nil, err
	}
	k := &Kernel{
		cfg: cfg, e: cfg.Trees, d: cfg.Depth,
		ni: (1 << cfg.Depth) - 1, nl: 1 << cfg.Depth,
		c: cfg.Outputs, n: cfg.Features, ne: ne,
		mode: cfg.Weights, split: cfg.Split,
	}
	if cfg.Subsets != nil {
		k.cfg.Subsets = make([][]int, len(cfg.Subsets))
		for e, row := range cfg.Subsets {
			k.cfg.Subsets[e] = append([]int(nil), row...)
		}
	}
	k.feat = make([]int32, k.e*k.ne)
	k.identity = ne == k.n
	for e := 0; e < k.e; e++ {
		for c := 0; c < k.ne; c++ {
			f := c
			if cfg.Subsets != nil {
				f = cfg.Subsets[e][c]
			}
			k.feat[e*k.ne+c] = int32(f)
			if f != c {
				k.identity = false
			}
		}
	}
	k.iota = make([]int32, k.ne)
	for c := range k.iota {
		k.iota[c] = int32(c)
	}
	k.params = *k.NewParams()
	k.sel = make([]int32, k.e*k.ni)
	k.selFeat = make([]int32, k.e*k.ni)
	k.selThr = make([]float32, k.e*k.ni)
	k.estA = make([]float64, k.e)
	k.prepJob.run = k.preparePart
	return k, nil
}

// Config returns the kernel's configuration (Subsets is a copy owned by the
// kernel; do not modify it).
func (k *Kernel) Config() Config { return k.cfg }

// Params returns the kernel's parameters. They may be modified in place
// (optimiser steps, loading); call Prepare afterwards.
func (k *Kernel) Params() *Params { return &k.params }

// Trees returns E.
func (k *Kernel) Trees() int { return k.e }

// Depth returns d.
func (k *Kernel) Depth() int { return k.d }

// Nodes returns the number of internal nodes per tree, 2^d − 1.
func (k *Kernel) Nodes() int { return k.ni }

// Leaves returns the number of leaves per tree, 2^d.
func (k *Kernel) Leaves() int { return k.nl }

// Outputs returns C.
func (k *Kernel) Outputs() int { return k.c }

// Features returns the input width n.
func (k *Kernel) Features() int { return k.n }

// SubsetSize returns n_e, the number of columns of every tree.
func (k *Kernel) SubsetSize() int { return k.ne }

// Feature returns the input feature F[e,c] of column c of tree e.
func (k *Kernel) Feature(e, c int) int { return int(k.feat[e*k.ne+c]) }

// Split returns node i of tree e as Prepare selected it: its column k*, the
// column's feature and its threshold (a row x goes left when x[feature] <
// threshold). Call it after Prepare.
func (k *Kernel) Split(e, i int) (col, feature int, threshold float32) {
	r := e*k.ni + i
	return int(k.sel[r]), int(k.selFeat[r]), k.selThr[r]
}

// SetWorkers sets the number of goroutines per call (0 = GOMAXPROCS).
// Results do not depend on it.
func (k *Kernel) SetWorkers(w int) error {
	if w < 0 {
		return fmt.Errorf("tree: SetWorkers(%d): expected 0 (GOMAXPROCS) or more", w)
	}
	k.cfg.Workers = w
	return nil
}

func (k *Kernel) workers() int { return resolveWorkers(k.cfg.Workers) }

// Prepare computes the batch-independent state of a step from the current
// parameters: for every node the arg-max column k* of its logits (lowest
// index on ties), the feature F[e,k*] and the threshold T[e,i,k*]; for
// EstimatorWeights the softmax of the tree weights. Call it after every
// change of the parameters and before Forward, Predict or Route. The
// entmax-1.5 of a node is computed in Backward, once per step, for the nodes
// that receive a gradient.
func (k *Kernel) Prepare() {
	w := k.workers()
	size, parts := chunks(k.e*k.ni, w, max(1, 16384/k.ne))
	k.prepChunk = size
	execute(&k.prepJob, parts, w)
	if k.mode == EstimatorWeights {
		softmaxInto(k.estA, k.params.LeafWeights)
	}
	k.stampCtr++
	k.stampBase = k.stampCtr
	k.prepared = true
}

// PrepareWeights is Prepare after a change of the leaf values or weights
// only: it recomputes the softmax of the tree weights (EstimatorWeights);
// nothing else depends on them.
func (k *Kernel) PrepareWeights() {
	if k.mode == EstimatorWeights {
		softmaxInto(k.estA, k.params.LeafWeights)
	}
}

// rowStamp returns the stamp at which the logits of node row were last
// prepared.
func (k *Kernel) rowStamp(row int) uint64 {
	if k.stamp == nil {
		return k.stampBase
	}
	return max(k.stampBase, k.stamp[row])
}

// PrepareChanged is Prepare after a change of the parameters since the
// last Prepare (or PrepareChanged) that kept the bits of every index logit
// outside the bitset z and of every threshold outside the bitset t (bit
// i%64 of word i/64 for entry i of IndexLogits and Thresholds, as
// optim.Adam.Changed reports them): only the nodes with a changed logit
// select their column anew, and those with a changed threshold reread it.
// The result is Prepare's. A nil bitset (or a kernel never prepared) means
// any entry may have changed, and everything is prepared.
func (k *Kernel) PrepareChanged(z, t []uint64) {
	words := (len(k.params.IndexLogits) + 63) / 64
	if !k.prepared || len(z) < words || len(t) < words {
		k.Prepare()
		return
	}
	ne, rows := k.ne, k.e*k.ni
	Z, T := k.params.IndexLogits, k.params.Thresholds
	if k.stamp == nil {
		k.stamp = make([]uint64, rows)
	}
	k.stampCtr++
	// the set bits in ascending order, the row found by stepping (rows are
	// visited in order, so the steps add up to at most the number of rows)
	row, end := 0, ne // the row of entries [end − ne, end)
	for w, m := range z[:words] {
		for ; m != 0; m &= m - 1 {
			pos := w*64 + bits.TrailingZeros64(m)
			if pos < end-ne {
				continue // in the row just prepared
			}
			for pos >= end {
				row, end = row+1, end+ne
			}
			if row >= rows {
				break // bits past the last entry
			}
			e := row / k.ni
			selectRows(Z[row*ne:end], T[row*ne:end], ne, k.feat[e*ne:(e+1)*ne],
				k.sel[row:row+1], k.selFeat[row:row+1], k.selThr[row:row+1])
			k.stamp[row] = k.stampCtr
			row, end = row+1, end+ne
		}
	}
	row, end = 0, ne
	for w, m := range t[:words] {
		for ; m != 0; m &= m - 1 {
			pos := w*64 + bits.TrailingZeros64(m)
			if pos < end-ne {
				continue
			}
			for pos >= end {
				row, end = row+1, end+ne
			}
			if row >= rows {
				break
			}
			k.selThr[row] = T[row*ne+int(k.sel[row])]
			row, end = row+1, end+ne
		}
	}
	if k.mode == EstimatorWeights {
		softmaxInto(k.estA, k.params.LeafWeights)
	}
}

// preparePart prepares the node rows (of [E][I]) of part p.
func (k *Kernel) preparePart(p, _ int) {
	lo, hi := p*k.prepChunk, min((p+1)*k.prepChunk, k.e*k.ni)
	ne := k.ne
	Z, T := k.params.IndexLogits, k.params.Thresholds
	for row := lo; row < hi; {
		e := row / k.ni
		end := min(hi, (e+1)*k.ni)
		selectRows(Z[row*ne:end*ne], T[row*ne:end*ne], ne, k.feat[e*ne:(e+1)*ne],
			k.sel[row:end], k.selFeat[row:end], k.selThr[row:end])
		row = end
	}
}

func softmaxInto(dst []float64, w []float32) {
	for i, v := range w {
		dst[i] = float64(v)
	}
	var mx, sum [1]float64
	ensemble.SoftmaxAcross(dst, len(dst), 1, 1, mx[:], sum[:])
}
