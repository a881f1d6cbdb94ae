package env

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"testing"
)

// countEnv is a transparent test environment: obs = [start, t] where start
// is drawn at reset, reward t, terminates on action 1, time limit 3.
type countEnv struct {
	state uint64
	start float32
	t     int
}

func (c *countEnv) Spec() Spec {
	return Spec{ID: "Count-v0", Observation: Space{Dim: 2}, Action: Space{N: 2, Dim: 1}, MaxEpisodeSteps: 3}
}
func (c *countEnv) Seed(s uint64) { c.state = s }
func (c *countEnv) AppendRandState(b []byte) []byte {
	return binary.LittleEndian.AppendUint64(b, c.state)
}
func (c *countEnv) SetRandState(b []byte) error {
	if len(b) != 8 {
		return fmt.Errorf("%d bytes, want 8", len(b))
	}
	c.state = binary.LittleEndian.Uint64(b)
	return nil
}
func (c *countEnv) Reset(obs []float32) {
	c.state = mix64(c.state)
	c.start, c.t = float32(c.state>>40), 0
	obs[0], obs[1] = c.start, 0
}
func (c *countEnv) Step(a, obs []float32) (float32, bool) {
	c.t++
	obs[0], obs[1] = c.start, float32(c.t)
	return float32(c.t), a[0] == 1
}

func newCountVec(t *testing.T, n int, seed uint64) *Vec {
	t.Helper()
	v, err := NewVecFrom(func() Env { return &countEnv{} }, n, seed)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestVecTruncationTerminationAutoReset(t *testing.T) {
	v := newCountVec(t, 3, 5)
	start := append([]float32(nil), v.Obs()...)
	for i := 0; i < 3; i++ {
		if start[2*i+1] != 0 {
			t.Fatalf("reset obs %v", start)
		}
	}
	// env 0: 0,0,0 → truncated at the limit; env 1: 0,0,1 → terminated on
	// the limit step (termination wins); env 2: 1 → terminated at once, then 0,0.
	actions := [][]float32{{0, 0, 1}, {0, 0, 0}, {0, 1, 0}}
	type flags struct{ term, trunc [3]bool }
	want := []flags{
		{[3]bool{false, false, true}, [3]bool{}},
		{[3]bool{}, [3]bool{}},
		{[3]bool{false, true, false}, [3]bool{true, false, false}},
	}
	wantT := [][3]float32{{1, 1, 0}, {2, 2, 1}, {0, 0, 2}} // obs[1] after each step (0 = reset)
	for s := range actions {
		if err := v.Step(actions[s]); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 3; i++ {
			if v.Terminated()[i] != want[s].term[i] || v.Truncated()[i] != want[s].trunc[i] {
				t.Errorf("step %d env %d: terminated %v truncated %v, want %v %v", s, i,
					v.Terminated()[i], v.Truncated()[i], want[s].term[i], want[s].trunc[i])
			}
			if got := v.Obs()[2*i+1]; got != wantT[s][i] {
				t.Errorf("step %d env %d: obs t = %v, want %v", s, i, got, wantT[s][i])
			}
			done := want[s].term[i] || want[s].trunc[i]
			fin := v.FinalObs()[2*i : 2*i+2]
			if done {
				// FinalObs holds the last observation of the finished episode,
				// Obs the first of the new one (a fresh start value).
				if fin[0] != start[2*i] || fin[1] == 0 || v.Obs()[2*i] == start[2*i] {
					t.Errorf("step %d env %d: final obs %v, obs %v, episode start %v", s, i, fin, v.Obs()[2*i:2*i+2], start[2*i])
				}
				start[2*i] = v.Obs()[2*i]
			} else if fin[0] != v.Obs()[2*i] || fin[1] != v.Obs()[2*i+1] {
				t.Errorf("step %d env %d: final obs %v differs from obs %v", s, i, fin, v.Obs()[2*i:2*i+2])
			}
		}
	}
	got := v.Episodes(nil)
	wantEp := []Episode{
		{Env: 2, Return: 1, Length: 1},
		{Env: 0, Return: 6, Length: 3, Truncated: true},
		{Env: 1, Return: 6, Length: 3},
	}
	if len(got) != len(wantEp) {
		t.Fatalf("episodes %+v, want %+v", got, wantEp)
	}
	for k := range got {
		if got[k] != wantEp[k] {
			t.Errorf("episode %d: %+v, want %+v", k, got[k], wantEp[k])
		}
	}
	if more := v.Episodes(nil); len(more) != 0 {
		t.Errorf("episodes not drained: %+v", more)
	}
	// env 2 is two steps into its second episode; one more step truncates it.
	if err := v.Step([]float32{0, 0, 0}); err != nil {
		t.Fatal(err)
	}
	if !v.Truncated()[2] || v.Rewards()[2] != 3 {
		t.Errorf("env 2: truncated %v reward %v", v.Truncated()[2], v.Rewards()[2])
	}
}

func TestVecErrors(t *testing.T) {
	v := newCountVec(t, 2, 1)
	for _, c := range []struct {
		actions []float32
		msg     string
	}{
		{[]float32{0}, "1 action values, want 2"},
		{[]float32{0, 2}, "instance 1"},
		{[]float32{0.5, 0}, "want an integer in [0, 2)"},
		{[]float32{-1, 0}, "instance 0"},
		{[]float32{0, float32(math.NaN())}, "action NaN"},
	} {
		err := v.Step(c.actions)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("Step(%v): error %v, want one containing %q", c.actions, err, c.msg)
		}
	}
	if _, err := NewVec("NoSuchEnv-v0", 2, 0); err == nil || !strings.Contains(err.Error(), "NoSuchEnv-v0") {
		t.Errorf("unknown id: %v", err)
	}
	if _, err := NewVecFrom(func() Env { return &countEnv{} }, 0, 0); err == nil {
		t.Error("n = 0 accepted")
	}
}

