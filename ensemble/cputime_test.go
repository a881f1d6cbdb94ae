//go:build linux

package ensemble

import (
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"
)

func threadCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestPredictCPUTime measures the CPU time of one worker predicting
// 4096 rows with GRANDE's default shape, with the AVX-512 descent and the
// Go one alternately (load-independent where wall time is not). It runs
// only with GDT_CPUTIME=1:
//
//	GDT_CPUTIME=1 go test -run PredictCPUTime -v ./ensemble
func TestPredictCPUTime(t *testing.T) {
	if os.Getenv("GDT_CPUTIME") == "" {
		t.Skip("set GDT_CPUTIME=1 to measure")
	}
	p, x, rows := grandeShape(t)
	out := make([]float32, rows)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	best := map[bool]time.Duration{}
	for rep := 0; rep < 5; rep++ {
		for _, asm := range []bool{true, false} {
			if asm && !haveRouteAVX512 {
				continue
			}
			p.asm = asm
			c0 := threadCPU()
			if err := p.Predict(x, rows, out, 1); err != nil {
				t.Fatal(err)
			}
			d := threadCPU() - c0
			if b, ok := best[asm]; !ok || d < b {
				best[asm] = d
			}
		}
	}
	for asm, d := range best {
		t.Logf("avx512 %v: best CPU time %v per %d rows = %.0f rows/s per core", asm, d, rows, float64(rows)/d.Seconds())
	}
	// one row at a time, as a prediction server answers a single request
	p.asm = haveRouteAVX512
	one := time.Hour
	for rep := 0; rep < 5; rep++ {
		c0 := threadCPU()
		for i := 0; i < 200; i++ {
			if err := p.Predict(x[i*p.f:(i+1)*p.f], 1, out[:1], 1); err != nil {
				t.Fatal(err)
			}
		}
		one = min(one, (threadCPU()-c0)/200)
	}
	t.Logf("one row: best CPU time %v per row", one)
}
