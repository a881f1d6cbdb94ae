package linalg

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/viterin/vek/vek32"
)

// BenchmarkGemm compares Gemm with vek32.MatMul_Into on the products of a
// dense layer (name m×k×n and op: NN = X·W, TN = Xᵀ·dY, NT = dY·Wᵀ). vek
// has no transpose flags: it is timed on the same m, n, k with operands
// already laid out for it (the transposes nn used to do are not counted).
// vek runs on runtime.NumCPU() goroutines for products of ≥ 100 000
// multiply-adds; impl=linalgpar is GemmParallel on GOMAXPROCS goroutines.
// Run with -count 5 and compare columns with `benchstat -col /impl`.
func BenchmarkGemm(b *testing.B) {
	shapes := []struct {
		name       string
		ta, tb     bool
		m, k, n    int
		onlyLinalg bool
	}{
		{name: "64x256x256/NN", m: 64, k: 256, n: 256},
		{name: "64x256x256/TN", ta: true, m: 256, k: 64, n: 256},
		{name: "64x256x256/NT", tb: true, m: 64, k: 256, n: 256},
		{name: "2048x256x256/NN", m: 2048, k: 256, n: 256},
		{name: "64x8x256/NN", m: 64, k: 8, n: 256},
		{name: "64x8x256/TN", ta: true, m: 8, k: 64, n: 256},
		{name: "64x256x1/NN", m: 64, k: 256, n: 1},
		{name: "64x256x1/TN", ta: true, m: 256, k: 64, n: 1},
		{name: "64x256x1/NT", tb: true, m: 64, k: 1, n: 256},
	}
	r := rand.New(rand.NewPCG(1, 1))
	rnd := func(n int) []float32 {
		s := make([]float32, n)
		for i := range s {
			s[i] = float32(r.NormFloat64())
		}
		return s
	}
	for _, s := range shapes {
		a, bb, c := rnd(s.m*s.k), rnd(s.k*s.n), rnd(s.m*s.n)
		lda, ldb := s.k, s.n
		if s.ta {
			lda = s.m
		}
		if s.tb {
			ldb = s.k
		}
		flop := 2 * float64(s.m) * float64(s.n) * float64(s.k)
		report := func(b *testing.B) {
			b.ReportMetric(flop*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		}
		b.Run(fmt.Sprintf("shape=%s/impl=linalg", s.name), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				Gemm(s.ta, s.tb, s.m, s.n, s.k, 1, a, lda, bb, ldb, 0, c, s.n)
			}
			report(b)
		})
		if k2, ok := kernelByName("avx2"); ok && Kernel() != "avx2" {
			b.Run(fmt.Sprintf("shape=%s/impl=linalg-avx2", s.name), func(b *testing.B) {
				old := kernel
				kernel = k2
				defer func() { kernel = old }()
				for i := 0; i < b.N; i++ {
					Gemm(s.ta, s.tb, s.m, s.n, s.k, 1, a, lda, bb, ldb, 0, c, s.n)
				}
				report(b)
			})
		}
		b.Run(fmt.Sprintf("shape=%s/impl=linalgpar", s.name), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				GemmParallel(0, s.ta, s.tb, s.m, s.n, s.k, 1, a, lda, bb, ldb, 0, c, s.n)
			}
			report(b)
		})
		b.Run(fmt.Sprintf("shape=%s/impl=vek", s.name), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				vek32.MatMul_Into(c, a, bb, s.k)
			}
			report(b)
		})
	}
}

// BenchmarkGemmParallel measures GemmParallel on all cores for the large
// forward product.
func BenchmarkGemmParallel(b *testing.B) {
	const m, k, n = 2048, 256, 256
	a, bb, c := make([]float32, m*k), make([]float32, k*n), make([]float32, m*n)
	for i := 0; i < b.N; i++ {
		GemmParallel(0, false, false, m, n, k, 1, a, k, bb, n, 0, c, n)
	}
	b.ReportMetric(2*m*n*k*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// kernelByName returns the available micro-kernel called name.
func kernelByName(name string) (microKernel, bool) {
	for _, k := range kernelsAvailable() {
		if k.name == name {
			return k, true
		}
	}
	return microKernel{}, false
}
