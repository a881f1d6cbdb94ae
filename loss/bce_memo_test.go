package loss

import (
	"math"
	"testing"
)

// TestBCEMemoBitIdentical checks that the remembered σ and log1p of repeated
// outputs give the same bits as computing every sample anew, with few
// distinct outputs (a hard tree's leaves), many (table collisions), signed
// zeros and extreme logits.
func TestBCEMemoBitIdentical(t *testing.T) {
	f, err := New(Config{Task: Binary, Kind: CrossEntropy})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		out  func(i int) float32
	}{
		{"leaves", func(i int) float32 { return float32(i%7)*0.37 - 1.1 }},
		{"distinct", func(i int) float32 { return float32(i)*0.013 - 3 }},
		{"zeros and extremes", func(i int) float32 {
			return []float32{0, float32(math.Copysign(0, -1)), 40, -40, 1e-30, -1e30}[i%6]
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			const n = 500
			out, y := make([]float32, n), make([]float64, n)
			for i := range out {
				out[i], y[i] = c.out(i), float64(i%3%2)
			}
			grad := make([]float32, n)
			got, err := f.Eval(out, y, grad)
			if err != nil {
				t.Fatal(err)
			}
			var want float64
			scale := 1 / float64(n)
			for i, tt := range y {
				v := float64(out[i])
				e := math.Exp(-math.Abs(v))
				p := 1 / (1 + e)
				if v < 0 {
					p = e / (1 + e)
				}
				want += scale * (math.Max(v, 0) - v*tt + math.Log1p(e))
				if g := float32(scale * (p - tt)); math.Float32bits(g) != math.Float32bits(grad[i]) {
					t.Fatalf("grad[%d] = %v, want %v", i, grad[i], g)
				}
			}
			if math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("loss %v, want %v", got, want)
			}
		})
	}
	if _, err := f.Eval([]float32{0, 0}, []float64{1, 0.5}, nil); err == nil {
		t.Fatal("label 0.5 accepted")
	}
}
