package minigrid

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/rl/env"
)

// Policy action indices of the 3-action environments (and the first three
// of DoorKey's five).
const (
	left    = 0
	right   = 1
	forward = 2
	pickup  = 3 // DoorKey only
	toggle  = 4 // DoorKey only
)

func mustNew(t testing.TB, id string) (*Env, []float32) {
	t.Helper()
	e, err := New(id)
	if err != nil {
		t.Fatal(err)
	}
	return e, make([]float32, e.Spec().Observation.Dim)
}

// run applies policy actions and returns the last reward and termination;
// it fails if the episode terminates before the last action.
func run(t *testing.T, e *Env, obs []float32, acts ...int) (float32, bool) {
	t.Helper()
	a := []float32{0}
	var r float32
	var term bool
	for n, act := range acts {
		a[0] = float32(act)
		r, term = e.Step(a, obs)
		if term && n < len(acts)-1 {
			t.Fatalf("terminated after action %d of %d (reward %v)\n%s", n+1, len(acts), r, e)
		}
	}
	return r, term
}

// shortest finds by breadth-first search over (x, y, dir) the fewest actions
// from the current state to the goal, for a layout the actions do not change.
func shortest(t *testing.T, e *Env) int {
	t.Helper()
	type state struct{ x, y, d int }
	x, y, d := e.Agent()
	start := state{x, y, d}
	depth := map[state]int{start: 0}
	queue := []state{start}
	obs := make([]float32, e.Spec().Observation.Dim)
	a := []float32{0}
	best := -1
	for len(queue) > 0 && best < 0 {
		s := queue[0]
		queue = queue[1:]
		for act := 0; act < e.Spec().Action.N; act++ {
			if err := e.SetAgent(s.x, s.y, s.d); err != nil {
				t.Fatal(err)
			}
			a[0] = float32(act)
			e.steps = 0 // keep the goal reward positive
			r, term := e.Step(a, obs)
			if term {
				if r > 0 {
					best = depth[s] + 1
					break
				}
				continue // lava
			}
			nx, ny, nd := e.Agent()
			n := state{nx, ny, nd}
			if _, seen := depth[n]; !seen {
				depth[n] = depth[s] + 1
				queue = append(queue, n)
			}
		}
	}
	if err := e.SetAgent(start.x, start.y, start.d); err != nil {
		t.Fatal(err)
	}
	e.steps = 0
	return best
}

func findKind(e *Env, k Kind) (int, int) {
	w, h := e.Size()
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if e.At(x, y).Kind == k {
				return x, y
			}
		}
	}
	return -1, -1
}

func TestSpecs(t *testing.T) {
	tests := []struct {
		id                string
		features, actions int
		maxSteps          int
	}{
		{IDEmptyRandom6x6, 36, 3, 144},
		{IDDoorKey5x5, 81, 5, 250},
		{IDLavaGapS5, 45, 3, 100},
		{IDLavaGapS7, 45, 3, 196},
		{IDDistShift1, 45, 3, 252},
		{IDDistShift2, 45, 3, 252},
		{IDDistShift3, 45, 3, 252},
		{IDDistShift4, 45, 3, 252},
	}
	for _, tc := range tests {
		e, err := env.Make(tc.id)
		if err != nil {
			t.Fatal(err)
		}
		s := e.Spec()
		if s.ID != tc.id || s.Observation.Dim != tc.features || s.Observation.N != 0 ||
			s.Action.N != tc.actions || s.Action.Dim != 1 || s.MaxEpisodeSteps != tc.maxSteps ||
			s.TimeLimitIsTerminal {
			t.Errorf("%s: spec %+v", tc.id, s)
		}
		if len(s.FeatureNames) != tc.features || len(s.ActionNames) != tc.actions ||
			len(s.Observation.Low) != tc.features || len(s.Observation.High) != tc.features {
			t.Errorf("%s: %d feature names, %d action names, %d/%d bounds", tc.id,
				len(s.FeatureNames), len(s.ActionNames), len(s.Observation.Low), len(s.Observation.High))
		}
		seen := map[string]bool{}
		for _, n := range s.FeatureNames {
			if seen[n] || n == "" {
				t.Errorf("%s: feature name %q empty or repeated", tc.id, n)
			}
			seen[n] = true
		}
		if _, ok := e.(*Env); !ok {
			t.Errorf("%s: env.Make returned %T", tc.id, e)
		}
	}
	if _, err := New("MiniGrid-Nope-v0"); err == nil || !strings.Contains(err.Error(), "MiniGrid-Nope-v0") {
		t.Errorf("New(unknown) error = %v", err)
	}
}

