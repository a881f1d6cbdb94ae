package lunar

import (
	"math"
	"reflect"
	"strconv"
	"testing"

	"github.com/gdt-ml/gdt/rl/env"
	"github.com/gdt-ml/gdt/rng"
)

// run plays one episode with policy from a fresh Seed(seed)+Reset and
// returns every observation (the reset one first), every reward and whether
// it terminated within MaxEpisodeSteps.
func run(t *testing.T, l *Lander, seed uint64, policy func(step int, obs []float32) int) (obs [][]float32, rewards []float32, terminated bool) {
	t.Helper()
	l.Seed(seed)
	o := make([]float32, 8)
	l.Reset(o)
	obs = append(obs, append([]float32(nil), o...))
	act := make([]float32, 1)
	for step := 0; step < MaxEpisodeSteps; step++ {
		act[0] = float32(policy(step, o))
		r, done := l.Step(act, o)
		obs = append(obs, append([]float32(nil), o...))
		rewards = append(rewards, r)
		if done {
			return obs, rewards, true
		}
	}
	return obs, rewards, false
}

func noop(int, []float32) int { return ActionNoop }

func heuristic(_ int, o []float32) int { return Heuristic(o) }

func sum(rs []float32) float64 {
	s := 0.0
	for _, r := range rs {
		s += float64(r)
	}
	return s
}

func TestSpecAndRegistration(t *testing.T) {
	e, err := env.Make(ID)
	if err != nil {
		t.Fatal(err)
	}
	s := e.Spec()
	if s.ID != "LunarLander-v2" || s.Observation.Dim != 8 || s.Action.N != 4 || s.Action.Dim != 1 ||
		s.MaxEpisodeSteps != 1000 || s.TimeLimitIsTerminal || !s.Action.Discrete() {
		t.Fatalf("spec = %+v", s)
	}
	wantF := []string{"x position", "y position", "x velocity", "y velocity", "angle",
		"angular velocity", "left leg contact", "right leg contact"}
	wantA := []string{"do nothing", "fire left engine", "fire main engine", "fire right engine"}
	if !reflect.DeepEqual(s.FeatureNames, wantF) || !reflect.DeepEqual(s.ActionNames, wantA) {
		t.Fatalf("names = %q, %q", s.FeatureNames, s.ActionNames)
	}
	if len(s.Observation.Low) != 8 || len(s.Observation.High) != 8 || s.Observation.High[4] != math.Pi {
		t.Fatalf("bounds = %v, %v", s.Observation.Low, s.Observation.High)
	}
	// The spec hands out copies: changing them must not change the env.
	s.FeatureNames[0] = "changed"
	s.Observation.Low[0] = 7
	if s2 := e.Spec(); s2.FeatureNames[0] != "x position" || s2.Observation.Low[0] != -1.5 {
		t.Fatal("Spec shares its slices")
	}
}

// TestResetObservation checks the first observation: within Gymnasium's
// bounds, normalised from the hull's state as Gymnasium does, near the top
// centre, legs in the air, and with a velocity that is the random initial
// force acting for one 1/50 s step.
func TestResetObservation(t *testing.T) {
	for _, seed := range []uint64{0, 1, 2, 7, 123456789, 1 << 40} {
		t.Run(strconv.FormatUint(seed, 10), func(t *testing.T) {
			l := New()
			l.Seed(seed)
			o := make([]float32, 8)
			l.Reset(o)
			sp := l.Spec()
			for i, v := range o {
				if v < sp.Observation.Low[i] || v > sp.Observation.High[i] {
					t.Errorf("obs[%d] = %v outside [%v, %v]", i, v, sp.Observation.Low[i], sp.Observation.High[i])
				}
			}
			pos, vel := l.lander.GetPosition(), l.lander.GetLinearVelocity()
			want := []float64{
				(pos.X - 10) / 10,
				(pos.Y - (l.HelipadY() + 18.0/30)) / (20.0 / 3),
				vel.X * 10 / 50,
				vel.Y * (20.0 / 3) / 50,
				l.lander.GetAngle(),
				20 * l.lander.GetAngularVelocity() / 50,
				0, 0,
			}
			for i := range want {
				if o[i] != float32(want[i]) {
					t.Errorf("obs[%d] = %v, want %v", i, o[i], float32(want[i]))
				}
			}
			if math.Abs(float64(o[0])) > 0.02 || math.Abs(float64(o[1])-1.41) > 0.02 || math.Abs(float64(o[4])) > 0.02 {
				t.Errorf("not at the top centre, level: %v", o)
			}
			// Replay the RNG: 12 terrain heights, then the force.
			r := rng.NewPCG64(seed)
			for i := 0; i < 12; i++ {
				r.Uniform(0, 20.0/3)
			}
			fx, fy := r.Uniform(-1000, 1000), r.Uniform(-1000, 1000)
			m := l.lander.GetMass() + l.legs[0].GetMass() + l.legs[1].GetMass()
			wantVX := fx / m / 50 * 10 / 50
			wantVY := (fy/m/50 - 10.0/50) * (20.0 / 3) / 50
			if math.Abs(float64(o[2])-wantVX) > 0.05*math.Abs(wantVX)+0.01 || math.Abs(float64(o[3])-wantVY) > 0.05*math.Abs(wantVY)+0.01 {
				t.Errorf("velocity %v, %v; want ≈ %v, %v from the initial force", o[2], o[3], wantVX, wantVY)
			}
		})
	}
}

