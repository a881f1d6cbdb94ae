package loss

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkEval measures one batch of 64 samples (the GRANDE batch size).
func BenchmarkEval(b *testing.B) {
	for _, tc := range []struct {
		name string
		cfg  Config
	}{
		{"binaryFocalWeighted", GRANDEPaperBinary([]float64{0.6, 3})},
		{"binaryCE128", Config{Task: Binary}},
		{"softmaxCE10", Config{Task: Multiclass, Classes: 10}},
		{"focalProb10", GradTreePaperMulticlass(10)},
	} {
		b.Run(tc.name, func(b *testing.B) {
			f, _ := New(tc.cfg)
			r := rand.New(rand.NewPCG(1, 1))
			y := randomTargets(r, tc.cfg, 64)
			out := make([]float32, 64*f.Outputs())
			for i := range out {
				out[i] = float32(r.NormFloat64())
			}
			grad := make([]float32, len(out))
			b.ReportAllocs()
			for range b.N {
				if _, err := f.Eval(out, y, grad); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