func TestNames(t *testing.T) {
	tests := []struct {
		id    string
		index int
		want  string
	}{
		{IDDistShift1, (1*3+1)*5 + 4, "cell ahead is lava"},
		{IDDistShift1, (0*3+2)*5 + 2, "cell to the left is a wall"},
		{IDDistShift1, (2*3+1)*5 + 3, "cell ahead-right is the goal"},
		{IDDistShift1, (1*3+0)*5 + 2, "cell two ahead is a wall"},
		{IDDistShift1, (0*3+0)*5 + 0, "cell two ahead and one left is unseen"},
		{IDEmptyRandom6x6, (2*3+2)*4 + 1, "cell to the right is empty"},
		{IDDoorKey5x5, (1*3+2)*9 + 4, "agent carries a key"},
		{IDDoorKey5x5, (1*3+2)*9 + 1, "agent carries nothing"},
		{IDDoorKey5x5, (1*3+1)*9 + 8, "cell ahead is a locked door"},
		{IDDoorKey5x5, (1*3+1)*9 + 6, "cell ahead is open or not a door"},
		{IDDoorKey5x5, (1*3+1)*9 + 3, "cell ahead is a door"},
	}
	for _, tc := range tests {
		e, _ := mustNew(t, tc.id)
		if got := e.Spec().FeatureNames[tc.index]; got != tc.want {
			t.Errorf("%s feature %d = %q, want %q", tc.id, tc.index, got, tc.want)
		}
	}
	e, _ := mustNew(t, IDDoorKey5x5)
	if got, want := e.Spec().ActionNames, []string{"turn left", "turn right", "move forward", "pick up", "toggle"}; !slices.Equal(got, want) {
		t.Errorf("DoorKey actions %q, want %q", got, want)
	}
}

// TestRewardFormula reaches the goal on exactly step s (s−1 left turns, then
// forward) and checks reward 1 − 0.9·s/max_steps.
func TestRewardFormula(t *testing.T) {
	tests := []struct {
		id     string
		x, y   int // agent cell next to the goal
		toGoal int // direction from there to the goal
		steps  int
	}{
		{IDDistShift1, 6, 1, 0, 1},
		{IDDistShift1, 6, 1, 0, 13},
		{IDDistShift1, 7, 2, 3, 100},
		{IDDistShift1, 7, 2, 3, 251},
		{IDDistShift1, 7, 2, 3, 252}, // the step that also hits the time limit
		{IDEmptyRandom6x6, 4, 3, 1, 7},
		{IDEmptyRandom6x6, 3, 4, 0, 144},
		{IDLavaGapS5, 3, 2, 1, 50},
		{IDLavaGapS7, 5, 4, 1, 33},
	}
	for _, tc := range tests {
		e, obs := mustNew(t, tc.id)
		e.Reset(obs)
		if err := e.SetAgent(tc.x, tc.y, (tc.toGoal+tc.steps-1)%4); err != nil {
			t.Fatal(err)
		}
		acts := make([]int, tc.steps)
		acts[tc.steps-1] = forward
		r, term := run(t, e, obs, acts...)
		want := float32(1 - 0.9*float64(tc.steps)/float64(e.Spec().MaxEpisodeSteps))
		if !term || r != want || e.StepCount() != tc.steps {
			t.Errorf("%s, %d steps: reward %v terminated %v (step count %d), want %v true", tc.id, tc.steps, r, term, e.StepCount(), want)
		}
	}
}

