// Package sdt holds the soft-decision-tree baselines of the SYMPOL study
// (spec sympol-rl §6.2–§6.3): SDT, a full-complexity soft decision tree
// used as a PPO actor or critic (a policy.Net), and D-SDT, the SDT
// discretised post hoc into a hard, axis-aligned tree.
//
// # SDT
//
// A tree of depth D has N = 2^D − 1 inner nodes (breadth first, children of
// i are 2i+1 and 2i+2) and L = 2^D leaves. With temperature T, inner kernel
// W ([N][F], row i = the feature logits of node i), bias b ([N]) and leaf
// kernel K ([L][A]):
//
//	β_i = entmax15(W_i / T)                 (feature weights, per node)
//	s_i = (x·β_i − b_i) / T,  p_i = entmoid15(s_i)
//	μ_root = 1, μ_{2i+1} = μ_i·p_i, μ_{2i+2} = μ_i·(1 − p_i)
//	out = Σ_l μ_l · K_l
//
// with entmoid15(t) = (t + sqrt(8 − t²))²/16 on |t| < 2 (0 below, 1 above).
// The backward pass is written by hand (and checked against finite
// differences in the tests).
//
// # D-SDT
//
// Discretize replaces every node's feature weights by one-hot(argmax β_i)
// and its bias by b_i/β_{j,i}; routing becomes hard: left iff x_j > b_i/β_{j,i}
// (the orientation opposite to SYMPOL's). Discrete leaves become
// one-hot(argmax K_l); continuous leaves keep their means. The result acts
// greedily and converts exactly into an interpret.Tree.
package sdt

import (
	"fmt"
	"math"

	"github.com/gdt-ml/gdt/rl/policy"
	"github.com/gdt-ml/gdt/rng"
	"github.com/gdt-ml/gdt/tree"
)

// Tensor groups of the SDT networks (the optimiser groups of the trainer:
// the MLP baseline's "actor" learning rate applies to an SDT actor).
const (
	GroupActor  = "actor"
	GroupCritic = "critic"
)

// Tree is a soft decision tree seen as a policy.Net (critic) or
// policy.Actor (actor). It is not safe for concurrent use.
type Tree struct {
	in, out, depth int
	nInt, nLeaf    int
	temp           float64
	dist           policy.Dist
	actor          bool

	w, b, k    []float32 // parameters
	gw, gb, gk []float32 // gradients
	logStd     []float32
	gLog       []float32
	ts         []policy.Tensor

	beta []float32 // [N][F] entmax15(W_i/T), refreshed by Changed
	z    []float32 // scratch [F]

	fw, pw work // Forward and Predict state

	dmu   []float64 // [N+L] per-sample backward scratch
	dbeta []float64 // [N][F] accumulated dL/dβ
	db    []float64 // [N]
	dk    []float64 // [L][A]
}

// work holds the per-batch state of a forward pass.
type work struct {
	B  int
	x  []float32 // [B][F] copy of the input (Forward only)
	s  []float32 // [B][N] scaled pre-activations
	p  []float32 // [B][N] routing probabilities
	mu []float32 // [B][N+L] path probabilities
}

func (w *work) grow(B, F, N, L int, keepX bool) {
	w.B = B
	if keepX && cap(w.x) < B*F {
		w.x = make([]float32, B*F)
	}
	if keepX {
		w.x = w.x[:B*F]
	}
	if cap(w.s) < B*N {
		w.s = make([]float32, B*N)
		w.p = make([]float32, B*N)
	}
	w.s, w.p = w.s[:B*N], w.p[:B*N]
	if cap(w.mu) < B*(N+L) {
		w.mu = make([]float32, B*(N+L))
	}
	w.mu = w.mu[:B*(N+L)]
}

// Config sets the shape of an SDT.
type Config struct {
	// Depth D of the tree (1…16).
	Depth int
	// Temperature T > 0 of the routing and of the feature weights.
	Temperature float64
}

func (c Config) validate() error {
	if c.Depth < 1 || c.Depth > 16 {
		return fmt.Errorf("sdt: depth %d: expected 1…16", c.Depth)
	}
	if !(c.Temperature > 0) || math.IsInf(c.Temperature, 0) {
		return fmt.Errorf("sdt: temperature %v: expected a positive finite number", c.Temperature)
	}
	return nil
}

