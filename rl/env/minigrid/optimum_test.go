package minigrid

import (
	"testing"
)

// TestOptimalTestReturns computes, for the MiniGrid tasks without objects
// to carry, the largest return any policy can reach on the five test
// episodes of gdt's protocol (seeds 123456 … 123460, ppo.Config.TestSeed):
// the goal reward 1 − 0.9·n/max_steps after the fewest actions n (shortest,
// whose search takes every transition through Step). The log gives the
// ceiling a trained policy's mean test return is measured against
// (go test -run TestOptimalTestReturns -v ./rl/env/minigrid).
func TestOptimalTestReturns(t *testing.T) {
	for _, id := range []string{IDEmptyRandom6x6, IDLavaGapS5, IDLavaGapS7} {
		e, err := New(id)
		if err != nil {
			t.Fatal(err)
		}
		obs := make([]float32, e.Spec().Observation.Dim)
		sum := 0.0
		for seed := uint64(123456); seed < 123461; seed++ {
			e.Seed(seed)
			e.Reset(obs)
			n := shortest(t, e)
			if n < 1 {
				t.Fatalf("%s seed %d: no path to the goal", id, seed)
			}
			r := float64(float32(1 - 0.9*(float64(n)/float64(e.cfg.maxSteps))))
			if r <= 0 {
				t.Fatalf("%s seed %d: the shortest path (%d actions) ends with reward %v", id, seed, n, r)
			}
			t.Logf("%s seed %d: %d actions, return %.4f", id, seed, n, r)
			sum += r
		}
		t.Logf("%s: largest mean test return %.4f", id, sum/5)
	}
}