func TestDistShift1Optimum(t *testing.T) {
	e, obs := mustNew(t, IDDistShift1)
	e.Seed(12345) // the layout is deterministic
	e.Reset(obs)
	const want = "#########\n#>.~~~.G#\n#..~~~..#\n#.......#\n#.......#\n#.......#\n#########"
	if e.String() != want {
		t.Fatalf("layout\n%s\nwant\n%s", e, want)
	}
	// Down to row 3 below the lava, east along it, up to the goal.
	plan := []int{right, forward, forward, left, forward, forward, forward, forward, forward, forward, left, forward, forward}
	r, term := run(t, e, obs, plan...)
	if !term || len(plan) != 13 || math.Abs(float64(r)-0.9536) > 5e-5 || r != float32(1-0.9*13.0/252) {
		t.Errorf("13-action plan: reward %v terminated %v, want 0.9536 true", r, term)
	}
	e.Reset(obs)
	if n := shortest(t, e); n != 13 {
		t.Errorf("shortest DistShift1 solution %d actions, want 13", n)
	}
}

func TestLavaGapS5(t *testing.T) {
	// Scripted shortest episodes per gap row (agent (1,1) east, goal (3,3),
	// lava column x = 2).
	plans := map[int][]int{
		1: {forward, forward, right, forward, forward},
		2: {right, forward, left, forward, forward, right, forward},
		3: {right, forward, forward, left, forward, forward},
	}
	wantReward := map[int]float64{1: 0.955, 2: 0.937, 3: 0.946}
	found := map[int]bool{}
	for seed := uint64(0); seed < 40 && len(found) < 3; seed++ {
		e, obs := mustNew(t, IDLavaGapS5)
		e.Seed(seed)
		e.Reset(obs)
		_, gy := findGap(e)
		if found[gy] {
			continue
		}
		found[gy] = true
		if n := shortest(t, e); n != len(plans[gy]) {
			t.Errorf("seed %d gap row %d: shortest %d actions, want %d\n%s", seed, gy, n, len(plans[gy]), e)
		}
		r, term := run(t, e, obs, plans[gy]...)
		if !term || math.Abs(float64(r)-wantReward[gy]) > 1e-6 {
			t.Errorf("seed %d gap row %d: reward %v terminated %v, want %v\n%s", seed, gy, r, term, wantReward[gy], e)
		}
	}
	if len(found) != 3 {
		t.Errorf("gap rows seen in 40 seeds: %v", found)
	}
}

// findGap returns the gap of a LavaGap layout.
func findGap(e *Env) (int, int) {
	lx, _ := findKind(e, Lava)
	_, h := e.Size()
	for y := 1; y < h-1; y++ {
		if e.At(lx, y).Kind == Empty {
			return lx, y
		}
	}
	return -1, -1
}

func TestLavaTerminatesWithZero(t *testing.T) {
	tests := []struct {
		id   string
		plan []int
	}{
		{IDDistShift1, []int{forward, forward}},                       // (3,1)
		{IDDistShift1, []int{right, forward, left, forward, forward}}, // (3,2)
		{IDDistShift2, []int{right, forward, forward, forward, forward, left, forward, forward}},
	}
	for _, tc := range tests {
		e, obs := mustNew(t, tc.id)
		e.Reset(obs)
		r, term := run(t, e, obs, tc.plan...)
		x, y, _ := e.Agent()
		if !term || r != 0 || e.At(x, y).Kind != Lava {
			t.Errorf("%s %v: reward %v terminated %v, agent on %s\n%s", tc.id, tc.plan, r, term, e.At(x, y).Kind, e)
		}
	}
	// LavaGap: the first layout whose gap is not in row 1 has lava ahead.
	for seed := uint64(0); ; seed++ {
		e, obs := mustNew(t, IDLavaGapS7)
		e.Seed(seed)
		e.Reset(obs)
		if gx, gy := findGap(e); gx != 2 || gy == 1 {
			continue
		}
		if obs[(1*3+1)*5+4] != 1 {
			t.Errorf("seed %d: lava ahead not seen, obs %v\n%s", seed, obs, e)
		}
		r, term := run(t, e, obs, forward)
		if !term || r != 0 {
			t.Errorf("seed %d: stepping into lava gave reward %v terminated %v", seed, r, term)
		}
		break
	}
}

