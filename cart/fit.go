package cart

import (
	"github.com/gdt-ml/gdt/pairwise"

	"fmt"
	"math"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/rng"
)

// FitClassifier grows a classification tree on X (rows = samples) and
// labels y (class indices 0..nClasses-1 stored as float64), as sklearn's
// DecisionTreeClassifier(random_state=cfg.Seed).fit(X, y, sample_weight)
// does. sampleWeight may be nil (all ones); rows with weight 0 are ignored,
// as sklearn ignores them. cfg.ClassWeight multiplies the sample weights.
func FitClassifier(X *data.Matrix, y []float64, nClasses int, cfg Config, sampleWeight []float64) (*Tree, error) {
	if nClasses < 1 {
		return nil, fmt.Errorf("cart: nClasses = %d, expected at least 1", nClasses)
	}
	if err := checkXY(X, y); err != nil {
		return nil, err
	}
	p, err := cfg.resolve(X.Cols, nClasses)
	if err != nil {
		return nil, err
	}
	labels := make([]int32, len(y))
	for i, v := range y {
		c, err := classLabel(v, nClasses)
		if err != nil {
			return nil, fmt.Errorf("cart: y[%d]: %w", i, err)
		}
		labels[i] = int32(c)
	}
	w, err := checkWeights(sampleWeight, len(y))
	if err != nil {
		return nil, err
	}
	if cfg.Balanced {
		if cfg.ClassWeight != nil {
			return nil, fmt.Errorf("cart: Config.Balanced and Config.ClassWeight are both set; choose one")
		}
		if cfg.ClassWeight, err = BalancedWeights(y, nClasses); err != nil {
			return nil, err
		}
	}
	if cfg.ClassWeight != nil {
		if w == nil {
			w = make([]float64, len(y))
			for i, c := range labels {
				w[i] = cfg.ClassWeight[c]
			}
		} else {
			for i, c := range labels {
				w[i] *= cfg.ClassWeight[c]
			}
		}
	}
	b := newBuilder(X, p, nClasses, uint32(cfg.Seed))
	b.labels = labels
	if err := b.setWeights(w); err != nil {
		return nil, err
	}
	return b.build(), nil
}

// FitRegressor grows a regression tree on X and real targets y, as
// sklearn's DecisionTreeRegressor(random_state=cfg.Seed).fit(X, y,
// sample_weight) does. sampleWeight may be nil (all ones); rows with weight
// 0 are ignored.
func FitRegressor(X *data.Matrix, y []float64, cfg Config, sampleWeight []float64) (*Tree, error) {
	if err := checkXY(X, y); err != nil {
		return nil, err
	}
	p, err := cfg.resolve(X.Cols, 0)
	if err != nil {
		return nil, err
	}
	for i, v := range y {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("cart: y[%d] = %v: regression targets must be finite", i, v)
		}
	}
	w, err := checkWeights(sampleWeight, len(y))
	if err != nil {
		return nil, err
	}
	b := newBuilder(X, p, 0, uint32(cfg.Seed))
	b.target = y
	if err := b.setWeights(w); err != nil {
		return nil, err
	}
	return b.build(), nil
}

func checkXY(X *data.Matrix, y []float64) error {
	if X == nil {
		return fmt.Errorf("cart: X is nil")
	}
	if err := X.Check(); err != nil {
		return fmt.Errorf("cart: X: %w", err)
	}
	if X.Rows == 0 || X.Cols == 0 {
		return fmt.Errorf("cart: X is %dx%d; need at least one row and one column", X.Rows, X.Cols)
	}
	if X.Rows > math.MaxInt32 {
		return fmt.Errorf("cart: X has %d rows; at most %d are supported", X.Rows, math.MaxInt32)
	}
	if len(y) != X.Rows {
		return fmt.Errorf("cart: y has %d values but X has %d rows", len(y), X.Rows)
	}
	return checkFinite(X)
}

// checkWeights validates user sample weights and returns a private copy
// (nil when sw is nil).
func checkWeights(sw []float64, n int) ([]float64, error) {
	if sw == nil {
		return nil, nil
	}
	if len(sw) != n {
		return nil, fmt.Errorf("cart: sampleWeight has %d values but X has %d rows", len(sw), n)
	}
	for i, v := range sw {
		if !(v >= 0) || math.IsInf(v, 1) {
			return nil, fmt.Errorf("cart: sampleWeight[%d] = %v: expected a finite weight >= 0", i, v)
		}
	}
	return append([]float64(nil), sw...), nil
}

