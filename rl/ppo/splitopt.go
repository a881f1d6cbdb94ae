package ppo

import (
	"fmt"

	"github.com/gdt-ml/gdt/linalg"
	"github.com/gdt-ml/gdt/optim"
)

// splitAdam is one Adam(W) over a network's parameter groups, run as
// several optimisers over disjoint runs of the tensors' entries so that
// their steps can run on package linalg's helper pool. Every entry's update
// depends only on that entry, the group's hyperparameters and the step
// count, which all parts share, so the result is bit for bit that of the
// unsplit optimiser. State and LoadState use the unsplit layout (a
// checkpoint does not depend on the split).
type splitAdam struct {
	parts  []*optim.Adam
	groups []optim.Group // the unsplit groups
	// clip is an unsplit optimiser over the same tensors, used only for
	// ClipGradNorm (never stepped), so that clipping is exactly optim's.
	clip *optim.Adam
	// pieces[g][p] lists, for param p of group g, where its entries live.
	pieces [][][]piece
	step   func(part int)
}

// piece is the run [lo, hi) of a tensor held by one part.
type piece struct {
	part, lo, hi int
}

// splitAlign is the granularity of a cut inside a tensor (whole 64-entry
// words of the optimisers' bitsets, whole vectors of their kernels).
const splitAlign = 64

// newSplitAdam splits groups into n parts of about equal size (n ≥ 1);
// with at > 0 and two parts, the first part ends at entry at of the
// groups' concatenation (rounded up to a whole word of splitAlign).
func newSplitAdam(groups []optim.Group, n, at int) (*splitAdam, error) {
	total := 0
	for _, g := range groups {
		for _, p := range g.Params {
			total += len(p.Value)
		}
	}
	s := &splitAdam{groups: groups, pieces: make([][][]piece, len(groups))}
	partGroups := make([][]optim.Group, n)
	part, filled := 0, 0
	limit := func(k int) int {
		if n == 2 && k == 0 && at > 0 && at < total {
			return at
		}
		return (k + 1) * total / n
	}
	for gi, g := range groups {
		s.pieces[gi] = make([][]piece, len(g.Params))
		for pi, p := range g.Params {
			for lo := 0; lo == 0 || lo < len(p.Value); {
				for part < n-1 && filled >= limit(part) {
					part++
				}
				hi := len(p.Value)
				if part < n-1 && filled+hi-lo > limit(part) {
					hi = min(hi, lo+(limit(part)-filled+splitAlign-1)/splitAlign*splitAlign)
				}
				pg := partGroups[part]
				if len(pg) == 0 || pg[len(pg)-1].Name != g.Name {
					ng := g
					ng.Params = nil
					pg = append(pg, ng)
				}
				pg[len(pg)-1].Params = append(pg[len(pg)-1].Params, optim.Param{Name: p.Name, Value: p.Value[lo:hi], Grad: p.Grad[lo:hi]})
				partGroups[part] = pg
				s.pieces[gi][pi] = append(s.pieces[gi][pi], piece{part: part, lo: lo, hi: hi})
				filled += hi - lo
				if hi == 0 { // an empty tensor
					break
				}
				lo = hi
			}
		}
	}
	index := make([]int, n) // part number → index in s.parts (skipping empty parts)
	for k, pg := range partGroups {
		index[k] = len(s.parts)
		if len(pg) == 0 {
			continue
		}
		o, err := optim.NewAdam(pg...)
		if err != nil {
			return nil, err
		}
		o.SetWorkers(1)
		s.parts = append(s.parts, o)
	}
	for _, g := range s.pieces {
		for _, p := range g {
			for i := range p {
				p[i].part = index[p[i].part]
			}
		}
	}
	s.step = func(k int) { s.parts[k].Step() }
	var err error
	if s.clip, err = optim.NewAdam(groups...); err != nil {
		return nil, err
	}
	s.clip.SetWorkers(1)
	return s, nil
}