func TestDoorKey(t *testing.T) {
	e, obs := mustNew(t, IDDoorKey5x5)
	e.Seed(0)
	e.Reset(obs)
	const layout = "#####\n#.L.#\n#K#.#\n#<#G#\n#####"
	if e.String() != layout {
		t.Fatalf("seed 0 layout\n%s\nwant\n%s", e, layout)
	}
	carriesKey := (1*3+2)*9 + 4
	aheadLocked := (1*3+1)*9 + 8
	steps := []struct {
		act      int
		x, y     int
		lockedUp bool // the door is still locked afterwards
		carrying bool
	}{
		{right, 1, 3, true, false},   // face north, key ahead
		{toggle, 1, 3, true, false},  // toggling a key does nothing
		{forward, 1, 3, true, false}, // the key blocks
		{pickup, 1, 3, true, true},
		{pickup, 1, 3, true, true}, // nothing more to pick up
		{forward, 1, 2, true, true},
		{forward, 1, 1, true, true},
		{right, 1, 1, true, true},    // face the locked door
		{forward, 1, 1, true, true},  // a locked door blocks
		{toggle, 1, 1, false, true},  // unlock and open
		{toggle, 1, 1, false, true},  // close
		{forward, 1, 1, false, true}, // a closed door blocks
		{toggle, 1, 1, false, true},  // open again
		{forward, 2, 1, false, true}, // stand in the doorway
		{forward, 3, 1, false, true},
		{right, 3, 1, false, true},
		{forward, 3, 2, false, true},
	}
	a := []float32{0}
	for n, s := range steps {
		a[0] = float32(s.act)
		r, term := e.Step(a, obs)
		if term || r != 0 {
			t.Fatalf("step %d: early end (reward %v)", n+1, r)
		}
		x, y, _ := e.Agent()
		door := e.At(2, 1)
		if x != s.x || y != s.y || (door.State == Locked) != s.lockedUp || (e.Carrying().Kind == Key) != s.carrying {
			t.Fatalf("step %d (%s): agent (%d,%d), door %v, carrying %v; want (%d,%d) locked %v carrying %v\n%s",
				n+1, e.Spec().ActionNames[s.act], x, y, door, e.Carrying(), s.x, s.y, s.lockedUp, s.carrying, e)
		}
		if (obs[carriesKey] == 1) != s.carrying {
			t.Fatalf("step %d: 'agent carries a key' = %v", n+1, obs[carriesKey])
		}
		if n == 7 && obs[aheadLocked] != 1 {
			t.Fatalf("step %d: locked door ahead not observed\n%s", n+1, e.ViewString())
		}
	}
	if e.At(1, 2).Kind != Empty || e.At(2, 1) != (Object{Kind: Door, Color: Yellow, State: Open}) {
		t.Errorf("key cell %v, door %v", e.At(1, 2), e.At(2, 1))
	}
	a[0] = forward
	r, term := e.Step(a, obs)
	if want := float32(1 - 0.9*18.0/250); !term || r != want {
		t.Errorf("reaching the goal: reward %v terminated %v, want %v true", r, term, want)
	}
	e.Reset(obs)
	if e.Carrying().Kind != Empty || e.StepCount() != 0 {
		t.Errorf("after Reset: carrying %v, %d steps", e.Carrying(), e.StepCount())
	}
}

