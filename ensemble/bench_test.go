package ensemble

import (
	"math/rand/v2"
	"testing"
	"time"
)

// grandeShape returns a compiled GRANDE-shaped ensemble (2048 trees of
// depth 6, leaf weights, 46 features, standard-normal thresholds) and 4096
// standard-normal rows.
func grandeShape(tb testing.TB) (p *Predictor, x []float32, rows int) {
	const F = 46
	rows = 4096
	r := rand.New(rand.NewPCG(1, 1))
	m := randomComplete(r, F, 1, 2048, 6, LeafWeights, 1)
	for n := range m.Threshold {
		m.Threshold[n] = float32(r.NormFloat64())
	}
	p, err := m.Compile(F)
	if err != nil {
		tb.Fatal(err)
	}
	x = make([]float32, rows*F)
	for i := range x {
		x[i] = float32(r.NormFloat64())
	}
	return p, x, rows
}

// BenchmarkPredictGRANDE times the predictor alone at GRANDE's default
// shape: 2048 complete trees of depth 6 with instance-wise leaf weights,
// one output (binary), 46 features, 4096 rows per call, GOMAXPROCS
// workers; with the AVX-512 descent (where the CPU has it) and the Go one.
//
//	go test -run '^$' -bench PredictGRANDE ./ensemble
func BenchmarkPredictGRANDE(b *testing.B) {
	p, x, rows := grandeShape(b)
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
