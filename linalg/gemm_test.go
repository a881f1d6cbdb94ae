package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// impl is a micro-kernel and whether the assembly vector routines are on.
type impl struct {
	kernel microKernel
	asmVec bool
}

// kernels lists the kernel sets runnable on this machine.
func kernels() map[string]impl {
	ks := map[string]impl{}
	for _, k := range kernelsAvailable() {
		ks[k.name] = impl{k, k.name != "go"}
	}
	return ks
}

// withKernel runs f with the kernels of k installed.
func withKernel(t testing.TB, k impl, f func()) {
	t.Helper()
	oldK, oldV := kernel, asmVec
	kernel, asmVec = k.kernel, k.asmVec
	defer func() { kernel, asmVec = oldK, oldV }()
	f()
}

// problem is one Gemm call with its operands.
type problem struct {
	ta, tb        bool
	m, n, k       int
	alpha, beta   float32
	lda, ldb, ldc int
	a, b, c       []float32
}

// newProblem draws operands for the given shape with pad extra columns of
// storage per row.
func newProblem(r *rand.Rand, ta, tb bool, m, n, k int, alpha, beta float32, pad int) *problem {
	p := &problem{ta: ta, tb: tb, m: m, n: n, k: k, alpha: alpha, beta: beta}
	ar, ac := m, k
	if ta {
		ar, ac = k, m
	}
	br, bc := k, n
	if tb {
		br, bc = n, k
	}
	p.lda, p.ldb, p.ldc = ac+pad, bc+pad, n+pad
	fill := func(rows, ld int) []float32 {
		s := make([]float32, rows*ld)
		for i := range s {
			s[i] = float32(r.NormFloat64())
		}
		return s
	}
	p.a, p.b, p.c = fill(ar, p.lda), fill(br, p.ldb), fill(m, p.ldc)
	return p
}

func (p *problem) at(i, q int) float64 {
	if p.ta {
		return float64(p.a[q*p.lda+i])
	}
	return float64(p.a[i*p.lda+q])
}

func (p *problem) bt(q, j int) float64 {
	if p.tb {
		return float64(p.b[j*p.ldb+q])
	}
	return float64(p.b[q*p.ldb+j])
}

// verify checks got (the C after Gemm) against a float64 reference and
// that the padding of C is untouched.
func (p *problem) verify(t *testing.T, got []float32) {
	t.Helper()
	bad := 0
	for i := 0; i < p.m; i++ {
		for j := 0; j < p.ldc; j++ {
			c0 := p.c[i*p.ldc+j]
			g := got[i*p.ldc+j]
			if j >= p.n {
				if math.Float32bits(g) != math.Float32bits(c0) {
					t.Fatalf("padding C[%d][%d] changed: %v → %v", i, j, c0, g)
				}
				continue
			}
			var sum, mag float64
			for q := 0; q < p.k; q++ {
				v := p.at(i, q) * p.bt(q, j)
				sum += v
				mag += math.Abs(v)
			}
			want := float64(p.alpha) * sum
			mag *= math.Abs(float64(p.alpha))
			if p.beta != 0 {
				want += float64(p.beta) * float64(c0)
				mag += math.Abs(float64(p.beta) * float64(c0))
			}
			tol := 2e-7*float64(p.k+4)*mag + 1e-30
			if d := math.Abs(float64(g) - want); !(d <= tol) {
				bad++
				if bad <= 3 {
					t.Errorf("C[%d][%d] = %v, want %v (|diff| %.3g > tol %.3g)", i, j, g, want, d, tol)
				}
			}
		}
	}
	if bad > 0 {
		t.Fatalf("%d wrong elements", bad)
	}
}

func (p *problem) run() []float32 {
	got := append([]float32(nil), p.c...)
	Gemm(p.ta, p.tb, p.m, p.n, p.k, p.alpha, p.a, p.lda, p.b, p.ldb, p.beta, got, p.ldc)
	return got
}