// TestTerrain checks the helipad is flat at H/4 between chunks 4 and 6 and
// the smoothed heights come from Gymnasium's draws, with h[-1] wrapping.
func TestTerrain(t *testing.T) {
	l := New()
	l.Seed(3)
	l.Reset(make([]float32, 8))
	x, y := l.Terrain()
	r := rng.NewPCG64(3)
	var h [12]float64
	for i := range h {
		h[i] = r.Uniform(0, 20.0/3)
	}
	for i := 3; i <= 7; i++ {
		h[i] = 10.0 / 3
	}
	for i := 0; i < 11; i++ {
		want := 0.33 * (h[(i+11)%12] + h[i] + h[i+1])
		if x[i] != 2*float64(i) || y[i] != want {
			t.Errorf("vertex %d = (%v, %v), want (%v, %v)", i, x[i], y[i], 2*float64(i), want)
		}
	}
	if math.Abs(y[4]-3.3) > 1e-12 || y[5] != y[4] || y[6] != y[4] {
		t.Errorf("helipad not flat: %v", y[3:8])
	}
}

// TestNoopFallsAndEnds: with no engine the lander falls, its legs touch
// down and the episode ends with a crash (−100) or at rest (+100).
func TestNoopFallsAndEnds(t *testing.T) {
	for seed := uint64(0); seed < 6; seed++ {
		t.Run(strconv.FormatUint(seed, 10), func(t *testing.T) {
			obs, rewards, term := run(t, New(), seed, noop)
			if !term {
				t.Fatalf("no termination in %d steps", len(rewards))
			}
			last := rewards[len(rewards)-1]
			if last != -100 && last != 100 {
				t.Fatalf("last reward %v, want ±100", last)
			}
			// Gravity alone: after 20 steps (0.4 s) vy has dropped by
			// 10·0.4·(H/2)/50 ≈ 0.53 in observation units.
			if dv := obs[20][3] - obs[0][3]; math.Abs(float64(dv)+0.5333) > 0.01 {
				t.Errorf("vy changed by %v in 20 free-fall steps, want −0.533", dv)
			}
			if end := obs[len(obs)-1][1]; end > obs[0][1]-1 {
				t.Errorf("y %v → %v: not fallen", obs[0][1], end)
			}
			touched := false
			for _, o := range obs {
				touched = touched || o[6] == 1 || o[7] == 1
			}
			if !touched {
				t.Error("no leg ever touched the ground")
			}
		})
	}
}

// TestLegContacts: the leg flags are 0 in flight and become 1 on landing.
func TestLegContacts(t *testing.T) {
	for seed := uint64(0); seed < 4; seed++ {
		obs, _, _ := run(t, New(), seed, heuristic)
		first := -1
		for i, o := range obs {
			if o[6] != 0 && o[6] != 1 || o[7] != 0 && o[7] != 1 {
				t.Fatalf("seed %d step %d: leg flags %v, %v", seed, i, o[6], o[7])
			}
			if first < 0 && (o[6] == 1 || o[7] == 1) {
				first = i
			}
		}
		if first < 0 {
			t.Fatalf("seed %d: legs never touched", seed)
		}
		if h := obs[first-1][1]; h > 0.1 {
			t.Errorf("seed %d: contact reported %v above the pad", seed, h)
		}
		end := obs[len(obs)-1]
		if end[6] != 1 || end[7] != 1 {
			t.Errorf("seed %d: landed lander has leg flags %v, %v", seed, end[6], end[7])
		}
	}
}

