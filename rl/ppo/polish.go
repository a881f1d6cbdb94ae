package ppo

import (
	"slices"

	"github.com/gdt-ml/gdt/metrics"
	"github.com/gdt-ml/gdt/rl/policy"
)

// Polish records what polishing did to the delivered policy
// (Config.Polish): how many leaf actions it changed (accepted changes of a
// reached leaf's greedy action) and the validation return (all
// ValidationEpisodes) before and after.
type Polish struct {
	Changed int     `json:"changed"`
	Before  float64 `json:"validation_before"`
	After   float64 `json:"validation_after"`
	Passes  int     `json:"passes"` // passes over the reached leaves
	Scored  int     `json:"scored"` // policies played on the validation episodes
}

// polishPasses bounds the passes over the reached leaves, and
// polishPairBudget the policies one pass may play trying pairs of leaves.
const (
	polishPasses     = 8
	polishPairBudget = 3000
)

// polish improves the greedy actions of a discrete tree actor's leaves on
// the validation episodes, in place. A move gives one leaf the validation
// episodes reach another greedy action (its logit swapped with the current
// greedy one's), or two such leaves at once; it is kept when it raises the
// return of a validation episode and lowers none (a change that trades one
// episode for another is refused: the validation episodes are a sample of
// the task, and a trade can lose on starts they lack). A pass tries every
// single move in leaf order and, when none is kept, the pairs (while their
// count stays within polishPairBudget policies); passes repeat until one
// keeps nothing (at most polishPasses). It plays only validation episodes,
// never the test's. An actor that is not a discrete tree is left as it is.
func (t *Trainer) polish(a policy.Actor) (Polish, error) {
	ta, ok := a.(*policy.TreeActor)
	if !ok || !ta.Dist().Discrete || t.cfg.EvalEpisodes <= 0 {
		return Polish{}, nil
	}
	cfg := t.cfg
	var obs []float32
	score := func(visit bool) ([]float64, error) {
		var f func([]float32)
		if visit {
			obs = obs[:0]
			f = func(o []float32) { obs = append(obs, o...) }
		}
		return t.validate(ta, f)
	}
	var p Polish
	best, err := score(true)
	if err != nil {
		return p, err
	}
	p.Before, p.Scored = metrics.Mean(best), 1
	A := ta.Dist().A
	keep := dominates
	if cfg.PolishRule == PolishHalves {
		keep = bothHalves
	}
	type step struct{ leaf, action int }
	// try applies the move, keeps it where the rule (keep) says so and
	// reverts it otherwise.
	var saved [2][]float32
	try := func(move []step) (bool, error) {
		for i, m := range move {
			v := ta.LeafValues(m.leaf)
			saved[i] = append(saved[i][:0], v...)
			cur := policy.Argmax(v)
			v[cur], v[m.action] = v[m.action], v[cur]
		}
		ok := true
		for _, m := range move {
			ok = ok && policy.Argmax(ta.LeafValues(m.leaf)) == m.action // a tie elsewhere in a leaf: the action would not act
		}
		if ok {
			ta.Changed()
			s, err := score(false)
			if err != nil {
				return false, err
			}
			p.Scored++
			if keep(s, best) {
				best = s
				p.Changed += len(move)
				return true, nil
			}
		}
		for i, m := range move {
			copy(ta.LeafValues(m.leaf), saved[i])
		}
		ta.Changed()
		return false, nil
	}
	others := func(l int) []int { // the actions leaf l does not take
		cur := policy.Argmax(ta.LeafValues(l))
		var out []int
		for b := 0; b < A; b++ {
			if b != cur {
				out = append(out, b)
			}
		}
		return out
	}
	for p.Passes < polishPasses {
		p.Passes++
		rows := len(obs) / ta.In()
		routed := make([]int32, rows)
		if err := ta.Route(obs, rows, routed); err != nil {
			return p, err
		}
		slices.Sort(routed)
		leaves := slices.Compact(routed)
		changed := false
		for _, l := range leaves {
			for _, b := range others(int(l)) {
				kept, err := try([]step{{int(l), b}})
				if err != nil {
					return p, err
				}
				changed = changed || kept
				if kept {
					break
				}
			}
		}
		if k := len(leaves); !changed && k*(k-1)/2*(A-1)*(A-1) <= polishPairBudget {
		pairs:
			for i, l1 := range leaves {
				for _, l2 := range leaves[i+1:] {
					for _, b1 := range others(int(l1)) {
						for _, b2 := range others(int(l2)) {
							kept, err := try([]step{{int(l1), b1}, {int(l2), b2}})
							if err != nil {
								return p, err
							}
							if kept {
								changed = true
								break pairs
							}
						}
					}
				}
			}
		}
		if !changed {
			break
		}
		if _, err := score(true); err != nil { // the leaves the new policy reaches
			return p, err
		}
		p.Scored++
	}
	p.After = metrics.Mean(best)
	return p, nil
}

// Polish rules (Config.PolishRule): when a move is kept.
const (
	PolishEpisodes = "episodes" // no validation episode loses and one gains
	PolishHalves   = "halves"   // the mean rises on each half of the validation episodes
)

// bothHalves reports whether the mean of a is higher than b's on the first
// half of the episodes and on the second.
func bothHalves(a, b []float64) bool {
	h := len(a) / 2
	if h == 0 {
		return false
	}
	return metrics.Mean(a[:h]) > metrics.Mean(b[:h]) && metrics.Mean(a[h:]) > metrics.Mean(b[h:])
}

// dominates reports whether the episode returns a are at least b's in
// every episode and higher in one.
func dominates(a, b []float64) bool {
	higher := false
	for i := range a {
		if a[i] < b[i] {
			return false
		}
		higher = higher || a[i] > b[i]
	}
	return higher
}