func TestGemmShapes(t *testing.T) {
	sizes := []int{1, 3, 7, 17, 63, 65, 255, 257}
	type shape struct{ m, n, k int }
	var shapes []shape
	for i, s := range sizes {
		shapes = append(shapes,
			shape{s, sizes[(i+3)%8], sizes[(i+5)%8]},
			shape{sizes[(i+1)%8], s, sizes[(i+6)%8]},
			shape{sizes[(i+2)%8], sizes[(i+7)%8], s},
		)
	}
	shapes = append(shapes, shape{64, 256, 256}, shape{64, 256, 8}, shape{64, 1, 256}, shape{256, 256, 64}, shape{100, 1100, 300},
		shape{65, 1, 7}, shape{3, 1, 257}, shape{17, 1, 63}, shape{300, 1, 33}, shape{1, 1, 1}, shape{40, 1, 600})
	for name, k := range kernels() {
		withKernel(t, k, func() {
			r := rand.New(rand.NewPCG(1, 2))
			for _, s := range shapes {
				for tr := 0; tr < 4; tr++ {
					ta, tb := tr&1 != 0, tr&2 != 0
					p := newProblem(r, ta, tb, s.m, s.n, s.k, 1, 0, (s.m+s.n)%3)
					t.Run(fmt.Sprintf("%s/%dx%dx%d/ta=%v/tb=%v", name, s.m, s.n, s.k, ta, tb), func(t *testing.T) {
						p.verify(t, p.run())
					})
				}
			}
		})
	}
}

func TestGemmAlphaBeta(t *testing.T) {
	cases := []struct{ alpha, beta float32 }{
		{1, 0}, {1, 1}, {0.5, -2}, {-1.5, 0}, {0, 0.5}, {0, 0}, {2, 1}, {1, 3},
	}
	for name, k := range kernels() {
		withKernel(t, k, func() {
			r := rand.New(rand.NewPCG(3, 4))
			for _, c := range cases {
				for tr := 0; tr < 4; tr++ {
					ta, tb := tr&1 != 0, tr&2 != 0
					p := newProblem(r, ta, tb, 23, 37, 300, c.alpha, c.beta, 5)
					t.Run(fmt.Sprintf("%s/alpha=%v/beta=%v/ta=%v/tb=%v", name, c.alpha, c.beta, ta, tb), func(t *testing.T) {
						p.verify(t, p.run())
					})
				}
			}
		})
	}
}

func TestGemmRandomShapes(t *testing.T) {
	for name, k := range kernels() {
		withKernel(t, k, func() {
			r := rand.New(rand.NewPCG(5, 6))
			for it := 0; it < 150; it++ {
				m, n, kk := 1+r.IntN(80), 1+r.IntN(80), r.IntN(120)
				if it%10 == 0 {
					kk = 200 + r.IntN(400) // several K blocks
				}
				alpha := float32(r.NormFloat64())
				beta := []float32{0, 1, float32(r.NormFloat64())}[r.IntN(3)]
				p := newProblem(r, r.IntN(2) == 0, r.IntN(2) == 0, m, n, kk, alpha, beta, r.IntN(4))
				t.Run(fmt.Sprintf("%s/%d", name, it), func(t *testing.T) {
					p.verify(t, p.run())
				})
			}
		})
	}
}

func TestGemmBetaZeroIgnoresNaN(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	p := newProblem(r, false, false, 9, 20, 5, 1, 0, 0)
	for i := range p.c {
		p.c[i] = float32(math.NaN())
	}
	got := p.run()
	for i, v := range got {
		if v != v {
			t.Fatalf("C[%d] is NaN with beta = 0", i)
		}
	}
	// k = 0: C = beta·C only, A and B unused (may be empty).
	c := []float32{1, 2, 3, 4}
	Gemm(false, false, 2, 2, 0, 1, nil, 1, nil, 2, 2, c, 2)
	if fmt.Sprint(c) != "[2 4 6 8]" {
		t.Fatalf("k = 0, beta = 2: C = %v, want [2 4 6 8]", c)
	}
}

