package optim

import (
	"errors"
	"fmt"
	"math"
)

// Rule selects the floating-point recipe of an Adam step (see the package
// documentation).
type Rule uint8

const (
	// Keras is TF/Keras Adam: ε added to the uncorrected √v ("ε-hat"), bias
	// correction folded into the step size. The published GradTree and
	// GRANDE runs used it (spec §5.1).
	Keras Rule = iota
	// Torch is torch.optim.Adam / AdamW: ε added to the bias-corrected √v̂.
	Torch
	// Optax is optax.adam / optax.adamw (SYMPOL, spec sympol-rl §1.6).
	Optax
)

// String returns the rule's name.
func (r Rule) String() string {
	switch r {
	case Keras:
		return "keras"
	case Torch:
		return "torch"
	case Optax:
		return "optax"
	}
	return fmt.Sprintf("Rule(%d)", uint8(r))
}

// ParseRule returns the rule named s ("keras", "torch" or "optax").
func ParseRule(s string) (Rule, error) {
	for _, r := range []Rule{Keras, Torch, Optax} {
		if r.String() == s {
			return r, nil
		}
	}
	return 0, fmt.Errorf("optim: unknown rule %q, want keras, torch or optax", s)
}

// Defaults returns the rule's default β1, β2 and ε: (0.9, 0.999, 1e−7) for
// Keras, (0.9, 0.999, 1e−8) for Torch and Optax.
func (r Rule) Defaults() (beta1, beta2, eps float64) {
	if r == Keras {
		return 0.9, 0.999, 1e-7
	}
	return 0.9, 0.999, 1e-8
}

// Param is one named parameter tensor: Value is updated in place from Grad.
// Both are usually views into a model's flat storage; they must have the
// same length and must not overlap.
type Param struct {
	Name  string
	Value []float32
	Grad  []float32
}

// Group is a set of parameters with one learning rate and one set of
// hyperparameters (one reference optimiser instance).
type Group struct {
	// Name identifies the group (unique within an optimiser).
	Name string
	// Params are the tensors of the group (names unique within the group).
	Params []Param
	// LR is the base learning rate (≥ 0).
	LR float64
	// Schedule multiplies LR by Factor(t−1) at step t; nil means constant.
	Schedule Schedule
	// Rule selects the floating-point recipe.
	Rule Rule
	// Beta1, Beta2 ∈ [0, 1) and Epsilon > 0 are taken literally; NewGroup
	// fills the rule's defaults.
	Beta1, Beta2, Epsilon float64
	// WeightDecay λ ≥ 0 is decoupled weight decay (AdamW); 0 means Adam.
	WeightDecay float64
	// Frozen groups are never updated (their state is kept).
	Frozen bool
}

// NewGroup returns a group with the rule's default betas and ε.
func NewGroup(rule Rule, name string, lr float64, params ...Param) Group {
	b1, b2, eps := rule.Defaults()
	return Group{Name: name, Params: params, LR: lr, Rule: rule, Beta1: b1, Beta2: b2, Epsilon: eps}
}

// Optimizer is what a training loop needs from an optimiser.
type Optimizer interface {
	// Step applies one update to every parameter from its gradient.
	Step()
	// ZeroGrad sets every gradient to zero.
	ZeroGrad()
	// Steps returns the number of steps taken.
	Steps() int64
	// State returns a deep copy of the optimiser state.
	State() *State
	// LoadState restores a state returned by State.
	LoadState(*State) error
}

// slot is the optimiser's view of one parameter and its state.
type slot struct {
	id           int // index in Adam.slots
	group, index int
	name         string
	p, g         []float32
	m, v         []float32
	// live has one bit per entry: 1 if m or v may be non-zero.
	live []uint64
	// chunkLive marks chunks (of chunkWords words) that are swept densely.
	chunkLive []bool
	// lazy is the state of the exact lazy sweep (tensors of at most
	// lazyMaxLen entries of Keras groups without weight decay; nil
	// otherwise).
	lazy *lazyState
	// hint, if set for step hintStep, holds every entry whose gradient may
	// be non-zero (HintGrad); useHint is set during that step's sweep.
	hint     []uint64
	hintStep int64
	useHint  bool
	// external marks, during EndStep, a tensor the caller updated with
	// Ranged.Update.
	external bool
}

type group struct {
	cfg   Group
	slots []*slot
	scale float64
	dense bool // weight decay moves every entry: no skip
	// lazy groups (Keras, no weight decay) run the exact lazy sweep; gt
	// counts their non-frozen steps and c2 is their 1 − β2.
	lazy bool
	gt   int32
	c2   float32
}

