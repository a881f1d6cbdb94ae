package minigrid

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

// agentState is the whole state of an Empty-Random episode (the layout
// never changes within one).
type agentState struct{ x, y, d int }

// room is Empty-Random-6x6's state graph as a memoryless policy meets it:
// every state the agent can start in (not on the goal), the observation
// it sees there (an id per distinct observation vector) and where each of
// the three actions leads (goal: -1), all taken through Observe and Step.
type room struct {
	e      *Env
	states []agentState
	index  map[agentState]int
	obsID  map[string]int
	vecs   [][]float32 // observation vector per id
	obs    []int       // observation id per state
	next   [][3]int    // next state per action; -1: the goal
	dist   []int       // fewest actions to the goal with full information (shortest)
}

func newRoom(t *testing.T) *room {
	t.Helper()
	e, obs := mustNew(t, IDEmptyRandom6x6)
	r := &room{e: e, index: map[agentState]int{}, obsID: map[string]int{}}
	w, h := e.Size()
	for y := 1; y < h-1; y++ {
		for x := 1; x < w-1; x++ {
			if e.At(x, y).Kind == Goal {
				continue
			}
			for d := 0; d < 4; d++ {
				r.index[agentState{x, y, d}] = len(r.states)
				r.states = append(r.states, agentState{x, y, d})
			}
		}
	}
	a := []float32{0}
	for _, s := range r.states {
		r.set(t, s)
		r.obs = append(r.obs, r.observe(obs))
		r.dist = append(r.dist, shortest(t, e))
		var nx [3]int
		for act := range nx {
			r.set(t, s)
			a[0] = float32(act)
			if _, term := e.Step(a, obs); term {
				nx[act] = -1
				continue
			}
			x, y, d := e.Agent()
			n, ok := r.index[agentState{x, y, d}]
			if !ok {
				t.Fatalf("action %d from %v leads to (%d, %d, %d), not a start state", act, s, x, y, d)
			}
			nx[act] = n
		}
		r.next = append(r.next, nx)
	}
	return r
}

func (r *room) set(t *testing.T, s agentState) {
	t.Helper()
	if err := r.e.SetAgent(s.x, s.y, s.d); err != nil {
		t.Fatal(err)
	}
	r.e.steps = 0
}

// observe returns the id of the current observation, numbering new ones.
func (r *room) observe(obs []float32) int {
	r.e.Observe(obs)
	k := fmt.Sprint(obs)
	id, ok := r.obsID[k]
	if !ok {
		id = len(r.obsID)
		r.obsID[k] = id
		r.vecs = append(r.vecs, slices.Clone(obs))
	}
	return id
}

// ret is the return of an episode that reaches the goal after n actions.
func (r *room) ret(n int) float64 {
	return float64(float32(1 - 0.9*float64(n)/float64(r.e.cfg.maxSteps)))
}

// play follows a policy (action per observation id; -1 unassigned) from
// state s and returns its actions to the goal (-1: it loops or meets an
// unassigned observation).
func (r *room) play(pol []int, s int) int {
	for n := 1; n <= r.e.cfg.maxSteps; n++ {
		act := pol[r.obs[s]]
		if act < 0 {
			return -1
		}
		if s = r.next[s][act]; s < 0 {
			return n
		}
	}
	return -1
}

// replay plays a policy through the environment itself (Observe and Step)
// from s, the check on play and on the graph.
func (r *room) replay(t *testing.T, pol []int, s agentState) int {
	t.Helper()
	r.set(t, s)
	obs := make([]float32, r.e.Spec().Observation.Dim)
	a := []float32{0}
	r.e.Observe(obs)
	for n := 1; n <= r.e.cfg.maxSteps; n++ {
		id, ok := r.obsID[fmt.Sprint(obs)]
		if !ok || pol[id] < 0 {
			return -1
		}
		a[0] = float32(pol[id])
		if _, term := r.e.Step(a, obs); term {
			return n
		}
	}
	return -1
}

