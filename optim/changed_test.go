package optim

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestChangedCoversEveryChange: after every step of a long sparse gradient
// stream (rows that go silent long enough for their moments to flush, then
// wake up), every entry whose bits changed is in Changed's bitset; the
// bitset is also sparse once rows have gone cold. Untracked tensors (Torch
// rule, frozen groups, before the first step) report nil.
func TestChangedCoversEveryChange(t *testing.T) {
	const n, rowLen = 64*40 + 17, 14
	r := rand.New(rand.NewPCG(7, 8))
	p, g := make([]float32, n), make([]float32, n)
	for i := range p {
		p[i] = float32(r.NormFloat64())
	}
	q, gq := make([]float32, 300), make([]float32, 300)
	a, err := NewAdam(NewGroup(Keras, "a", 0.05, Param{"x", p, g}), NewGroup(Torch, "b", 0.01, Param{"y", q, gq}))
	if err != nil {
		t.Fatal(err)
	}
	a.SetWorkers(1)
	if a.Changed(p) != nil {
		t.Fatal("Changed before the first step")
	}
	prev := make([]float32, n)
	sparse := false
	for step := 0; step < 3000; step++ {
		clear(g)
		rows := n / rowLen
		active := rows / 8
		if step%700 > 350 {
			active = 2 // long silences: moments flush to zero
		}
		for k := 0; k < active; k++ {
			row := r.IntN(rows)
			for c := 0; c < rowLen; c++ {
				g[row*rowLen+c] = float32(r.NormFloat64() * math.Pow(10, float64(r.IntN(6)-3)))
			}
		}
		copy(prev, p)
		a.Step()
		mask := a.Changed(p)
		if mask == nil {
			t.Fatalf("step %d: lazy Keras tensor not tracked", step)
		}
		set := 0
		for i := range p {
			in := mask[i/64]>>(i%64)&1 == 1
			if in {
				set++
			}
			if !in && math.Float32bits(p[i]) != math.Float32bits(prev[i]) {
				t.Fatalf("step %d: entry %d changed %v → %v outside the bitset", step, i, prev[i], p[i])
			}
		}
		if set < n/4 {
			sparse = true
		}
		if a.Changed(q) != nil {
			t.Fatal("Torch tensor reported as tracked")
		}
	}
	if !sparse {
		t.Fatal("the bitset never became sparse")
	}
	if a.Changed(make([]float32, n)) != nil {
		t.Fatal("a foreign tensor reported as tracked")
	}
}

// TestHintGradBitIdentical: an optimiser told where the gradient may be
// non-zero (the non-zero entries plus random others, ±0 gradients) takes
// the same steps bit for bit as one that scans the gradient.
func TestHintGradBitIdentical(t *testing.T) {
	const n, rowLen = 64*30 + 9, 14
	r := rand.New(rand.NewPCG(9, 10))
	mk := func() (*Adam, []float32, []float32) {
		r0 := rand.New(rand.NewPCG(1, 2))
		p, g := make([]float32, n), make([]float32, n)
		for i := range p {
			p[i] = float32(r0.NormFloat64())
		}
		a, err := NewAdam(NewGroup(Keras, "a", 0.05, Param{"x", p, g}))
		if err != nil {
			t.Fatal(err)
		}
		a.SetWorkers(1)
		return a, p, g
	}
	a, pa, ga := mk()
	b, pb, gb := mk()
	if err := b.HintGrad(pb, make([]uint64, 3)); err == nil {
		t.Fatal("short mask accepted")
	}
	if err := b.HintGrad(make([]float32, n), make([]uint64, 64)); err == nil {
		t.Fatal("foreign tensor accepted")
	}
	mask := make([]uint64, (n+63)/64)
	for step := 0; step < 2500; step++ {
		clear(ga)
		clear(mask)
		active := n / rowLen / 6
		if step%600 > 300 {
			active = 1
		}
		for k := 0; k < active; k++ {
			row := r.IntN(n / rowLen)
			for c := 0; c < rowLen; c++ {
				i := row*rowLen + c
				if r.IntN(3) > 0 {
					ga[i] = float32(r.NormFloat64() * math.Pow(10, float64(r.IntN(5)-2)))
				} else if r.IntN(2) == 0 {
					ga[i] = float32(math.Copysign(0, -1))
				}
				mask[i/64] |= 1 << (i % 64)
			}
		}
		for k := 0; k < 5; k++ {
			mask[r.IntN(len(mask))] |= 1 << r.IntN(64) // extra bits, also past the end
		}
		copy(gb, ga)
		if step%7 != 3 { // now and then no hint
			if err := b.HintGrad(pb, mask); err != nil {
				t.Fatal(err)
			}
		}
		a.Step()
		b.Step()
		for i := range pa {
			if math.Float32bits(pa[i]) != math.Float32bits(pb[i]) {
				t.Fatalf("step %d: entry %d: %v with hints, %v without", step, i, pb[i], pa[i])
			}
		}
	}
}
