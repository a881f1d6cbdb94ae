package optim

import (
	"fmt"
	"math"
)

// A step in pieces: BeginStep, then Ranged.Update on parts of some tensors
// (e.g. fused into the backward pass while a part's parameters are still
// in the caches, on several goroutines), then EndStep for everything else.
// The result is bit for bit that of Step.

// Ranged is a handle on one parameter tensor whose entries the caller
// updates range by range between BeginStep and EndStep.
type Ranged struct {
	a *Adam
	s *slot
}

// Ranged returns the handle of the parameter tensor whose Value is value.
// A tensor of the exact lazy sweep (see lazy.go) leaves it for the plain
// skip of entries without state, which gives the same bits.
func (a *Adam) Ranged(value []float32) (Ranged, error) {
	for _, s := range a.slots {
		if len(value) == 0 || len(s.p) != len(value) || &s.p[0] != &value[0] {
			continue
		}
		if s.lazy != nil {
			g := a.groups[s.group]
			s.lazy.sync(s, g.gt, g.c2)
			s.lazy = nil
			markLive(s)
		}
		return Ranged{a: a, s: s}, nil
	}
	return Ranged{}, fmt.Errorf("optim: Ranged: a tensor of %d entries that is not one of the optimiser's parameters", len(value))
}

// BeginStep starts a step like Step (step counter, learning rates and
// coefficients) but updates nothing yet: Ranged.Update then updates parts of
// tensors, and EndStep the rest.
func (a *Adam) BeginStep() {
	a.t++
	for i, g := range a.groups {
		a.coefs[i] = newCoef(&g.cfg, g.lr(a.t-1), a.t)
		if g.lazy && !g.cfg.Frozen {
			if g.gt == math.MaxInt32-1 {
				g.syncLazy()
				g.lazy = false
				for _, s := range g.slots {
					s.lazy = nil
					markLive(s)
				}
				continue
			}
			g.gt++
			for _, s := range g.slots {
				if s.lazy != nil {
					s.lazy.touchedAt = a.t
				}
			}
		}
	}
	for _, s := range a.slots {
		s.useHint = s.hint != nil && s.hintStep == a.t && s.lazy != nil
	}
}

// Update applies the current step's update (after BeginStep) to the
// entries [lo, hi) of the tensor. Calls on disjoint ranges may run
// concurrently; every entry must be updated at most once per step.
func (r Ranged) Update(lo, hi int) {
	s := r.s
	g := r.a.groups[s.group]
	if g.cfg.Frozen || lo >= hi {
		return
	}
	// every entry updated (an entry without gradient or state keeps its
	// bits), as the dense sweep does
	r.a.coefs[s.group].dense(s.p[lo:hi], s.g[lo:hi], s.m[lo:hi], s.v[lo:hi])
}

// UpdateFrom is Update with the gradient g of the entries [lo, hi) (hi − lo
// values) in place of the tensor's own gradient, which it neither reads
// nor changes.
func (r Ranged) UpdateFrom(lo, hi int, g []float32) {
	s := r.s
	if r.a.groups[s.group].cfg.Frozen || lo >= hi {
		return
	}
	r.a.coefs[s.group].dense(s.p[lo:hi], g[:hi-lo], s.m[lo:hi], s.v[lo:hi])
}

// EndStep finishes a step begun with BeginStep: it updates every tensor
// except those listed in done, whose every entry the caller updated with
// Ranged.Update during this step.
func (a *Adam) EndStep(done ...[]float32) {
	for _, v := range done {
		for _, s := range a.slots {
			if len(v) > 0 && len(s.p) == len(v) && &s.p[0] == &v[0] {
				s.external = true
				// their live bits were not kept: sweep them densely if
				// Step updates them later
				for c := range s.chunkLive {
					s.chunkLive[c] = true
				}
			}
		}
	}
	if a.endFn == nil {
		a.endFn = func(p part) {
			if !p.s.external {
				a.stepFn(p)
			}
		}
	}
	a.sweep(a.endFn)
	for _, s := range a.slots {
		s.hint, s.useHint, s.external = nil, false, false
	}
}
