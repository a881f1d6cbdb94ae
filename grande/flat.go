package grande

import (
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/interpret"
	"github.com/gdt-ml/gdt/tree"
)

// Flat is a trained ensemble as plain arrays: the "no information loss"
// form that prediction uses. Tree e's internal node i (breadth first, root
// 0, children 2i+1 left and 2i+2 right) sends a row x left iff
// x[Feature[e·I+i]] < Threshold[e·I+i]; leaf l (left to right) holds the
// value vector Leaves[(e·L+l)·C : …+C] and, with instance-wise weights,
// the weight logit Weights[e·L+l] (with one weight per tree: Weights[e]).
// The raw output of a row is Σ_e a_e(x)·value_e(x) with
// a(x) = softmax over the trees of the reached leaves' weight logits (or of
// the per-tree weights).
type Flat struct {
	Trees   int // E
	Depth   int // d
	Outputs int // C
	// Weighting is "leaf" (instance-wise leaf weights) or "estimator".
	Weighting string
	Feature   Int32s   // [E][2^d−1] feature of every internal node
	Threshold Float32s // [E][2^d−1] threshold of every internal node
	Leaves    Float32s // [E][2^d][C] leaf value vectors
	Weights   Float32s // [E][2^d] leaf weight logits, or [E] tree weight logits

	estA []float64 // softmax of the tree weights (estimator weighting)
}

// FlattenTrees builds the flat form from full, unpruned plain trees in the
// kernel's numbering (interpret.FromKernel of every tree), in tree order.
// treeWeights are the per-tree weight logits for estimator weighting (nil
// for instance-wise leaf weights, which the trees' leaves carry).
func FlattenTrees(trees []*interpret.Tree, depth int, treeWeights []float32) (*Flat, error) {
	E := len(trees)
	if E == 0 {
		return nil, fmt.Errorf("grande: FlattenTrees: no trees")
	}
	if depth < 1 || depth > tree.MaxDepth {
		return nil, fmt.Errorf("grande: FlattenTrees: depth %d: expected 1…%d", depth, tree.MaxDepth)
	}
	ni, nl := 1<<depth-1, 1<<depth
	C := trees[0].Outputs
	f := &Flat{Trees: E, Depth: depth, Outputs: C, Weighting: "leaf",
		Feature: make(Int32s, E*ni), Threshold: make(Float32s, E*ni), Leaves: make(Float32s, E*nl*C)}
	if treeWeights != nil {
		if len(treeWeights) != E {
			return nil, fmt.Errorf("grande: FlattenTrees: %d tree weights for %d trees", len(treeWeights), E)
		}
		f.Weighting = "estimator"
		f.Weights = append(Float32s(nil), treeWeights...)
	} else {
		f.Weights = make(Float32s, E*nl)
	}
	for e, t := range trees {
		if t == nil || len(t.Nodes) != ni+nl || t.Outputs != C {
			return nil, fmt.Errorf("grande: FlattenTrees: tree %d is not a full tree of depth %d with %d outputs (pruned trees cannot be flattened)", e, depth, C)
		}
		if treeWeights == nil && !t.Weighted {
			return nil, fmt.Errorf("grande: FlattenTrees: tree %d has no leaf weights", e)
		}
		for i := 0; i < ni; i++ {
			nd := &t.Nodes[i]
			if nd.IsLeaf() || nd.Left != 2*i+1 || nd.Right != 2*i+2 {
				return nil, fmt.Errorf("grande: FlattenTrees: tree %d node %d is not the internal node of a full breadth-first tree", e, i)
			}
			f.Feature[e*ni+i] = int32(nd.Feature)
			f.Threshold[e*ni+i] = nd.Threshold
		}
		for l := 0; l < nl; l++ {
			nd := &t.Nodes[ni+l]
			if !nd.IsLeaf() || len(nd.Value) != C {
				return nil, fmt.Errorf("grande: FlattenTrees: tree %d node %d is not a leaf with %d values", e, ni+l, C)
			}
			copy(f.Leaves[(e*nl+l)*C:], nd.Value)
			if treeWeights == nil {
				f.Weights[e*nl+l] = nd.Weight
			}
		}
	}
	return f, f.init(0)
}