// NewActor returns an SDT actor on in observation features with the head
// dist (spec §6.2): W ~ N(0, 0.1²), b ~ N(0, 1), K ~ N(0, 0.1²) drawn from
// seed; for a continuous head a log standard deviation vector initialised
// to 0. The tree's tensors are in group "actor", the log-std in "log_std".
func NewActor(in int, dist policy.Dist, cfg Config, seed uint64) (*Tree, error) {
	if dist.A < 1 || dist.A > 64 {
		return nil, fmt.Errorf("sdt actor: %d actions, expected 1…64", dist.A)
	}
	t, err := newTree(in, dist.A, cfg, seed, GroupActor)
	if err != nil {
		return nil, err
	}
	t.dist, t.actor = dist, true
	if !dist.Discrete {
		t.logStd = make([]float32, dist.A)
		t.gLog = make([]float32, dist.A)
		t.ts = append(t.ts, policy.Tensor{Name: "log_std", Group: policy.GroupLogStd, Value: t.logStd, Grad: t.gLog})
	}
	return t, nil
}

// NewCritic returns an SDT value network (one output, group "critic"),
// the reference's `critic = sdt` option.
func NewCritic(in int, cfg Config, seed uint64) (*Tree, error) {
	return newTree(in, 1, cfg, seed, GroupCritic)
}

func newTree(in, out int, cfg Config, seed uint64, group string) (*Tree, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if in < 1 {
		return nil, fmt.Errorf("sdt: %d input features, expected ≥ 1", in)
	}
	N := 1<<cfg.Depth - 1
	L := 1 << cfg.Depth
	t := &Tree{in: in, out: out, depth: cfg.Depth, nInt: N, nLeaf: L, temp: cfg.Temperature}
	t.w, t.gw = make([]float32, N*in), make([]float32, N*in)
	t.b, t.gb = make([]float32, N), make([]float32, N)
	t.k, t.gk = make([]float32, L*out), make([]float32, L*out)
	r := rng.New(uint32(seed))
	for i := range t.w {
		t.w[i] = float32(0.1 * r.NormFloat64())
	}
	for i := range t.b {
		t.b[i] = float32(r.NormFloat64())
	}
	for i := range t.k {
		t.k[i] = float32(0.1 * r.NormFloat64())
	}
	t.ts = []policy.Tensor{
		{Name: "sdt_inner_kernel", Group: group, Value: t.w, Grad: t.gw},
		{Name: "sdt_inner_bias", Group: group, Value: t.b, Grad: t.gb},
		{Name: "sdt_leaf_kernel", Group: group, Value: t.k, Grad: t.gk},
	}
	t.beta = make([]float32, N*in)
	t.z = make([]float32, in)
	t.dmu = make([]float64, N+L)
	t.dbeta = make([]float64, N*in)
	t.db = make([]float64, N)
	t.dk = make([]float64, L*out)
	t.Changed()
	return t, nil
}

// In returns the input width.
func (t *Tree) In() int { return t.in }

// Out returns the output width (A for an actor, 1 for a critic).
func (t *Tree) Out() int { return t.out }

// Depth returns the tree depth.
func (t *Tree) Depth() int { return t.depth }

// Temperature returns T.
func (t *Tree) Temperature() float64 { return t.temp }

// Dist returns the head (zero for a critic).
func (t *Tree) Dist() policy.Dist { return t.dist }

// LogStd returns the log standard deviations (continuous actor only).
func (t *Tree) LogStd() []float32 { return t.logStd }

// LogStdGrad returns the gradient buffer of LogStd.
func (t *Tree) LogStdGrad() []float32 { return t.gLog }

// Tensors lists sdt_inner_kernel ([N][F]), sdt_inner_bias ([N]),
// sdt_leaf_kernel ([L][A]) and, for a continuous actor, log_std.
func (t *Tree) Tensors() []policy.Tensor { return t.ts }

// Changed recomputes the feature weights β after a parameter change.
func (t *Tree) Changed() {
	F := t.in
	inv := float32(1 / t.temp)
	for i := 0; i < t.nInt; i++ {
		for n := 0; n < F; n++ {
			t.z[n] = t.w[i*F+n] * inv
		}
		tree.Entmax15(t.beta[i*F:(i+1)*F], t.z)
	}
}

// Entmoid15 is entmax-1.5 of the pair (s, 0), first component:
// (s + sqrt(8 − s²))²/16 for |s| < 2, 0 for s ≤ −2 and 1 for s ≥ 2.
func Entmoid15(s float64) float64 {
	switch {
	case s >= 2:
		return 1
	case s <= -2:
		return 0
	}
	u := s + math.Sqrt(8-s*s)
	return u * u / 16
}

// entmoidGrad is the derivative of Entmoid15.
func entmoidGrad(s float64) float64 {
	if s >= 2 || s <= -2 {
		return 0
	}
	r := math.Sqrt(8 - s*s)
	return (s + r) * (1 - s/r) / 8
}