// reactive searches the memoryless deterministic policies — maps from the
// observation (the 3×3 view a SYMPOL tree acts on) to an action — for
// those with the largest sum of value(actions) over the episodes that
// start in starts, exactly: depth first over the actions of the
// observations the episodes meet, in the order they meet them, bounded by
// the full-information shortest paths (value must decrease with the
// actions). A policy that revisits a state within an episode loops and is
// pruned. It returns every best policy (action per observation id, -1
// where no episode meets the observation).
func (r *room) reactive(starts []int, value func(n int) float64) [][]int {
	rest := make([]float64, len(starts)+1) // bound of the starts from i on
	for i := len(starts) - 1; i >= 0; i-- {
		rest[i] = rest[i+1] + value(r.dist[starts[i]])
	}
	pol := make([]int, len(r.obsID))
	for i := range pol {
		pol[i] = -1
	}
	const eps = 1e-9
	best := math.Inf(-1)
	var found [][]int
	onPath := make([]bool, len(r.states))
	var search func(i, s, n int, total float64)
	search = func(i, s, n int, total float64) {
		if i == len(starts) {
			if total > best+eps {
				best, found = total, nil
			}
			found = append(found, slices.Clone(pol))
			return
		}
		if total+value(n+r.dist[s])+rest[i+1] < best-eps {
			return
		}
		try := func(act int) {
			nx := r.next[s][act]
			switch {
			case nx >= 0 && onPath[nx]:
				// A loop: this episode never ends.
			case nx >= 0:
				onPath[nx] = true
				search(i, nx, n+1, total)
				onPath[nx] = false
			case i+1 < len(starts):
				path := slices.Clone(onPath) // the next episode's path starts empty
				clear(onPath)
				onPath[starts[i+1]] = true
				search(i+1, starts[i+1], 0, total+value(n+1))
				copy(onPath, path)
			default:
				search(i+1, -1, 0, total+value(n+1))
			}
		}
		o := r.obs[s]
		if act := pol[o]; act >= 0 {
			try(act)
			return
		}
		for act := 0; act < 3; act++ {
			pol[o] = act
			try(act)
		}
		pol[o] = -1
	}
	onPath[starts[0]] = true
	search(0, starts[0], 0, 0)
	return found
}