// TestEngines: the main engine brakes the fall relative to doing nothing;
// the left engine pushes left and turns counter-clockwise (positive angular
// velocity), the right engine the opposite.
func TestEngines(t *testing.T) {
	const steps = 10
	final := func(action int) []float32 {
		obs, _, _ := run(t, New(), 5, func(s int, _ []float32) int {
			if s < steps {
				return action
			}
			return ActionNoop
		})
		return obs[steps]
	}
	none := final(ActionNoop)
	tests := []struct {
		action int
		check  func(o []float32) bool
		what   string
	}{
		{ActionMain, func(o []float32) bool { return o[3] > none[3]+0.3 }, "vy larger (slower fall)"},
		{ActionLeft, func(o []float32) bool { return o[2] < none[2] && o[5] > none[5] }, "vx smaller, ω larger"},
		{ActionRight, func(o []float32) bool { return o[2] > none[2] && o[5] < none[5] }, "vx larger, ω smaller"},
	}
	for _, tc := range tests {
		if o := final(tc.action); !tc.check(o) {
			t.Errorf("action %d: want %s than noop; got %v vs noop %v", tc.action, tc.what, o, none)
		}
	}
}

// shaping is Gymnasium's potential, recomputed from a float32 observation.
func shaping(o []float32) float64 {
	s := make([]float64, 8)
	for i, v := range o {
		s[i] = float64(v)
	}
	return -100*math.Sqrt(s[0]*s[0]+s[1]*s[1]) - 100*math.Sqrt(s[2]*s[2]+s[3]*s[3]) -
		100*math.Abs(s[4]) + 10*s[6] + 10*s[7]
}

// TestRewardAndFuel: every in-flight reward is the change of the shaping
// potential minus the fuel cost of the action (0.3 main, 0.03 side).
func TestRewardAndFuel(t *testing.T) {
	tests := []struct {
		action int
		fuel   float64
	}{{ActionNoop, 0}, {ActionLeft, 0.03}, {ActionMain, 0.3}, {ActionRight, 0.03}}
	for _, tc := range tests {
		t.Run(actionNames[tc.action], func(t *testing.T) {
			obs, rewards, _ := run(t, New(), 11, func(s int, o []float32) int {
				if s%3 == 0 {
					return tc.action
				}
				return Heuristic(o)
			})
			checked := 0
			for s := 0; s < len(rewards) && s < 60; s += 3 {
				got := float64(rewards[s])
				want := shaping(obs[s+1]) - shaping(obs[s]) - tc.fuel
				if math.Abs(got-want) > 2e-4 {
					t.Errorf("step %d: reward %v, want %v (shaping change minus %v)", s, got, want, tc.fuel)
				}
				checked++
			}
			if checked < 10 {
				t.Fatalf("only %d steps checked", checked)
			}
		})
	}
}

// TestDeterminism: the same seed gives the same trajectory, also for the
// episodes that follow without reseeding; another seed gives another.
func TestDeterminism(t *testing.T) {
	play := func(seed uint64) (out []float32) {
		l := New()
		l.Seed(seed)
		o := make([]float32, 8)
		act := make([]float32, 1)
		for ep := 0; ep < 3; ep++ {
			l.Reset(o)
			out = append(out, o...)
			for s := 0; s < 300; s++ {
				act[0] = float32((s / 7) % 4) // all engines, fixed sequence
				r, done := l.Step(act, o)
				out = append(out, o...)
				out = append(out, r)
				if done {
					break
				}
			}
		}
		return out
	}
	a, b := play(42), play(42)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("same seed, different trajectories")
	}
	if c := play(43); reflect.DeepEqual(a[:8], c[:8]) {
		t.Fatal("different seeds, same first observation")
	}
	// Seed+Reset twice equals a fresh instance seeded the same way.
	l1, l2 := New(), New()
	o1, o2 := make([]float32, 8), make([]float32, 8)
	l1.Seed(9)
	l1.Reset(o1)
	l1.Seed(9)
	l1.Reset(o1)
	l2.Seed(9)
	l2.Reset(o2)
	if !reflect.DeepEqual(o1, o2) {
		t.Fatal("reseeding does not restart the stream")
	}
}

