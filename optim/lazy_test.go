package optim

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestLazyBitIdentical drives the lazy Keras sweep and the dense sweep over
// the same sparse gradient stream for thousands of steps (long enough for
// first moments to flush to +0 and for skipped entries to wake up after
// long sleeps): rows that receive a gradient on every entry now and then
// (like index logits), one entry per row (like thresholds), regions that go
// silent and wake up, the partial last word, gradients of every magnitude
// (so that some v reach the flush-to-zero fixed point and some overflow),
// −0 gradients, a frozen period of one group and a state round trip in the
// middle. Parameters must agree bit for bit after every step, moments after
// the skipped decays are replayed.
func TestLazyBitIdentical(t *testing.T) {
	const rowLen = 36
	n1 := 2*chunkWords*64 + 64*5 + 37
	n2 := 64*7 + 3
	r := rand.New(rand.NewPCG(11, 12))
	mk := func() ([]Group, [][]float32) {
		r0 := rand.New(rand.NewPCG(1, 1))
		var gs []Group
		var grads [][]float32
		for gi, n := range []int{n1, n2} {
			p, g := make([]float32, n), make([]float32, n)
			for i := range p {
				p[i] = float32(r0.NormFloat64())
			}
			p[1], p[2] = float32(math.Copysign(0, -1)), 0
			grp := NewGroup(Keras, []string{"a", "b"}[gi], []float64{0.01, 0.05}[gi], Param{"x", p, g})
			gs = append(gs, grp)
			grads = append(grads, g)
		}
		return gs, grads
	}
	ga, gradA := mk()
	gb, gradB := mk()
	a, err := NewAdam(ga...)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NewAdam(gb...)
	for _, g := range b.groups {
		g.dense = true
	}
	mags := []float32{1, 1e-3, 1e-17, 1e-25, 1e-30}
	rows := n1 / rowLen
	sel := make([]int, rows)
	for i := range sel {
		sel[i] = r.IntN(rowLen)
	}
	sleepy := make([]int, rows) // steps at which a row wakes
	for i := range sleepy {
		sleepy[i] = r.IntN(1000)
	}
	const steps = 3000
	compare := func(step int, withMoments bool) {
		t.Helper()
		if withMoments {
			a.sync()
		}
		for si := range a.slots {
			sa, sb := a.slots[si], b.slots[si]
			for i := range sa.p {
				if math.Float32bits(sa.p[i]) != math.Float32bits(sb.p[i]) {
					t.Fatalf("step %d slot %d entry %d: lazy θ %v != dense θ %v", step, si, i, sa.p[i], sb.p[i])
				}
				if withMoments && (math.Float32bits(sa.m[i]) != math.Float32bits(sb.m[i]) ||
					math.Float32bits(sa.v[i]) != math.Float32bits(sb.v[i])) {
					t.Fatalf("step %d slot %d entry %d: lazy (m %v, v %v) != dense (m %v, v %v)", step, si, i, sa.m[i], sa.v[i], sb.m[i], sb.v[i])
				}
			}
		}
	}
	for step := 0; step < steps; step++ {
		g := gradA[0]
		clear(g)
		clear(gradA[1])
		// index-like rows: a few random rows, and the sleepy rows on their
		// day, get a gradient on every entry
		for range 5 {
			row := r.IntN(rows / 4)
			mag := mags[r.IntN(len(mags))]
			for k := range rowLen {
				g[row*rowLen+k] = float32(r.NormFloat64()) * mag
			}
		}
		for row, day := range sleepy {
			if row >= rows/2 && (day == step || day+1000 == step) {
				for k := range rowLen {
					g[row*rowLen+k] = float32(r.NormFloat64()) * 1e-3
				}
			}
		}
		// threshold-like: one entry per row in the first half
		for row := rows / 4; row < rows/2; row++ {
			if r.IntN(3) == 0 {
				if r.IntN(200) == 0 {
					sel[row] = r.IntN(rowLen)
				}
				g[row*rowLen+sel[row]] = float32(r.NormFloat64()) * mags[row%3]
			}
		}
		// a region dense for a while, silent, then dense again
		if step < 300 || step > 2200 && step < 2300 {
			for i := n1 - 5000; i < n1-1000; i++ {
				g[i] = float32(r.NormFloat64())
			}
		}
		// the partial last word, special values
		g[n1-1] = float32(r.NormFloat64())
		g[n1-3] = float32(math.Copysign(0, -1))
		if step == 50 {
			g[100] = 1e30 // v overflows to +Inf: the entry stays hot
		}
		if step%5 == 0 {
			for range 30 {
				gradA[1][r.IntN(n2)] = float32(r.NormFloat64()) * mags[r.IntN(len(mags))]
			}
		}
		// a learning rate so large that α > 1−β1 for a while: every entry
		// is brought up to date and updated
		scale := 1.0
		if step >= 600 && step < 700 {
			scale = 20
		}
		_ = a.SetLRScale(scale, "b")
		_ = b.SetLRScale(scale, "b")
		frozen := step >= 1000 && step < 1300
		a.groups[1].cfg.Frozen, b.groups[1].cfg.Frozen = frozen, frozen
		copy(gradB[0], gradA[0])
		copy(gradB[1], gradA[1])
		a.Step()
		b.Step()
		compare(step, step%97 == 0 || step == steps-1)
		if step == 1500 {
			// a state round trip into a fresh optimiser that continues
			gc, gradC := mk()
			c, _ := NewAdam(gc...)
			if err := c.LoadState(a.State()); err != nil {
				t.Fatal(err)
			}
			for si := range c.slots {
				copy(c.slots[si].p, a.slots[si].p)
			}
			a = c
			gradA = gradC
		}
	}
	// the lazy path must have been exercised: cold words skipped, single
	// entries, vectorised words
	var cold, hot int
	for _, s := range a.slots {
		for w, h := range s.lazy.hot {
			if h == 0 {
				cold++
			} else if h == wordMask(w, len(s.p)) {
				hot++
			}
		}
	}
	if cold == 0 || hot == 0 {
		t.Errorf("cold words %d, fully hot words %d: want both > 0", cold, hot)
	}
}