// Adam is Adam/AdamW over parameter groups. It is not safe for concurrent
// use; its sweeps run on SetWorkers goroutines.
type Adam struct {
	// sweepFn is the function of the running sweep, sweepIdx the
	// closure that calls it on a part by index (built once)
	sweepFn  func(p part)
	sweepIdx func(i int)
	groups   []*group
	slots    []*slot
	parts    []part
	size     int // total number of entries
	t        int64
	workers  int
	coefs    []coef
	stepFn   func(part) // stepPart, bound once (no allocation per Step)
	endFn    func(part) // stepPart of the tensors not marked external
}

var errNoGroups = errors.New("optim: no parameter groups")

// NewAdam validates the groups and returns an optimiser with zero state.
// The groups' slices are kept (not copied): the optimiser updates them in
// place.
func NewAdam(groups ...Group) (*Adam, error) {
	if len(groups) == 0 {
		return nil, errNoGroups
	}
	a := &Adam{}
	seen := map[string]bool{}
	for gi, g := range groups {
		if err := validateGroup(gi, g); err != nil {
			return nil, err
		}
		if seen[g.Name] {
			return nil, fmt.Errorf("optim: group %d: duplicate group name %q", gi, g.Name)
		}
		seen[g.Name] = true
		gr := &group{cfg: g, scale: 1, dense: g.WeightDecay != 0}
		gr.lazy = g.Rule == Keras && !gr.dense
		gr.c2 = 1 - float32(g.Beta2)
		gr.cfg.Params = append([]Param(nil), g.Params...)
		for pi, p := range g.Params {
			s := &slot{id: len(a.slots), group: gi, index: pi, name: p.Name, p: p.Value, g: p.Grad,
				m: make([]float32, len(p.Value)), v: make([]float32, len(p.Value)),
				live: make([]uint64, (len(p.Value)+63)/64)}
			s.chunkLive = make([]bool, (len(s.live)+chunkWords-1)/chunkWords)
			if gr.lazy && len(p.Value) <= lazyMaxLen {
				s.lazy = newLazyState(len(p.Value))
			}
			gr.slots = append(gr.slots, s)
			a.slots = append(a.slots, s)
		}
		a.groups = append(a.groups, gr)
	}
	a.coefs = make([]coef, len(a.groups))
	a.stepFn = a.stepPart
	a.parts = makeParts(a.slots)
	for _, s := range a.slots {
		a.size += len(s.p)
	}
	return a, nil
}

func validateGroup(gi int, g Group) error {
	where := fmt.Sprintf("optim: group %d (%q)", gi, g.Name)
	if g.Name == "" {
		return fmt.Errorf("optim: group %d: empty name", gi)
	}
	if g.Rule > Optax {
		return fmt.Errorf("%s: unknown Rule %d, want Keras, Torch or Optax", where, g.Rule)
	}
	if !(g.LR >= 0) || math.IsInf(g.LR, 0) {
		return fmt.Errorf("%s: LR = %v, want a finite value ≥ 0", where, g.LR)
	}
	if !(g.Beta1 >= 0 && g.Beta1 < 1) {
		return fmt.Errorf("%s: Beta1 = %v, want 0 ≤ β1 < 1 (NewGroup sets the rule's defaults)", where, g.Beta1)
	}
	if !(g.Beta2 >= 0 && g.Beta2 < 1) {
		return fmt.Errorf("%s: Beta2 = %v, want 0 ≤ β2 < 1 (NewGroup sets the rule's defaults)", where, g.Beta2)
	}
	if !(g.Epsilon > 0) || math.IsInf(g.Epsilon, 0) {
		return fmt.Errorf("%s: Epsilon = %v, want a finite value > 0 (NewGroup sets the rule's defaults)", where, g.Epsilon)
	}
	if !(g.WeightDecay >= 0) || math.IsInf(g.WeightDecay, 0) {
		return fmt.Errorf("%s: WeightDecay = %v, want a finite value ≥ 0", where, g.WeightDecay)
	}
	if v, ok := g.Schedule.(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil {
			return fmt.Errorf("%s: schedule: %w", where, err)
		}
	}
	names := map[string]bool{}
	for pi, p := range g.Params {
		if p.Name == "" {
			return fmt.Errorf("%s: param %d: empty name", where, pi)
		}
		if names[p.Name] {
			return fmt.Errorf("%s: param %d: duplicate name %q", where, pi, p.Name)
		}
		names[p.Name] = true
		if len(p.Value) != len(p.Grad) {
			return fmt.Errorf("%s: param %q: len(Value) = %d but len(Grad) = %d, want equal", where, p.Name, len(p.Value), len(p.Grad))
		}
		if len(p.Value) > 0 && len(p.Grad) > 0 && overlap(p.Value, p.Grad) {
			return fmt.Errorf("%s: param %q: Value and Grad share memory", where, p.Name)
		}
	}
	return nil
}

