package rng

import (
	"strconv"
	"testing"
)

// Reference values from numpy 1.24.2:
//
//	np.random.SeedSequence(s).generate_state(4, np.uint64)
//	np.random.PCG64(np.random.SeedSequence(s)).random_raw(3)
//	g = np.random.Generator(np.random.PCG64(np.random.SeedSequence(s)))
//	[g.integers(0,6) for _ in range(6)] + [g.integers(2,3) for _ in range(2)]
//	  + [g.integers(0,4) for _ in range(5)] + [g.integers(0,9) for _ in range(5)]
//	  + [g.integers(1,6) for _ in range(5)]   (one generator, in this order)
func TestPCG64IntegersMatchNumpy(t *testing.T) {
	tests := []struct {
		seed  uint64
		state [4]uint64
		raw   [3]uint64
		ints  []int
	}{
		{0, [4]uint64{15793235383387715774, 12390638538380655177, 2361836109651742017, 3188717715514472916},
			[3]uint64{11749869230777074271, 4976686463289251617, 755828109848996024},
			[]int{5, 3, 3, 1, 1, 0, 2, 2, 0, 0, 0, 3, 2, 8, 4, 5, 8, 6, 4, 3, 3, 5, 2}},
		{1, [4]uint64{7434755675892716031, 10007452063617845036, 5266248848659119178, 15045448681910192573},
			[3]uint64{9441442522235856127, 17532960557476522086, 2659275481604167885},
			[]int{2, 3, 4, 5, 0, 0, 2, 2, 3, 3, 0, 1, 3, 3, 2, 7, 2, 3, 4, 3, 1, 1, 5}},
		{42, [4]uint64{11465652750463011511, 15382171918060459190, 9018504550953525431, 3703499796004394495},
			[3]uint64{14276969152011380360, 8095878257575067585, 15838336090824644132},
			[]int{0, 4, 3, 2, 2, 5, 2, 2, 0, 2, 0, 0, 2, 8, 6, 6, 6, 7, 3, 1, 5, 3, 3}},
		{1<<32 + 5, [4]uint64{17996766564426832300, 12826844651305701079, 10630945381835142969, 6839746111962626529},
			[3]uint64{14281546376153053393, 8683300866460616067, 12836726618003871680},
			[]int{0, 4, 4, 2, 5, 4, 2, 2, 3, 3, 3, 2, 2, 4, 5, 1, 8, 0, 2, 3, 1, 5, 4}},
	}
	var bounds [][2]int
	for _, b := range []struct{ n, lo, hi int }{{6, 0, 6}, {2, 2, 3}, {5, 0, 4}, {5, 0, 9}, {5, 1, 6}} {
		for range b.n {
			bounds = append(bounds, [2]int{b.lo, b.hi})
		}
	}
	for _, tc := range tests {
		if got := seedSequenceState(tc.seed); got != tc.state {
			t.Errorf("seed %d: SeedSequence state %v, want %v", tc.seed, got, tc.state)
		}
		g := NewPCG64(tc.seed)
		for i, want := range tc.raw {
			if got := g.Uint64(); got != want {
				t.Errorf("seed %d: raw[%d] = %d, want %d", tc.seed, i, got, want)
			}
		}
		g.Seed(tc.seed)
		for i, b := range bounds {
			if got := g.Integers(b[0], b[1]); got != tc.ints[i] {
				t.Fatalf("seed %d: draw %d integers(%d,%d) = %d, want %d", tc.seed, i, b[0], b[1], got, tc.ints[i])
			}
		}
	}
}

func TestPCG64UniformMatchesNumpy(t *testing.T) {
	// python3 (numpy 1.24.2):
	//   g = np.random.Generator(np.random.PCG64(np.random.SeedSequence(s)))
	//   [float.hex(x) for x in g.uniform(-1, 1, size=3)]
	tests := []struct {
		seed uint64
		want [3]string
	}{
		{0, [3]string{"0x1.187f5e7ece140p-2", "-0x1.d77a103be9318p-2", "-0x1.d60b095ac4c86p-1"}},
		{1, [3]string{"0x1.835ef9bc91700p-6", "0x1.cd465aef054aap-1", "-0x1.6c616c27dc4fap-1"}},
		{42, [3]string{"0x1.1887ef345b648p-1", "-0x1.f4b533cb0dc10p-4", "0x1.6f344b09bb684p-1"}},
		{1<<32 + 5, [3]string{"0x1.18c8fb0c877aep-1", "-0x1.dfadf78e31800p-5", "0x1.9129b6c707608p-2"}},
		{1<<64 - 1, [3]string{"0x1.70b1d3d4623a8p-2", "0x1.619967d7cce08p-1", "-0x1.f86b539a90f4cp-1"}},
	}
	for _, tc := range tests {
		t.Run(strconv.FormatUint(tc.seed, 10), func(t *testing.T) {
			r := NewPCG64(tc.seed)
			for i, w := range tc.want {
				want, err := strconv.ParseFloat(w, 64)
				if err != nil {
					t.Fatal(err)
				}
				if got := r.Uniform(-1, 1); got != want {
					t.Errorf("draw %d = %x, want %s", i, got, w)
				}
			}
		})
	}
}

// TestPCG64BinaryState: a state saved with AppendBinary and restored with
// UnmarshalBinary continues the stream exactly (also with a buffered 32-bit
// half); damaged states are errors that leave the generator unchanged.
func TestPCG64BinaryState(t *testing.T) {
	p := NewPCG64(42)
	p.Uint64()
	p.Uint32() // buffers the upper half
	b, err := p.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	var q PCG64
	if err := q.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		if x, y := p.Uint32(), q.Uint32(); x != y {
			t.Fatalf("draw %d after restoring: %d, want %d", i, y, x)
		}
	}
	even := append([]byte(nil), b...)
	even[28] &^= 1
	flag := append([]byte(nil), b...)
	flag[36] = 2
	tag := append([]byte(nil), b...)
	tag[0] = 'x'
	for name, bad := range map[string][]byte{"empty": nil, "short": b[:40], "long": append(b[:len(b):len(b)], 0),
		"tag": tag, "even increment": even, "flag": flag} {
		r := *NewPCG64(7)
		before := r
		if err := r.UnmarshalBinary(bad); err == nil {
			t.Errorf("%s: no error", name)
		}
		if r != before {
			t.Errorf("%s: the generator changed", name)
		}
	}
}