// TestDecayVMatchesDenseLoop checks the replayed decay against the dense
// loop with zero gradients over many steps, down to the fixed point.
func TestDecayVMatchesDenseLoop(t *testing.T) {
	grp := NewGroup(Keras, "g", 0.01)
	c := newCoef(&grp, 0.01, 1)
	vs := []float32{0, 1e-37, 1.2e-35, 2e-35, 1e-20, 3e-8, 1, 7e30, math.MaxFloat32}
	n := 64
	p, g, m, v := make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range v {
		v[i] = vs[i%len(vs)] * float32(1+i/len(vs))
		if math.IsInf(float64(v[i]), 0) {
			v[i] = math.MaxFloat32
		}
	}
	start := append([]float32(nil), v...)
	for k := 1; k <= 200000; k++ {
		c.dense(p, g, m, v)
		if k%9973 == 0 || k < 5 || k == 200000 {
			for i := range v {
				if got := decayV(start[i], c.c2, int64(k)); math.Float32bits(got) != math.Float32bits(v[i]) {
					t.Fatalf("entry %d (v0 %v) after %d steps: replay %v, dense %v", i, start[i], k, got, v[i])
				}
			}
		}
	}
}

// TestKerasHotMatchesScalar checks the vectorised loop with hot masks
// against the scalar update and hotMask, on random and special values.
func TestKerasHotMatchesScalar(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	negZero := float32(math.Copysign(0, -1))
	specials := []float32{0, negZero, 1e-37, -1e-37, 1e-30, -2e-38, 1e30, float32(math.Inf(1)), float32(math.NaN()), 1e-45}
	const words = 4
	n := words * 64
	grp := NewGroup(Keras, "g", 0.02)
	c := newCoef(&grp, 0.02, 9)
	p, g, m, v := make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range p {
		p[i], g[i] = float32(r.NormFloat64()), float32(r.NormFloat64())
		m[i], v[i] = float32(r.NormFloat64())*0.1, float32(r.ExpFloat64())*0.01
		if r.IntN(3) == 0 {
			g[i] = 0
			m[i] = specials[r.IntN(len(specials))]
			p[i] = specials[r.IntN(len(specials))]
			v[i] = float32(math.Abs(float64(specials[r.IntN(len(specials))])))
		}
	}
	p2, m2, v2 := append([]float32(nil), p...), append([]float32(nil), m...), append([]float32(nil), v...)
	hot := make([]uint64, words)
	c.denseKerasHot(p, g, m, v, hot)
	for w := range words {
		lo, hi := w*64, w*64+64
		for i := lo; i < hi; i++ {
			p2[i], m2[i], v2[i] = kerasFTZ(p2[i], g[i], m2[i], v2[i], c.c1, c.c2, c.alpha, c.eps)
			if math.Float32bits(p[i]) != math.Float32bits(p2[i]) || math.Float32bits(m[i]) != math.Float32bits(m2[i]) ||
				math.Float32bits(v[i]) != math.Float32bits(v2[i]) {
				t.Fatalf("entry %d: vector (%v %v %v) != scalar (%v %v %v)", i, p[i], m[i], v[i], p2[i], m2[i], v2[i])
			}
		}
		if want := hotMask(p2[lo:hi], m2[lo:hi], v2[lo:hi], c.c1); hot[w] != want {
			t.Fatalf("word %d: hot mask %064b, want %064b", w, hot[w], want)
		}
	}
}

