package minigrid

import (
	"fmt"
	"testing"

	"github.com/gdt-ml/gdt/rl/env"
)

// TestVisitCoversStarts checks env.Visit's coverage count on the task with
// a finite start set: episodes stop once all 60 starts of Empty-Random-6x6
// were drawn, and the count agrees with the starts enumerated from the
// episodes' own seeds; DistShift1 needs one episode, DoorKey is not counted.
func TestVisitCoversStarts(t *testing.T) {
	forward := func(obs, action []float32) { action[0] = 2 }
	e, _ := New(IDEmptyRandom6x6)
	v, err := env.Visit(e, 7, 5000, forward)
	if err != nil {
		t.Fatal(err)
	}
	if v.Starts != 60 || !v.Complete() {
		t.Fatalf("Empty-Random: %d of %d starts after %d episodes", v.StartsSeen, v.Starts, v.Episodes)
	}
	// The same seeds, enumerated directly: the last episode drew the 60th
	// distinct start, the ones before only 59.
	seen := map[[3]int]bool{}
	obs := make([]float32, e.Spec().Observation.Dim)
	for k := 0; k < v.Episodes; k++ {
		e.Seed(7 + uint64(k))
		e.Reset(obs)
		x, y, d := e.Agent()
		if x == 4 && y == 4 {
			t.Fatalf("seed %d: agent starts on the goal", 7+k)
		}
		seen[[3]int{x, y, d}] = true
		if k == v.Episodes-2 && len(seen) != 59 {
			t.Fatalf("before the last episode %d starts were drawn, want 59", len(seen))
		}
	}
	if len(seen) != 60 {
		t.Fatalf("%d distinct starts in seeds 7…%d, want 60", len(seen), 6+v.Episodes)
	}
	if v.Rows == 0 || len(v.Obs) != v.Rows*v.Features || v.Steps < v.Rows {
		t.Fatalf("visits: %d rows, %d values, %d steps", v.Rows, len(v.Obs), v.Steps)
	}

	d, _ := New(IDDistShift1)
	if v, err = env.Visit(d, 1, 100, forward); err != nil || v.Episodes != 1 || !v.Complete() {
		t.Fatalf("DistShift1: %v, %+v", err, v)
	}
	k, _ := New(IDDoorKey5x5)
	if v, err = env.Visit(k, 1, 3, forward); err != nil || v.Episodes != 3 || v.Complete() || v.Starts != 0 {
		t.Fatalf("DoorKey: %v, %+v", err, v)
	}
}

// TestEmptyRandomObservations counts the observations Empty-Random-6x6
// can show: its 60 non-goal agent states (cell × direction) give 21
// distinct 3×3 views. Greedy episodes that meet 21 distinct observations
// (env.Visits.Rows) have therefore met every observation of the task, so
// a tree pruned by them (PruneVisited) acts as the full tree on every
// state of the task, not only on the policy's own.
func TestEmptyRandomObservations(t *testing.T) {
	e, _ := New(IDEmptyRandom6x6)
	obs := make([]float32, e.Spec().Observation.Dim)
	e.Seed(1)
	e.Reset(obs)
	seen := map[string]bool{}
	for x := 1; x <= 4; x++ {
		for y := 1; y <= 4; y++ {
			for d := 0; d < 4; d++ {
				if x == 4 && y == 4 {
					continue
				}
				if err := e.SetAgent(x, y, d); err != nil {
					t.Fatal(err)
				}
				e.Observe(obs)
				seen[fmt.Sprint(obs)] = true
			}
		}
	}
	if len(seen) != 21 {
		t.Fatalf("%d distinct observations over the 60 agent states, want 21", len(seen))
	}
}
