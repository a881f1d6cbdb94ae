package ensemble

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
)

// Block is the number of rows a Predictor routes together: one tree's
// nodes stay in cache while the block's rows pass it, and the rows' steps
// within a level are independent, so the CPU overlaps their chains of
// loads. Blocking never changes a result: every row is computed alone.
const Block = 64

// Predictor is an Ensemble compiled for prediction: validated, with its
// leaves' values (and, for LeafWeights, their exponentiated weights)
// gathered in tables, and — when every tree is a complete tree of one
// depth stored breadth first (GRANDE's and GradTree's) — routed level by
// level without branches. A Predictor is safe for concurrent use; it
// reads the Ensemble it was compiled from, which must not change.
type Predictor struct {
	m       *Ensemble
	e, c, f int
	// depth > 0: every tree is complete of this depth, breadth first
	// (node i of a tree has children 2i+1 and 2i+2 from its root).
	depth int
	// asm: complete trees of depth ≤ 6 are descended with routeAVX512,
	// which reads every tree's nodes from tabF and tabT (routeTables).
	asm  bool
	tabF []int32
	tabT []float32
	// leafID maps a leaf node to its row of the leaf tables (leaves in
	// node order, so a complete tree's leaves are consecutive), −1 at an
	// internal node; leafStart[t] is tree t's first leaf row.
	leafID    []int32
	leafStart []int32
	leafNode  []int32 // the node of every leaf row
	// value: [leaves][C] leaf values in float64, premultiplied by expW
	// when expW is set.
	value []float64
	// expW: LeafWeights with a small enough range (expTable): every leaf's
	// exp(w − max). Nil otherwise.
	expW []float64
	// logit: LeafWeights with a wide range: every leaf's weight logit (the
	// exact per-row softmax path).
	logit []float64
	// treeA: TreeWeights: the softmax of the tree weights.
	treeA []float64
	pool  sync.Pool // *scratch
}

type scratch struct {
	acc  []float64 // [Block][C]
	sum  []float64 // [Block]
	leaf []int32   // [chunk][Block], or [E][Block] on the exact softmax path
	a    []float64 // [E] one row's logits (exact softmax path)
	off  []int32   // [Block] the rows' offsets in the block (AVX-512 descent)
	all  []int32   // [E][Block] every tree's leaf rows (Predictor.Shares)
}

// minVectorRows is the fewest rows the AVX-512 descent routes: it always
// descends Block rows, so below this the Go descent of the rows alone is
// cheaper (one row: ≈ 11 ns a tree in Go against ≈ 320 ns a tree for a
// whole block, one core).
const minVectorRows = 24

// chunk is the number of trees routed before their leaves are summed: the
// leaf rows of a chunk (chunk × Block int32) stay in the first-level cache.
const chunk = 32

// Compile validates m (features > 0: the model-space width it must have)
// and builds its Predictor.
func (m *Ensemble) Compile(features int) (*Predictor, error) {
	if err := m.Validate(features); err != nil {
		return nil, err
	}
	p := &Predictor{m: m, e: m.Trees(), c: m.Outputs, f: m.Features}
	p.depth = m.CompleteDepth()
	if p.asm = haveRouteAVX512 && p.depth > 0 && p.depth <= 6; p.asm {
		p.routeTables()
	}
	N, C := m.Nodes(), m.Outputs
	p.leafID = make([]int32, N)
	p.leafStart = make([]int32, p.e)
	var leaves []int32
	for t := 0; t < p.e; t++ {
		lo, hi := m.Span(t)
		p.leafStart[t] = int32(len(leaves))
		for n := lo; n < hi; n++ {
			p.leafID[n] = -1
			if m.Feature[n] < 0 {
				p.leafID[n] = int32(len(leaves))
				leaves = append(leaves, int32(n))
			}
		}
	}
	p.leafNode = leaves
	p.value = make([]float64, len(leaves)*C)
	for i, n := range leaves {
		for c, v := range m.LeafValue(int(n)) {
			p.value[i*C+c] = float64(v)
		}
	}
	w := m.Weighting
	if p.e == 1 {
		w = Mean // a single tree's share is 1 whatever its weights
	}
	switch w {
	case TreeWeights:
		p.treeA = make([]float64, p.e)
		for t, v := range m.TreeWeight {
			p.treeA[t] = float64(v)
		}
		softmax(p.treeA)
	case LeafWeights:
		w := make([]float32, len(leaves))
		for i, n := range leaves {
			w[i] = m.LeafWeight[n]
		}
		if e, ok := expTable(w); ok {
			p.expW = e
			for i, ew := range e {
				for c := 0; c < C; c++ {
					p.value[i*C+c] *= ew
				}
			}
		} else {
			p.logit = make([]float64, len(w))
			for i, v := range w {
				p.logit[i] = float64(v)
			}
		}
	}
	p.pool.New = func() any {
		s := &scratch{acc: make([]float64, Block*C), sum: make([]float64, Block), leaf: make([]int32, chunk*Block), off: make([]int32, Block)}
		if p.logit != nil {
			s.leaf, s.a = make([]int32, max(chunk, p.e)*Block), make([]float64, p.e)
		}
		return s
	}
	return p, nil
}