// Numerical constants of sklearn's tree code.
const (
	// featureThreshold: two sorted feature values closer than this are
	// treated as equal (no split between them).
	featureThreshold = 1e-7
	// epsilon is float64 machine epsilon (np.finfo(np.double).eps).
	epsilon = 2.220446049250313e-16
)

// sampleVal is one entry of a presorted feature column.
type sampleVal struct {
	v float32
	i int32
}

// record is a node waiting on the depth-first stack.
type record struct {
	start, end int
	depth      int
	parent     int32
	isLeft     bool
	impurity   float64
	nConst     int
}

// split is the best split found at a node.
type split struct {
	feature    int
	pos        int // absolute position of the first right sample; end if none
	threshold  float64
	proxy      float64
	improve    float64
	impLeft    float64
	impRight   float64
	nConstants int
}

// builder grows one tree. All buffers are allocated once per fit.
type builder struct {
	p          params
	nF, nRows  int
	nC         int // number of classes; 0 for regression
	x          *data.Matrix
	labels     []int32   // class of each row (classification)
	target     []float64 // target of each row (regression)
	w          []float64 // weight of each row (ones when unweighted)
	active     []int32   // rows with non-zero weight, ascending
	n          int       // len(active)
	totalW     float64   // weight of all rows (sklearn weighted_n_samples)
	minWLeaf   float64
	cols       []sampleVal // nF presorted columns of n entries each
	order      []int32     // rows in the order of sklearn's samples array
	tmp        []sampleVal
	goLeft     []uint8      // per row: 1 if it goes to the left child
	rows       [][2]float64 // per row: {w·y, w} (regression) or {w·[c=0], w·[c=1]} (binary)
	isConst    []bool       // per feature, scratch
	features   []int
	constFeats []int
	randState  uint32
	ln2        float64

	// criterion scratch, one entry per class (one for regression)
	sumTotal, sumLeft, sumRight []float64
	sqTotal                     float64
	wNode                       float64

	values []float64
	stack  []record
}

func newBuilder(X *data.Matrix, p params, nClasses int, seed uint32) *builder {
	b := &builder{p: p, nF: X.Cols, nRows: X.Rows, nC: nClasses, x: X, ln2: math.Log(2.0)}
	k := nClasses
	if k == 0 {
		k = 1
	}
	b.sumTotal = make([]float64, k)
	b.sumLeft = make([]float64, k)
	b.sumRight = make([]float64, k)
	// sklearn: rand_r_state = RandomState(random_state).randint(0, RAND_R_MAX).
	b.randState = uint32(rng.New(seed).Interval(0x7FFFFFFF - 1))
	b.features = make([]int, b.nF)
	for f := range b.features {
		b.features[f] = f
	}
	b.constFeats = make([]int, b.nF)
	b.isConst = make([]bool, b.nF)
	return b
}

// setWeights installs the effective weights (nil = unit) and the active
// row list.
func (b *builder) setWeights(w []float64) error {
	b.active = make([]int32, 0, b.nRows)
	if w == nil {
		w = make([]float64, b.nRows)
		for i := range w {
			w[i] = 1
		}
	}
	b.totalW = 0
	for i, v := range w {
		if v != 0 {
			b.active = append(b.active, int32(i))
		}
		b.totalW += v
	}
	if len(b.active) == 0 {
		return fmt.Errorf("cart: every sample has weight 0 (after class weights); nothing to fit")
	}
	b.w = w
	b.n = len(b.active)
	b.minWLeaf = b.p.minWeightFrac * b.totalW
	return nil
}

// ourRandR is sklearn's 32-bit xorshift generator (utils/_random.pxd).
func (b *builder) ourRandR() uint32 {
	s := b.randState
	if s == 0 {
		s = 1
	}
	s ^= s << 13
	s ^= s >> 17
	s ^= s << 5
	b.randState = s
	return s % (uint32(0x7FFFFFFF) + 1)
}

// randBelow returns an integer in [0, n) as sklearn's rand_int(low, low+n).
func (b *builder) randBelow(n int) int {
	return int(int64(b.ourRandR()) % int64(n))
}

func (b *builder) seg(f, start, end int) []sampleVal {
	return b.cols[f*b.n+start : f*b.n+end]
}