// TestHeuristicLands proves the physics is usable: the classic controller
// lands with a clearly positive mean return.
func TestHeuristicLands(t *testing.T) {
	const episodes = 6
	total := 0.0
	for seed := uint64(0); seed < episodes; seed++ {
		l := New()
		_, rewards, term := run(t, l, seed, heuristic)
		ret := sum(rewards)
		t.Logf("seed %d: %d steps, return %.1f, last reward %v", seed, len(rewards), ret, rewards[len(rewards)-1])
		if !term {
			t.Errorf("seed %d: no termination", seed)
		}
		if rewards[len(rewards)-1] == 100 && l.lander.IsAwake() {
			t.Errorf("seed %d: +100 while the lander is awake", seed)
		}
		total += ret
	}
	if mean := total / episodes; mean < 150 {
		t.Fatalf("mean heuristic return %.1f, want ≥ 150", mean)
	}
}

// TestOutOfBounds: flying sideways off the screen (|x| ≥ 1) terminates
// with −100. The heuristic is told the pad is far to one side.
func TestOutOfBounds(t *testing.T) {
	for _, shift := range []float32{-3, 3} {
		obs, rewards, term := run(t, New(), 4, func(_ int, o []float32) int {
			fake := append([]float32(nil), o...)
			fake[0] -= shift
			return Heuristic(fake)
		})
		last := obs[len(obs)-1]
		if !term || rewards[len(rewards)-1] != -100 || float64(last[0])*float64(shift) < 1 {
			t.Errorf("shift %v: terminated %v after %d steps, last reward %v, obs %v",
				shift, term, len(rewards), rewards[len(rewards)-1], last)
		}
		if last[1] < 0.3 {
			t.Errorf("shift %v: ended near the ground (%v), not by leaving the screen", shift, last)
		}
	}
}

func TestStepPanics(t *testing.T) {
	tests := []struct {
		name   string
		reset  bool
		action []float32
		obs    int
	}{
		{"before reset", false, []float32{0}, 8},
		{"negative action", true, []float32{-1}, 8},
		{"action 4", true, []float32{4}, 8},
		{"fractional action", true, []float32{1.5}, 8},
		{"no action", true, nil, 8},
		{"short observation", true, []float32{0}, 7},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := New()
			if tc.reset {
				l.Reset(make([]float32, 8))
			}
			defer func() {
				if recover() == nil {
					t.Fatal("no panic")
				}
			}()
			l.Step(tc.action, make([]float32, tc.obs))
		})
	}
}

// TestStepAllocations documents the allocations of one Step: none come
// from this package; Box2D's World.Step allocates its island and contact
// solver scratch on every call (about 26 allocations, 5.6 kB).
func TestStepAllocations(t *testing.T) {
	l := New()
	o := make([]float32, 8)
	act := make([]float32, 1)
	l.Reset(o)
	allocs := testing.AllocsPerRun(50, func() {
		act[0] = float32(Heuristic(o))
		if _, done := l.Step(act, o); done {
			l.Reset(o)
		}
	})
	t.Logf("%.0f allocations per Step (inside box2d.B2World.Step)", allocs)
	if allocs > 100 {
		t.Fatalf("%v allocations per Step", allocs)
	}
}

// TestRandomStreamOrder: a reset draws 12 terrain heights, 2 force
// components and 2 dispersions (its step); every step draws 2 more,
// whatever the action — the order of Gymnasium's np_random calls.
func TestRandomStreamOrder(t *testing.T) {
	for _, steps := range []int{0, 1, 5, 40} {
		l := New()
		l.Seed(21)
		o := make([]float32, 8)
		l.Reset(o)
		for s := 0; s < steps; s++ {
			l.Step([]float32{float32(s % 4)}, o)
		}
		ref := rng.NewPCG64(21)
		for i := 0; i < 12+2+2+2*steps; i++ {
			ref.Uint64()
		}
		if l.rng != *ref {
			t.Errorf("after reset and %d steps the stream is not at draw %d", steps, 16+2*steps)
		}
	}
}
