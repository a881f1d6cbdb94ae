package train

import (
	"context"
	"sync"
)

// slots lets at most n of the runs in progress compute at once. A run
// takes a slot before its first epoch and offers it after every epoch: it
// hands the slot to a waiting run whose epochs since its last improvement
// (its key) are fewer by more than margin, if no other computing run has
// more. A run's remaining epochs are at least patience − key, so the runs
// that may train longest go first and the others fill the free cores; the
// last runs then rarely end alone with a core idle. Which run computes
// when never changes any run's result.
type slots struct {
	mu      sync.Mutex
	free    int
	margin  int
	key     []int
	holding []bool
	waiting []bool
	wake    []chan struct{}
}

func newSlots(n, runs, margin int) *slots {
	s := &slots{free: n, margin: margin, key: make([]int, runs), holding: make([]bool, runs),
		waiting: make([]bool, runs), wake: make([]chan struct{}, runs)}
	for r := range s.wake {
		s.wake[r] = make(chan struct{}, 1)
	}
	return s
}

// bestWaiting returns the waiting run with the smallest key (ties: the
// lowest index), or −1. s.mu is held.
func (s *slots) bestWaiting() int {
	b := -1
	for r, w := range s.waiting {
		if w && (b < 0 || s.key[r] < s.key[b]) {
			b = r
		}
	}
	return b
}

// handTo gives a slot to waiting run b. s.mu is held.
func (s *slots) handTo(b int) {
	s.waiting[b], s.holding[b] = false, true
	s.wake[b] <- struct{}{}
}

// acquire blocks until run r holds a slot or ctx is done.
func (s *slots) acquire(ctx context.Context, r, key int) error {
	s.mu.Lock()
	s.key[r] = key
	if s.free > 0 {
		s.free--
		s.holding[r] = true
		s.mu.Unlock()
		return nil
	}
	s.waiting[r] = true
	s.mu.Unlock()
	return s.wait(ctx, r)
}

// wait blocks until run r (waiting) is handed a slot or ctx is done.
func (s *slots) wait(ctx context.Context, r int) error {
	select {
	case <-s.wake[r]:
		return nil
	case <-ctx.Done():
	}
	s.mu.Lock()
	if s.waiting[r] {
		s.waiting[r] = false
		s.mu.Unlock()
		return ctx.Err()
	}
	// handed a slot meanwhile: hold it (the caller releases it)
	s.mu.Unlock()
	<-s.wake[r]
	return nil
}

// offer records run r's key after an epoch and, if a waiting run should go
// first, hands it r's slot and blocks until r gets one back.
func (s *slots) offer(ctx context.Context, r, key int) error {
	s.mu.Lock()
	s.key[r] = key
	b := s.bestWaiting()
	if b < 0 || s.key[b]+s.margin >= key {
		s.mu.Unlock()
		return nil
	}
	for o, h := range s.holding {
		if h && o != r && s.key[o] > key {
			// a computing run with more epochs since its improvement
			// yields first, at its own next epoch
			s.mu.Unlock()
			return nil
		}
	}
	s.holding[r] = false
	s.handTo(b)
	s.waiting[r] = true
	s.mu.Unlock()
	return s.wait(ctx, r)
}

// release gives up run r's slot (if it holds one) for good.
func (s *slots) release(r int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.holding[r] {
		return
	}
	s.holding[r] = false
	if b := s.bestWaiting(); b >= 0 {
		s.handTo(b)
		return
	}
	s.free++
}
