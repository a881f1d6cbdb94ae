package ensemble

import (
	"math/rand/v2"
	"testing"
	"time"
)

// BenchmarkPredictGRANDE times the predictor alone at GRANDE's default
// shape: 2048 complete trees of depth 6 with instance-wise leaf weights,
// one output (binary), 46 features, 4096 rows per call, GOMAXPROCS
// workers; with the AVX-512 descent (where the CPU has it) and the Go one.
//
//	go test -run '^$' -bench PredictGRANDE ./ensemble
func BenchmarkPredictGRANDE(b *testing.B) {
	const F, rows = 46, 4096
	r := rand.New(rand.NewPCG(1, 1))
	m := randomComplete(r, F, 1, 2048, 6, LeafWeights, 1)
	for n := range m.Threshold {
		m.Threshold[n] = float32(r.NormFloat64())
	}
	p, err := m.Compile(F)
	if err != nil {
		b.Fatal(err)
	}
	x := make([]float32, rows*F)
	for i := range x {
		x[i] = float32(r.NormFloat64())
	}
	out := make([]float32, rows)
	for _, asm := range []bool{true, false} {
		name := "go"
		if asm {
			if !haveRouteAVX512 {
				continue
			}
			name = "avx512"
		}
		b.Run(name, func(b *testing.B) {
			p.asm = asm
			start := time.Now()
			for i := 0; i < b.N; i++ {
				if err := p.Predict(x, rows, out, 0); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*rows)/time.Since(start).Seconds(), "rows/s")
		})
	}
}