func (b *builder) build() *Tree {
	b.presort()
	b.goLeft = make([]uint8, b.nRows)
	b.packRows()
	b.order = append([]int32(nil), b.active...)
	b.tmp = make([]sampleVal, b.n)
	nOut := b.nC
	if nOut == 0 {
		nOut = 1
	}
	t := &Tree{NumFeatures: b.nF, NumClasses: b.nC, Criterion: b.p.crit}
	b.stack = append(b.stack[:0], record{start: 0, end: b.n, parent: -1, impurity: math.Inf(1)})
	first := true
	for len(b.stack) > 0 {
		r := b.stack[len(b.stack)-1]
		b.stack = b.stack[:len(b.stack)-1]
		nNode := r.end - r.start
		b.nodeReset(r)
		wn := b.wNode
		isLeaf := r.depth >= b.p.maxDepth || nNode < b.p.minSplit || nNode < 2*b.p.minLeaf || wn < 2*b.minWLeaf
		impurity := r.impurity
		if first {
			impurity = b.nodeImpurity()
			first = false
		}
		isLeaf = isLeaf || impurity <= epsilon
		var sp split
		if !isLeaf {
			sp = b.nodeSplit(r.start, r.end, impurity, r.nConst)
			isLeaf = sp.pos >= r.end || sp.improve+epsilon < b.p.minDecrease
		}
		id := int32(len(t.Nodes))
		node := Node{Feature: -1, Left: -1, Right: -1, N: nNode, WeightedN: wn, Impurity: impurity}
		if !isLeaf {
			node.Feature = int32(sp.feature)
			node.Threshold = sp.threshold
		}
		t.Nodes = append(t.Nodes, node)
		if r.parent >= 0 {
			if r.isLeft {
				t.Nodes[r.parent].Left = id
			} else {
				t.Nodes[r.parent].Right = id
			}
		}
		b.appendValue(wn)
		if !isLeaf {
			b.partition(r, &sp)
			b.stack = append(b.stack,
				record{start: sp.pos, end: r.end, depth: r.depth + 1, parent: id, impurity: sp.impRight, nConst: sp.nConstants},
				record{start: r.start, end: sp.pos, depth: r.depth + 1, parent: id, isLeft: true, impurity: sp.impLeft, nConst: sp.nConstants})
		}
	}
	for i := range t.Nodes {
		t.Nodes[i].Value = b.values[i*nOut : (i+1)*nOut : (i+1)*nOut]
	}
	return t
}

// packRows fills b.rows for the specialised scans.
func (b *builder) packRows() {
	switch {
	case b.nC == 0:
		b.rows = make([][2]float64, b.nRows)
		for i, w := range b.w {
			b.rows[i] = [2]float64{w * b.target[i], w}
		}
	case b.nC == 2:
		b.rows = make([][2]float64, b.nRows)
		for i, w := range b.w {
			b.rows[i][b.labels[i]] = w
		}
	}
}

// appendValue stores the current node's prediction.
func (b *builder) appendValue(wn float64) {
	if b.nC == 0 {
		b.values = append(b.values, b.sumTotal[0]/wn)
		return
	}
	s := pairwise.Sum(b.sumTotal)
	if s == 0 {
		s = 1
	}
	for _, v := range b.sumTotal {
		b.values = append(b.values, v/s)
	}
}

// nodeReset computes the node statistics (sklearn Criterion.init): weighted
// class counts or target sums, and the node weight.
func (b *builder) nodeReset(r record) {
	st := b.sumTotal
	for c := range st {
		st[c] = 0
	}
	wn, sq := 0.0, 0.0
	w := b.w
	for _, i := range b.order[r.start:r.end] {
		wn, sq = b.addTotal(i, w[i], wn, sq)
	}
	b.wNode = wn
	b.sqTotal = sq
}

func (b *builder) addTotal(i int32, wi, wn, sq float64) (float64, float64) {
	if b.nC > 0 {
		b.sumTotal[b.labels[i]] += wi
	} else {
		y := b.target[i]
		wy := wi * y
		b.sumTotal[0] += wy
		sq += float64(wy * y)
	}
	return wn + wi, sq
}

// nodeImpurity is the impurity of the current node from its totals.
func (b *builder) nodeImpurity() float64 {
	return b.impurityOf(b.sumTotal, b.wNode, b.sqTotal)
}

// impurityOf computes the impurity from class sums (or target sum and
// squared sum) and weight, with sklearn's order of operations.
func (b *builder) impurityOf(sums []float64, wn, sq float64) float64 {
	switch b.p.crit {
	case Gini:
		sqc := 0.0
		for _, c := range sums {
			sqc += float64(c * c)
		}
		return 1.0 - sqc/float64(wn*wn)
	case Entropy:
		e := 0.0
		for _, c := range sums {
			if c > 0 {
				q := c / wn
				e -= float64(q * (math.Log(q) / b.ln2))
			}
		}
		return e
	default:
		m := sums[0] / wn
		return sq/wn - float64(m*m)
	}
}