// init validates the arrays (features must be below features when > 0)
// and precomputes the tree-weight softmax. Not safe concurrently with
// Predict.
func (f *Flat) init(features int) error {
	if err := f.validate(features); err != nil {
		return err
	}
	f.estA = f.treeSoftmax()
	return nil
}

// validate checks the shape of the arrays and that every node tests a
// feature in [0, features) (features ≤ 0: only non-negative).
func (f *Flat) validate(features int) error {
	if f.Trees < 1 || f.Depth < 1 || f.Depth > tree.MaxDepth || f.Outputs < 1 {
		return fmt.Errorf("grande: flat ensemble: %d trees of depth %d with %d outputs: expected at least one tree, depth 1…%d, outputs ≥ 1", f.Trees, f.Depth, f.Outputs, tree.MaxDepth)
	}
	ni, nl := 1<<f.Depth-1, 1<<f.Depth
	wl := f.Trees * nl
	if f.Weighting == "estimator" {
		wl = f.Trees
	} else if f.Weighting != "leaf" {
		return fmt.Errorf("grande: flat ensemble: weighting %q: expected leaf or estimator", f.Weighting)
	}
	if len(f.Feature) != f.Trees*ni || len(f.Threshold) != f.Trees*ni || len(f.Leaves) != f.Trees*nl*f.Outputs || len(f.Weights) != wl {
		return fmt.Errorf("grande: flat ensemble: arrays of %d features, %d thresholds, %d leaf values, %d weights: expected %d, %d, %d, %d",
			len(f.Feature), len(f.Threshold), len(f.Leaves), len(f.Weights), f.Trees*ni, f.Trees*ni, f.Trees*nl*f.Outputs, wl)
	}
	for i, ft := range f.Feature {
		if ft < 0 || (features > 0 && int(ft) >= features) {
			return fmt.Errorf("grande: flat ensemble: tree %d node %d tests feature %d: expected 0…%d", i/ni, i%ni, ft, max(features, 1)-1)
		}
	}
	return nil
}

// treeSoftmax returns the softmax of the per-tree weight logits for
// estimator weighting (nil otherwise), with the kernel's operations
// (tree.Kernel.Prepare): max, exp(v − max), running sum, division.
func (f *Flat) treeSoftmax() []float64 {
	if f.Weighting != "estimator" {
		return nil
	}
	a := make([]float64, f.Trees)
	m := math.Inf(-1)
	for _, v := range f.Weights {
		m = math.Max(m, float64(v))
	}
	var s float64
	for i, v := range f.Weights {
		a[i] = math.Exp(float64(v) - m)
		s += a[i]
	}
	for i := range a {
		a[i] /= s
	}
	return a
}

// flatBlock is the number of rows routed together: one tree's nodes stay
// in cache while the block's rows pass it.
const flatBlock = 64

// Predict writes the raw outputs ([rows][C]) of X into a new slice, using
// workers goroutines (0 = GOMAXPROCS). The result is bit-identical to the
// kernel's Predict on the same trees (tree.Kernel.Predict) for any number
// of workers: routing compares the same float32 values, and the per-row
// softmax and weighted sum run over the trees in index order in float64
// with exactly the kernel's operations (max, exp(v − max), running sum,
// division; then Σ a_e·value skipping zero weights), rounded to float32
// once. A different summation order (e.g. pairwise or SIMD lanes) would
// change the last bits, so keep it sequential per row.
func (f *Flat) Predict(X *data.Matrix, workers int) ([]float32, error) {
	if X == nil || X.Check() != nil {
		return nil, fmt.Errorf("grande: Predict: malformed input matrix")
	}
	if err := f.validate(X.Cols); err != nil {
		return nil, err
	}
	estA := f.estA
	if f.Weighting == "estimator" && len(estA) != f.Trees {
		estA = f.treeSoftmax()
	}
	out := make([]float32, X.Rows*f.Outputs)
	if X.Rows == 0 {
		return out, nil
	}
	blocks := (X.Rows + flatBlock - 1) / flatBlock
	workers = resolveWorkers(workers, blocks)
	var wg sync.WaitGroup
	var next atomic.Int64
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := f.newScratch()
			for b := int(next.Add(1) - 1); b < blocks; b = int(next.Add(1) - 1) {
				lo := b * flatBlock
				f.predictBlock(X, lo, min(lo+flatBlock, X.Rows), estA, out, s)
			}
		}()
	}
	wg.Wait()
	return out, nil
}

