package train

import (
	"context"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// countingRun is a quadRun that records how many runs compute at once.
type countingRun struct {
	quadRun
	now, peak *atomic.Int32
}

func (c *countingRun) Step(batch []int) (float64, error) {
	n := c.now.Add(1)
	for {
		p := c.peak.Load()
		if n <= p || c.peak.CompareAndSwap(p, n) {
			break
		}
	}
	time.Sleep(20 * time.Microsecond)
	defer c.now.Add(-1)
	return c.quadRun.Step(batch)
}

// TestSlotsLimitAndSameResults: with more runs in progress than slots, at
// most Slots compute at once, and every run's report is the same as
// without the limit.
func TestSlotsLimitAndSameResults(t *testing.T) {
	// scripted validation losses: runs improving for different lengths
	script := func(r int) []float64 {
		s := make([]float64, 0, 40)
		for e := 0; e < 5+7*r; e++ {
			s = append(s, 10-float64(e)*0.1)
		}
		return s
	}
	cases := []struct {
		name     string
		parallel int
		slots    int
		peak     int32
	}{
		{"no limit", 5, -1, 5},
		{"two slots", 5, 2, 2},
		{"one slot", 5, 1, 1},
		{"parallel below slots", 2, 4, 2},
	}
	var ref []RunReport
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var now, peak atomic.Int32
			_, rep, err := Fit(context.Background(), 8, Config{Restarts: 5, Patience: 8, MaxEpochs: 60, BatchSize: 2,
				Parallel: c.parallel, Slots: c.slots},
				func(r int, seed uint64) (Run, error) {
					return &countingRun{quadRun: quadRun{script: script(r), rowsSeen: map[int]int{}}, now: &now, peak: &peak}, nil
				}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if c.slots > 0 && peak.Load() > int32(min(c.slots, c.parallel)) {
				t.Fatalf("%d runs computed at once, want at most %d", peak.Load(), c.slots)
			}
			for i := range rep.Runs {
				rep.Runs[i].Seconds = 0
			}
			if ref == nil {
				ref = rep.Runs
			} else if !reflect.DeepEqual(rep.Runs, ref) {
				t.Fatalf("reports differ from the unlimited run:\n%+v\n%+v", rep.Runs, ref)
			}
		})
	}
}

// TestSlotsPriority: a waiting run with fewer epochs since its improvement
// takes the slot of a computing run that stalls.
func TestSlotsPriority(t *testing.T) {
	s := newSlots(1, 2, 2)
	ctx := context.Background()
	if err := s.acquire(ctx, 0, 0); err != nil {
		t.Fatal(err)
	}
	var got sync.WaitGroup
	got.Add(1)
	go func() {
		if err := s.acquire(ctx, 1, 0); err != nil {
			t.Error(err)
		}
		got.Done()
	}()
	for { // until run 1 waits
		s.mu.Lock()
		w := s.waiting[1]
		s.mu.Unlock()
		if w {
			break
		}
		time.Sleep(time.Millisecond)
	}
	// within the margin: run 0 keeps its slot
	if err := s.offer(ctx, 0, 2); err != nil {
		t.Fatal(err)
	}
	done := make(chan error)
	go func() { done <- s.offer(ctx, 0, 3) }() // beyond it: hands over
	got.Wait()
	s.release(1)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	s.release(0)
	if s.free != 1 {
		t.Fatalf("%d free slots after all released, want 1", s.free)
	}
	// a cancelled waiter leaves no slot behind
	if err := s.acquire(ctx, 0, 0); err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := s.acquire(cctx, 1, 0); err == nil {
		t.Fatal("cancelled acquire succeeded")
	}
	s.release(1)
	s.release(0)
	if s.free != 1 {
		t.Fatalf("%d free slots after a cancelled wait, want 1", s.free)
	}
}

// TestSlotsCancel: cancelling a fit ends the waiting runs too.
func TestSlotsCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	_, _, err := Fit(ctx, 10, Config{Restarts: 5, Parallel: 5, Slots: 1, MaxEpochs: 1000, Patience: 1000},
		func(r int, seed uint64) (Run, error) {
			return &quadRun{rowsSeen: map[int]int{}, lr: 0.01}, nil
		}, func(p Progress) {
			if p.Epoch == 3 {
				cancel()
			}
		})
	if err == nil {
		t.Fatal("cancellation not reported")
	}
}
