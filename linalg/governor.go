package linalg

import (
	"sync/atomic"
	"time"
)

// The governor keeps the pool off while other processes use the cores the
// helpers would need: a helper that spins on a core another process wants
// only takes time from the submitter (with group scheduling both share the
// process's slice) and arrives late. Every governorWindow the first
// submitter to notice reads the system's and the process's CPU time
// (busyOthers, per platform); the pool stays on while the other processes
// used at most the cores the submitter and one helper leave free.
const governorWindow = 250 * time.Millisecond

var governor struct {
	next    atomic.Int64 // Unix ns of the next sample
	busy    atomic.Bool  // off: other processes keep the cores busy
	running atomic.Bool  // a sample is being taken
	last    cpuSample
}

// cpuSample is a reading of the CPU clocks (in clock ticks) of the
// machine's cpus processors.
type cpuSample struct {
	total, busy, self uint64
	cpus              int
	ok                bool
}

// crowded reports whether the governor holds the pool off, sampling the
// CPU clocks when the window has passed.
func crowded() bool {
	now := time.Now().UnixNano()
	if now >= governor.next.Load() && governor.running.CompareAndSwap(false, true) {
		governor.next.Store(now + int64(governorWindow))
		s := readCPU()
		if busy, ok := tooBusy(governor.last, s); ok {
			governor.busy.Store(busy)
		}
		governor.last = s
		governor.running.Store(false)
	}
	return governor.busy.Load()
}

// tooBusy reports, from two readings of the CPU clocks, whether the other
// processes used more than the machine's cores minus 1.5 in between (too
// little left for the submitter and a helper); ok is false when the
// readings cannot tell.
func tooBusy(p, s cpuSample) (busy, ok bool) {
	if !p.ok || !s.ok || s.total <= p.total || s.cpus == 0 || s.busy < p.busy || s.self < p.self {
		return false, false
	}
	cores := float64(s.cpus)
	elapsed := float64(s.total-p.total) / cores // ticks per core
	others := (float64(s.busy-p.busy) - float64(s.self-p.self)) / elapsed
	return others > cores-1.5, true
}