// CompleteDepth returns d ≥ 1 when every tree of a valid m is complete of
// depth d and stored breadth first from its root (as NewComplete builds
// them: GRANDE's and GradTree's trees), else 0.
func (m *Ensemble) CompleteDepth() int {
	lo, hi := m.Span(0)
	d := 0
	for (2<<d)-1 < hi-lo {
		d++
	}
	if d == 0 || d > 30 || (2<<d)-1 != hi-lo {
		return 0
	}
	ni := 1<<d - 1
	for t := 0; t < m.Trees(); t++ {
		lo, hi := m.Span(t)
		if hi-lo != 2*ni+1 {
			return 0
		}
		for i := 0; i < ni; i++ {
			if m.Feature[lo+i] < 0 || int(m.Left[lo+i]) != lo+2*i+1 || int(m.Right[lo+i]) != lo+2*i+2 {
				return 0
			}
		}
	}
	return d
}

// Ensemble returns the ensemble p predicts with.
func (p *Predictor) Ensemble() *Ensemble { return p.m }

// Predict writes the outputs ([rows][Outputs]) of the row-major matrix x
// ([rows][Features]) into out, using workers goroutines over blocks of
// rows (0 = GOMAXPROCS). Row i's output is Σ_t a_t(x)·value_t(x) over the
// leaves it reaches (Shares gives a), or the mean of the values for Mean,
// accumulated in float64 in tree order and rounded to float32 once. Every
// row is computed alone, so the result does not depend on workers.
//
// LeafWeights: when the leaf weight logits span at most 600, the
// exponentials exp(w − max over all leaves) are taken once at Compile and
// the output is Σ e·v / Σ e (softmax is shift-invariant); this differs
// from the per-row softmax of Shares only in float64 rounding, which
// survives the rounding to float32 very rarely (the last bit). A wider
// range uses the per-row softmax.
func (p *Predictor) Predict(x []float32, rows int, out []float32, workers int) error {
	if rows < 0 || len(x) != rows*p.f {
		return fmt.Errorf("ensemble: Predict: %d input values for %d rows × %d features", len(x), rows, p.f)
	}
	if len(out) != rows*p.c {
		return fmt.Errorf("ensemble: Predict: %d output values for %d rows × %d outputs", len(out), rows, p.c)
	}
	return p.blocks(rows, workers, func(lo, hi int, s *scratch) { p.block(x, lo, hi, out, s) })
}

// blocks runs f over the blocks of Block rows of rows rows, on workers
// goroutines (0 = GOMAXPROCS; inline for one), each with its scratch.
func (p *Predictor) blocks(rows, workers int, f func(lo, hi int, s *scratch)) error {
	blocks := (rows + Block - 1) / Block
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, blocks))
	if workers == 1 {
		s := p.pool.Get().(*scratch)
		for lo := 0; lo < rows; lo += Block {
			f(lo, min(lo+Block, rows), s)
		}
		p.pool.Put(s)
		return nil
	}
	var wg sync.WaitGroup
	var next atomic.Int64
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := p.pool.Get().(*scratch)
			for b := int(next.Add(1) - 1); b < blocks; b = int(next.Add(1) - 1) {
				lo := b * Block
				f(lo, min(lo+Block, rows), s)
			}
			p.pool.Put(s)
		}()
	}
	wg.Wait()
	return nil
}