// overlap reports whether two non-empty float32 slices share memory.
func overlap(a, b []float32) bool {
	a0, b0 := addr(&a[0]), addr(&b[0])
	a1, b1 := a0+uintptr(len(a))*4, b0+uintptr(len(b))*4
	return a0 < b1 && b0 < a1
}

// Steps returns the number of steps taken.
func (a *Adam) Steps() int64 { return a.t }

// SetWorkers sets the number of goroutines of the parallel sweeps; n ≤ 0
// means GOMAXPROCS (the default). Results do not depend on n.
func (a *Adam) SetWorkers(n int) { a.workers = n }

// Groups returns the names of the groups in order.
func (a *Adam) Groups() []string {
	out := make([]string, len(a.groups))
	for i, g := range a.groups {
		out[i] = g.cfg.Name
	}
	return out
}

func (a *Adam) findGroups(names []string) ([]*group, error) {
	if len(names) == 0 {
		return a.groups, nil
	}
	out := make([]*group, 0, len(names))
	for _, n := range names {
		var hit *group
		for _, g := range a.groups {
			if g.cfg.Name == n {
				hit = g
				break
			}
		}
		if hit == nil {
			return nil, fmt.Errorf("optim: no group named %q (groups: %v)", n, a.Groups())
		}
		out = append(out, hit)
	}
	return out, nil
}

// SetLRScale sets the learning-rate multiplier of the named groups (all
// groups if none is named): the rate of a step is LR·Schedule·scale. A
// reduce-on-plateau scheduler drives it (Plateau.Scale). The scale is part of
// the State.
func (a *Adam) SetLRScale(scale float64, groups ...string) error {
	if !(scale >= 0) || math.IsInf(scale, 0) {
		return fmt.Errorf("optim: learning-rate scale %v, want a finite value ≥ 0", scale)
	}
	gs, err := a.findGroups(groups)
	if err != nil {
		return err
	}
	for _, g := range gs {
		g.scale = scale
	}
	return nil
}

// LR returns the learning rate the next step will use for the named group.
func (a *Adam) LR(group string) (float64, error) {
	gs, err := a.findGroups([]string{group})
	if err != nil {
		return 0, err
	}
	return gs[0].lr(a.t), nil
}

// lr is the rate of the step after step count t (schedule evaluated at t).
func (g *group) lr(t int64) float64 {
	lr := g.cfg.LR * g.scale
	if g.cfg.Schedule != nil {
		lr *= g.cfg.Schedule.Factor(t)
	}
	return lr
}

// Step applies one Adam update to every parameter of every non-frozen group.
func (a *Adam) Step() {
	// (when the lazy timestamps would overflow, BeginStep brings every
	// entry up to date and continues with the plain skip)
	a.BeginStep()
	a.sweep(a.stepFn)
	for _, s := range a.slots {
		s.hint, s.useHint = nil, false
	}
}

// HintGrad promises that at the next Step the gradient of the parameter
// tensor whose Value is value is ±0 outside the entries set in mask (bit
// i%64 of word i/64 for entry i; a superset of the non-zero entries is
// fine), so that Step need not scan the gradient for them. The mask must
// stay unchanged until that Step, which forgets it. Results are the same
// with or without a hint. It returns an error for an unknown tensor or a
// mask shorter than the tensor; tensors outside the exact lazy sweep
// ignore the hint.
func (a *Adam) HintGrad(value []float32, mask []uint64) error {
	for _, s := range a.slots {
		if len(value) == 0 || len(s.p) != len(value) || &s.p[0] != &value[0] {
			continue
		}
		if words := (len(s.p) + 63) / 64; len(mask) < words {
			return fmt.Errorf("optim: HintGrad: %s: mask has %d words: expected %d", s.name, len(mask), words)
		}
		s.hint, s.hintStep = mask, a.t+1
		return nil
	}
	return fmt.Errorf("optim: HintGrad: a tensor of %d entries that is not one of the optimiser's parameters", len(value))
}

