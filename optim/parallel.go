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
// workers. (The part-index closure is built once, so that a step
// allocates nothing.)
func (a *Adam) sweep(f func(p part)) {
	if a.size < serialBelow {
		for _, p := range a.parts {
			f(p)
		}
		return
	}
	if a.sweepIdx == nil {
		a.sweepIdx = func(i int) { a.sweepFn(a.parts[i]) }
	}
	a.sweepFn = f
	parallel(len(a.parts), a.workers, a.sweepIdx)
	a.sweepFn = nil
}

func resolveWorkers(n int) int {
	if n <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return n
}

// job is one call of parallel: f(0…n−1), the indices taken in turn by
// the caller and the pool's workers.
type job struct {
	n    int
	next atomic.Int64
	wg   sync.WaitGroup
	f    func(i int)
}

func (j *job) work() {
	for {
		i := int(j.next.Add(1) - 1)
		if i >= j.n {
			return
		}
		j.f(i)
	}
}

// maxWorkers caps the package's worker pool.
const maxWorkers = 256

// pool holds the package's worker goroutines (started on demand and kept
// for later calls) and spare jobs.
var pool struct {
	mu      sync.Mutex
	ch      chan *job
	started int
	jobs    sync.Pool
}

// ensureWorkers starts pool workers until there are at least n.
func ensureWorkers(n int) {
	pool.mu.Lock()
	defer pool.mu.Unlock()
	if pool.ch == nil {
		pool.ch = make(chan *job, maxWorkers)
	}
	for ; pool.started < n; pool.started++ {
		go func() {
			for j := range pool.ch {
				j.work()
				j.wg.Done()
			}
		}()
	}
}

// parallel calls f(0…n−1) on up to workers goroutines (≤ 0: GOMAXPROCS),
// the caller being one of them.
func parallel(n, workers int, f func(i int)) {
	w := min(resolveWorkers(workers), n, maxWorkers)
	if w <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	ensureWorkers(w - 1)
	j, _ := pool.jobs.Get().(*job)
	if j == nil {
		j = new(job)
	}
	j.n, j.f = n, f
	j.next.Store(0)
	j.wg.Add(w - 1)
	for range w - 1 {
		pool.ch <- j
	}
	j.work()
	j.wg.Wait()
	j.f = nil
	pool.jobs.Put(j)
}

// sweepWorkers is the worker count of a sweep over all parts.
func (a *Adam) sweepWorkers() int {
	if a.size < serialBelow {
		return 1
	}
	return a.workers
}
