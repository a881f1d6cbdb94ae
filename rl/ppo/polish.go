package ppo

import (
	"encoding/binary"
	"math"
	"slices"

	"github.com/gdt-ml/gdt/ensemble"
	"github.com/gdt-ml/gdt/metrics"
	"github.com/gdt-ml/gdt/rl/policy"
)

// Polish records what polishing did to the delivered policy
// (Config.Polish): how many leaf actions, splits and thresholds it changed
// and the mean return on the polish episodes (the ValidationEpisodes, or
// Config.PolishEpisodes) before and after.
type Polish struct {
	Changed int     `json:"changed"` // leaf actions changed plus split moves and threshold nudges kept
	Before  float64 `json:"validation_before"`
	After   float64 `json:"validation_after"`
	Passes  int     `json:"passes"`           // passes over the reached leaves
	Scored  int     `json:"scored"`           // policies played on the validation episodes
	Splits  int     `json:"splits,omitempty"` // split moves kept (Config.PolishSplits)
	// Thresholds counts the threshold nudges kept (Config.PolishThresholds).
	Thresholds int `json:"thresholds,omitempty"`
}

// polishPasses bounds the passes over the reached leaves (four times as
// many with split moves, which end a pass when one is kept);
// polishPairBudget the policies one pass may play trying pairs of leaves;
// polishSplitBudget the split moves one pass may play; a split move whose
// validation return falls more than polishSplitSlack below the current one
// is undone without a repolish of the leaves.
const (
	polishPasses      = 8
	polishPairBudget  = 3000
	polishSplitBudget = 4000
	polishSplitSlack  = 0.1
)