// TestGemmDeterministic checks that results do not depend on the number of
// goroutines, on splitting C into row blocks, or on the transposition
// used internally for narrow C.
func TestGemmDeterministic(t *testing.T) {
	for name, k := range kernels() {
		withKernel(t, k, func() {
			r := rand.New(rand.NewPCG(9, 10))
			for _, s := range [][3]int{{64, 256, 256}, {131, 33, 300}, {200, 1, 64}, {7, 5, 3}, {130, 9, 260}, {20, 33, 50}, {40, 65, 100}, {3, 97, 1}, {13, 1, 203}, {70, 1, 300}} {
				for tr := 0; tr < 4; tr++ {
					ta, tb := tr&1 != 0, tr&2 != 0
					p := newProblem(r, ta, tb, s[0], s[1], s[2], 0.75, 0.5, 1)
					want := p.run()
					for _, w := range []int{1, 2, 3, 5, 0} {
						got := append([]float32(nil), p.c...)
						GemmParallel(w, ta, tb, p.m, p.n, p.k, p.alpha, p.a, p.lda, p.b, p.ldb, p.beta, got, p.ldc)
						if i := firstDiff(got, want); i >= 0 {
							t.Fatalf("%s %v ta=%v tb=%v workers=%d: C[%d] = %v, serial %v", name, s, ta, tb, w, i, got[i], want[i])
						}
					}
					got := append([]float32(nil), p.c...)
					GemmPool(ta, tb, p.m, p.n, p.k, p.alpha, p.a, p.lda, p.b, p.ldb, p.beta, got, p.ldc)
					if i := firstDiff(got, want); i >= 0 {
						t.Fatalf("%s %v ta=%v tb=%v pool: C[%d] = %v, serial %v", name, s, ta, tb, i, got[i], want[i])
					}
					// Row blocks of 1, 5 and 7 rows computed separately.
					for _, blk := range []int{1, 5, 7} {
						got := append([]float32(nil), p.c...)
						for lo := 0; lo < p.m; lo += blk {
							hi := min(p.m, lo+blk)
							var a []float32
							if ta {
								a = p.a[lo:]
							} else {
								a = p.a[lo*p.lda:]
							}
							Gemm(ta, tb, hi-lo, p.n, p.k, p.alpha, a, p.lda, p.b, p.ldb, p.beta, got[lo*p.ldc:], p.ldc)
						}
						if i := firstDiff(got, want); i >= 0 {
							t.Fatalf("%s %v ta=%v tb=%v blocks of %d rows: C[%d] = %v, whole %v", name, s, ta, tb, blk, i, got[i], want[i])
						}
					}
				}
			}
		})
	}
}

func firstDiff(a, b []float32) int {
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return i
		}
	}
	return -1
}

func TestGemmPanics(t *testing.T) {
	a := make([]float32, 12)
	cases := []struct {
		name string
		f    func()
		want string
	}{
		{"negative m", func() { Gemm(false, false, -1, 2, 2, 1, a, 2, a, 2, 0, a, 2) }, "m = -1"},
		{"small lda", func() { Gemm(false, false, 2, 2, 3, 1, a, 2, a, 2, 0, a, 2) }, "lda = 2, want ≥ 3"},
		{"small ldb trans", func() { Gemm(false, true, 2, 2, 3, 1, a, 3, a, 2, 0, a, 2) }, "ldb = 2, want ≥ 3"},
		{"short c", func() { Gemm(false, false, 4, 4, 1, 1, a, 1, a, 4, 0, a[:10], 4) }, "len(c) = 10, want ≥ 16"},
		{"short a trans", func() { Gemm(true, false, 4, 1, 4, 1, a[:5], 4, a, 1, 0, a, 1) }, "len(a) = 5, want ≥ 16"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				r := recover()
				if r == nil || !strings.Contains(fmt.Sprint(r), c.want) {
					t.Fatalf("panic %v, want one containing %q", r, c.want)
				}
			}()
			c.f()
		})
	}
}