// obsFromView builds the expected ±1 observation from hand-written view
// cells (rows far to near, columns left to right) and the kept bits.
func obsFromView(rows [3][3]Object, keep []int) []float32 {
	k := len(keep)
	out := make([]float32, 9*k)
	for j := 0; j < 3; j++ {
		for i := 0; i < 3; i++ {
			o := rows[j][i]
			set := map[int]bool{int(o.Kind): true, 11 + int(o.Color): true, 17 + int(o.State): true}
			for n, b := range keep {
				out[(i*3+j)*k+n] = -1
				if set[b] {
					out[(i*3+j)*k+n] = 1
				}
			}
		}
	}
	return out
}

func TestObservationByHand(t *testing.T) {
	W, L, G, E, U, K := wallObj, lavaObj, goalObj, nothing, unseenCell, keyObj
	LD := lockedDoor
	tests := []struct {
		name string
		id   string
		seed uint64
		x, y int
		dir  int
		pre  []int // actions before observing
		view [3][3]Object
		text string
	}{
		{"DistShift1 start", IDDistShift1, 0, 1, 1, 0, nil,
			[3][3]Object{{W, L, L}, {W, E, E}, {W, E, E}}, "#~~\n#..\n#^."},
		{"DistShift1 facing south at (6,2)", IDDistShift1, 0, 6, 2, 1, nil,
			// left = east (7,·), right = west (5,·)
			[3][3]Object{{E, E, E}, {E, E, E}, {E, E, L}}, "...\n...\n.^~"},
		{"DistShift1 below goal facing north", IDDistShift1, 0, 7, 2, 3, nil,
			[3][3]Object{{W, W, W}, {E, G, W}, {E, E, W}}, "###\n.G#\n.^#"},
		{"DoorKey start (occlusion)", IDDoorKey5x5, 0, 1, 3, 2, nil,
			[3][3]Object{{U, U, U}, {W, W, W}, {W, E, K}}, "???\n###\n#^K"},
		{"DoorKey at the locked door", IDDoorKey5x5, 0, 1, 1, 0, nil,
			// the door occludes what lies behind it, the side walls hide the rest
			[3][3]Object{{U, U, U}, {W, LD, W}, {W, E, K}}, "???\n#L#\n#^K"},
		{"DoorKey carrying the key", IDDoorKey5x5, 0, 1, 3, 3, []int{pickup},
			[3][3]Object{{W, E, LD}, {W, E, W}, {W, K, W}}, "#.L\n#.#\n#K#"},
		{"Empty facing a corner", IDEmptyRandom6x6, 0, 4, 1, 0, nil,
			[3][3]Object{{W, W, W}, {W, W, W}, {W, E, E}}, "###\n###\n#^."},
	}
	for _, tc := range tests {
		e, obs := mustNew(t, tc.id)
		e.Seed(tc.seed)
		e.Reset(obs)
		if err := e.SetAgent(tc.x, tc.y, tc.dir); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if len(tc.pre) > 0 {
			run(t, e, obs, tc.pre...)
		} else {
			e.Observe(obs)
		}
		want := obsFromView(tc.view, e.cfg.keep)
		if !slices.Equal(obs, want) || e.ViewString() != tc.text {
			t.Errorf("%s:\n%s\nview\n%s\nwant\n%s\nobs  %v\nwant %v", tc.name, e, e.ViewString(), tc.text, obs, want)
		}
	}

	// LavaGap S5 with the gap in row 3: from (1,2) facing east the lava
	// column is see-through, so the cells behind it are seen.
	for seed := uint64(0); ; seed++ {
		e, obs := mustNew(t, IDLavaGapS5)
		e.Seed(seed)
		e.Reset(obs)
		if _, gy := findGap(e); gy != 3 {
			continue
		}
		if err := e.SetAgent(1, 2, 0); err != nil {
			t.Fatal(err)
		}
		e.Observe(obs)
		want := obsFromView([3][3]Object{{E, E, G}, {L, L, E}, {E, E, E}}, bitsLava)
		if !slices.Equal(obs, want) || e.ViewString() != "..G\n~~.\n.^." {
			t.Errorf("LavaGap view\n%s\nobs %v\nwant %v", e.ViewString(), obs, want)
		}
		break
	}
}

