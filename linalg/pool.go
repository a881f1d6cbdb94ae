package linalg

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// The package keeps one pool of helper goroutines (GOMAXPROCS − 1 of them,
// started on first use) for work that is too short for a goroutine per
// call: a hand-off costs well under a microsecond while the helpers are
// spinning, and they spin for a while after each piece of work before they
// park. Any number of goroutines may submit work at the same time. The
// submitter always takes part in its own work, so it never waits for a
// helper that has not started (work is never lost when the helpers are
// busy elsewhere or descheduled), and a result never depends on which
// goroutine ran which part.

const (
	poolSlots = 64                     // open jobs at a time
	spinFor   = 200 * time.Microsecond // helpers' spin before they park
)

// poolJob is one submitted piece of work split into parts.
type poolJob struct {
	f     func(part int)
	parts int64
	next  atomic.Int64 // next unclaimed part
	done  atomic.Int64 // finished parts
}

// claim runs unclaimed parts of j until none is left and reports whether
// it ran any.
func (j *poolJob) claim() bool {
	ran := false
	for {
		p := j.next.Add(1) - 1
		if p >= j.parts {
			return ran
		}
		j.f(int(p))
		j.done.Add(1)
		ran = true
	}
}

// wait spins (yielding now and then) until every part of j has finished.
// own is how long the submitter worked on j itself: a wait much longer
// than that means a helper started late or lost its processor (another
// process is using the cores), and the pool backs off (see serial).
func (j *poolJob) wait(start time.Time, own time.Duration) {
	for i := 0; j.done.Load() < j.parts; i++ {
		if i&63 == 63 {
			runtime.Gosched()
		}
	}
	if w := time.Since(start) - own; w > own+lateSlack {
		backOff()
	} else if pool.penalty.Load() != 0 {
		forgive()
	}
}

// Back-off: when helpers are late (the machine is oversubscribed), waiting
// for them costs more than doing the work alone, so the pool runs work on
// the submitter only for a while, doubling that period after every late
// helper up to maxSerial and halving it after every prompt job.
const (
	lateSlack = 50 * time.Microsecond
	minSerial = 5 * time.Millisecond
	maxSerial = time.Second
)

// backOff starts (or lengthens) a serial period.
func backOff() {
	pool.backOffs.Add(1)
	d := time.Duration(pool.penalty.Load())
	d = min(max(2*d, minSerial), maxSerial)
	pool.penalty.Store(int64(d))
	pool.serialUntil.Store(time.Now().Add(d).UnixNano())
}

// forgive halves the next serial period after a prompt job.
func forgive() {
	d := time.Duration(pool.penalty.Load()) / 2
	if d < minSerial {
		d = 0
	}
	pool.penalty.Store(int64(d))
}

// serial reports whether work should run on the submitter alone: in a
// back-off period, or while the governor sees the cores busy with other
// processes.
func serial() bool {
	if pool.fixed.Load() {
		return false
	}
	if u := pool.serialUntil.Load(); u != 0 && time.Now().UnixNano() < u {
		pool.backedOff.Add(1)
		return true
	}
	if crowded() {
		pool.crowded.Add(1)
		return true
	}
	return false
}

// Sharing reports whether work submitted now would be offered to helpers
// (there are some, and neither a back-off period nor the governor holds the
// pool off), so that a caller can pick a split that suits one goroutine
// when it would run alone. It does not sample the machine's load, and the
// answer may change at any time; results never depend on it.
func Sharing() bool {
	if startPool() == 0 {
		return false
	}
	if pool.fixed.Load() {
		return true
	}
	if u := pool.serialUntil.Load(); u != 0 && time.Now().UnixNano() < u {
		return false
	}
	return !governor.busy.Load()
}

var pool struct {
	mu       sync.Mutex
	started  atomic.Int32  // helpers running
	seq      atomic.Uint64 // bumped on every submission
	slots    [poolSlots]atomic.Pointer[poolJob]
	sleeping atomic.Int32
	wake     chan struct{}

	serialUntil atomic.Int64 // Unix ns: run work on the submitter until then
	penalty     atomic.Int64 // length of the last serial period (ns)
	fixed       atomic.Bool  // adaptation off (SetAdaptive)

	shared, alone atomic.Int64 // jobs offered to the helpers / run on the submitter alone

	backOffs, backedOff, crowded atomic.Int64 // see PoolReasons
}

// PoolStats returns how many jobs (Run, Start, split products) were
// offered to the helpers and how many ran on the submitter alone (no
// helpers, or the pool held off by its load adaptation) since the process
// started: a way to check that the pool is in use.
func PoolStats() (shared, alone int64) {
	return pool.shared.Load(), pool.alone.Load()
}

// PoolReasons says why jobs ran on the submitter alone since the process
// started: the number of late helpers that started a back-off period
// (backOffs), of jobs held back in such a period (backedOff) and of jobs
// held back while the governor saw the cores busy with other processes
// (crowded). On an idle machine all three stay near 0.
func PoolReasons() (backOffs, backedOff, crowded int64) {
	return pool.backOffs.Load(), pool.backedOff.Load(), pool.crowded.Load()
}

