package env_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/gdt-ml/gdt/rl/env"
	_ "github.com/gdt-ml/gdt/rl/env/classic"
)

// trace records everything a Vec reports over a fixed random action
// sequence.
type trace struct {
	obs, final, rewards []float32
	flags               []bool
	episodes            []env.Episode
}

func runTrace(t *testing.T, id string, n int, seed uint64, workers, steps int) trace {
	t.Helper()
	v, err := env.NewVec(id, n, seed)
	if err != nil {
		t.Fatal(err)
	}
	v.SetWorkers(workers)
	defer v.Close()
	spec := v.Spec()
	rng := rand.New(rand.NewPCG(7, 7))
	actions := make([]float32, n*spec.Action.Dim)
	var tr trace
	tr.obs = append(tr.obs, v.Obs()...)
	for s := 0; s < steps; s++ {
		for i := range actions {
			if spec.Action.Discrete() {
				actions[i] = float32(rng.IntN(spec.Action.N))
			} else {
				actions[i] = spec.Action.Low[0] + (spec.Action.High[0]-spec.Action.Low[0])*rng.Float32()
			}
		}
		if err := v.Step(actions); err != nil {
			t.Fatal(err)
		}
		tr.obs = append(tr.obs, v.Obs()...)
		tr.final = append(tr.final, v.FinalObs()...)
		tr.rewards = append(tr.rewards, v.Rewards()...)
		tr.flags = append(tr.flags, v.Terminated()...)
		tr.flags = append(tr.flags, v.Truncated()...)
		tr.episodes = v.Episodes(tr.episodes)
	}
	return tr
}

func equalTrace(a, b trace) bool {
	return slices.Equal(a.obs, b.obs) && slices.Equal(a.final, b.final) && slices.Equal(a.rewards, b.rewards) &&
		slices.Equal(a.flags, b.flags) && slices.Equal(a.episodes, b.episodes)
}

func TestVecDeterministicAcrossWorkers(t *testing.T) {
	for _, id := range []string{"CartPole-v1", "Acrobot-v1", "Pendulum-v1", "MountainCarContinuous-v0"} {
		t.Run(id, func(t *testing.T) {
			const steps = 1100 // MountainCarContinuous's limit is 999
			ref := runTrace(t, id, 7, 42, 1, steps)
			if len(ref.episodes) == 0 {
				t.Fatalf("no episode finished in %d steps", steps)
			}
			for _, w := range []int{2, 3, 7, 16} {
				if !equalTrace(ref, runTrace(t, id, 7, 42, w, steps)) {
					t.Errorf("%d workers: trace differs from 1 worker", w)
				}
			}
			if equalTrace(ref, runTrace(t, id, 7, 43, 1, steps)) {
				t.Error("seeds 42 and 43 give the same trace")
			}
		})
	}
}

