package nn

import (
	"math"
	"testing"

	"github.com/gdt-ml/gdt/rng"
)

func TestOrthogonal(t *testing.T) {
	for _, c := range []struct {
		rows, cols int
		gain       float64
	}{{8, 256, math.Sqrt2}, {256, 8, 1}, {64, 64, 0.01}, {256, 1, 1}, {1, 5, 2}} {
		w := make([]float32, c.rows*c.cols)
		orthogonal(w, c.rows, c.cols, c.gain, rng.New(3))
		// Gram matrix of the short side.
		k, n := c.rows, c.cols // rows are the vectors
		get := func(i, j int) float64 { return float64(w[i*c.cols+j]) }
		if c.rows > c.cols {
			k, n = c.cols, c.rows
			get = func(i, j int) float64 { return float64(w[j*c.cols+i]) }
		}
		for i := 0; i < k; i++ {
			for j := 0; j < k; j++ {
				var s float64
				for l := 0; l < n; l++ {
					s += get(i, l) * get(j, l)
				}
				want := 0.0
				if i == j {
					want = c.gain * c.gain
				}
				if math.Abs(s-want) > 1e-5*c.gain*c.gain+1e-9 {
					t.Fatalf("%d×%d gain %v: gram[%d][%d] = %v, want %v", c.rows, c.cols, c.gain, i, j, s, want)
				}
			}
		}
	}
}

func TestInitStatistics(t *testing.T) {
	const in, out = 200, 100
	for _, c := range []struct {
		init       Init
		bound, std float64 // bound 0: unbounded
	}{
		{GlorotInit(), math.Sqrt(6.0 / (in + out)), math.Sqrt(2.0 / (in + out))},
		{HeInit(), math.Sqrt(6.0 / in), math.Sqrt(2.0 / in)},
		{Init{Scheme: GlorotUniform, Gain: 2}, 2 * math.Sqrt(6.0/(in+out)), 2 * math.Sqrt(2.0/(in+out))},
		{LeCunInit(), 2 / 0.87962566103423978 / math.Sqrt(in), math.Sqrt(1.0 / in)},
	} {
		d, err := NewDense(in, out, c.init, 11)
		if err != nil {
			t.Fatal(err)
		}
		var s, ss float64
		for _, v := range d.Weight() {
			if math.Abs(float64(v)) > c.bound*(1+1e-6) {
				t.Fatalf("%v: |%v| exceeds the bound %v", c.init, v, c.bound)
			}
			s += float64(v)
			ss += float64(v) * float64(v)
		}
		n := float64(len(d.Weight()))
		mean, std := s/n, math.Sqrt(ss/n-(s/n)*(s/n))
		if math.Abs(mean) > 0.05*c.std || math.Abs(std-c.std) > 0.03*c.std {
			t.Errorf("%v: mean %v std %v, want 0 and %v", c.init, mean, std, c.std)
		}
		for _, b := range d.Bias() {
			if b != 0 {
				t.Fatalf("%v: non-zero bias %v", c.init, b)
			}
		}
	}
}

func TestSeedDeterminism(t *testing.T) {
	build := func(seed uint64) []float32 {
		m, err := NewMLP(8, []int{16, 16}, 2, "relu", OrthogonalInit(math.Sqrt2), OrthogonalInit(0.01), seed)
		if err != nil {
			t.Fatal(err)
		}
		return ParamVector(m)
	}
	a, b, c := build(1), build(1), build(2)
	same := true
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("same seed, different weights at %d", i)
		}
		if a[i] != c[i] {
			same = false
		}
	}
	if same {
		t.Fatal("different seeds gave the same weights")
	}
}

