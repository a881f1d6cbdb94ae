package ppo

import (
	"math"
	"slices"
	"testing"

	"github.com/gdt-ml/gdt/ensemble"
	"github.com/gdt-ml/gdt/metrics"
	"github.com/gdt-ml/gdt/rl/env"
	"github.com/gdt-ml/gdt/rl/policy"
	"github.com/gdt-ml/gdt/tree"
)

// seedLog records the seeds an environment is reset with.
type seedLog struct {
	env.Env
	seeds *[]uint64
}

func (s seedLog) Seed(seed uint64) { *s.seeds = append(*s.seeds, seed); s.Env.Seed(seed) }

// TestPolish trains a small CartPole tree, breaks its delivered policy by
// flipping the greedy action of a leaf the validation episodes reach, and
// checks that polishing raises the validation return again, that its
// record replays (the polished actor's validation is After), and that it
// plays only validation episodes, never a test episode. An untouched
// policy that polishing cannot improve keeps its parameters.
func TestPolish(t *testing.T) {
	tr := trained(t, smallCartPole(t, 6000, 500))
	best, _, ok := tr.BestActor()
	if !ok {
		t.Fatal("no best-validation policy")
	}
	a, err := tr.copyActor(best)
	if err != nil {
		t.Fatal(err)
	}
	ta := a.(*policy.TreeActor)
	cfg := tr.Config()
	n := cfg.ValidationEpisodes()
	validation := validationOf(t, tr, ta)
	var obs []float32
	if _, err := Returns(tr.Maker(), cfg.ValidationSeed(), 1, ta, func(o []float32) { obs = append(obs, o...) }); err != nil {
		t.Fatal(err)
	}
	leaf := make([]int32, 1)
	if err := ta.Route(obs[:ta.In()], 1, leaf); err != nil {
		t.Fatal(err)
	}
	trained := validation()
	v := ta.LeafValues(int(leaf[0]))
	v[0], v[1] = v[1], v[0]
	ta.Changed()
	broken := validation()
	if !(broken < trained) {
		t.Fatalf("flipping the first state's leaf left validation at %v (trained %v): pick another leaf", broken, trained)
	}

	p, seeds := polishLogged(t, tr, ta)
	if p.Before != broken || !(p.After > p.Before) || p.Changed < 1 {
		t.Fatalf("polish %+v on a policy validating %v (%v before the flip): want a gain", p, broken, trained)
	}
	if got := validation(); got != p.After {
		t.Errorf("the polished actor validates %v, polish recorded %v", got, p.After)
	}
	lo, hi := uint64(cfg.ValidationSeed()), uint64(cfg.ValidationSeed()+n)
	for _, s := range seeds {
		if s < lo || s >= hi {
			t.Fatalf("polish reset an environment with seed %d, outside the validation seeds %d…%d", s, lo, hi-1)
		}
	}
	if len(seeds) != n*p.Scored {
		t.Errorf("%d episodes for %d scored policies of %d episodes", len(seeds), p.Scored, n)
	}
	t.Logf("trained %v, broken %v, polished %+v", trained, broken, p)

	// Polishing its own result again changes nothing.
	leaves := func() []float32 {
		for _, x := range ta.Tensors() {
			if x.Name == policy.GroupLeaves {
				return x.Value
			}
		}
		t.Fatal("no leaf_array tensor")
		return nil
	}
	before := append([]float32(nil), leaves()...)
	q, err := tr.polish(ta)
	if err != nil {
		t.Fatal(err)
	}
	if q.Changed != 0 || q.After != p.After {
		t.Errorf("a second polish %+v after %+v", q, p)
	}
	for i, x := range leaves() {
		if x != before[i] {
			t.Fatalf("a second polish without a change moved leaf value %d", i)
		}
	}
}

