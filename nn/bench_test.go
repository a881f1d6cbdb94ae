package nn

import (
	"fmt"
	"math"
	"testing"

	"github.com/gdt-ml/gdt/rng"
)

// BenchmarkMLP measures one forward and backward pass of the PPO critic
// shape 8→256→256→1 (ReLU).
func BenchmarkMLP(b *testing.B) {
	for _, B := range []int{64, 2048} {
		b.Run(fmt.Sprintf("8-256-256-1/B=%d", B), func(b *testing.B) {
			m, err := NewMLP(8, []int{256, 256}, 1, "relu", OrthogonalInit(math.Sqrt2), OrthogonalInit(1), 1)
			if err != nil {
				b.Fatal(err)
			}
			x := normals(rng.New(1), B*8)
			dy := normals(rng.New(2), B)
			m.Forward(x, B, true) // grow the buffers
			m.Backward(dy)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				m.Forward(x, B, true)
				m.Backward(dy)
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/step")
		})
	}
}

func BenchmarkTranspose(b *testing.B) {
	for _, s := range [][2]int{{256, 256}, {2048, 256}} {
		src := make([]float32, s[0]*s[1])
		dst := make([]float32, s[0]*s[1])
		b.Run(fmt.Sprintf("%dx%d", s[0], s[1]), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				transpose(dst, src, s[0], s[1])
			}
		})
	}
}

// BenchmarkCNN measures one forward and backward pass of a small image
// encoder on 64×64 RGB images: three 3×3 conv (16, 32, 64 channels) + ReLU +
// 2×2 max-pool blocks, global average pooling.
func BenchmarkCNN(b *testing.B) {
	const B = 32
	s := Shape{C: 3, H: 64, W: 64}
	var layers []Module
	for i, c := range []int{16, 32, 64} {
		conv := must(NewConv2D(s, c, 3, 1, 1, HeInit(), uint64(i)))
		if i == 0 {
			conv.SetSkipInputGrad(true)
		}
		pool := must(NewMaxPool2D(conv.OutShape(), 2, 0))
		layers = append(layers, conv, NewReLU(conv.Out()), pool)
		s = pool.OutShape()
	}
	layers = append(layers, must(NewGlobalAvgPool(s)))
	m := must(NewSequential(layers...))
	x := normals(rng.New(1), B*m.In())
	dy := normals(rng.New(2), B*m.Out())
	m.Forward(x, B, true)
	m.Backward(dy)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.Forward(x, B, true)
		m.Backward(dy)
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N*B)*1000, "µs/image")
}
