//go:build unix

package cputime

import (
	"testing"
	"time"
)

// spin burns CPU for about d of CPU time on one thread.
func spin(d time.Duration) {
	start := process()
	x := 1.0
	for process()-start < d {
		for i := 0; i < 10000; i++ {
			x = x*1.0000001 + 1e-9
		}
	}
	sink = x
}

var sink float64

// TestMeasure: busy work is charged, sleeping is not, and Ratio gives
// the ratio of two amounts of work.
func TestMeasure(t *testing.T) {
	busy := Measure(func() { spin(50 * time.Millisecond) })
	if busy < 45*time.Millisecond || busy > 500*time.Millisecond {
		t.Errorf("50 ms of spinning measured %v", busy)
	}
	idle := Measure(func() { time.Sleep(100 * time.Millisecond) })
	if idle > 40*time.Millisecond {
		t.Errorf("a 100 ms sleep measured %v", idle)
	}
	w, r := Ratio(3, func() { spin(30 * time.Millisecond) }, func() { spin(10 * time.Millisecond) })
	if q := float64(w) / float64(r); q < 2 || q > 4.5 {
		t.Errorf("ratio of 30 ms to 10 ms of spinning: %v / %v = %.2f", w, r, q)
	}
}
