package tree

import (
	"fmt"
	"math"
	"sync"
)

// Params holds the trainable tensors of a kernel in the flat layout described
// in the package documentation. A gradient has the same shape.
type Params struct {
	// IndexLogits is Z, [E][I][n_e]: feature-selection logits per node.
	IndexLogits []float32
	// Thresholds is T, [E][I][n_e]: a threshold per node and column.
	Thresholds []float32
	// Leaves is Λ, [E][L][C]: the value (logit) vector of every leaf.
	Leaves []float32
	// LeafWeights is W: [E][L] (LeafWeights), [E] (EstimatorWeights) or
	// empty (NoWeights).
	LeafWeights []float32
}

// Tensor names one parameter tensor of a Params.
type Tensor struct {
	// Name is "index", "threshold", "leaf" or "weight".
	Name string
	// Data is the tensor's backing slice (shared, not copied).
	Data []float32
}

// Tensors lists the non-empty tensors in a fixed order (index logits,
// thresholds, leaves, weights), sharing their storage; optimisers use it to
// give every tensor its own learning rate.
func (p *Params) Tensors() []Tensor {
	ts := []Tensor{{"index", p.IndexLogits}, {"threshold", p.Thresholds}, {"leaf", p.Leaves}}
	if len(p.LeafWeights) > 0 {
		ts = append(ts, Tensor{"weight", p.LeafWeights})
	}
	return ts
}

// CopyFrom copies q into p; shapes must match.
func (p *Params) CopyFrom(q *Params) error {
	if len(p.IndexLogits) != len(q.IndexLogits) || len(p.Thresholds) != len(q.Thresholds) ||
		len(p.Leaves) != len(q.Leaves) || len(p.LeafWeights) != len(q.LeafWeights) {
		return fmt.Errorf("tree: Params.CopyFrom: shapes differ (index %d/%d, threshold %d/%d, leaf %d/%d, weight %d/%d)",
			len(p.IndexLogits), len(q.IndexLogits), len(p.Thresholds), len(q.Thresholds),
			len(p.Leaves), len(q.Leaves), len(p.LeafWeights), len(q.LeafWeights))
	}
	copy(p.IndexLogits, q.IndexLogits)
	copy(p.Thresholds, q.Thresholds)
	copy(p.Leaves, q.Leaves)
	copy(p.LeafWeights, q.LeafWeights)
	return nil
}

// NewParams returns zeroed tensors with the kernel's shapes (e.g. for a
// gradient or an optimiser state).
func (k *Kernel) NewParams() *Params {
	return &Params{
		IndexLogits: make([]float32, k.e*k.ni*k.ne),
		Thresholds:  make([]float32, k.e*k.ni*k.ne),
		Leaves:      make([]float32, k.e*k.nl*k.c),
		LeafWeights: make([]float32, k.weightLen()),
	}
}

func (k *Kernel) weightLen() int {
	switch k.mode {
	case LeafWeights:
		return k.e * k.nl
	case EstimatorWeights:
		return k.e
	}
	return 0
}

// checkShape reports whether p has the kernel's shapes.
func (k *Kernel) checkShape(p *Params, what string) error {
	if p == nil {
		return fmt.Errorf("tree: %s is nil", what)
	}
	want := [4]int{k.e * k.ni * k.ne, k.e * k.ni * k.ne, k.e * k.nl * k.c, k.weightLen()}
	got := [4]int{len(p.IndexLogits), len(p.Thresholds), len(p.Leaves), len(p.LeafWeights)}
	names := [4]string{"IndexLogits", "Thresholds", "Leaves", "LeafWeights"}
	for i := range want {
		if want[i] != got[i] {
			return fmt.Errorf("tree: %s.%s has %d elements: expected %d", what, names[i], got[i], want[i])
		}
	}
	return nil
}

// InitScheme selects a parameter initialisation (spec §1.3).
type InitScheme int

const (
	// InitGlorot is the published GradTree scheme (GT-paper): Z ~ U(−a, a)
	// with a = sqrt(6/(I + n_e)); T is set to exactly the same matrix as Z
	// (the reference draws both with the same seed and shape); leaf values
	// ~ U(−b, b) with b = sqrt(6/(2L)) for C = 1 and sqrt(6/(L + C))
	// otherwise; weights (if any) ~ U(−c, c) with c = sqrt(6/(2L)) (or
	// sqrt(6/(2E)) for one weight per tree).
	InitGlorot InitScheme = iota
	// InitNormal is the GRANDE scheme (and GradTree's pip package): every
	// tensor ~ N(0, 0.05²), drawn from streams seeded seed+3 (Z), seed+2 (T),
	// seed+4 (Λ) and seed+1 (W) as in the reference.
	InitNormal
)

// String returns the name of the scheme.
func (s InitScheme) String() string {
	switch s {
	case InitGlorot:
		return "glorot"
	case InitNormal:
		return "normal"
	}
	return fmt.Sprintf("InitScheme(%d)", int(s))
}