// SetAdaptive turns the pool's adaptation to the machine's load (the
// governor and the back-off after late helpers) on or off and returns the
// previous setting. It is on by default; with it off, work is always
// offered to the helpers (tests use this to exercise the parallel paths on
// a busy machine). Results do not depend on it.
func SetAdaptive(on bool) bool {
	return !pool.fixed.Swap(!on)
}

// maxHelpers caps the pool.
const maxHelpers = 63

// startPool makes sure GOMAXPROCS − 1 helpers run (more are started when
// GOMAXPROCS grows; none stops when it shrinks, they just park) and
// returns GOMAXPROCS − 1, the number of helpers a job may use.
func startPool() int {
	want := min(runtime.GOMAXPROCS(0)-1, maxHelpers)
	if int(pool.started.Load()) >= want {
		return want
	}
	pool.mu.Lock()
	defer pool.mu.Unlock()
	if pool.wake == nil {
		pool.wake = make(chan struct{}, maxHelpers)
	}
	for int(pool.started.Load()) < want {
		pool.started.Add(1)
		go helper()
	}
	return want
}

// helper runs parts of open jobs; it spins for spinFor after its last
// piece of work, then parks until the next submission.
func helper() {
	last := time.Now()
	seen := pool.seq.Load()
	for i := 0; ; i++ {
		if s := pool.seq.Load(); s != seen || i&1023 == 0 {
			seen = s
			if scan() {
				last, i = time.Now(), 0
				continue
			}
		}
		if i&255 != 255 {
			continue
		}
		runtime.Gosched()
		if time.Since(last) < spinFor {
			continue
		}
		pool.sleeping.Add(1)
		if pool.seq.Load() == seen && !open() {
			<-pool.wake
		}
		pool.sleeping.Add(-1)
		last, i = time.Now(), 0
	}
}

// scan runs unclaimed parts of the open jobs and reports whether it ran
// any.
func scan() bool {
	ran := false
	for k := range pool.slots {
		if j := pool.slots[k].Load(); j != nil && j.next.Load() < j.parts {
			ran = j.claim() || ran
		}
	}
	return ran
}

// open reports whether some open job has unclaimed parts.
func open() bool {
	for k := range pool.slots {
		if j := pool.slots[k].Load(); j != nil && j.next.Load() < j.parts {
			return true
		}
	}
	return false
}

// publish makes j visible to the helpers and returns its slot, or −1 if
// every slot is taken (then the submitter runs j alone).
func publish(j *poolJob) int {
	for k := range pool.slots {
		if pool.slots[k].CompareAndSwap(nil, j) {
			pool.seq.Add(1)
			if n := pool.sleeping.Load(); n > 0 {
				for range n {
					select {
					case pool.wake <- struct{}{}:
					default:
					}
				}
			}
			return k
		}
	}
	return -1
}

// Helpers returns the number of helper goroutines that work submitted now
// may use (GOMAXPROCS − 1), starting them if needed.
func Helpers() int { return startPool() }

// Run calls f(part) for every part in [0, parts) and returns when all
// calls have returned. The calling goroutine runs part 0 and then any
// parts left while the pool's helpers, when free, run the others; the
// parts must not depend on one another or write to the same memory. Run
// may be called from several goroutines at once (also from inside f).
func Run(parts int, f func(part int)) {
	if parts <= 0 {
		return
	}
	if parts == 1 || startPool() == 0 || serial() {
		pool.alone.Add(1)
		for p := range parts {
			f(p)
		}
		return
	}
	pool.shared.Add(1)
	// The submitter runs part 0 itself and helpers claim from part 1 on,
	// so a part runs on the same goroutine from call to call whenever the
	// helpers are free: a caller that splits its data by part keeps each
	// part's data in one core's cache.
	j := &poolJob{f: f, parts: int64(parts)}
	j.next.Store(1)
	k := publish(j)
	start := time.Now()
	f(0)
	j.done.Add(1)
	j.claim()
	j.wait(start, time.Since(start))
	if k >= 0 {
		pool.slots[k].Store(nil)
	}
}

// Task is work started by Start.
type Task struct {
	j    *poolJob
	slot int
}

// Start hands f to a helper of the pool and returns at once; Wait returns
// when f has returned, and runs f on the calling goroutine if no helper
// has started it yet (so f always runs, exactly once, even when every
// helper is busy).
func Start(f func()) *Task {
	j := &poolJob{f: func(int) { f() }, parts: 1}
	if startPool() == 0 || serial() {
		pool.alone.Add(1)
		return &Task{j: j, slot: -1}
	}
	pool.shared.Add(1)
	return &Task{j: j, slot: publish(j)}
}

// Wait waits for the task (see Start). Call it exactly once. While a
// helper runs the task, the caller runs unclaimed parts of open jobs
// (those the task submits, say), so work split inside a started task uses
// the caller's core as well.
func (t *Task) Wait() {
	t.j.claim()
	for i := 0; t.j.done.Load() < 1; i++ {
		if scan() {
			i = 0
			continue
		}
		if i&63 == 63 {
			runtime.Gosched()
		}
	}
	if t.slot >= 0 {
		pool.slots[t.slot].Store(nil)
	}
}