// TestPolishRules checks the rules that decide whether polishing keeps a
// move, on hand-made episode returns (new against current), and the score
// a split move's repolish climbs.
func TestPolishRules(t *testing.T) {
	for _, tc := range []struct {
		name                      string
		a, b                      []float64
		dominates, halves, paired bool
		mean                      bool
		weighted                  float64
	}{
		{"one episode gains", []float64{1, 2, 3, 5}, []float64{1, 2, 3, 4}, true, false, true, true, 1},
		{"all equal", []float64{1, 2, 3, 4}, []float64{1, 2, 3, 4}, false, false, false, false, 0},
		{"a trade, both halves up", []float64{2, 2, 0, 6}, []float64{1, 2, 3, 2}, false, true, false, true, 5 - 30},
		{"one half down", []float64{5, 5, 1, 1}, []float64{1, 1, 2, 2}, false, false, false, true, 8 - 20},
		{"one episode loses", []float64{9, 9, 9, 3}, []float64{1, 1, 1, 4}, false, true, true, true, 24 - 10},
		{"one episode: no halves", []float64{2}, []float64{1}, true, false, true, true, 1},
		{"small gains, one loss", []float64{2, 2, 2, 2, 0}, []float64{1, 1, 1, 1, 1}, false, true, false, true, 4 - 10},
		{"a trade, the mean down", []float64{3, 0}, []float64{1, 3}, false, false, false, false, 2 - 30},
	} {
		if got := dominates(tc.a, tc.b); got != tc.dominates {
			t.Errorf("%s: dominates = %v, want %v", tc.name, got, tc.dominates)
		}
		if got := bothHalves(tc.a, tc.b); got != tc.halves {
			t.Errorf("%s: bothHalves = %v, want %v", tc.name, got, tc.halves)
		}
		if got := pairedGain(tc.a, tc.b); got != tc.paired {
			t.Errorf("%s: pairedGain = %v, want %v", tc.name, got, tc.paired)
		}
		if got := meanGain(tc.a, tc.b); got != tc.mean {
			t.Errorf("%s: meanGain = %v, want %v", tc.name, got, tc.mean)
		}
		if got := lossWeighted(tc.a, tc.b); got != tc.weighted {
			t.Errorf("%s: lossWeighted = %v, want %v", tc.name, got, tc.weighted)
		}
	}
}

// TestPolishSplits breaks every split of a trained CartPole tree (every
// state goes left, to leaf 0) and checks that split moves repair what leaf moves
// alone cannot: polishing with Config.PolishSplits keeps a split move and
// validates higher than polishing the leaves only, on a copy of the same
// broken tree.
func TestPolishSplits(t *testing.T) {
	cfg := smallCartPole(t, 6000, 500)
	cfg.ValEpisodes = 3
	tr := trained(t, cfg)
	best, _, ok := tr.BestActor()
	if !ok {
		t.Fatal("no best-validation policy")
	}
	leavesOnly, err := tr.polish(allLeft(t, tr, best))
	if err != nil {
		t.Fatal(err)
	}
	tr.cfg.PolishSplits = true
	ta := allLeft(t, tr, best)
	withSplits, err := tr.polish(ta)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("leaves only %+v, with splits %+v", leavesOnly, withSplits)
	if withSplits.Splits < 1 || !(withSplits.After > leavesOnly.After) {
		t.Fatalf("with splits %+v, leaves only %+v: want a kept split move and a higher validation", withSplits, leavesOnly)
	}
	if _, f, thr := ta.Kernel().Split(0, 0); math.IsInf(float64(thr), 1) {
		t.Errorf("the root still sends every state left (feature %d, threshold %v)", f, thr)
	}
}

// allLeft returns a copy of tree actor a whose every split sends all
// states left (to leaf 0): a tree leaf moves alone cannot mend.
func allLeft(t *testing.T, tr *Trainer, a policy.Actor) *policy.TreeActor {
	t.Helper()
	c, err := tr.copyActor(a)
	if err != nil {
		t.Fatal(err)
	}
	ta := c.(*policy.TreeActor)
	k := ta.Kernel()
	for i := range k.Nodes() {
		col, _, _ := k.Split(0, i)
		k.Params().Thresholds[i*k.SubsetSize()+col] = float32(math.Inf(1))
	}
	ta.Changed()
	return ta
}