// TestUpdateListMatchesScalar checks the listed-entry update against
// kerasFTZ, on random, denormal and special values.
func TestUpdateListMatchesScalar(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	specials := []float32{0, float32(math.Copysign(0, -1)), 1e-39, -3e-40, 1e-37, 1e30, float32(math.Inf(1)), float32(math.NaN())}
	n := 500
	grp := NewGroup(Keras, "g", 0.03)
	c := newCoef(&grp, 0.03, 4)
	p, g, m, v := make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range p {
		p[i], g[i] = float32(r.NormFloat64()), float32(r.NormFloat64())
		m[i], v[i] = float32(r.NormFloat64())*0.1, float32(r.ExpFloat64())*0.01
		if r.IntN(3) == 0 {
			p[i], g[i], m[i] = specials[r.IntN(len(specials))], specials[r.IntN(len(specials))], specials[r.IntN(len(specials))]
			v[i] = float32(math.Abs(float64(specials[r.IntN(len(specials))])))
		}
	}
	p2, m2, v2 := append([]float32(nil), p...), append([]float32(nil), m...), append([]float32(nil), v...)
	var list []int32
	for i := 0; i < n; i += 1 + r.IntN(3) {
		list = append(list, int32(i))
	}
	c.updateList(&slot{p: p, g: g, m: m, v: v}, list)
	for _, j := range list {
		p2[j], m2[j], v2[j] = kerasFTZ(p2[j], g[j], m2[j], v2[j], c.c1, c.c2, c.alpha, c.eps)
	}
	for i := range p {
		if math.Float32bits(p[i]) != math.Float32bits(p2[i]) || math.Float32bits(m[i]) != math.Float32bits(m2[i]) ||
			math.Float32bits(v[i]) != math.Float32bits(v2[i]) {
			t.Fatalf("entry %d: list (%v %v %v) != scalar (%v %v %v)", i, p[i], m[i], v[i], p2[i], m2[i], v2[i])
		}
	}
}

// TestLazyStepNoAllocations checks that steady-state steps of the lazy
// sweep do not allocate.
func TestLazyStepNoAllocations(t *testing.T) {
	groups, fill := gradTreeModel()
	a, err := NewAdam(groups...)
	if err != nil {
		t.Fatal(err)
	}
	for range 50 {
		fill()
		a.Step()
	}
	if n := testing.AllocsPerRun(20, a.Step); n != 0 {
		t.Errorf("Step allocates %v times per call, want 0", n)
	}
}