func TestSeedFor(t *testing.T) {
	seen := map[uint64]bool{}
	for seed := uint64(0); seed < 4; seed++ {
		for i := 0; i < 64; i++ {
			s := SeedFor(seed, i)
			if seen[s] {
				t.Fatalf("SeedFor(%d, %d) repeats a seed", seed, i)
			}
			seen[s] = true
		}
	}
}

func TestEvaluateCount(t *testing.T) {
	e := &countEnv{}
	// Terminate on the second step: return 1 + 2, length 2.
	eps, err := Evaluate(e, []uint64{1, 2}, func(obs, a []float32) {
		a[0] = 0
		if obs[1] == 1 {
			a[0] = 1
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	for k, ep := range eps {
		if ep != (Episode{Env: k, Return: 3, Length: 2}) {
			t.Errorf("episode %d: %+v", k, ep)
		}
	}
	// Never terminate: truncated at the limit.
	eps, _ = Evaluate(e, []uint64{3}, func(obs, a []float32) { a[0] = 0 })
	if eps[0] != (Episode{Return: 6, Length: 3, Truncated: true}) {
		t.Errorf("truncated episode: %+v", eps[0])
	}
	if _, err := Evaluate(e, []uint64{3}, func(obs, a []float32) { a[0] = 5 }); err == nil ||
		!strings.Contains(err.Error(), "want an integer in [0, 2)") {
		t.Errorf("invalid action: %v", err)
	}
}

// plainEnv is countEnv without RandStater.
type plainEnv struct{ c countEnv }

func (p *plainEnv) Spec() Spec                            { return p.c.Spec() }
func (p *plainEnv) Seed(s uint64)                         { p.c.Seed(s) }
func (p *plainEnv) Reset(obs []float32)                   { p.c.Reset(obs) }
func (p *plainEnv) Step(a, obs []float32) (float32, bool) { return p.c.Step(a, obs) }

// TestSnapshotNeedsRandStater: an environment that cannot save its
// generator cannot be snapshotted or restored, and says so.
func TestSnapshotNeedsRandStater(t *testing.T) {
	v, err := NewVecFrom(func() Env { return &plainEnv{} }, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.Snapshot(); err == nil || !strings.Contains(err.Error(), "RandStater") {
		t.Errorf("Snapshot: %v", err)
	}
	if err := v.Restore(VecState{}); err == nil || !strings.Contains(err.Error(), "RandStater") {
		t.Errorf("Restore: %v", err)
	}
}

// TestSnapshotRestore: a Vec restored from a Snapshot taken mid-episode
// steps on as the original, and a snapshot of another size or with a
// damaged entry is refused with an error naming the instance and field.
func TestSnapshotRestore(t *testing.T) {
	a := newCountVec(t, 3, 5)
	if err := a.Step([]float32{0, 0, 1}); err != nil {
		t.Fatal(err)
	}
	a.Episodes(nil) // a snapshot holds no uncollected episodes
	s, err := a.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if got := []int{len(s.Envs[0].Actions), len(s.Envs[2].Actions)}; got[0] != 1 || got[1] != 0 {
		t.Fatalf("logged actions %v, want [1 0]", got)
	}
	b := newCountVec(t, 3, 77)
	if err := b.Restore(s); err != nil {
		t.Fatal(err)
	}
	for k := 0; k < 7; k++ {
		act := []float32{float32(k % 2), 0, float32(k / 4)}
		if err := a.Step(act); err != nil {
			t.Fatal(err)
		}
		if err := b.Step(act); err != nil {
			t.Fatal(err)
		}
		if ea, eb := a.Episodes(nil), b.Episodes(nil); fmt.Sprint(ea, a.Obs()) != fmt.Sprint(eb, b.Obs()) {
			t.Fatalf("step %d: restored %v %v, original %v %v", k, eb, b.Obs(), ea, a.Obs())
		}
	}
	for _, c := range []struct {
		name   string
		damage func(s *VecState)
		want   string
	}{
		{"size", func(s *VecState) { s.Envs = s.Envs[:2] }, "2 instances, want 3"},
		{"limit", func(s *VecState) { s.Envs[1].Actions = make([]float32, 3) }, "instance 1: Actions holds 3 steps"},
		{"action", func(s *VecState) { s.Envs[0].Actions[0] = 2 }, "instance 0: Actions[0]"},
		{"terminates", func(s *VecState) { s.Envs[0].Actions[0] = 1 }, "instance 0: the episode terminates at step 1"},
		{"random state", func(s *VecState) { s.Envs[2].RandState = nil }, "instance 2: RandState"},
		{"return", func(s *VecState) { s.Envs[0].Return = 5 }, "instance 0: Return 5"},
		{"observation", func(s *VecState) { s.Envs[1].Obs[1] = 9 }, "instance 1: Obs[1] = 9"},
		{"observation width", func(s *VecState) { s.Envs[1].Obs = nil }, "instance 1: Obs holds 0 values"},
	} {
		s, err := a.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Envs[0].Actions) == 0 {
			t.Fatal("instance 0 has no episode in progress")
		}
		c.damage(&s)
		if err := newCountVec(t, 3, 1).Restore(s); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}