func TestLayoutsPerSeed(t *testing.T) {
	// Determinism: two instances with the same seed agree on every reset and
	// step; the stream continues across resets like gymnasium's autoreset.
	for _, c := range configs {
		a, obsA := mustNew(t, c.id)
		b, obsB := mustNew(t, c.id)
		a.Seed(7)
		b.Seed(7)
		act := []float32{0}
		layouts := map[string]bool{}
		for ep := 0; ep < 20; ep++ {
			a.Reset(obsA)
			b.Reset(obsB)
			layouts[a.String()] = true
			for s := 0; s < 30; s++ {
				act[0] = float32((ep*7 + s*s) % c.spec.Action.N)
				ra, ta := a.Step(act, obsA)
				rb, tb := b.Step(act, obsB)
				if ra != rb || ta != tb || !slices.Equal(obsA, obsB) || a.String() != b.String() {
					t.Fatalf("%s: instances diverge at episode %d step %d", c.id, ep, s)
				}
				if ta {
					break
				}
			}
		}
		// Spec.OneEpisode names the environments whose every reset gives
		// the same layout (the agent's start is fixed in all of them).
		random := !c.spec.OneEpisode
		if want := c.id == IDDistShift1 || c.id == IDDistShift2; c.spec.OneEpisode != want {
			t.Errorf("%s: Spec.OneEpisode = %v, want %v", c.id, c.spec.OneEpisode, want)
		}
		if random && len(layouts) < 2 {
			t.Errorf("%s: 20 resets gave one layout", c.id)
		}
		if !random && len(layouts) != 1 {
			t.Errorf("%s: deterministic layout varies: %d", c.id, len(layouts))
		}
		a.Seed(7)
		a.Reset(obsA)
		c2, obsC := mustNew(t, c.id)
		c2.Seed(7)
		c2.Reset(obsC)
		if a.String() != c2.String() || !slices.Equal(obsA, obsC) {
			t.Errorf("%s: reseeding does not restart the stream", c.id)
		}
	}
}

func TestFreshInstanceIsSeedZero(t *testing.T) {
	for _, c := range configs {
		a, obsA := mustNew(t, c.id)
		b, obsB := mustNew(t, c.id)
		b.Seed(0)
		for range 3 {
			a.Reset(obsA)
			b.Reset(obsB)
			if a.String() != b.String() || !slices.Equal(obsA, obsB) {
				t.Fatalf("%s: fresh instance differs from Seed(0)", c.id)
			}
		}
	}
}