// Changed returns after a Step a bitset over the entries of the parameter
// tensor whose Value is value (bit i%64 of word i/64 for entry i) holding
// every entry that Step may have changed — the other entries kept their
// bits — or nil when the optimiser does not track this (then any entry may
// have changed). The tracked tensors are those of the exact lazy sweep
// (Keras rule without weight decay, up to 2^18 entries). The bitset is the
// optimiser's own, valid until the next Step.
func (a *Adam) Changed(value []float32) []uint64 {
	if a.t == 0 || len(value) == 0 {
		return nil
	}
	for _, s := range a.slots {
		if len(s.p) != len(value) || &s.p[0] != &value[0] {
			continue
		}
		if s.lazy == nil || a.groups[s.group].cfg.Frozen || s.lazy.touchedAt != a.t {
			return nil
		}
		return s.lazy.touched
	}
	return nil
}

// stepPart runs the update of one part (Step).
func (a *Adam) stepPart(pt part) {
	s := pt.s
	g := a.groups[s.group]
	if g.cfg.Frozen {
		return
	}
	c := &a.coefs[s.group]
	if g.dense {
		lo, hi := pt.lo(), pt.hi()
		c.dense(s.p[lo:hi], s.g[lo:hi], s.m[lo:hi], s.v[lo:hi])
		return
	}
	if s.lazy != nil {
		c.lazy(s, pt.w0, pt.w1, g.gt, pt.list)
		return
	}
	c.sparse(s, pt.w0, pt.w1)
}

// syncLazy brings the skipped decays of every entry of a lazy group up to
// date (before its state is read).
func (g *group) syncLazy() {
	if !g.lazy {
		return
	}
	for _, s := range g.slots {
		if s.lazy != nil {
			s.lazy.sync(s, g.gt, g.c2)
		}
	}
}

// sync brings the moments of every lazy group up to date.
func (a *Adam) sync() {
	for _, g := range a.groups {
		g.syncLazy()
	}
}

// ZeroGrad sets every gradient (also of frozen groups) to zero.
func (a *Adam) ZeroGrad() {
	a.sweep(func(pt part) { clear(pt.s.g[pt.lo():pt.hi()]) })
}

// markLive recomputes the live bits and chunk flags of s from m and v.
func markLive(s *slot) {
	for w := range s.live {
		lo := w * 64
		hi := min(lo+64, len(s.m))
		var bits uint64
		m, v := s.m[lo:hi], s.v[lo:hi]
		for i := range m {
			if m[i] != 0 || v[i] != 0 {
				bits |= 1 << uint(i)
			}
		}
		s.live[w] = bits
	}
	for c := range s.chunkLive {
		all := true
		for w := c * chunkWords; w < min((c+1)*chunkWords, len(s.live)); w++ {
			all = all && s.live[w] == wordMask(w, len(s.p))
		}
		s.chunkLive[c] = all
	}
}

// ClipGradNorm scales the gradients of all non-frozen groups jointly so
// that their global L2 norm is at most maxNorm (optax.clip_by_global_norm:
// unchanged if the norm is below maxNorm, else g ← (g/‖g‖)·maxNorm in
// float32). It returns the norm before clipping, summed in float64 in a
// fixed order. maxNorm ≤ 0 or NaN only computes the norm.
func (a *Adam) ClipGradNorm(maxNorm float64) float64 {
	sums := make([]float64, len(a.parts))
	parallel(len(a.parts), a.sweepWorkers(), func(i int) {
		p := a.parts[i]
		if a.groups[p.s.group].cfg.Frozen {
			return
		}
		sums[i] = sumSquares(p.s.g[p.lo():p.hi()])
	})
	var total float64
	for _, s := range sums {
		total += s
	}
	norm := math.Sqrt(total)
	if !(maxNorm > 0) || norm < maxNorm {
		return norm
	}
	nf, mf := float32(norm), float32(maxNorm)
	a.sweep(func(p part) {
		if a.groups[p.s.group].cfg.Frozen {
			return
		}
		g := p.s.g[p.lo():p.hi()]
		for j, x := range g {
			g[j] = float32(x/nf) * mf
		}
	})
	return norm
}

// sumSquares returns Σ x² in float64 over four interleaved partial sums
// (entries i ≡ 0, 1, 2, 3 mod 4, then added in that order): the same
// result on every machine, four times the throughput of one chain.
func sumSquares(g []float32) float64 {
	var a0, a1, a2, a3 float64
	n := len(g) &^ 3
	for i := 0; i < n; i += 4 {
		x0, x1, x2, x3 := float64(g[i]), float64(g[i+1]), float64(g[i+2]), float64(g[i+3])
		a0 += x0 * x0
		a1 += x1 * x1
		a2 += x2 * x2
		a3 += x3 * x3
	}
	for i := n; i < len(g); i++ {
		x := float64(g[i])
		a0 += x * x
	}
	return ((a0 + a1) + a2) + a3
}