// TestReactiveCeiling shows why no SYMPOL policy reaches the
// full-information ceiling of TestOptimalTestReturns on Empty-Random-6x6
// (issue 22, BENCHMARKS.md "Empty-Random's path lengths"): the tree acts on
// the 3×3 view alone, which aliases states (the goal is out of sight from
// most starts), so it cannot take every shortest path. It searches, exactly,
// the memoryless policies best for the five test episodes alone (the ceiling
// of any policy on them) and best for all 60 start states (uniform, the
// distribution training and validation episodes draw from; also with the
// preset's discount γ = 0.9, the return PPO maximises), replays each found
// policy through Step, checks that a depth-7 tree can act as it (the
// least depth is 4) and logs its actions per test episode
// (go test -run TestReactiveCeiling -v ./rl/env/minigrid).
func TestReactiveCeiling(t *testing.T) {
	r := newRoom(t)
	var test, all []int
	obs := make([]float32, r.e.Spec().Observation.Dim)
	for seed := uint64(123456); seed < 123461; seed++ {
		r.e.Seed(seed)
		r.e.Reset(obs)
		x, y, d := r.e.Agent()
		test = append(test, r.index[agentState{x, y, d}])
	}
	for s := range r.states {
		all = append(all, s)
	}
	full := 0
	for _, s := range test {
		full += r.dist[s]
	}
	disc := func(gamma float64) func(n int) float64 {
		return func(n int) float64 { return math.Pow(gamma, float64(n-1)) * r.ret(n) }
	}
	mean := func(per []int) float64 {
		m := 0.0
		for _, n := range per {
			m += r.ret(n) / float64(len(per))
		}
		return m
	}
	t.Logf("full information: test episodes %v actions, mean test return %.4f", r.testSteps(t, nil, test), mean(r.testSteps(t, nil, test)))
	for _, c := range []struct {
		name   string
		starts []int
		gamma  float64
		// want: the fewest actions over the starts and the test returns
		// of the best policies (ties differ on the test episodes).
		sum  int
		test []float64
	}{
		{"the 5 test episodes", test, 1, 24, []float64{0.97}},
		{"all 60 start states", all, 1, 408, []float64{0.965, 0.9675}},
		{"all 60 start states, discounted by 0.9", all, 0.9, 408, []float64{0.965, 0.9675}},
	} {
		pols := r.reactive(c.starts, disc(c.gamma))
		var tests []float64
		for _, pol := range pols {
			sum := 0
			for _, s := range c.starts {
				n := r.play(pol, s)
				if got := r.replay(t, pol, r.states[s]); got != n || n < 0 {
					t.Fatalf("%s: start %v: the policy takes %d actions through Step, %d on the graph", c.name, r.states[s], got, n)
				}
				sum += n
			}
			if sum != c.sum {
				t.Errorf("%s: a best policy takes %d actions in all, want %d", c.name, sum, c.sum)
			}
			if d := r.treeDepth(pol); d > 7 {
				t.Errorf("%s: a best policy needs a tree of depth %d on the observation's features, SYMPOL's has 7", c.name, d)
			} else if c.name == "all 60 start states" {
				t.Logf("the smallest tree acting as a best policy has depth %d (axis-aligned splits on the ±1 features; SYMPOL's trees have depth 7)", d)
			}
			per := r.testSteps(t, pol, test)
			m := mean(per)
			if !slices.ContainsFunc(tests, func(v float64) bool { return math.Abs(v-m) < 1e-6 }) {
				tests = append(tests, m)
				t.Logf("best memoryless policy for %s: %d actions in all (%.3f per episode); test episodes %v actions (shortest %d in all), mean test return %.4f",
					c.name, sum, float64(sum)/float64(len(c.starts)), per, full, m)
			}
		}
		slices.Sort(tests)
		if len(tests) != len(c.test) {
			t.Fatalf("%s: %d best policies with test returns %v, want %v", c.name, len(pols), tests, c.test)
		}
		for i := range tests {
			if math.Abs(tests[i]-c.test[i]) > 1e-4 {
				t.Errorf("%s: test returns of the best policies %v, want %v", c.name, tests, c.test)
			}
		}
		t.Logf("%s: %d best policies", c.name, len(pols))
	}
}

// testSteps returns the actions a policy takes on the test episodes (nil
// policy: the full-information shortest paths).
func (r *room) testSteps(t *testing.T, pol []int, test []int) []int {
	t.Helper()
	var per []int
	for _, s := range test {
		n := r.dist[s]
		if pol != nil {
			n = r.play(pol, s)
		}
		if n < 0 {
			t.Fatalf("the policy does not reach the goal from test start %v", r.states[s])
		}
		per = append(per, n)
	}
	return per
}