func TestVecTimeLimit(t *testing.T) {
	// Pendulum never terminates: every episode is truncated at exactly 200
	// steps, FinalObs keeps the 200th observation, Obs the new episode's first.
	v, err := env.NewVec("Pendulum-v1", 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	actions := []float32{0, 1, -1}
	for s := 1; s <= 400; s++ {
		if err := v.Step(actions); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 3; i++ {
			if v.Terminated()[i] {
				t.Fatalf("step %d: Pendulum terminated", s)
			}
			if v.Truncated()[i] != (s%200 == 0) {
				t.Fatalf("step %d env %d: truncated %v", s, i, v.Truncated()[i])
			}
		}
		if s%200 == 0 && slices.Equal(v.FinalObs(), v.Obs()) {
			t.Fatalf("step %d: FinalObs equals the reset observations", s)
		}
		if s%200 != 0 && !slices.Equal(v.FinalObs(), v.Obs()) {
			t.Fatalf("step %d: FinalObs differs from Obs without an episode end", s)
		}
	}
	eps := v.Episodes(nil)
	if len(eps) != 6 {
		t.Fatalf("%d episodes, want 6", len(eps))
	}
	for _, ep := range eps {
		if ep.Length != 200 || !ep.Truncated || ep.Return >= 0 {
			t.Errorf("episode %+v", ep)
		}
	}
}

func TestVecZeroAllocs(t *testing.T) {
	for _, workers := range []int{1, 2} {
		v, err := env.NewVec("CartPole-v1", 8, 3)
		if err != nil {
			t.Fatal(err)
		}
		v.SetWorkers(workers)
		actions := make([]float32, 8)
		eps := make([]env.Episode, 0, 64)
		k := 0
		allocs := testing.AllocsPerRun(2000, func() {
			for i := range actions {
				actions[i] = float32((k + i) & 1)
			}
			k++
			if err := v.Step(actions); err != nil {
				t.Fatal(err)
			}
			eps = v.Episodes(eps[:0])
		})
		v.Close()
		if allocs != 0 {
			t.Errorf("%d workers: %v allocations per Step, want 0", workers, allocs)
		}
	}
}

// balance is a linear controller: push toward the side the pole leans to,
// corrected for the cart's drift.
func balance(obs, a []float32) {
	const kx, kv, kt, kw = 0.05, 0.2, 1, 0.3
	a[0] = 0
	if kx*obs[0]+kv*obs[1]+kt*obs[2]+kw*obs[3] > 0 {
		a[0] = 1
	}
}

func TestEvaluateCartPole(t *testing.T) {
	e, err := env.Make("CartPole-v1")
	if err != nil {
		t.Fatal(err)
	}
	seeds := []uint64{0, 1, 2, 3, 4}
	eps, err := env.Evaluate(e, seeds, balance)
	if err != nil {
		t.Fatal(err)
	}
	for _, ep := range eps {
		if ep.Return != 500 || ep.Length != 500 || !ep.Truncated {
			t.Errorf("balancing policy: %+v, want return 500 truncated", ep)
		}
	}
	left, _ := env.Evaluate(e, seeds, func(obs, a []float32) { a[0] = 0 })
	again, _ := env.Evaluate(e, seeds, func(obs, a []float32) { a[0] = 0 })
	for k, ep := range left {
		if ep.Truncated || ep.Length > 20 || float64(ep.Length) != ep.Return {
			t.Errorf("always-left policy: %+v", ep)
		}
		if again[k] != ep {
			t.Errorf("seed %d: %+v then %+v", seeds[k], ep, again[k])
		}
	}
}

// BenchmarkVecCartPole measures Vec.Step on 8 CartPole instances and
// reports environment steps per second.
func BenchmarkVecCartPole(b *testing.B) {
	v, err := env.NewVec("CartPole-v1", 8, 0)
	if err != nil {
		b.Fatal(err)
	}
	actions := make([]float32, 8)
	eps := make([]env.Episode, 0, 64)
	b.ReportAllocs()
	start := time.Now()
	for k := 0; b.Loop(); k++ {
		for i := range actions {
			actions[i] = float32((k>>1 + i) & 1)
		}
		if err := v.Step(actions); err != nil {
			b.Fatal(err)
		}
		eps = v.Episodes(eps[:0])
	}
	b.ReportMetric(float64(b.N*8)/time.Since(start).Seconds(), "env-steps/s")
}

// Example runs 4 CartPole instances with a fixed policy and collects the
// finished episodes.
func Example() {
	v, err := env.NewVec("CartPole-v1", 4, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	actions := make([]float32, v.N())
	var episodes []env.Episode
	for step := 0; step < 1000; step++ {
		obs := v.Obs()
		for i := range actions {
			balance(obs[4*i:4*i+4], actions[i:i+1])
		}
		if err := v.Step(actions); err != nil {
			fmt.Println(err)
			return
		}
		// At a truncation, a learner bootstraps from v.FinalObs().
		episodes = v.Episodes(episodes)
	}
	for _, ep := range episodes {
		fmt.Printf("env %d: return %.0f in %d steps, truncated %v\n", ep.Env, ep.Return, ep.Length, ep.Truncated)
	}
	// Output:
	// env 0: return 500 in 500 steps, truncated true
	// env 1: return 500 in 500 steps, truncated true
	// env 2: return 500 in 500 steps, truncated true
	// env 3: return 500 in 500 steps, truncated true
	// env 0: return 500 in 500 steps, truncated true
	// env 1: return 500 in 500 steps, truncated true
	// env 2: return 500 in 500 steps, truncated true
	// env 3: return 500 in 500 steps, truncated true
}
