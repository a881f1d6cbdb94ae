package linalg

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"syscall"
	"testing"
)

// threadCPU returns the calling thread's CPU time in nanoseconds.
func threadCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// BenchmarkGemmPacking compares the packed and the unpacked path on the
// products of a 256-wide layer, reporting the thread's CPU time per
// product (cpu-ns/op), which a busy machine disturbs less than wall time.
func BenchmarkGemmPacking(b *testing.B) {
	for _, s := range []struct {
		name    string
		ta, tb  bool
		m, n, k int
	}{
		{"64x256x256/NN", false, false, 64, 256, 256},
		{"64x256x256/TN", true, false, 256, 256, 64},
		{"64x256x256/NT", false, true, 64, 256, 256},
	} {
		for _, off := range []bool{true, false} {
			name := s.name + "/direct"
			if off {
				name = s.name + "/packed"
			}
			b.Run(name, func(b *testing.B) {
				p := newProblem(rand.New(rand.NewPCG(1, 1)), s.ta, s.tb, s.m, s.n, s.k, 1, 0, 0)
				defer func() { directOff = false }()
				directOff = off
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				t0 := threadCPU()
				for b.Loop() {
					Gemm(p.ta, p.tb, p.m, p.n, p.k, 1, p.a, p.lda, p.b, p.ldb, 0, p.c, p.ldc)
				}
				b.ReportMetric(float64(threadCPU()-t0)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}

// BenchmarkTranspose times the transposes of the NT product of a 64-row
// minibatch through a 256-wide layer (GemmNT): dyᵀ (64×256 → 256×64) and
// result blocks (n×64 → 64 rows of a 256-wide C), reporting the thread's
// CPU time per element.
func BenchmarkTranspose(b *testing.B) {
	for _, s := range []struct{ rows, cols, lds, ldd int }{
		{64, 256, 256, 64},
		{128, 64, 64, 256},
		{256, 64, 64, 256},
	} {
		src := make([]float32, s.rows*s.lds)
		dst := make([]float32, s.cols*s.ldd)
		for i := range src {
			src[i] = float32(i)
		}
		b.Run(fmt.Sprintf("%dx%d/ldd=%d", s.rows, s.cols, s.ldd), func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			t0 := threadCPU()
			for b.Loop() {
				transposeInto(dst, s.ldd, src, s.lds, s.rows, s.cols)
			}
			b.ReportMetric(float64(threadCPU()-t0)/float64(b.N)/float64(s.rows*s.cols), "cpu-ns/elem")
		})
	}
}
