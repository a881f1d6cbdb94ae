package nn

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// maxChunks is the number of fixed sample chunks a batch is split into for
// parallel work with a reduction (e.g. convolution weight gradients). The
// partition depends on the batch size only, never on the number of cores,
// so the reduction order — and every result bit — is the same on any
// machine.
const maxChunks = 8

// chunkBounds returns the sample range of chunk c of B samples split into
// parts nearly equal chunks.
func chunkBounds(B, parts, c int) (lo, hi int) {
	return c * B / parts, (c + 1) * B / parts
}

// numChunks returns how many chunks a batch of B samples is split into.
func numChunks(B int) int { return max(1, min(B, maxChunks)) }

// parallel runs fn(part, worker) for every part in [0, parts) on up to
// GOMAXPROCS goroutines; worker ∈ [0, workers) identifies the goroutine
// (for per-worker scratch) and workers is returned by numWorkers(parts).
func parallel(parts int, fn func(part, worker int)) {
	w := numWorkers(parts)
	if w <= 1 {
		for p := 0; p < parts; p++ {
			fn(p, 0)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	wg.Add(w)
	for i := 0; i < w; i++ {
		go func(worker int) {
			defer wg.Done()
			for {
				p := int(next.Add(1) - 1)
				if p >= parts {
					return
				}
				fn(p, worker)
			}
		}(i)
	}
	wg.Wait()
}

// numWorkers returns the number of goroutines parallel uses for parts.
func numWorkers(parts int) int { return max(1, min(parts, runtime.GOMAXPROCS(0))) }