// TestWallFollower measures the policy most SYMPOL trainings on
// Empty-Random-6x6 settle on within their first 50 k steps (a 5-node tree:
// turn right when the goal is on the right, left when a wall is ahead,
// else move forward), against the best memoryless policies of
// TestReactiveCeiling, and how often validation on n consecutive seeds
// ranks the best policies above it (paired on the same episodes, as a
// training's evaluations are): with the default 20 episodes it misses
// up to one time in seven, with 200 never in 1000 seed ranges
// (go test -run TestWallFollower -v ./rl/env/minigrid).
func TestWallFollower(t *testing.T) {
	r := newRoom(t)
	wall := make([]int, len(r.obsID))
	for s, st := range r.states {
		r.set(t, st)
		act := forward
		switch {
		case r.e.View(2, 2).Kind == Goal:
			act = right
		case r.e.View(1, 1).Kind == Wall:
			act = left
		}
		wall[r.obs[s]] = act
	}
	var all []int
	for s := range r.states {
		all = append(all, s)
	}
	best := r.reactive(all, r.ret)
	steps := func(pol []int) []int {
		per := make([]int, len(r.states))
		for s := range per {
			if per[s] = r.play(pol, s); per[s] < 0 {
				t.Fatalf("the policy does not reach the goal from %v", r.states[s])
			}
		}
		return per
	}
	ws := steps(wall)
	sum := 0
	for _, n := range ws {
		sum += n
	}
	obs := make([]float32, r.e.Spec().Observation.Dim)
	start := func(seed int) int {
		r.e.Seed(uint64(seed))
		r.e.Reset(obs)
		x, y, d := r.e.Agent()
		return r.index[agentState{x, y, d}]
	}
	var test []int
	for seed := 123456; seed < 123461; seed++ {
		test = append(test, start(seed))
	}
	per := r.testSteps(t, wall, test)
	if sum != 485 || !slices.Equal(per, []int{2, 12, 10, 10, 2}) {
		t.Errorf("wall follower: %d actions over the 60 start states, test episodes %v; want 485, [2 12 10 10 2]", sum, per)
	}
	t.Logf("wall follower: %d actions over the 60 start states (%.3f per episode; the best policies 6.800); test episodes %v actions, mean test return %.4f",
		sum, float64(sum)/60, per, (r.ret(per[0])+r.ret(per[1])+r.ret(per[2])+r.ret(per[3])+r.ret(per[4]))/5)
	const runs = 1000
	for _, n := range []int{20, 100, 200} {
		var miss []int // per best policy: validations that do not rank it above the wall follower
		for _, pol := range best {
			bs := steps(pol)
			m := 0
			for k := 0; k < runs; k++ {
				d := 0
				for i := 0; i < n; i++ {
					s := start(1_000_000 + k*n + i)
					d += ws[s] - bs[s]
				}
				if d <= 0 {
					m++
				}
			}
			miss = append(miss, m)
		}
		t.Logf("%d validation episodes: a best policy validates no better than the wall follower on %v of %d seed ranges (per best policy)", n, miss, runs)
		if n == 200 && slices.Max(miss) > runs/20 {
			t.Errorf("200 validation episodes miss %v of %d times", miss, runs)
		}
	}
}

// treeDepth returns the least depth of a decision tree that splits on the
// observation's ±1 features and gives every observation a policy assigns
// its action (the others are free): exhaustive over the distinct splits of
// each subset, memoised (at most 64 assigned observations).
func (r *room) treeDepth(pol []int) int {
	var ids []int
	for id, act := range pol {
		if act >= 0 {
			ids = append(ids, id)
		}
	}
	if len(ids) > 64 {
		panic("treeDepth: more than 64 observations")
	}
	full := uint64(1)<<len(ids) - 1
	if len(ids) == 64 {
		full = ^uint64(0)
	}
	// side[f]: the observations (bits over ids) with feature f at +1.
	side := make([]uint64, len(r.vecs[0]))
	for f := range side {
		for b, id := range ids {
			if r.vecs[id][f] > 0 {
				side[f] |= 1 << b
			}
		}
	}
	memo := map[uint64]int{}
	var depth func(m uint64) int
	depth = func(m uint64) int {
		if d, ok := memo[m]; ok {
			return d
		}
		act, pure := -1, true
		for b := range ids {
			if m>>b&1 == 1 {
				if act < 0 {
					act = pol[ids[b]]
				}
				pure = pure && pol[ids[b]] == act
			}
		}
		if pure {
			memo[m] = 0
			return 0
		}
		best := 1 << 20 // two observations alike on every feature: cannot happen
		memo[m] = best  // guards against recursion into m itself
		seen := map[uint64]bool{}
		for _, sf := range side {
			hi := m & sf
			lo := m &^ sf
			if hi == 0 || lo == 0 || seen[hi] || seen[lo] {
				continue
			}
			seen[hi] = true
			d := depth(hi)
			if d+1 >= best {
				continue
			}
			d = max(d, depth(lo))
			best = min(best, d+1)
		}
		memo[m] = best
		return best
	}
	return depth(full)
}