// TestPolishMeans builds a MountainCarContinuous tree by hand whose root
// splits on the velocity and whose every other split sends all states
// left, so two leaves act: the velocity's sign picks one. With both means
// at 0 the car never leaves the valley; polishing the means (a continuous
// tree: each reached leaf's mean tried at the action range's grid) must
// find the pushes that reach the flag, replay its record and keep every
// mean within the action range.
func TestPolishMeans(t *testing.T) {
	cfg, err := Preset("MountainCarContinuous-v0", MethodSYMPOL)
	if err != nil {
		t.Fatal(err)
	}
	cfg.TotalSteps, cfg.CriticWidth, cfg.CriticLayers, cfg.NSteps, cfg.EvalFreq = 640, 16, 1, 64, 320
	cfg.ValEpisodes, cfg.PolishRule = 10, PolishPaired
	tr := trained(t, cfg)
	a, err := tr.copyActor(tr.Actor())
	if err != nil {
		t.Fatal(err)
	}
	ta := a.(*policy.TreeActor)
	k := ta.Kernel()
	P, ne := k.Params(), k.SubsetSize()
	root := -1
	for c := range ne {
		if k.Feature(0, c) == 1 { // velocity
			root = c
		}
	}
	if root < 0 {
		t.Fatal("the tree has no velocity column")
	}
	for i := range k.Nodes() {
		for c := range ne {
			P.IndexLogits[i*ne+c], P.Thresholds[i*ne+c] = 0, float32(math.Inf(1))
		}
	}
	P.IndexLogits[root], P.Thresholds[root] = 1, 0
	clear(P.Leaves)
	ta.Changed()
	validation := validationOf(t, tr, ta)
	still := validation()
	p, err := tr.polish(ta)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("polish %+v", p)
	if p.Before != still || !(p.After > 50) || p.Changed < 1 {
		t.Fatalf("polish %+v of a tree that never pushes (validation %v): want the flag reached (validation above 50)", p, still)
	}
	if got := validation(); got != p.After {
		t.Errorf("the polished actor validates %v, polish recorded %v", got, p.After)
	}
	for l := range k.Leaves() {
		if v := ta.LeafValues(l)[0]; v < -1 || v > 1 {
			t.Errorf("leaf %d's mean %v is outside the action range [-1, 1]", l, v)
		}
	}
}

// validationOf returns a function that plays tr's validation episodes with
// a as it stands and returns their mean return.
func validationOf(t *testing.T, tr *Trainer, a policy.Actor) func() float64 {
	cfg := tr.Config()
	return func() float64 {
		t.Helper()
		val, err := Returns(tr.Maker(), cfg.ValidationSeed(), cfg.ValidationEpisodes(), a, nil)
		if err != nil {
			t.Fatal(err)
		}
		return metrics.Mean(val)
	}
}

// TestPolishThresholds moves one threshold of a trained CartPole tree 48
// distinct values of its feature (on the validation episodes' observations
// reaching its node) away from where training left it (the node and side
// that lower the validation most) and checks that
// one sweep of threshold nudges (polisher.thresholds, rule mean) keeps a
// nudge, validates higher, changes no leaf and records what replays.
func TestPolishThresholds(t *testing.T) {
	cfg := smallCartPole(t, 6000, 500)
	cfg.ValEpisodes, cfg.PolishRule = 3, PolishMean
	tr := trained(t, cfg)
	best, _, ok := tr.BestActor()
	if !ok {
		t.Fatal("no best-validation policy")
	}
	broken := func() *policy.TreeActor {
		c, err := tr.copyActor(best)
		if err != nil {
			t.Fatal(err)
		}
		ta := c.(*policy.TreeActor)
		var obs []float32
		if _, err := Returns(tr.Maker(), cfg.ValidationSeed(), cfg.ValidationEpisodes(), ta, func(o []float32) { obs = append(obs, o...) }); err != nil {
			t.Fatal(err)
		}
		k := ta.Kernel()
		validation := validationOf(t, tr, ta)
		worst, worstAt, worstT := math.Inf(1), -1, float32(0)
		for i := range k.Nodes() {
			col, f, thr := k.Split(0, i)
			var vals []float32
			for r := 0; r < len(obs); r += ta.In() {
				if reaches(k, obs[r:r+ta.In()], i) {
					vals = append(vals, obs[r+f])
				}
			}
			slices.Sort(vals)
			vals = slices.Compact(vals)
			pos, _ := slices.BinarySearch(vals, thr)
			tv := &k.Params().Thresholds[i*k.SubsetSize()+col]
			for _, j := range []int{pos - 48, pos + 48} {
				if j < 1 || j >= len(vals) {
					continue
				}
				*tv = vals[j-1] + (vals[j]-vals[j-1])/2
				ta.Changed()
				if v := validation(); v < worst {
					worst, worstAt, worstT = v, i*k.SubsetSize()+col, *tv
				}
			}
			*tv = thr
			ta.Changed()
		}
		if worstAt < 0 {
			t.Fatal("setup: no reached node has 49 distinct values to either side")
		}
		tv := &k.Params().Thresholds[worstAt]
		*tv = worstT
		ta.Changed()
		return ta
	}
	ta := broken()
	validation := validationOf(t, tr, ta)
	before := validation()
	if whole := validationOf(t, tr, best)(); !(before < whole) {
		t.Fatalf("setup: the moved threshold validates %v, the trained tree %v: want lower", before, whole)
	}
	q, err := tr.newPolisher(ta)
	if err != nil {
		t.Fatal(err)
	}
	kept, err := q.thresholds()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("one sweep of nudges: %+v, validation %v", q.p, metrics.Mean(q.best))
	if !kept || q.p.Thresholds < 1 || !(metrics.Mean(q.best) > before) {
		t.Fatalf("one sweep of nudges %+v from validation %v: want a kept nudge and a higher validation", q.p, before)
	}
	if got := validation(); got != metrics.Mean(q.best) {
		t.Errorf("the polished actor validates %v, the sweep recorded %v", got, metrics.Mean(q.best))
	}
	if !slices.Equal(ta.Kernel().Params().Leaves, best.(*policy.TreeActor).Kernel().Params().Leaves) {
		t.Error("a sweep of threshold nudges changed leaf values")
	}
}

