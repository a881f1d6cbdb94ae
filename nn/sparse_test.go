package nn

import (
	"fmt"
	"math"
	"runtime"
	"testing"

	"github.com/gdt-ml/gdt/rng"
)

// deadCritic returns SYMPOL's critic shape (4 → 256 → 256 → 1, ReLU) on
// the pool, its first layer skipping its input gradient and every layer
// overwriting its gradients (or adding to them, with add), with the biases of a fraction dead1 of the
// first hidden layer's units and dead2 of the second's set to −100 (units
// that are zero on every row), and a batch x, dy.
func deadCritic(tb testing.TB, B int, dead1, dead2 float64, add bool) (*Sequential, []float32, []float32) {
	tb.Helper()
	m, err := NewMLP(4, []int{256, 256}, 1, "relu", OrthogonalInit(math.Sqrt2), OrthogonalInit(1), 1)
	if err != nil {
		tb.Fatal(err)
	}
	m.SetPool(true)
	m.Layers()[0].(*Dense).SetSkipInputGrad(true)
	m.SetOverwriteGrad(!add)
	r := rng.New(7)
	for l, dead := range []float64{dead1, dead2} {
		d := m.Layers()[2*l].(*Dense)
		for j := range d.b {
			if r.Float64() < dead {
				d.b[j] = -100
			}
		}
	}
	return m, normals(rng.New(1), B*4), normals(rng.New(2), B)
}

// TestSparseBits checks that the compacted products give the bits of the
// full ones: outputs and every gradient, over batches with no, some and
// all units dead, with one and two cores, overwriting the gradients and
// adding to them.
func TestSparseBits(t *testing.T) {
	defer func(o bool) { sparseOff = o }(sparseOff)
	for _, procs := range []int{1, 2} {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		testSparseBits(t)
	}
}

func testSparseBits(t *testing.T) {
	for _, c := range []struct {
		B            int
		dead1, dead2 float64
		add          bool
	}{{64, 0, 0, false}, {64, 0.4, 0.6, false}, {64, 0.4, 0.6, true}, {64, 0.9, 0.2, false}, {64, 1, 0.5, false}, {64, 0.3, 1, true}, {40, 0.5, 0.5, false}, {3, 0.2, 0.2, false}, {256, 0.5, 0.5, false}} {
		t.Run(fmt.Sprintf("procs=%d/B=%d/dead=%.1f,%.1f/add=%v", runtime.GOMAXPROCS(0), c.B, c.dead1, c.dead2, c.add), func(t *testing.T) {
			var got [2][][]float32
			for k, off := range []bool{true, false} {
				sparseOff = off
				m, x, dy := deadCritic(t, c.B, c.dead1, c.dead2, c.add)
				for it := 0; it < 2; it++ { // the second pass reuses the buffers
					y := m.Forward(x, c.B, true)
					m.Backward(dy)
					got[k] = [][]float32{append([]float32(nil), y...)}
					for _, p := range m.Params() {
						got[k] = append(got[k], append([]float32(nil), p.Grad...))
					}
				}
			}
			for i := range got[0] {
				for j := range got[0][i] {
					if a, b := math.Float32bits(got[0][i][j]), math.Float32bits(got[1][i][j]); a != b {
						t.Fatalf("array %d entry %d: full %g, compacted %g", i, j, got[0][i][j], got[1][i][j])
					}
				}
			}
		})
	}
}

// BenchmarkSparseCritic times one forward and backward pass of the critic
// with the dead fractions of a trained CartPole critic (37 % of the first
// hidden layer's units, 56 % of the second's, across a 64-row batch), on
// the full and the compacted products.
func BenchmarkSparseCritic(b *testing.B) {
	defer func(o bool) { sparseOff = o }(sparseOff)
	for _, off := range []bool{true, false} {
		name := "compacted"
		if off {
			name = "full"
		}
		b.Run(name, func(b *testing.B) {
			sparseOff = off
			m, x, dy := deadCritic(b, 64, 0.37, 0.56, false)
			m.Forward(x, 64, true)
			m.Backward(dy)
			for b.Loop() {
				m.Forward(x, 64, true)
				m.Backward(dy)
			}
		})
	}
}
