package linalg

import (
	"math"
	"math/rand/v2"
	"testing"
)

// specials are the values whose handling distinguishes ReLU variants.
var specials = []float32{0, float32(math.Copysign(0, -1)), 1, -1, float32(math.Inf(1)), float32(math.Inf(-1)),
	float32(math.NaN()), math.Float32frombits(0xffc00001), 1e-45, -1e-45, math.MaxFloat32, -math.MaxFloat32}

func vecInput(n int, r *rand.Rand) []float32 {
	x := make([]float32, n)
	for i := range x {
		if r.IntN(4) == 0 {
			x[i] = specials[r.IntN(len(specials))]
		} else {
			x[i] = float32(r.NormFloat64())
		}
	}
	return x
}

// TestReluBits checks Relu and ReluGrad against the scalar definitions bit
// for bit, with and without the vector routines, for lengths around the
// vector blocks and for in-place calls.
func TestReluBits(t *testing.T) {
	defer func(v bool) { asmVec = v }(asmVec)
	r := rand.New(rand.NewPCG(3, 4))
	for _, vec := range []bool{false, true} {
		asmVec = vec && hasVec()
		for _, n := range []int{0, 1, 7, 31, 32, 33, 64, 100, 256, 1000} {
			x, dy := vecInput(n, r), vecInput(n, r)
			y := make([]float32, n)
			Relu(y, x)
			for i := range x {
				if want := max(x[i], 0); math.Float32bits(y[i]) != math.Float32bits(want) {
					t.Fatalf("vec=%v n=%d: Relu(%v) = %v, want %v", vec, n, x[i], y[i], want)
				}
			}
			for _, in := range [][]float32{x, y} {
				g := make([]float32, n)
				ReluGrad(g, dy, in)
				for i := range dy {
					want := float32(0)
					if int32(math.Float32bits(in[i])) > 0 {
						want = dy[i]
					}
					if math.Float32bits(g[i]) != math.Float32bits(want) {
						t.Fatalf("vec=%v n=%d: ReluGrad(dy=%v, x=%v) = %v, want %v", vec, n, dy[i], x[i], g[i], want)
					}
				}
			}
			z := append([]float32(nil), x...)
			Relu(z, z)
			for i := range z {
				if math.Float32bits(z[i]) != math.Float32bits(y[i]) {
					t.Fatalf("vec=%v n=%d: in-place Relu differs at %d", vec, n, i)
				}
			}
		}
	}
}

// TestBiasRelu checks BiasRelu against its scalar definition bit for bit.
func TestBiasRelu(t *testing.T) {
	defer func(v bool) { asmVec = v }(asmVec)
	r := rand.New(rand.NewPCG(7, 8))
	for _, vec := range []bool{false, true} {
		asmVec = vec && hasVec()
		for _, n := range []int{0, 5, 32, 70, 256} {
			x, b := vecInput(n, r), vecInput(n, r)
			pre := append([]float32(nil), x...)
			post := make([]float32, n)
			BiasRelu(pre, post, b)
			for i := range x {
				z := x[i] + b[i]
				if math.Float32bits(pre[i]) != math.Float32bits(z) || math.Float32bits(post[i]) != math.Float32bits(max(z, 0)) {
					t.Fatalf("vec=%v n=%d: BiasRelu(%v + %v) = %v, %v; want %v, %v", vec, n, x[i], b[i], pre[i], post[i], z, max(z, 0))
				}
			}
		}
	}
}

// TestDivMul checks DivMul against Go's float32 arithmetic bit for bit.
func TestDivMul(t *testing.T) {
	defer func(v bool) { asmVec = v }(asmVec)
	r := rand.New(rand.NewPCG(9, 10))
	for _, vec := range []bool{false, true} {
		asmVec = vec && hasVec()
		for _, n := range []int{0, 3, 32, 100} {
			for _, dm := range [][2]float32{{1234.5, 1000}, {3, 0.5}, {float32(math.Inf(1)), 1000}, {1e-30, 1e30}} {
				x := vecInput(n, r)
				y := append([]float32(nil), x...)
				DivMul(y, dm[0], dm[1])
				for i := range x {
					if want := float32(x[i]/dm[0]) * dm[1]; math.Float32bits(y[i]) != math.Float32bits(want) {
						t.Fatalf("vec=%v: (%v/%v)·%v = %v, want %v", vec, x[i], dm[0], dm[1], y[i], want)
					}
				}
			}
		}
	}
}

// TestSumSquares checks SumSquares against a float64 sum in the documented
// lane order, with and without the vector routine.
func TestSumSquares(t *testing.T) {
	defer func(v bool) { asmVec = v }(asmVec)
	r := rand.New(rand.NewPCG(5, 6))
	for _, vec := range []bool{false, true} {
		asmVec = vec && hasVec()
		for _, n := range []int{0, 1, 15, 16, 17, 31, 32, 33, 100, 4099} {
			x := make([]float32, n)
			for i := range x {
				x[i] = float32(r.NormFloat64() * 100)
			}
			var acc [32]float64
			for i, v := range x {
				acc[i%32] += float64(v) * float64(v)
			}
			for w := 16; w >= 1; w /= 2 {
				for j := 0; j < w; j++ {
					acc[j] += acc[j+w]
				}
			}
			if got := SumSquares(x); got != acc[0] {
				t.Fatalf("vec=%v n=%d: SumSquares = %v, want %v", vec, n, got, acc[0])
			}
		}
	}
}

func BenchmarkRelu(b *testing.B) {
	x := vecInput(64*256, rand.New(rand.NewPCG(1, 2)))
	y := make([]float32, len(x))
	b.SetBytes(int64(8 * len(x)))
	for b.Loop() {
		Relu(y, x)
	}
}

func BenchmarkReluGrad(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	x, dy := vecInput(64*256, r), vecInput(64*256, r)
	g := make([]float32, len(x))
	b.SetBytes(int64(12 * len(x)))
	for b.Loop() {
		ReluGrad(g, dy, x)
	}
}

// TestOrBits checks OrBits against the scalar definition, with and without
// the vector routine, for lengths around the vector blocks.
func TestOrBits(t *testing.T) {
	defer func(v bool) { asmVec = v }(asmVec)
	r := rand.New(rand.NewPCG(5, 6))
	for _, vec := range []bool{false, true} {
		asmVec = vec && hasVec()
		for _, n := range []int{0, 1, 31, 32, 33, 100, 256} {
			x := vecInput(n, r)
			acc := make([]uint32, n+1)
			want := make([]uint32, n+1)
			for i := range acc {
				acc[i] = r.Uint32()
				want[i] = acc[i]
			}
			for i, v := range x {
				want[i] |= math.Float32bits(v)
			}
			OrBits(acc, x)
			for i := range acc {
				if acc[i] != want[i] {
					t.Fatalf("vec=%v n=%d: acc[%d] = %#x, want %#x", vec, n, i, acc[i], want[i])
				}
			}
		}
	}
}