// forward evaluates rows of x into out using w's buffers.
func (t *Tree) forward(w *work, x []float32, B int, out []float32) {
	F, N, L, A := t.in, t.nInt, t.nLeaf, t.out
	invT := 1 / t.temp
	for j := 0; j < B; j++ {
		xr := x[j*F : (j+1)*F]
		s := w.s[j*N : (j+1)*N]
		p := w.p[j*N : (j+1)*N]
		mu := w.mu[j*(N+L) : (j+1)*(N+L)]
		mu[0] = 1
		for i := 0; i < N; i++ {
			br := t.beta[i*F : (i+1)*F]
			var dot float32
			for n, v := range xr {
				dot += v * br[n]
			}
			si := (float64(dot) - float64(t.b[i])) * invT
			pi := Entmoid15(si)
			s[i], p[i] = float32(si), float32(pi)
			mu[2*i+1] = mu[i] * float32(pi)
			mu[2*i+2] = mu[i] * float32(1-pi)
		}
		o := out[j*A : (j+1)*A]
		clear(o)
		for l := 0; l < L; l++ {
			m := mu[N+l]
			if m == 0 {
				continue
			}
			kr := t.k[l*A : (l+1)*A]
			for a := range o {
				o[a] += m * kr[a]
			}
		}
	}
}

func checkBatch(x []float32, B, in int, out []float32, width int) error {
	if B < 0 || len(x) < B*in {
		return fmt.Errorf("sdt: input holds %d values, expected %d rows × %d", len(x), B, in)
	}
	if len(out) < B*width {
		return fmt.Errorf("sdt: output holds %d values, expected %d rows × %d", len(out), B, width)
	}
	return nil
}

// Forward evaluates the training batch x ([B][In]) into out ([B][Out]) and
// keeps what Backward needs.
func (t *Tree) Forward(x []float32, B int, out []float32) error {
	if err := checkBatch(x, B, t.in, out, t.out); err != nil {
		return err
	}
	t.fw.grow(B, t.in, t.nInt, t.nLeaf, true)
	copy(t.fw.x, x[:B*t.in])
	t.forward(&t.fw, t.fw.x, B, out)
	return nil
}

// Predict evaluates x without touching the Forward state.
func (t *Tree) Predict(x []float32, B int, out []float32) error {
	if err := checkBatch(x, B, t.in, out, t.out); err != nil {
		return err
	}
	t.pw.grow(B, t.in, t.nInt, t.nLeaf, false)
	t.forward(&t.pw, x, B, out)
	return nil
}

// Backward takes dL/d(out) ([B][Out]) of the last Forward and overwrites the
// gradients of W, b and K (not of log_std, which the trainer writes).
func (t *Tree) Backward(dOut []float32) error {
	w := &t.fw
	B, F, N, L, A := w.B, t.in, t.nInt, t.nLeaf, t.out
	if len(dOut) < B*A {
		return fmt.Errorf("sdt: output gradient holds %d values, expected %d rows × %d", len(dOut), B, A)
	}
	clear(t.dbeta)
	clear(t.db)
	clear(t.dk)
	invT := 1 / t.temp
	dmu := t.dmu
	for j := 0; j < B; j++ {
		g := dOut[j*A : (j+1)*A]
		xr := w.x[j*F : (j+1)*F]
		s := w.s[j*N : (j+1)*N]
		p := w.p[j*N : (j+1)*N]
		mu := w.mu[j*(N+L) : (j+1)*(N+L)]
		for l := 0; l < L; l++ {
			kr := t.k[l*A : (l+1)*A]
			dk := t.dk[l*A : (l+1)*A]
			m := float64(mu[N+l])
			var d float64
			for a, ga := range g {
				d += float64(ga) * float64(kr[a])
				dk[a] += m * float64(ga)
			}
			dmu[N+l] = d
		}
		for i := N - 1; i >= 0; i-- {
			dl, dr := dmu[2*i+1], dmu[2*i+2]
			pi := float64(p[i])
			dmu[i] = dl*pi + dr*(1-pi)
			ds := float64(mu[i]) * (dl - dr) * entmoidGrad(float64(s[i]))
			if ds == 0 {
				continue
			}
			c := ds * invT
			t.db[i] -= c
			db := t.dbeta[i*F : (i+1)*F]
			for n, v := range xr {
				db[n] += c * float64(v)
			}
		}
	}
	for i, v := range t.db {
		t.gb[i] = float32(v)
	}
	for i, v := range t.dk {
		t.gk[i] = float32(v)
	}
	// dL/dW_i = J_entmax(W_i/T)ᵀ · dL/dβ_i / T.
	gbuf := t.gw // reuse as float32 staging, row by row
	for i := 0; i < N; i++ {
		row := gbuf[i*F : (i+1)*F]
		for n := 0; n < F; n++ {
			row[n] = float32(t.dbeta[i*F+n])
			t.z[n] = t.w[i*F+n] * float32(invT)
		}
		tree.Entmax15VJP(row, t.z, row)
		for n := range row {
			row[n] = float32(float64(row[n]) * invT)
		}
	}
	return nil
}