func TestLayoutDistributions(t *testing.T) {
	// Empty-Random: the agent covers all 15 free cells and 4 directions.
	e, obs := mustNew(t, IDEmptyRandom6x6)
	e.Seed(1)
	starts := map[[3]int]bool{}
	for range 2000 {
		e.Reset(obs)
		x, y, d := e.Agent()
		if x < 1 || y < 1 || x > 4 || y > 4 || (x == 4 && y == 4) {
			t.Fatalf("agent at (%d,%d)", x, y)
		}
		starts[[3]int{x, y, d}] = true
	}
	if len(starts) != 15*4 {
		t.Errorf("Empty-Random: %d distinct starts, want 60", len(starts))
	}

	// DoorKey: agent at (1, y), y in 1..3; door row 1 or 2; key left of the
	// wall, not under the agent.
	e, obs = mustNew(t, IDDoorKey5x5)
	e.Seed(2)
	rows := map[int]bool{}
	for range 500 {
		e.Reset(obs)
		x, y, _ := e.Agent()
		kx, ky := findKind(e, Key)
		dx, dy := findKind(e, Door)
		if x != 1 || y < 1 || y > 3 || kx != 1 || ky == y || dx != 2 || (dy != 1 && dy != 2) ||
			e.At(dx, dy).State != Locked || e.At(3, 3).Kind != Goal {
			t.Fatalf("DoorKey layout\n%s", e)
		}
		rows[dy] = true
	}
	if len(rows) != 2 {
		t.Errorf("DoorKey door rows %v", rows)
	}

	// LavaGap S7: gap column 2..4, row 1..5.
	e, obs = mustNew(t, IDLavaGapS7)
	e.Seed(3)
	gaps := map[[2]int]bool{}
	for range 1000 {
		e.Reset(obs)
		gx, gy := findGap(e)
		gaps[[2]int{gx, gy}] = true
	}
	if len(gaps) != 15 {
		t.Errorf("LavaGapS7: %d gap positions, want 15", len(gaps))
	}

	// DistShift3/4: fixed lava, goal uniform over the 29 free cells, the
	// agent's start (1,1) included (reference behaviour).
	for _, id := range []string{IDDistShift3, IDDistShift4} {
		e, obs := mustNew(t, id)
		e.Seed(4)
		goals := map[[2]int]bool{}
		lava := ""
		for n := range 3000 {
			e.Reset(obs)
			gx, gy := findKind(e, Goal)
			goals[[2]int{gx, gy}] = true
			e.set(gx, gy, nothing)
			if n == 0 {
				lava = e.String()
			} else if e.String() != lava {
				t.Fatalf("%s: lava moved", id)
			}
		}
		if len(goals) != 29 || !goals[[2]int{1, 1}] {
			t.Errorf("%s: %d goal cells (start cell included: %v), want 29", id, len(goals), goals[[2]int{1, 1}])
		}

		e.SetGoalAvoidsStart(true)
		e.Seed(4)
		clear(goals)
		for range 3000 {
			e.Reset(obs)
			gx, gy := findKind(e, Goal)
			goals[[2]int{gx, gy}] = true
		}
		if len(goals) != 28 || goals[[2]int{1, 1}] {
			t.Errorf("%s avoiding the start: %d goal cells (start cell included: %v), want 28", id, len(goals), goals[[2]int{1, 1}])
		}
	}
}

func TestInvalidAction(t *testing.T) {
	for _, a := range []float32{-1, 3, float32(math.NaN())} {
		func() {
			defer func() {
				if r := recover(); r == nil {
					t.Errorf("action %v did not panic", a)
				}
			}()
			e, obs := mustNew(t, IDDistShift1)
			e.Reset(obs)
			e.Step([]float32{a}, obs)
		}()
	}
	e, _ := mustNew(t, IDDistShift1)
	for _, bad := range [][3]int{{0, 0, 0}, {9, 1, 0}, {3, 1, 4}} {
		if err := e.SetAgent(bad[0], bad[1], bad[2]); err == nil {
			t.Errorf("SetAgent%v accepted", bad)
		}
	}
	if err := e.SetAgent(3, 1, 0); err != nil { // lava: the agent may stand on it
		t.Errorf("SetAgent on lava: %v", err)
	}
}

func TestStepDoesNotAllocate(t *testing.T) {
	for _, c := range configs {
		e, obs := mustNew(t, c.id)
		e.Seed(1)
		e.Reset(obs)
		act := []float32{0}
		n := 0
		allocs := testing.AllocsPerRun(500, func() {
			act[0] = float32(n % c.spec.Action.N)
			n++
			if _, term := e.Step(act, obs); term {
				e.Reset(obs)
			}
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per Step", c.id, allocs)
		}
		allocs = testing.AllocsPerRun(100, func() { e.Reset(obs) })
		if allocs != 0 {
			t.Errorf("%s: %v allocations per Reset", c.id, allocs)
		}
	}
}

func BenchmarkStep(b *testing.B) {
	for _, id := range []string{IDDoorKey5x5, IDDistShift1} {
		b.Run(id, func(b *testing.B) {
			e, obs := mustNew(b, id)
			e.Reset(obs)
			act := []float32{0}
			for n := 0; b.Loop(); n++ {
				act[0] = float32(n % 3)
				if _, term := e.Step(act, obs); term {
					e.Reset(obs)
				}
			}
		})
	}
}