// polish improves the greedy actions of a tree actor's leaves on
// the validation episodes, in place. A move gives one leaf the validation
// episodes reach another greedy action (its logit swapped with the current
// greedy one's), or two such leaves at once; with Config.PolishThresholds,
// it may also nudge a reached node's threshold (polisher.thresholds), and
// with Config.PolishSplits give a reached node another split
// (polisher.splits). A move is
// kept where the rule (Config.PolishRule) says so; by default when it
// raises the return of a validation episode and lowers none (a change that
// trades one episode for another is refused: the validation episodes are a
// sample of the task, and a trade can lose on starts they lack). A pass
// tries every single move in leaf order and, when none is kept, the
// threshold nudges, the split moves, then the pairs (while their count
// stays within polishPairBudget policies); passes repeat until one keeps
// nothing or the polish has played Config.PolishBudget policies. It plays
// only validation episodes (and with Config.PolishEpisodes the ones after
// them), never the test's. A continuous tree's leaf means are polished
// instead, and its thresholds nudged (polisher.means); an actor that is
// not a tree is left as it is.
func (t *Trainer) polish(a policy.Actor) (Polish, error) {
	ta, ok := a.(*policy.TreeActor)
	if !ok || t.cfg.EvalEpisodes <= 0 {
		return Polish{}, nil
	}
	q, err := t.newPolisher(ta)
	if err != nil {
		return q.p, err
	}
	if !ta.Dist().Discrete {
		err = q.means()
		q.p.After = metrics.Mean(q.best)
		return q.p, err
	}
	passes := polishPasses
	if t.cfg.PolishSplits {
		passes *= 4
	}
	for q.p.Passes < passes {
		q.p.Passes++
		leaves, err := q.reached()
		if err != nil {
			return q.p, err
		}
		changed := false
		for _, l := range leaves {
			for _, b := range q.others(l) {
				kept, err := q.try([]leafMove{{l, b}})
				if err != nil {
					return q.p, err
				}
				changed = changed || kept
				if kept {
					break
				}
			}
		}
		if !changed && t.cfg.PolishThresholds {
			if changed, err = q.thresholds(); err != nil {
				return q.p, err
			}
		}
		if !changed && t.cfg.PolishSplits {
			if changed, err = q.splits(); err != nil {
				return q.p, err
			}
		}
		if k := len(leaves); !changed && k*(k-1)/2*(q.A-1)*(q.A-1) <= polishPairBudget {
		pairs:
			for i, l1 := range leaves {
				for _, l2 := range leaves[i+1:] {
					for _, b1 := range q.others(l1) {
						for _, b2 := range q.others(l2) {
							kept, err := q.try([]leafMove{{l1, b1}, {l2, b2}})
							if err != nil {
								return q.p, err
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
		if _, err := q.score(true); err != nil { // the leaves the new policy reaches
			return q.p, err
		}
	}
	q.p.After = metrics.Mean(q.best)
	return q.p, nil
}

// polisher is one polish's state: the tree, the validation returns of the
// policy as it stands (best), the observations its validation episodes
// visited (obs, from the last score with visit) and the record.
type polisher struct {
	t     *Trainer
	ta    *policy.TreeActor
	A     int
	keep  func(a, b []float64) bool
	best  []float64
	obs   []float32
	p     Polish
	saved [2][]float32
}

// newPolisher returns a polisher of ta under the configured rule, its
// validation returns scored (and their observations recorded).
func (t *Trainer) newPolisher(ta *policy.TreeActor) (*polisher, error) {
	q := &polisher{t: t, ta: ta, A: ta.Dist().A, keep: dominates}
	switch t.cfg.PolishRule {
	case PolishHalves:
		q.keep = bothHalves
	case PolishPaired:
		q.keep = pairedGain
	case PolishMean:
		q.keep = meanGain
	}
	var err error
	q.best, err = q.score(true)
	q.p.Before = metrics.Mean(q.best)
	return q, err
}

// leafMove gives leaf the greedy action.
type leafMove struct{ leaf, action int }

// score plays the validation episodes with the tree as it stands (after
// Changed); with visit it records the observations they visit in obs.
func (q *polisher) score(visit bool) ([]float64, error) {
	var f func([]float32)
	if visit {
		q.obs = q.obs[:0]
		f = func(o []float32) { q.obs = append(q.obs, o...) }
	}
	q.p.Scored++
	n := q.t.cfg.PolishEpisodes
	if n <= 0 {
		return q.t.validate(q.ta, f)
	}
	if q.t.spec.OneEpisode {
		n = 1
	}
	return Returns(q.t.maker, q.t.cfg.ValidationSeed(), n, q.ta, f)
}

// spent reports whether the polish has played its budget of policies
// (Config.PolishBudget): no further move is tried.
func (q *polisher) spent() bool {
	return q.t.cfg.PolishBudget > 0 && q.p.Scored >= q.t.cfg.PolishBudget
}

// reached returns the leaves obs reaches, ascending.
func (q *polisher) reached() ([]int, error) {
	rows := len(q.obs) / q.ta.In()
	routed := make([]int32, rows)
	if err := q.ta.Route(q.obs, rows, routed); err != nil {
		return nil, err
	}
	slices.Sort(routed)
	out := make([]int, 0, len(routed))
	for _, l := range slices.Compact(routed) {
		out = append(out, int(l))
	}
	return out, nil
}

// others returns the actions leaf l does not take.
func (q *polisher) others(l int) []int {
	cur := policy.Argmax(q.ta.LeafValues(l))
	var out []int
	for b := 0; b < q.A; b++ {
		if b != cur {
			out = append(out, b)
		}
	}
	return out
}

// swap gives leaf l action b (its logit swapped with the greedy one's) and
// reports whether b is now the greedy action (not where another logit ties).
func (q *polisher) swap(l, b int) bool {
	v := q.ta.LeafValues(l)
	cur := policy.Argmax(v)
	v[cur], v[b] = v[b], v[cur]
	return policy.Argmax(v) == b
}

// try applies the leaf moves, keeps them where the rule says so and
// reverts them otherwise.
func (q *polisher) try(move []leafMove) (bool, error) {
	if q.spent() {
		return false, nil
	}
	ok := true
	for i, m := range move {
		q.saved[i] = append(q.saved[i][:0], q.ta.LeafValues(m.leaf)...)
		ok = q.swap(m.leaf, m.action) && ok
	}
	if ok {
		q.ta.Changed()
		s, err := q.score(false)
		if err != nil {
			return false, err
		}
		if q.accept(s, len(move), 0) {
			return true, nil
		}
	}
	for i, m := range move {
		copy(q.ta.LeafValues(m.leaf), q.saved[i])
	}
	q.ta.Changed()
	return false, nil
}

// accept makes s the current returns where the rule keeps them against
// the current ones, counting the leaf actions and splits the move changed.
func (q *polisher) accept(s []float64, leaves, splits int) bool {
	if !q.keep(s, q.best) {
		return false
	}
	q.best = s
	q.p.Changed += leaves + splits
	q.p.Splits += splits
	return true
}

// splits tries split moves on the internal nodes obs reaches, root first:
// a move gives the node another feature or threshold, one that divides the
// distinct observations reaching it in a way none of the node's earlier
// candidates did (a threshold halfway between two neighbouring values of a
// feature on those observations). A move is scored as it is and, unless
// that loses more than polishSplitSlack, again after the leaves its
// validation episodes reach are repolished by up to two rounds of single
// leaf moves, each kept where it raises the episodes' gains over the
// current policy less ten times their losses (lossWeighted: a split sends
// observations to other leaves and the episodes then visit other states,
// so the repolish first repairs the episodes the split made worse); the
// rule keeps the move with its leaf moves or undoes it whole. With the
// default rule a split move is kept only where no validation episode
// loses. It returns after the first kept move, or when every candidate
// (at most polishSplitBudget) was tried.
func (q *polisher) splits() (bool, error) {
	k := q.ta.Kernel()
	n, ne, ni := q.ta.In(), k.SubsetSize(), k.Nodes()
	rows, reach := q.reach()
	P := k.Params()
	tried := 0
	var vals []float32
	var left []byte
	for i := 0; i < ni; i++ {
		R := reach[i]
		if len(R) < 2 {
			continue
		}
		partition := func(f int, thr float32) string {
			left = left[:0]
			for _, r := range R {
				left = append(left, b2u(ensemble.GoesLeft(rows[r*n+f], thr)))
			}
			return string(left)
		}
		_, f0, thr0 := k.Split(0, i)
		seen := map[string]bool{partition(f0, thr0): true}
		z, tv := P.IndexLogits[i*ne:(i+1)*ne], P.Thresholds[i*ne:(i+1)*ne]
		for c := 0; c < ne; c++ {
			f := k.Feature(0, c)
			vals = vals[:0]
			for _, r := range R {
				vals = append(vals, rows[r*n+f])
			}
			slices.Sort(vals)
			vals = slices.Compact(vals)
			for j := 1; j < len(vals); j++ {
				thr := vals[j-1] + (vals[j]-vals[j-1])/2
				if !(thr > vals[j-1]) {
					thr = vals[j]
				}
				key := partition(f, thr)
				if seen[key] {
					continue
				}
				seen[key] = true
				if tried >= polishSplitBudget || q.spent() {
					return false, nil
				}
				tried++
				oz, ot := z[c], tv[c]
				top := slices.Max(z)
				z[c], tv[c] = top+max(1, float32(math.Abs(float64(top)))*1e-3), thr
				kept, err := q.trySplit()
				if err != nil || kept {
					return kept, err
				}
				z[c], tv[c] = oz, ot
				q.ta.Changed()
			}
		}
	}
	return false, nil
}

// reach returns the distinct observations of obs (uniqueRows) and, for
// each internal node, the indices of those that reach it.
func (q *polisher) reach() ([]float32, [][]int) {
	k := q.ta.Kernel()
	n := q.ta.In()
	rows := uniqueRows(q.obs, n)
	reach := make([][]int, k.Nodes())
	for r := range len(rows) / n {
		x := rows[r*n : (r+1)*n]
		for i := 0; i < len(reach); {
			reach[i] = append(reach[i], r)
			_, f, thr := k.Split(0, i)
			i = ensemble.Child(i, x[f], thr)
		}
	}
	return rows, reach
}

// thresholdShifts are the nudges polisher.thresholds tries: how many
// distinct observed values of the split's feature a threshold moves past.
var thresholdShifts = []int{-64, -32, -16, -8, -4, -2, -1, 1, 2, 4, 8, 16, 32, 64}

// thresholds nudges the thresholds of the internal nodes obs reaches, root
// first (Config.PolishThresholds). A node's threshold lies between two
// neighbouring values of its feature among the distinct observations that
// reach it; a nudge moves it to the midpoint thresholdShifts values to the
// left or right, and of the nudges the rule keeps against the current
// policy the one with the highest validation mean stays. It reports
// whether any nudge was kept. The nodes' reaching observations are those
// of the policy at the start of the sweep.
func (q *polisher) thresholds() (bool, error) {
	k := q.ta.Kernel()
	n, ne := q.ta.In(), k.SubsetSize()
	rows, reach := q.reach()
	P := k.Params()
	changed := false
	var vals []float32
	for i, R := range reach {
		if q.spent() {
			break
		}
		if len(R) < 2 {
			continue
		}
		col, f, thr := k.Split(0, i)
		vals = vals[:0]
		for _, r := range R {
			vals = append(vals, rows[r*n+f])
		}
		slices.Sort(vals)
		vals = slices.Compact(vals)
		pos, _ := slices.BinarySearch(vals, thr) // vals[pos-1] < thr ≤ vals[pos]
		tv := &P.Thresholds[i*ne+col]
		orig := *tv
		var top []float64
		topT := orig
		for _, sh := range thresholdShifts {
			j := pos + sh
			if j < 1 || j >= len(vals) {
				continue
			}
			nt := vals[j-1] + (vals[j]-vals[j-1])/2
			if !(nt > vals[j-1]) {
				nt = vals[j]
			}
			*tv = nt
			q.ta.Changed()
			s, err := q.score(false)
			if err != nil {
				*tv = orig
				q.ta.Changed()
				return changed, err
			}
			if (top == nil || metrics.Mean(s) > metrics.Mean(top)) && q.keep(s, q.best) {
				top, topT = s, nt
			}
		}
		*tv = orig
		if top != nil {
			*tv = topT
			q.best = top
			q.p.Changed++
			q.p.Thresholds++
			changed = true
		}
		q.ta.Changed()
	}
	return changed, nil
}

// trySplit scores the split move just made, repolishing the reached leaves
// (see splits), and keeps it where the rule says so; otherwise it restores
// the leaves (the caller restores the split).
func (q *polisher) trySplit() (bool, error) {
	q.ta.Changed()
	s, err := q.score(true)
	if err != nil {
		return false, err
	}
	if q.accept(s, 0, 1) {
		return true, nil
	}
	if metrics.Mean(s) < metrics.Mean(q.best)-polishSplitSlack {
		return false, nil
	}
	leaves, err := q.reached()
	if err != nil {
		return false, err
	}
	all := q.ta.Kernel().Params().Leaves
	saved := append([]float32(nil), all...)
	cur, moved := s, 0
	for round := 0; round < 2; round++ {
		better := false
		for _, l := range leaves {
			for _, b := range q.others(l) {
				v := q.ta.LeafValues(l)
				q.saved[0] = append(q.saved[0][:0], v...)
				if q.swap(l, b) {
					q.ta.Changed()
					s2, err := q.score(false)
					if err != nil {
						return false, err
					}
					if lossWeighted(s2, q.best) > lossWeighted(cur, q.best) {
						cur, better = s2, true
						moved++
						break
					}
				}
				copy(v, q.saved[0])
				q.ta.Changed()
			}
		}
		if !better {
			break
		}
	}
	if moved > 0 && q.accept(cur, moved, 1) {
		return true, nil
	}
	copy(all, saved)
	q.ta.Changed()
	return false, nil
}

func b2u(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// uniqueRows returns the distinct rows of obs (rows of n values), in order
// of first appearance.
func uniqueRows(obs []float32, n int) []float32 {
	seen := map[string]bool{}
	var out []float32
	var buf []byte
	for r := 0; r+n <= len(obs); r += n {
		x := obs[r : r+n]
		buf = buf[:0]
		for _, v := range x {
			buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(v))
		}
		if key := string(buf); !seen[key] {
			seen[key] = true
			out = append(out, x...)
		}
	}
	return out
}

// Polish rules (Config.PolishRule): when a move is kept.
const (
	PolishEpisodes = "episodes" // no validation episode loses and one gains
	PolishHalves   = "halves"   // the mean rises on each half of the validation episodes
	PolishPaired   = "paired"   // no episode loses and one gains, or the mean's gain is two standard errors
	PolishMean     = "mean"     // the mean return rises
)

// meanGain reports whether the mean of a is higher than b's.
func meanGain(a, b []float64) bool { return metrics.Mean(a) > metrics.Mean(b) }

// pairedGain reports whether a dominates b (dominates) or the mean of the
// episode differences a−b is at least twice its standard error: a gain
// that does not rest on trading a few episodes for a few others.
func pairedGain(a, b []float64) bool {
	if dominates(a, b) {
		return true
	}
	n := float64(len(a))
	if n < 2 {
		return false
	}
	var sum, sq float64
	for i := range a {
		d := a[i] - b[i]
		sum += d
		sq += d * d
	}
	mean := sum / n
	v := (sq - n*mean*mean) / (n - 1)
	return mean > 0 && mean*mean >= 4*v/n
}

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

// lossWeighted scores returns a against b: the gains plus ten times the
// losses (negative), so that a repolish first repairs what a move lost.
func lossWeighted(a, b []float64) float64 {
	var j float64
	for i := range a {
		if d := a[i] - b[i]; d < 0 {
			j += 10 * d
		} else {
			j += d
		}
	}
	return j
}

// polishGrid is the number of equal intervals the action range is cut
// into; a continuous leaf's mean is tried at their polishGrid+1 ends.
const polishGrid = 8

// means polishes a continuous tree's leaf means: a pass tries, for every
// reached leaf and action component, the polishGrid+1 evenly spaced values
// of the component's range (the environment clips actions to it), and keeps
// the best of them where the rule says so against the current policy;
// when it keeps none, with Config.PolishThresholds, a sweep of threshold
// nudges follows (polisher.thresholds).
func (q *polisher) means() error {
	sp := q.t.spec.Action
	if len(sp.Low) < q.A || len(sp.High) < q.A {
		return nil
	}
	for q.p.Passes < polishPasses {
		q.p.Passes++
		leaves, err := q.reached()
		if err != nil {
			return err
		}
		changed := false
		for _, l := range leaves {
			if q.spent() {
				break
			}
			v := q.ta.LeafValues(l)
			for c := 0; c < q.A; c++ {
				lo, hi := sp.Low[c], sp.High[c]
				cur := v[c]
				now := min(max(cur, lo), hi)
				var top []float64
				var topV float32
				topM := math.Inf(-1)
				for j := 0; j <= polishGrid; j++ {
					x := lo + (hi-lo)*float32(j)/polishGrid
					if x == now {
						continue
					}
					v[c] = x
					q.ta.Changed()
					s, err := q.score(false)
					if err != nil {
						return err
					}
					if m := metrics.Mean(s); top == nil || m > topM {
						top, topV, topM = s, x, m
					}
				}
				if top != nil && q.accept(top, 1, 0) {
					v[c] = topV
					changed = true
				} else {
					v[c] = cur
				}
				q.ta.Changed()
			}
		}
		if !changed && q.t.cfg.PolishThresholds {
			if changed, err = q.thresholds(); err != nil {
				return err
			}
		}
		if !changed {
			break
		}
		if _, err := q.score(true); err != nil {
			return err
		}
	}
	return nil
}