// routeChunk writes the leaf rows (of the leaf tables) that rows lo…hi−1
// of x reach in trees t0…t1−1 into leaf[(t−t0)·Block + b].
func (p *Predictor) routeChunk(t0, t1 int, x []float32, lo, hi int, leaf, off []int32) {
	if p.depth > 0 && hi-lo <= fewRows {
		p.routeFew(t0, t1, x, lo, hi, leaf)
		return
	}
	if !p.asm || hi-lo < minVectorRows {
		for t := t0; t < t1; t++ {
			p.route(t, x, lo, hi, leaf[(t-t0)*Block:])
		}
		return
	}
	n, nb := p.f, hi-lo
	off = off[:Block]
	for b := range off {
		off[b] = 0 // rows past the block's end read its first row; their leaves are not used
		if b < nb {
			off[b] = int32(b * n)
		}
	}
	ni, nl := int32(1<<p.depth-1), int32(1<<p.depth)
	_ = leaf[(t1-t0)*Block-1]
	_ = x[hi*n-1]
	_, _ = p.tabF[t1*64-1], p.tabT[t1*64-1]
	routeAVX512(&p.tabF[t0*64], &p.tabT[t0*64], &x[lo*n], &off[0], &leaf[0], t1-t0, p.depth, p.leafStart[t0]-ni, nl)
}

// routeTables lays out the internal nodes of every complete tree (depth
// ≤ 6) for routeAVX512: 64 features and 64 thresholds per tree, those of
// nodes 0…31 then of nodes 31…62 (entries past the tree's internal nodes
// are 0; no row reaches them).
func (p *Predictor) routeTables() {
	m, ni := p.m, 1<<p.depth-1
	p.tabF, p.tabT = make([]int32, 64*p.e), make([]float32, 64*p.e)
	for t := 0; t < p.e; t++ {
		r := int(m.Roots[t])
		for j := 0; j < 64; j++ {
			i := j
			if j >= 32 {
				i = j - 1 // nodes 31…62
			}
			if i < ni {
				p.tabF[t*64+j], p.tabT[t*64+j] = m.Feature[r+i], m.Threshold[r+i]
			}
		}
	}
}

// fewRows is the most rows routeFew descends (a single request's rows).
const fewRows = 4

// routeFew is routeChunk for a few rows of complete trees: every row
// descends four trees at a time (Child), so that the trees' independent
// chains of loads overlap where one row alone would wait on each level.
func (p *Predictor) routeFew(t0, t1 int, x []float32, lo, hi int, leaf []int32) {
	m, n, d := p.m, p.f, p.depth
	ni := 1<<d - 1
	size := 2*ni + 1
	for b := 0; b < hi-lo; b++ {
		row := x[(lo+b)*n : (lo+b+1)*n]
		t := t0
		for ; t+4 <= t1; t += 4 {
			r := int(m.Roots[t])
			f0, h0 := m.Feature[r:r+ni], m.Threshold[r:r+ni]
			f1, h1 := m.Feature[r+size:r+size+ni], m.Threshold[r+size:r+size+ni]
			f2, h2 := m.Feature[r+2*size:r+2*size+ni], m.Threshold[r+2*size:r+2*size+ni]
			f3, h3 := m.Feature[r+3*size:r+3*size+ni], m.Threshold[r+3*size:r+3*size+ni]
			n0, n1, n2, n3 := 0, 0, 0, 0
			for j := 0; j < d; j++ {
				n0 = Child(n0, row[f0[n0]], h0[n0])
				n1 = Child(n1, row[f1[n1]], h1[n1])
				n2 = Child(n2, row[f2[n2]], h2[n2])
				n3 = Child(n3, row[f3[n3]], h3[n3])
			}
			base := int(p.leafStart[t]) - ni
			leaf[(t-t0)*Block+b] = int32(base + n0)
			leaf[(t+1-t0)*Block+b] = int32(base + n1 + (1 << d))
			leaf[(t+2-t0)*Block+b] = int32(base + n2 + 2*(1<<d))
			leaf[(t+3-t0)*Block+b] = int32(base + n3 + 3*(1<<d))
		}
		for ; t < t1; t++ {
			r := int(m.Roots[t])
			f, h := m.Feature[r:r+ni], m.Threshold[r:r+ni]
			node := 0
			for j := 0; j < d; j++ {
				node = Child(node, row[f[node]], h[node])
			}
			leaf[(t-t0)*Block+b] = p.leafStart[t] - int32(ni) + int32(node)
		}
	}
}

// route writes the leaf rows (of the leaf tables) that rows lo…hi−1 of x
// reach in tree t into leaf[:hi−lo].
func (p *Predictor) route(t int, x []float32, lo, hi int, leaf []int32) {
	m, n := p.m, p.f
	nb := hi - lo
	leaf = leaf[:nb]
	xs := x[lo*n : hi*n]
	if p.depth == 0 {
		for b := range leaf {
			leaf[b] = p.leafID[m.Leaf(t, xs[b*n:(b+1)*n])]
		}
		return
	}
	// Complete tree: the descent of Ensemble.Leaf with implicit children
	// (node i → 2i+1 + [x ≥ threshold]), one level at a time over the
	// block's rows, without branches.
	ni := 1<<p.depth - 1
	r := int(m.Roots[t])
	feat := m.Feature[r : r+ni]
	thr := m.Threshold[r : r+ni]
	clear(leaf)
	for j := 0; j < p.depth; j++ {
		for b, node := range leaf {
			leaf[b] = Child(node, xs[b*n+int(feat[node])], thr[node])
		}
	}
	base := p.leafStart[t] - int32(ni)
	for b := range leaf {
		leaf[b] += base
	}
}