func TestGemmNoAlloc(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	p := newProblem(r, false, true, 64, 256, 256, 1, 0, 0)
	p.run()
	if n := testing.AllocsPerRun(10, func() {
		Gemm(p.ta, p.tb, p.m, p.n, p.k, p.alpha, p.a, p.lda, p.b, p.ldb, p.beta, p.c, p.ldc)
	}); n != 0 {
		t.Fatalf("Gemm allocates %v times per call, want 0", n)
	}
}

// TestPackingPaths checks that the Go and assembly packing loops give the
// same bits with every kernel.
func TestPackingPaths(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	for name, k := range kernels() {
		for _, s := range [][3]int{{64, 256, 256}, {67, 45, 603}, {8, 256, 64}, {17, 40, 15}} {
			for tr := 0; tr < 4; tr++ {
				p := newProblem(r, tr&1 != 0, tr&2 != 0, s[0], s[1], s[2], 1, 0, 1)
				var on, off []float32
				withKernel(t, k, func() {
					asmVec = true
					on = p.run()
					asmVec = false
					off = p.run()
				})
				if i := firstDiff(on, off); i >= 0 {
					t.Fatalf("%s %v trans %d: C[%d] = %v with assembly packing, %v without", name, s, tr, i, on[i], off[i])
				}
				p.verify(t, on)
			}
		}
	}
}

// TestKernelsAgree checks that the assembly kernels, which perform the same
// operations per element, give identical bits.
func TestKernelsAgree(t *testing.T) {
	ks := kernels()
	var names []string
	for name := range ks {
		if name != "go" {
			names = append(names, name)
		}
	}
	if len(names) < 2 {
		t.Skipf("only %v assembly kernels on this CPU", names)
	}
	r := rand.New(rand.NewPCG(13, 14))
	for _, s := range [][3]int{{64, 256, 256}, {67, 45, 600}, {8, 256, 64}, {5, 3, 2}} {
		for tr := 0; tr < 4; tr++ {
			p := newProblem(r, tr&1 != 0, tr&2 != 0, s[0], s[1], s[2], 1.25, 0.5, 2)
			var ref []float32
			for _, name := range names {
				var got []float32
				withKernel(t, ks[name], func() { got = p.run() })
				if ref == nil {
					ref = got
					continue
				}
				if i := firstDiff(got, ref); i >= 0 {
					t.Fatalf("%v trans %d: kernel %s C[%d] = %v, %s %v", s, tr, name, i, got[i], names[0], ref[i])
				}
			}
		}
	}
}

// TestGemmSignedZero checks that beta = 0 means C = 0 + alpha·op(A)·op(B)
// on every path (a −0 product gives +0) and that beta = 1 keeps a −0 in C
// when −0 is added.
func TestGemmSignedZero(t *testing.T) {
	nz := float32(math.Copysign(0, -1))
	for name, k := range kernels() {
		withKernel(t, k, func() {
			for _, s := range [][3]int{{17, 40, 3}, {64, 64, 300}, {40, 5, 7}, {9, 1, 20}, {1, 9, 20}} {
				for tr := 0; tr < 4; tr++ {
					ta, tb := tr&1 != 0, tr&2 != 0
					m, n, kk := s[0], s[1], s[2]
					a, b := make([]float32, m*kk), make([]float32, kk*n)
					lda, ldb := kk, n
					if ta {
						lda = m
					}
					if tb {
						ldb = kk
					}
					for _, beta := range []float32{0, 1} {
						c := make([]float32, m*n)
						for i := range c {
							c[i] = nz
						}
						Gemm(ta, tb, m, n, kk, -1, a, lda, b, ldb, beta, c, n)
						want := uint32(0) // 0 + (−0)
						if beta == 1 {
							want = math.Float32bits(nz) // −0 + (−0)
						}
						for i, v := range c {
							if math.Float32bits(v) != want {
								t.Fatalf("%s %v ta=%v tb=%v beta=%v: C[%d] bits %#x, want %#x", name, s, ta, tb, beta, i, math.Float32bits(v), want)
							}
						}
					}
				}
			}
		})
	}
}

