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

// polishPasses bounds the passes over the visited leaves.
const polishPasses = 4

// polish improves the greedy actions of a discrete tree actor's leaves on
// the validation episodes, in place: for every leaf the episodes reach
// (in leaf order), each other action is tried as the leaf's greedy one
// (its logit swapped with the current greedy one's) and kept when it
// raises the return of a validation episode and lowers none (a change
// that trades one episode for another is refused: the validation
// episodes are a sample of the task, and a trade can lose on starts they
// lack); passes repeat until one changes nothing
// (at most polishPasses). It plays only validation episodes, never the
// test's. An actor that is not a discrete tree is left as it is.
func (t *Trainer) polish(a policy.Actor) (Polish, error) {
	ta, ok := a.(*policy.TreeActor)
	if !ok || !ta.Dist().Discrete || t.cfg.EvalEpisodes <= 0 {
		return Polish{}, nil
	}
	cfg := t.cfg
	n := cfg.ValidationEpisodes()
	if t.spec.OneEpisode {
		n = 1
	}
	var obs []float32
	score := func(visit bool) ([]float64, error) {
		var f func([]float32)
		if visit {
			obs = obs[:0]
			f = func(o []float32) { obs = append(obs, o...) }
		}
		return Returns(t.maker, cfg.ValidationSeed(), n, ta, f)
	}
	var p Polish
	best, err := score(true)
	if err != nil {
		return p, err
	}
	p.Before, p.Scored = metrics.Mean(best), 1
	A := ta.Dist().A
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
			v := ta.LeafValues(int(l))
			for b := 0; b < A; b++ {
				cur := policy.Argmax(v)
				if b == cur {
					continue
				}
				v[cur], v[b] = v[b], v[cur]
				if policy.Argmax(v) != b { // a tie elsewhere in the leaf: b would not act
					v[cur], v[b] = v[b], v[cur]
					continue
				}
				ta.Changed()
				s, err := score(false)
				if err != nil {
					return p, err
				}
				p.Scored++
				if dominates(s, best) {
					best, changed = s, true
					p.Changed++
					continue
				}
				v[cur], v[b] = v[b], v[cur]
				ta.Changed()
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
