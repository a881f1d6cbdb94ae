package minigrid

import (
	"testing"
)

// shortestPath returns the fewest actions (left, right, forward) that take
// the agent of e's current layout onto the goal without entering lava, as
// action indices into the environment's action list, or nil if no path
// exists. Breadth-first over (x, y, direction).
func shortestPath(e *Env) []float32 {
	w, h := e.Size()
	type state struct{ x, y, d int }
	idx := func(s state) int { return (s.y*w+s.x)*4 + s.d }
	prev := make([]int, w*h*4)
	act := make([]int, w*h*4)
	for i := range prev {
		prev[i] = -2
	}
	x, y, d := e.Agent()
	start := state{x, y, d}
	prev[idx(start)] = -1
	queue := []state{start}
	path := func(end int, last int) []float32 {
		p := []float32{float32(last)}
		for i := end; prev[i] >= 0; i = prev[i] {
			p = append(p, float32(act[i]))
		}
		for i, j := 0, len(p)-1; i < j; i, j = i+1, j-1 {
			p[i], p[j] = p[j], p[i]
		}
		return p
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for a := 0; a < 3; a++ {
			n := s
			switch e.cfg.actions[a] {
			case actLeft:
				n.d = (s.d + 3) % 4
			case actRight:
				n.d = (s.d + 1) % 4
			case actForward:
				fx, fy := s.x+dirVec[s.d][0], s.y+dirVec[s.d][1]
				switch o := e.At(fx, fy); {
				case o.Kind == Goal:
					return path(idx(s), a)
				case o.Kind == Lava || !o.canOverlap():
					continue
				}
				n.x, n.y = fx, fy
			}
			if prev[idx(n)] == -2 {
				prev[idx(n)], act[idx(n)] = idx(s), a
				queue = append(queue, n)
			}
		}
	}
	return nil
}

// TestOptimalTestReturns computes, for the MiniGrid tasks without objects
// to carry, the largest return any policy can reach on the five test
// episodes of gdt's protocol (seeds 123456 … 123460, ppo.Config.TestSeed),
// by a shortest path, and checks it by playing that path through Step. The
// log gives the ceiling a trained policy's mean test return is measured
// against (go test -run TestOptimalTestReturns -v ./rl/env/minigrid).
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
			p := shortestPath(e)
			if p == nil {
				t.Fatalf("%s seed %d: no path to the goal", id, seed)
			}
			var r float32
			var done bool
			for i, a := range p {
				if done {
					t.Fatalf("%s seed %d: episode ended after %d of %d actions", id, seed, i, len(p))
				}
				r, done = e.Step([]float32{a}, obs)
			}
			if !done || r <= 0 {
				t.Fatalf("%s seed %d: the shortest path (%d actions) ends with reward %v, terminated %v", id, seed, len(p), r, done)
			}
			t.Logf("%s seed %d: %d actions, return %.4f", id, seed, len(p), r)
			sum += float64(r)
		}
		t.Logf("%s: largest mean test return %.4f", id, sum/5)
	}
}
