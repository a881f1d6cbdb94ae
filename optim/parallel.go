package optim

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// chunkWords is the number of 64-entry words in one unit of parallel work
// (16 384 entries, 256 KiB over the four arrays of an Adam update).
const chunkWords = 256

// serialBelow is the number of entries below which a sweep runs on the
// calling goroutine.
const serialBelow = 1 << 16

// part is one unit of parallel work: words [w0, w1) of a slot.
type part struct {
	s      *slot
	w0, w1 int
	// list is the part's own buffer of the lazy sweep (entries updated one
	// by one), so that parts of one slot can run concurrently.
	list *[]int32
}

// lo and hi are the entry bounds of the part.
func (p part) lo() int { return p.w0 * 64 }
func (p part) hi() int { return min(p.w1*64, len(p.s.p)) }

// makeParts splits every slot into chunks of whole words, in order.
func makeParts(slots []*slot) []part {
	var parts []part
	for _, s := range slots {
		nw := (len(s.p) + 63) / 64
		for w := 0; w < nw; w += chunkWords {
			parts = append(parts, part{s: s, w0: w, w1: min(w+chunkWords, nw), list: new([]int32)})
		}
	}
	return parts
}

// sweep runs f over all parts, in parallel when the model is large. Parts
// never share memory, so the result does not depend on the number of
// workers.
func (a *Adam) sweep(f func(p part)) {
	if a.size < serialBelow {
		for _, p := range a.parts {
			f(p)
		}
		return
	}
	parallel(len(a.parts), a.workers, func(i int) { f(a.parts[i]) })
}

func resolveWorkers(n int) int {
	if n <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return n
}

// parallel calls f(0…n−1) on up to workers goroutines (≤ 0: GOMAXPROCS).
func parallel(n, workers int, f func(i int)) {
	w := min(resolveWorkers(workers), n)
	if w <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	wg.Add(w)
	for range w {
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				f(i)
			}
		}()
	}
	wg.Wait()
}

// sweepWorkers is the worker count of a sweep over all parts.
func (a *Adam) sweepWorkers() int {
	if a.size < serialBelow {
		return 1
	}
	return a.workers
}