// reaches reports whether observation x reaches internal node i of tree 0
// of kernel k (after Prepare).
func reaches(k *tree.Kernel, x []float32, i int) bool {
	for n := 0; n < k.Nodes(); {
		if n == i {
			return true
		}
		_, f, thr := k.Split(0, n)
		n = ensemble.Child(n, x[f], thr)
	}
	return false
}

// TestPolishEpisodesBudget checks polish_episodes and polish_budget on a
// trained CartPole tree with one leaf flipped: every scored policy plays
// the polish episodes (the validation seeds and the ones after them, no
// other), and the polish stops trying moves once it has played its budget
// (each pass may still score the policy it ends with once).
func TestPolishEpisodesBudget(t *testing.T) {
	tr := trained(t, smallCartPole(t, 6000, 500))
	best, _, ok := tr.BestActor()
	if !ok {
		t.Fatal("no best-validation policy")
	}
	cfg := tr.Config()
	n := cfg.ValidationEpisodes() + 4
	for _, budget := range []int{0, 3} {
		a, err := tr.copyActor(best)
		if err != nil {
			t.Fatal(err)
		}
		ta := a.(*policy.TreeActor)
		for l := range ta.Kernel().Leaves() {
			v := ta.LeafValues(l)
			v[0], v[1] = v[1], v[0]
		}
		ta.Changed()
		tr.cfg.PolishEpisodes, tr.cfg.PolishBudget = n, budget
		p, seeds := polishLogged(t, tr, ta)
		t.Logf("budget %d: %+v", budget, p)
		if len(seeds) != n*p.Scored {
			t.Errorf("budget %d: %d episodes for %d scored policies of %d episodes", budget, len(seeds), p.Scored, n)
		}
		lo := uint64(cfg.ValidationSeed())
		for i, s := range seeds {
			if s != lo+uint64(i%n) {
				t.Fatalf("budget %d: episode %d reset with seed %d, want %d", budget, i, s, lo+uint64(i%n))
			}
		}
		if budget > 0 && p.Scored > budget+p.Passes {
			t.Errorf("budget %d: %d policies scored in %d passes", budget, p.Scored, p.Passes)
		}
		if budget == 0 && p.Scored <= 3+p.Passes {
			t.Errorf("without a budget only %d policies scored: the budget case tests nothing", p.Scored)
		}
	}

	// The polish episodes, like the validation's, must miss the test seeds.
	bad := cfg
	v := bad.ValidationEpisodes()
	bad.Polish, bad.PolishEpisodes = true, v+50
	bad.Seed = bad.TestSeed - v - 49
	if err := bad.Validate(); err == nil {
		t.Errorf("seed %d: polish episodes %d…%d overlap the test seeds %d…, yet Validate accepts it", bad.Seed, bad.Seed, bad.Seed+v+49, bad.TestSeed)
	}
	bad.Polish = false
	if err := bad.Validate(); err != nil {
		t.Errorf("seed %d without polish: %v", bad.Seed, err)
	}
}

// polishLogged polishes ta with tr and returns the record and the seeds
// of every episode the polish played, in order.
func polishLogged(t *testing.T, tr *Trainer, ta *policy.TreeActor) (Polish, []uint64) {
	t.Helper()
	var seeds []uint64
	inner := tr.maker
	tr.maker = func() env.Env { return seedLog{inner(), &seeds} }
	p, err := tr.polish(ta)
	tr.maker = inner
	if err != nil {
		t.Fatal(err)
	}
	return p, seeds
}