// Init fills the kernel's parameters deterministically from seed with the
// given scheme and marks them unprepared. Random streams are the package's
// own (SplitMix64 + Box–Muller); distributions and bounds follow the
// reference, bit patterns do not.
func (k *Kernel) Init(scheme InitScheme, seed uint64) error {
	p := &k.params
	switch scheme {
	case InitGlorot:
		r := newSplitMix(seed)
		a := math.Sqrt(6 / float64(k.ni+k.ne))
		fillUniform(p.IndexLogits, a, r)
		copy(p.Thresholds, p.IndexLogits)
		b := math.Sqrt(6 / float64(2*k.nl))
		if k.c > 1 {
			b = math.Sqrt(6 / float64(k.nl+k.c))
		}
		fillUniform(p.Leaves, b, r)
		c := math.Sqrt(6 / float64(2*k.nl))
		if k.mode == EstimatorWeights {
			c = math.Sqrt(6 / float64(2*k.e))
		}
		fillUniform(p.LeafWeights, c, r)
	case InitNormal:
		fillNormal(p.IndexLogits, 0.05, newSplitMix(seed+3))
		fillNormal(p.Thresholds, 0.05, newSplitMix(seed+2))
		fillNormal(p.Leaves, 0.05, newSplitMix(seed+4))
		fillNormal(p.LeafWeights, 0.05, newSplitMix(seed+1))
	default:
		return fmt.Errorf("tree: Init scheme %d: expected InitGlorot or InitNormal", int(scheme))
	}
	k.prepared = false
	return nil
}

// InitDataAware is GT-paper's optional "dataAware" initialisation: every
// threshold T[e,i,k] is the value of column F[e,k] in a random row of x
// ([rows][n]), Z and Λ ~ N(0, 1), weights ~ N(0, 0.05²).
func (k *Kernel) InitDataAware(x []float32, rows int, seed uint64) error {
	if rows < 1 || len(x) != rows*k.n {
		return fmt.Errorf("tree: InitDataAware: x has %d values for %d rows: expected rows ≥ 1 and %d values", len(x), rows, rows*k.n)
	}
	p := &k.params
	fillNormal(p.IndexLogits, 1, newSplitMix(seed+3))
	r := newSplitMix(seed + 2)
	for e := 0; e < k.e; e++ {
		for i := 0; i < k.ni; i++ {
			row := p.Thresholds[(e*k.ni+i)*k.ne:][:k.ne]
			for c := range row {
				b := int(r.float64() * float64(rows))
				if b >= rows {
					b = rows - 1
				}
				row[c] = x[b*k.n+int(k.feat[e*k.ne+c])]
			}
		}
	}
	fillNormal(p.Leaves, 1, newSplitMix(seed+4))
	fillNormal(p.LeafWeights, 0.05, newSplitMix(seed+1))
	k.prepared = false
	return nil
}

// splitMix is SplitMix64, the kernel's own deterministic random stream.
type splitMix struct {
	s        uint64
	hasGauss bool
	gauss    float64
}

func newSplitMix(seed uint64) *splitMix { return &splitMix{s: seed} }

func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func (r *splitMix) uint64() uint64 {
	r.s += 0x9e3779b97f4a7c15
	return mix64(r.s)
}

// float64 returns a uniform number in [0, 1).
func (r *splitMix) float64() float64 { return float64(r.uint64()>>11) / (1 << 53) }

// norm returns a standard normal number (Box–Muller, both values used).
func (r *splitMix) norm() float64 {
	if r.hasGauss {
		r.hasGauss = false
		return r.gauss
	}
	u1 := 1 - r.float64() // (0, 1]
	u2 := r.float64()
	rad := math.Sqrt(-2 * math.Log(u1))
	r.gauss = rad * math.Sin(2*math.Pi*u2)
	r.hasGauss = true
	return rad * math.Cos(2*math.Pi*u2)
}

func fillUniform(dst []float32, a float64, r *splitMix) {
	for i := range dst {
		dst[i] = float32((2*r.float64() - 1) * a)
	}
}

func fillNormal(dst []float32, std float64, r *splitMix) {
	for i := range dst {
		dst[i] = float32(std * r.norm())
	}
}

// DropoutMask fills keep ([B][E], sample-major) with independent
// Bernoulli(1 − rate) draws: keep[b*E+e] = false drops tree e for sample b
// (estimator dropout, spec §2.7). Every entry is a pure function of seed
// and its index, so the mask does not depend on how work is scheduled; use a
// different seed every step.
func DropoutMask(keep []bool, rate float64, seed uint64) error {
	if !(rate >= 0 && rate <= 1) {
		return fmt.Errorf("tree: DropoutMask: rate %v: expected a number in [0, 1]", rate)
	}
	base := mix64(seed ^ 0x5851f42d4c957f2d)
	// entry i is kept when u = k/2⁵³ ≥ rate for its draw k < 2⁵³, that
	// is when k ≥ ⌈rate·2⁵³⌉ (rate·2⁵³ is exact)
	cut := uint64(math.Ceil(rate * (1 << 53)))
	w := resolveWorkers(0)
	size, parts := chunks(len(keep), w, 1<<14)
	m := maskJobs.Get().(*maskJob)
	m.keep, m.base, m.cut, m.size = keep, base, cut, size
	if parts <= 1 {
		m.part(0, 0)
	} else {
		execute(&m.j, parts, w)
	}
	m.keep = nil
	maskJobs.Put(m)
	return nil
}

// maskJob is one DropoutMask call: part p fills entries [p·size,
// (p+1)·size) of keep. The jobs are pooled, so that a call allocates
// nothing.
type maskJob struct {
	j         job
	keep      []bool
	base, cut uint64
	size      int
}

var maskJobs = sync.Pool{New: func() any {
	m := new(maskJob)
	m.j.run = m.part
	return m
}}

func (m *maskJob) part(p, _ int) {
	keep, base, cut := m.keep, m.base, m.cut
	for i := p * m.size; i < min((p+1)*m.size, len(keep)); i++ {
		keep[i] = mix64(base+uint64(i)*0x9e3779b97f4a7c15)>>11 >= cut
	}
}