// The batched product must give every row the same bits as computing that
// row alone: vek splits work by rows, so results do not depend on the
// number of cores or on the batch a row is part of.
func TestRowIndependence(t *testing.T) {
	m, err := NewMLP(8, []int{256, 256}, 3, "relu", OrthogonalInit(math.Sqrt2), OrthogonalInit(1), 9)
	if err != nil {
		t.Fatal(err)
	}
	const B = 300
	x := normals(rng.New(5), B*8)
	full := append([]float32(nil), m.Forward(x, B, false)...)
	for r := 0; r < B; r += 37 {
		one := m.Forward(x[r*8:(r+1)*8], 1, false)
		for j := 0; j < 3; j++ {
			if one[j] != full[r*3+j] {
				t.Fatalf("row %d output %d: alone %v, in batch %v", r, j, one[j], full[r*3+j])
			}
		}
	}
}

func TestConstructorErrors(t *testing.T) {
	if _, err := NewDense(0, 3, GlorotInit(), 1); err == nil {
		t.Error("NewDense(0, 3): no error")
	}
	if _, err := NewDense(2, 3, Init{Scheme: Orthogonal, Gain: -1}, 1); err == nil {
		t.Error("negative gain: no error")
	}
	if _, err := NewMLP(3, []int{4}, 1, "swish", GlorotInit(), GlorotInit(), 1); err == nil {
		t.Error("unknown activation: no error")
	}
	if _, err := NewMLP(3, []int{0}, 1, "relu", GlorotInit(), GlorotInit(), 1); err == nil {
		t.Error("zero hidden width: no error")
	}
	a, _ := NewDense(3, 4, GlorotInit(), 1)
	b, _ := NewDense(5, 1, GlorotInit(), 1)
	if _, err := NewSequential(a, b); err == nil {
		t.Error("width mismatch: no error")
	}
	if _, err := ParseScheme("uniform"); err == nil {
		t.Error("ParseScheme(uniform): no error")
	}
	for _, s := range []Scheme{Orthogonal, GlorotUniform, HeUniform, LeCunNormal, Zeros} {
		if p, err := ParseScheme(s.String()); err != nil || p != s {
			t.Errorf("ParseScheme(%q) = %v, %v", s.String(), p, err)
		}
	}
}

func TestParamVector(t *testing.T) {
	m, _ := NewMLP(3, []int{4}, 2, "tanh", GlorotInit(), GlorotInit(), 1)
	v := ParamVector(m)
	for _, p := range m.Params() {
		clear(p.Value)
	}
	if err := SetParamVector(m, v); err != nil {
		t.Fatal(err)
	}
	w := ParamVector(m)
	for i := range v {
		if v[i] != w[i] {
			t.Fatalf("value %d: %v after restore, want %v", i, w[i], v[i])
		}
	}
	if err := SetParamVector(m, v[1:]); err == nil {
		t.Error("short vector: no error")
	}
	names := map[string]bool{}
	for _, p := range m.Params() {
		if names[p.Name] {
			t.Errorf("duplicate parameter name %q", p.Name)
		}
		names[p.Name] = true
	}
}

// After the buffers have grown, a forward/backward pass of an MLP on a small
// batch (below vek's parallel threshold) allocates nothing.
func TestNoAllocation(t *testing.T) {
	m, _ := NewMLP(4, []int{8, 8}, 1, "relu", HeInit(), OrthogonalInit(1), 1)
	x := normals(rng.New(1), 16*4)
	dy := normals(rng.New(2), 16)
	m.Forward(x, 16, true)
	m.Backward(dy)
	if n := testing.AllocsPerRun(20, func() {
		m.Forward(x, 16, true)
		m.Backward(dy)
	}); n != 0 {
		t.Errorf("%v allocations per forward/backward", n)
	}
}

func TestTranspose(t *testing.T) {
	for _, s := range [][2]int{{1, 1}, {3, 5}, {8, 8}, {9, 17}, {16, 3}, {64, 256}, {33, 40}} {
		rows, cols := s[0], s[1]
		src := normals(rng.New(1), rows*cols)
		dst := make([]float32, rows*cols)
		transpose(dst, src, rows, cols)
		for i := 0; i < rows; i++ {
			for j := 0; j < cols; j++ {
				if dst[j*rows+i] != src[i*cols+j] {
					t.Fatalf("%d×%d: dst[%d][%d] = %v, want %v", rows, cols, j, i, dst[j*rows+i], src[i*cols+j])
				}
			}
		}
	}
}