// ClipGradNorm is optim.Adam.ClipGradNorm over all parts' gradients
// (jointly, in the unsplit order).
func (s *splitAdam) ClipGradNorm(maxNorm float64) float64 { return s.clip.ClipGradNorm(maxNorm) }

// Step takes one optimiser step, the parts on the helper pool.
func (s *splitAdam) Step() { linalg.Run(len(s.parts), s.step) }

// Steps returns the number of steps taken.
func (s *splitAdam) Steps() int64 { return s.parts[0].Steps() }

// State returns the state in the unsplit optimiser's layout.
func (s *splitAdam) State() *optim.State {
	states := make([]*optim.State, len(s.parts))
	for k, o := range s.parts {
		states[k] = o.State()
	}
	st := &optim.State{Steps: states[0].Steps}
	for gi, g := range s.groups {
		gs := optim.GroupState{Name: g.Name, LRScale: 1}
		for pi, p := range g.Params {
			ps := optim.ParamState{Name: p.Name}
			if n := len(p.Value); n > 0 { // nil when empty, as optim's State
				ps.M, ps.V = make([]float32, n), make([]float32, n)
			}
			for _, pc := range s.pieces[gi][pi] {
				src := findParam(states[pc.part], g.Name, p.Name)
				gs.LRScale = findGroup(states[pc.part], g.Name).LRScale
				copy(ps.M[pc.lo:pc.hi], src.M)
				copy(ps.V[pc.lo:pc.hi], src.V)
			}
			gs.Params = append(gs.Params, ps)
		}
		st.Groups = append(st.Groups, gs)
	}
	return st
}

// LoadState restores a state in the unsplit layout.
func (s *splitAdam) LoadState(st *optim.State) error {
	if st == nil {
		return fmt.Errorf("optim: LoadState: nil state")
	}
	states := make([]*optim.State, len(s.parts))
	for k := range states {
		states[k] = &optim.State{Steps: st.Steps}
	}
	for gi, g := range s.groups {
		sg := findGroup(st, g.Name)
		if sg == nil {
			return fmt.Errorf("optim: LoadState: state has no group %q", g.Name)
		}
		if len(sg.Params) != len(g.Params) {
			return fmt.Errorf("optim: LoadState: group %q: state has %d params, optimiser has %d", g.Name, len(sg.Params), len(g.Params))
		}
		for pi, p := range g.Params {
			sp := findParam(st, g.Name, p.Name)
			if sp == nil {
				return fmt.Errorf("optim: LoadState: group %q: state has no param %q", g.Name, p.Name)
			}
			if len(sp.M) != len(p.Value) || len(sp.V) != len(p.Value) {
				return fmt.Errorf("optim: LoadState: group %q param %q: len(M) = %d, len(V) = %d, want %d", g.Name, p.Name, len(sp.M), len(sp.V), len(p.Value))
			}
			for _, pc := range s.pieces[gi][pi] {
				ps := states[pc.part]
				if len(ps.Groups) == 0 || ps.Groups[len(ps.Groups)-1].Name != g.Name {
					ps.Groups = append(ps.Groups, optim.GroupState{Name: g.Name, LRScale: sg.LRScale})
				}
				last := &ps.Groups[len(ps.Groups)-1]
				last.Params = append(last.Params, optim.ParamState{Name: p.Name, M: sp.M[pc.lo:pc.hi], V: sp.V[pc.lo:pc.hi]})
			}
		}
	}
	for k, o := range s.parts {
		if err := o.LoadState(states[k]); err != nil {
			return err
		}
	}
	return nil
}

func findGroup(st *optim.State, name string) *optim.GroupState {
	for i := range st.Groups {
		if st.Groups[i].Name == name {
			return &st.Groups[i]
		}
	}
	return nil
}

func findParam(st *optim.State, group, name string) *optim.ParamState {
	g := findGroup(st, group)
	if g == nil {
		return nil
	}
	for i := range g.Params {
		if g.Params[i].Name == name {
			return &g.Params[i]
		}
	}
	return nil
}
