// Package cputime measures the CPU time a process spends, for speed tests
// that must hold on a loaded machine: the CPU time of a piece of work
// grows far less with the machine's load than its wall time does, and the
// ratio of two pieces of work measured alternately in the same process
// hardly depends on the machine at all.
package cputime

import (
	"runtime"
	"time"
)

// Measure returns the CPU time (user + system, all threads) the process
// spends while f runs, after a garbage collection so that the garbage of
// earlier work is not charged to f. On systems without getrusage it
// returns the wall time.
func Measure(f func()) time.Duration {
	runtime.GC()
	start := process()
	f()
	return process() - start
}

// Ratio measures work and ref alternately, rounds times each, and returns
// the smallest CPU time of each: best-of-rounds discards the rounds that
// other processes' load or a garbage collection inflated, and alternating
// exposes both to the same conditions. work/ref is then a speed ratio that
// does not depend on the machine's speed or load.
func Ratio(rounds int, work, ref func()) (w, r time.Duration) {
	w, r = time.Duration(1<<63-1), time.Duration(1<<63-1)
	for range rounds {
		r = min(r, Measure(ref))
		w = min(w, Measure(work))
	}
	return w, r
}