type flatScratch struct {
	leaf []int32   // [E][block]
	a    []float64 // [E][block]
	mx   []float64 // [block]
	sum  []float64 // [block]
	acc  []float64 // [block][C]
}

func (f *Flat) newScratch() *flatScratch {
	return &flatScratch{
		leaf: make([]int32, f.Trees*flatBlock),
		a:    make([]float64, f.Trees*flatBlock),
		mx:   make([]float64, flatBlock),
		sum:  make([]float64, flatBlock),
		acc:  make([]float64, flatBlock*f.Outputs),
	}
}

// predictBlock computes rows lo…hi−1 (one row's values are independent of
// the block, so blocking does not change any result).
func (f *Flat) predictBlock(X *data.Matrix, lo, hi int, estA []float64, out []float32, s *flatScratch) {
	E, C, n := f.Trees, f.Outputs, X.Cols
	ni, nl := 1<<f.Depth-1, 1<<f.Depth
	nb := hi - lo
	d := f.Depth
	xs := X.Data[lo*n : hi*n]
	for e := 0; e < E; e++ {
		feat := f.Feature[e*ni : (e+1)*ni]
		thr := f.Threshold[e*ni : (e+1)*ni]
		lv := s.leaf[e*flatBlock:]
		// Branch-free descent, one level at a time over the block's rows:
		// the rows' steps within a level are independent, so the CPU
		// overlaps their chains of loads (node → feature → value →
		// compare) instead of waiting on one row's chain per level.
		lv = lv[:nb]
		clear(lv)
		for j := 0; j < d; j++ {
			for b, node := range lv {
				lv[b] = 2*node + 1 + b2i32(!(xs[b*n+int(feat[node])] < thr[node]))
			}
		}
		for b := range lv {
			lv[b] -= int32(ni)
		}
	}
	if E == 1 {
		for b := 0; b < nb; b++ {
			copy(out[(lo+b)*C:(lo+b+1)*C], f.Leaves[int(s.leaf[b])*C:][:C])
		}
		return
	}
	acc := s.acc[:nb*C]
	clear(acc)
	// add accumulates row b's share w of tree e's leaf value.
	add := func(e, b int, w float64) {
		row := f.Leaves[(e*nl+int(s.leaf[e*flatBlock+b]))*C:][:C]
		ab := acc[b*C : (b+1)*C]
		for c, v := range row {
			ab[c] += w * float64(v)
		}
	}
	if f.Weighting == "estimator" {
		for e := 0; e < E; e++ {
			if w := estA[e]; w != 0 {
				for b := 0; b < nb; b++ {
					add(e, b, w)
				}
			}
		}
	} else {
		a := s.a
		mx, sum := s.mx[:nb], s.sum[:nb]
		for b := range mx {
			mx[b] = math.Inf(-1)
		}
		for e := 0; e < E; e++ {
			for b := 0; b < nb; b++ {
				v := float64(f.Weights[e*nl+int(s.leaf[e*flatBlock+b])])
				a[e*flatBlock+b] = v
				mx[b] = max(mx[b], v) // the builtin: math.Max's semantics, compiled inline
			}
		}
		clear(sum)
		for e := 0; e < E; e++ {
			for b := 0; b < nb; b++ {
				v := math.Exp(a[e*flatBlock+b] - mx[b])
				a[e*flatBlock+b] = v
				sum[b] += v
			}
		}
		// The normalisation a/sum is done where the weight is used (the
		// same division, so the same bits), saving a pass over a.
		for e := 0; e < E; e++ {
			for b := 0; b < nb; b++ {
				if w := a[e*flatBlock+b] / sum[b]; w != 0 {
					add(e, b, w)
				}
			}
		}
	}
	for i, v := range acc {
		out[lo*C+i] = float32(v)
	}
}

// resolveWorkers returns the number of goroutines for n independent parts:
// workers (0 = GOMAXPROCS), at most n, at least 1.
func resolveWorkers(workers, n int) int {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	return max(1, min(workers, n))
}

// b2i32 converts a bool to 0 or 1 (compiled without a branch).
func b2i32(b bool) int32 {
	if b {
		return 1
	}
	return 0
}