// Child returns the child of internal node i of a complete tree stored
// breadth first (children 2i+1 and 2i+2) that a row with value v of the
// node's feature goes to: the step of Ensemble.Leaf with implicit
// children (GoesLeft), compiled without a branch. The tree kernel's
// training forward descends with it too.
func Child[I int | int32](i I, v, threshold float32) I {
	var right I
	if !GoesLeft(v, threshold) {
		right = 1
	}
	return 2*i + 1 + right
}

// block computes the outputs of rows lo…hi−1.
func (p *Predictor) block(x []float32, lo, hi int, out []float32, s *scratch) {
	C, nb := p.c, hi-lo
	acc, sum := s.acc[:nb*C], s.sum[:nb]
	clear(acc)
	clear(sum)
	switch {
	case p.logit != nil:
		p.blockSoftmax(x, lo, hi, out, s)
		return
	case p.expW != nil:
		vector := p.asm && C == 1 && nb >= minVectorRows
		if vector { // every lane of the vectors is summed, the block's rows are read
			acc, sum = s.acc[:Block], s.sum[:Block]
			clear(acc)
			clear(sum)
		}
		for t0 := 0; t0 < p.e; t0 += chunk {
			t1 := min(t0+chunk, p.e)
			p.routeChunk(t0, t1, x, lo, hi, s.leaf, s.off)
			if vector {
				_ = s.leaf[(t1-t0)*Block-1]
				accumAVX512(&s.leaf[0], &p.expW[0], &p.value[0], &sum[0], &acc[0], t1-t0)
				continue
			}
			for t := t0; t < t1; t++ {
				leaf := s.leaf[(t-t0)*Block:][:nb]
				if C == 1 {
					for b, l := range leaf {
						sum[b] += p.expW[l]
						acc[b] += p.value[l]
					}
					continue
				}
				for b, l := range leaf {
					sum[b] += p.expW[l]
					ab, v := acc[b*C:(b+1)*C], p.value[int(l)*C:][:C]
					for c := range ab {
						ab[c] += v[c]
					}
				}
			}
		}
		for b := 0; b < nb; b++ {
			for c := 0; c < C; c++ {
				out[(lo+b)*C+c] = float32(acc[b*C+c] / sum[b])
			}
		}
		return
	}
	for t0 := 0; t0 < p.e; t0 += chunk {
		t1 := min(t0+chunk, p.e)
		p.routeChunk(t0, t1, x, lo, hi, s.leaf, s.off)
		for t := t0; t < t1; t++ {
			w := 1.0
			if p.treeA != nil {
				if w = p.treeA[t]; w == 0 {
					continue
				}
			}
			for b, l := range s.leaf[(t-t0)*Block:][:nb] {
				ab, v := acc[b*C:(b+1)*C], p.value[int(l)*C:][:C]
				for c := range ab {
					ab[c] += w * v[c]
				}
			}
		}
	}
	div := 1.0
	if p.treeA == nil {
		div = float64(p.e) // Mean
	}
	for i, v := range acc {
		out[lo*C+i] = float32(v / div)
	}
}

// blockSoftmax is the exact per-row path of LeafWeights (leaf logits too
// wide for expTable): every row's shares are the softmax of its reached
// leaves' logits (as Shares), then Σ_t a_t·value_t skipping zero shares.
func (p *Predictor) blockSoftmax(x []float32, lo, hi int, out []float32, s *scratch) {
	C, nb := p.c, hi-lo
	p.routeChunk(0, p.e, x, lo, hi, s.leaf, s.off)
	a := s.a
	for b := 0; b < nb; b++ {
		for t := range a {
			a[t] = p.logit[s.leaf[t*Block+b]]
		}
		softmax(a)
		ab := s.acc[b*C : (b+1)*C]
		for t, w := range a {
			if w == 0 {
				continue
			}
			v := p.value[int(s.leaf[t*Block+b])*C:][:C]
			for c := range ab {
				ab[c] += w * v[c]
			}
		}
		for c, v := range ab {
			out[(lo+b)*C+c] = float32(v)
		}
	}
}