// TestDirectMatchesPacked checks that the unpacked path gives the packed
// path's bits (NN and TN products of whole tiles, one and two K blocks,
// beta 0, 1 and ½, a signed-zero-heavy C).
func TestDirectMatchesPacked(t *testing.T) {
	if !directOK(false, 8, 32, 1) {
		t.Skip("no unpacked path on this CPU")
	}
	r := rand.New(rand.NewPCG(11, 12))
	// A·Bᵀ with beta = 0 and one K block takes the transposed unpacked
	// path (directNT).
	for _, s := range [][3]int{{64, 256, 256}, {32, 8, 1}, {64, 40, 200}, {96, 16, 7}} {
		p := newProblem(r, false, true, s[0], s[1], s[2], 0.75, 0, 1)
		if !directOK(false, p.n, p.m, p.k) {
			t.Fatalf("%v: not on the transposed unpacked path", s)
		}
		directOff = true
		want := p.run()
		directOff = false
		got := p.run()
		if i := firstDiff(got, want); i >= 0 {
			t.Fatalf("%v NT: C[%d] = %v unpacked, %v packed", s, i, got[i], want[i])
		}
	}
	// Aᵀ·B with beta = 0 and fewer than 8 rows takes the padded unpacked
	// path (directFewRows).
	for _, s := range [][3]int{{4, 128, 64}, {1, 32, 1}, {7, 256, 300}, {2, 64, 513}} {
		p := newProblem(r, true, false, s[0], s[1], s[2], 0.75, 0, 1)
		directOff = true
		want := p.run()
		directOff = false
		got := p.run()
		if i := firstDiff(got, want); i >= 0 {
			t.Fatalf("%v few rows: C[%d] = %v unpacked, %v packed", s, i, got[i], want[i])
		}
	}
	for _, s := range [][3]int{{64, 256, 256}, {8, 32, 1}, {16, 64, 300}, {256, 256, 64}, {64, 256, 4}, {24, 96, 513}} {
		for _, ta := range []bool{false, true} {
			for _, beta := range []float32{0, 1, 0.5} {
				p := newProblem(r, ta, false, s[0], s[1], s[2], 0.75, beta, 1)
				if !directOK(false, p.m, p.n, p.k) {
					t.Fatalf("%v: not on the unpacked path", s)
				}
				directOff = true
				want := p.run()
				directOff = false
				got := p.run()
				if i := firstDiff(got, want); i >= 0 {
					t.Fatalf("%v ta=%v beta=%v: C[%d] = %v unpacked, %v packed", s, ta, beta, i, got[i], want[i])
				}
			}
		}
	}
}

// TestTranspose compares Transpose with the definition on shapes around
// the blocked path's thresholds (8-row strips, 32-column blocks), with
// strides larger than the matrices.
func TestTranspose(t *testing.T) {
	for _, asm := range []bool{true, false} {
		old := asmVec
		asmVec = asm && old
		for _, s := range [][2]int{{1, 1}, {7, 9}, {8, 8}, {16, 64}, {17, 65}, {64, 256}, {128, 64}, {23, 100}, {256, 63}, {40, 96}} {
			rows, cols := s[0], s[1]
			lds, ldd := cols+3, rows+5
			src := make([]float32, rows*lds)
			for i := range src {
				src[i] = float32(i)
			}
			dst := make([]float32, cols*ldd)
			for i := range dst {
				dst[i] = -1
			}
			Transpose(dst, ldd, src, lds, rows, cols)
			for p := 0; p < cols; p++ {
				for r := 0; r < ldd; r++ {
					want := float32(-1)
					if r < rows {
						want = src[r*lds+p]
					}
					if got := dst[p*ldd+r]; got != want {
						t.Fatalf("asm %v, %dx%d: dst[%d][%d] = %v, want %v", asm, rows, cols, p, r, got, want)
					}
				}
			}
		}
		asmVec = old
	}
}
