package minigrid

import (
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
