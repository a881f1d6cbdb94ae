package optim

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// The start point and gradients of the reference trajectories.
var (
	trajP0    = []float32{0.5, -1.25, 0.0, 2.0, -0.0625}
	trajGrads = [][]float32{
		{0.1, -0.2, 0.0, 3.0, 1e-4},
		{0.05, 0.0, 0.0, -1.0, 2e-4},
		{-0.3, 0.4, 0.0, 0.0, 0.0},
		{0.0, 0.0, 0.7, 0.5, -1e-3},
	}
)

// TestTrajectories checks four steps of every rule against float32 numpy
// re-implementations of the reference formulas, bit for bit. The values were
// printed by /usr/bin/python3 running the script kept in testdata/adam_ref.py
// (numpy 1.24: keras(), torch_adamw(), optax_adamw() on trajP0/trajGrads).
func TestTrajectories(t *testing.T) {
	cases := []struct {
		name   string
		group  Group
		expect [4][5]uint32
	}{
		{"keras lr=0.01", NewGroup(Keras, "p", 0.01), [4][5]uint32{
			{0x3efae152, 0xbf9eb853, 0x00000000, 0x3ffeb852, 0xbd93da2b}, // 0.490000308 -1.24000013 0 1.99000001 -0.0721934661
			{0x3ef61b88, 0xbf9ddcc4, 0x00000000, 0x3ffe352d, 0xbda757e9}, // 0.480678797 -1.23329973 0 1.9859978 -0.0817106441
			{0x3ef7e2a4, 0xbf9e4c30, 0x00000000, 0x3ffdcfcd, 0xbdb668fe}, // 0.484151006 -1.23670006 0 1.98290408 -0.0890674442
			{0x3ef95770, 0xbf9ea775, 0xbbbe6c36, 0x3ffd6001, 0xbdad8cf6}, // 0.48699522 -1.23948538 -0.00581123959 1.97949231 -0.0847415179
		}},
		{"torch adamw lr=0.001 wd=0.01", withWD(NewGroup(Torch, "p", 0.001), 0.01), [4][5]uint32{
			{0x3eff7c46, 0xbf9fded2, 0x00000000, 0x3fffde93, 0xbd820be8}, // 0.498995006 -1.24898744 0 1.99897993 -0.0634992719
			{0x3eff016f, 0xbf9fc874, 0x00000000, 0x3fffd0ce, 0xbd840593}, // 0.498057812 -1.24830484 0 1.99855971 -0.064463757
			{0x3eff2e4b, 0xbf9fd32f, 0x00000000, 0x3fffc603, 0xbd858c5f}, // 0.498400062 -1.24863231 0 1.99823034 -0.0652091429
			{0x3eff52ec, 0xbf9fdbe7, 0xba1856de, 0x3fffba2d, 0xbd84a887}, // 0.498679519 -1.24889839 -0.000581128406 1.99786913 -0.0647745654
		}},
		{"torch adam lr=0.05 betas=(0.3,0.95)", Group{Name: "p", LR: 0.05, Rule: Torch, Beta1: 0.3, Beta2: 0.95, Epsilon: 1e-8}, [4][5]uint32{
			{0x3ee66666, 0xbf99999a, 0x00000000, 0x3ff9999a, 0xbde663c7}, // 0.449999988 -1.20000005 0 1.95000005 -0.112494998
			{0x3ed25155, 0xbf977be9, 0x00000000, 0x3ff9d28d, 0xbe2c0bdf}, // 0.410776764 -1.18346894 0 1.951738 -0.168014035
			{0x3eed4739, 0xbf9e3132, 0x00000000, 0x3ff9e661, 0xbe3fd6f7}, // 0.463434011 -1.23587632 0 1.95234311 -0.187343463
			{0x3ef68fbb, 0xbfa08081, 0xbd8b30c7, 0x3ff87733, 0xbdfa51a9}, // 0.481565326 -1.25392163 -0.0679641291 1.94113767 -0.122226067
		}},
		{"optax adamw lr=0.003 wd=1e-4", withWD(NewGroup(Optax, "p", 0.003), 1e-4), [4][5]uint32{
			{0x3efe76c4, 0xbf9f9daf, 0x00000000, 0x3fff9dad, 0xbd8624b0}, // 0.49699986 -1.24699962 0 1.99699938 -0.0654996634
			{0x3efd0834, 0xbf9f5bcd, 0x00000000, 0x3fff7650, 0xbd8c12ab}, // 0.49420321 -1.24498904 0 1.99579811 -0.0683949813
			{0x3efd90b8, 0xbf9f7d37, 0x00000000, 0x3fff57e1, 0xbd90a80f}, // 0.495244741 -1.24600875 0 1.99486935 -0.0706330463
			{0x3efe008a, 0xbf9f9895, 0xbae481bc, 0x3fff3652, 0xbd8dfd8f}, // 0.496097863 -1.24684393 -0.00174336834 1.99384522 -0.0693312809
		}},
		{"optax adam lr=0.003", NewGroup(Optax, "p", 0.003), [4][5]uint32{
			{0x3efe76c9, 0xbf9f9db2, 0x00000000, 0x3fff9db2, 0xbd8624b2}, // 0.497000009 -1.24699998 0 1.99699998 -0.0654996783
			{0x3efd083e, 0xbf9f5bd4, 0x00000000, 0x3fff765a, 0xbd8c12af}, // 0.494203508 -1.24498987 0 1.9957993 -0.0683950111
			{0x3efd90c7, 0xbf9f7d41, 0x00000000, 0x3fff57f0, 0xbd90a816}, // 0.495245188 -1.24600995 0 1.99487114 -0.0706330985
			{0x3efe009e, 0xbf9f98a3, 0xbae481bc, 0x3fff3666, 0xbd8dfd98}, // 0.496098459 -1.2468456 -0.00174336834 1.99384761 -0.0693313479
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := append([]float32(nil), trajP0...)
			g := make([]float32, len(p))
			grp := tc.group
			grp.Params = []Param{{Name: "x", Value: p, Grad: g}}
			a, err := NewAdam(grp)
			if err != nil {
				t.Fatal(err)
			}
			for step, gs := range trajGrads {
				copy(g, gs)
				a.Step()
				for i, want := range tc.expect[step] {
					if got := math.Float32bits(p[i]); got != want {
						t.Errorf("step %d entry %d: got %v (%#08x), want %v (%#08x), %d ulp",
							step+1, i, p[i], got, math.Float32frombits(want), want, int64(got)-int64(want))
					}
				}
			}
		})
	}
}

func withWD(g Group, wd float64) Group { g.WeightDecay = wd; return g }

// TestBiasCorrectionStep1 checks the first step moves every entry with a
// gradient much larger than ε by ≈ lr against the gradient's sign (the bias
// correction cancels 1 − β1 and √(1 − β2)).
func TestBiasCorrectionStep1(t *testing.T) {
	for _, rule := range []Rule{Keras, Torch, Optax} {
		r := rand.New(rand.NewPCG(1, 2))
		n := 200
		p, g := make([]float32, n), make([]float32, n)
		for i := range g {
			g[i] = float32(r.NormFloat64()) * float32(math.Pow(10, float64(r.IntN(6)-3)))
		}
		p0 := append([]float32(nil), p...)
		const lr = 0.01
		a, err := NewAdam(NewGroup(rule, "g", lr, Param{"x", p, g}))
		if err != nil {
			t.Fatal(err)
		}
		a.Step()
		for i := range p {
			want := -lr * math.Copysign(1, float64(g[i]))
			got := float64(p[i] - p0[i])
			// Keras adds ε to √v = √(1−β2)|g|, i.e. ε/√(1−β2) ≈ 32ε
			// relative to |g|; the others add ε to |g|.
			_, _, eps := rule.Defaults()
			if math.Abs(got-want) > lr*(1e-5+40*eps/math.Abs(float64(g[i]))) {
				t.Fatalf("%v: entry %d (g = %g): step %g, want %g", rule, i, g[i], got, want)
			}
		}
	}
}

// TestSkipBitIdentical drives two optimisers over the same random gradient
// stream; the second runs every group through the dense sweep. The stream
// exercises every path of the skip: chunks with scattered entries (entry by
// entry), chunks with a few dense words, chunks that turn dense, silent
// periods in which moments decay, the partial last word, −0 gradients and
// special parameter values. Parameters and moments must agree bit for bit.
func TestSkipBitIdentical(t *testing.T) {
	const chunk = chunkWords * 64
	// the Keras rule twice: with the lazy sweep of small tensors and with
	// the plain skip of large ones (plain)
	for variant, rule := range []Rule{Keras, Keras, Torch, Optax} {
		plain := variant == 1
		r := rand.New(rand.NewPCG(7, uint64(rule)))
		n := 5*chunk + 1000 + 37
		pa, ga := make([]float32, n), make([]float32, n)
		for i := range pa {
			pa[i] = float32(r.NormFloat64())
		}
		pa[3], pa[4], pa[5] = float32(math.Copysign(0, -1)), float32(math.Inf(1)), 0
		pb, gb := append([]float32(nil), pa...), make([]float32, n)
		grp := NewGroup(rule, "g", 0.01)
		grp.Params = []Param{{"x", pa, ga}}
		a, _ := NewAdam(grp)
		grp.Params = []Param{{"x", pb, gb}}
		b, _ := NewAdam(grp)
		b.groups[0].dense = true
		if plain {
			a.slots[0].lazy = nil
		}
		for step := range 40 {
			clear(ga)
			silent := step%15 >= 8
			for c := 0; c*chunk < n && !silent; c++ {
				base := c * chunk
				span := min(chunk, n-base)
				switch c % 5 {
				case 0: // scattered: entry by entry
					for range 2 {
						ga[base+64*r.IntN(12)+r.IntN(64)] = float32(r.NormFloat64())
					}
				case 1: // a few dense words
					for range 2 {
						w := 3 * r.IntN(8)
						for i := range 64 {
							if r.IntN(4) > 0 {
								ga[base+64*w+i] = float32(r.NormFloat64())
							}
						}
					}
				case 2: // turns dense after a few steps
					if step > 3 {
						for i := range span {
							if r.IntN(10) == 0 {
								ga[base+i] = float32(r.NormFloat64()) * 1e-3
							}
						}
					}
				case 3: // nothing, except once
					if step == 2 {
						ga[base+5] = 1
					}
				case 4: // the partial last word
					ga[n-1] = float32(r.NormFloat64())
					ga[n-2] = float32(math.Copysign(0, -1))
				}
			}
			ga[7] = float32(math.Copysign(0, -1))
			copy(gb, ga)
			a.Step()
			b.Step()
			a.sync()
			sa, sb := a.slots[0], b.slots[0]
			for i := range pa {
				if math.Float32bits(pa[i]) != math.Float32bits(pb[i]) ||
					math.Float32bits(sa.m[i]) != math.Float32bits(sb.m[i]) ||
					math.Float32bits(sa.v[i]) != math.Float32bits(sb.v[i]) {
					t.Fatalf("%v step %d entry %d: sparse (%v,%v,%v) != dense (%v,%v,%v)", rule, step, i,
						pa[i], sa.m[i], sa.v[i], pb[i], sb.m[i], sb.v[i])
				}
			}
		}
		// The stream must have exercised the sparse paths (the Keras rule
		// runs the lazy sweep instead; TestLazyBitIdentical).
		if live := a.slots[0].chunkLive; (rule != Keras || plain) && (live[0] || live[1] || live[3] || !live[2]) {
			t.Errorf("%v: chunk flags %v, want chunks 0, 1, 3 sparse and 2 dense", rule, live)
		}
	}
}

// TestElemMatchesDenseLoops checks the hand-specialised dense loops equal
// the single definition elem, bit for bit, on random and special values.
func TestElemMatchesDenseLoops(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	specials := []float32{0, float32(math.Copysign(0, -1)), 1e-30, -1e-30, 1e30, float32(math.Inf(1)), float32(math.NaN()), 1e-45}
	optaxW := NewGroup(Optax, "g", 0.02)
	optaxW.WeightDecay = 1e-4
	specials = append(specials, 2e-39, -2e-39, 1.1754942e-38)
	for _, grp := range []Group{NewGroup(Keras, "g", 0.02), NewGroup(Torch, "g", 0.02), NewGroup(Optax, "g", 0.02), optaxW,
		{Name: "g", LR: 0.1, Rule: Torch, Beta1: 0.2, Beta2: 0.9, Epsilon: 1e-6}} {
		for t0 := int64(1); t0 < 2000; t0 *= 7 {
			c := newCoef(&grp, 0.02, t0)
			n := 300
			p, g, m, v := make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n)
			for i := range p {
				p[i], g[i] = float32(r.NormFloat64()), float32(r.NormFloat64())
				m[i], v[i] = float32(r.NormFloat64())*0.1, float32(r.ExpFloat64())*0.01
				if i < len(specials)*4 {
					switch i % 4 {
					case 0:
						p[i] = specials[i/4]
					case 1:
						g[i] = specials[i/4]
					case 2:
						m[i] = specials[i/4]
					case 3:
						v[i] = float32(math.Abs(float64(specials[i/4])))
					}
				}
			}
			// Entries whose moments decay into the subnormal range (flushed
			// by the Keras and Optax rules).
			for i := n - 16; i < n; i++ {
				g[i], m[i], v[i] = 0, float32(i-n+8)*2e-39, 1.176e-38
			}
			p2, m2, v2 := append([]float32(nil), p...), append([]float32(nil), m...), append([]float32(nil), v...)
			c.dense(p, g, m, v)
			for i := range p2 {
				p2[i], m2[i], v2[i] = c.elem(p2[i], g[i], m2[i], v2[i])
			}
			for i := range p {
				if math.Float32bits(p[i]) != math.Float32bits(p2[i]) || math.Float32bits(m[i]) != math.Float32bits(m2[i]) ||
					math.Float32bits(v[i]) != math.Float32bits(v2[i]) {
					t.Fatalf("%v t=%d entry %d: loop (%v,%v,%v) != elem (%v,%v,%v)", grp.Rule, t0, i, p[i], m[i], v[i], p2[i], m2[i], v2[i])
				}
			}
		}
	}
}

// bigModel builds a model of several tensors large enough to run in
// parallel, and a gradient filler.
func bigModel(seed uint64, n int) ([]Group, func(step int)) {
	r := rand.New(rand.NewPCG(seed, 1))
	sizes := []int{n / 2, n/2 - 1000, 1000}
	var groups []Group
	var grads [][]float32
	for i, sz := range sizes {
		p, g := make([]float32, sz), make([]float32, sz)
		for j := range p {
			p[j] = float32(r.NormFloat64())
		}
		grp := NewGroup(Rule(i%3), []string{"index", "threshold", "leaf"}[i], 0.01*float64(i+1), Param{"t", p, g})
		if i == 2 {
			grp.WeightDecay = 0.01
		}
		groups = append(groups, grp)
		grads = append(grads, g)
	}
	fill := func(step int) {
		r := rand.New(rand.NewPCG(seed, uint64(step)+2))
		for _, g := range grads {
			for j := range g {
				if r.IntN(20) == 0 {
					g[j] = float32(r.NormFloat64())
				} else {
					g[j] = 0
				}
			}
		}
	}
	return groups, fill
}

func TestWorkersDeterministic(t *testing.T) {
	var ref [][]float32
	for _, w := range []int{1, 2, 5} {
		groups, fill := bigModel(11, 300_000)
		a, err := NewAdam(groups...)
		if err != nil {
			t.Fatal(err)
		}
		a.SetWorkers(w)
		for step := range 5 {
			fill(step)
			a.ClipGradNorm(50)
			a.Step()
		}
		var got [][]float32
		for _, g := range groups {
			got = append(got, g.Params[0].Value)
		}
		if ref == nil {
			ref = got
			continue
		}
		for i := range got {
			for j := range got[i] {
				if math.Float32bits(got[i][j]) != math.Float32bits(ref[i][j]) {
					t.Fatalf("workers %d: group %d entry %d: %v != %v with 1 worker", w, i, j, got[i][j], ref[i][j])
				}
			}
		}
	}
}

func TestFrozenAndScale(t *testing.T) {
	p1, g1 := []float32{1, 2}, []float32{1, 1}
	p2, g2 := []float32{1, 2}, []float32{1, 1}
	fz := NewGroup(Keras, "frozen", 0.1, Param{"a", p1, g1})
	fz.Frozen = true
	a, err := NewAdam(fz, NewGroup(Keras, "live", 0.1, Param{"a", p2, g2}))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.SetLRScale(0.5, "live"); err != nil {
		t.Fatal(err)
	}
	if lr, _ := a.LR("live"); lr != 0.05 {
		t.Fatalf("LR(live) = %v, want 0.05", lr)
	}
	if err := a.SetLRScale(0.5, "nope"); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Fatalf("SetLRScale on an unknown group: err = %v", err)
	}
	a.Step()
	if p1[0] != 1 || p1[1] != 2 {
		t.Fatalf("frozen group moved: %v", p1)
	}
	if d := 1 - p2[0]; math.Abs(float64(d)-0.05) > 1e-6 {
		t.Fatalf("scaled step = %v, want 0.05", d)
	}
	a.ZeroGrad()
	if g1[0] != 0 || g2[1] != 0 {
		t.Fatalf("ZeroGrad left %v %v", g1, g2)
	}
}

func TestClipGradNorm(t *testing.T) {
	g1, g2 := []float32{3, 0}, []float32{0, 4}
	a, _ := NewAdam(NewGroup(Optax, "a", 1, Param{"x", make([]float32, 2), g1}),
		NewGroup(Optax, "b", 1, Param{"x", make([]float32, 2), g2}))
	if n := a.ClipGradNorm(10); n != 5 || g1[0] != 3 || g2[1] != 4 {
		t.Fatalf("below the bound: norm %v, grads %v %v", n, g1, g2)
	}
	if n := a.ClipGradNorm(1); n != 5 {
		t.Fatalf("norm = %v, want 5", n)
	}
	if math.Abs(float64(g1[0])-0.6) > 1e-7 || math.Abs(float64(g2[1])-0.8) > 1e-7 {
		t.Fatalf("clipped grads %v %v, want [0.6 0] [0 0.8]", g1, g2)
	}
}

func TestNewAdamErrors(t *testing.T) {
	p := make([]float32, 4)
	ok := NewGroup(Keras, "g", 0.1, Param{"x", p, make([]float32, 4)})
	cases := []struct {
		name string
		mod  func(g *Group)
		want string
	}{
		{"empty name", func(g *Group) { g.Name = "" }, "empty name"},
		{"negative lr", func(g *Group) { g.LR = -1 }, "LR"},
		{"nan lr", func(g *Group) { g.LR = math.NaN() }, "LR"},
		{"beta1", func(g *Group) { g.Beta1 = 1 }, "Beta1"},
		{"beta2", func(g *Group) { g.Beta2 = -0.1 }, "Beta2"},
		{"eps", func(g *Group) { g.Epsilon = 0 }, "Epsilon"},
		{"wd", func(g *Group) { g.WeightDecay = -1 }, "WeightDecay"},
		{"rule", func(g *Group) { g.Rule = 9 }, "Rule"},
		{"length", func(g *Group) { g.Params = []Param{{"x", p, make([]float32, 3)}} }, "len(Grad) = 3"},
		{"alias", func(g *Group) { g.Params = []Param{{"x", p, p[1:3]}} }, "len(Grad)"},
		{"overlap", func(g *Group) { g.Params = []Param{{"x", p[:2], p[1:3]}} }, "share memory"},
		{"dup param", func(g *Group) { g.Params = append(g.Params, g.Params[0]) }, "duplicate name"},
		{"schedule", func(g *Group) { g.Schedule = CosineDecay{Steps: 0} }, "CosineDecay.Steps"},
	}
	for _, tc := range cases {
		g := ok
		g.Params = append([]Param(nil), ok.Params...)
		tc.mod(&g)
		_, err := NewAdam(g)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want mention of %q", tc.name, err, tc.want)
		}
	}
	if _, err := NewAdam(); err == nil {
		t.Error("no groups: no error")
	}
	if _, err := NewAdam(ok, ok); err == nil || !strings.Contains(err.Error(), "duplicate group") {
		t.Errorf("duplicate groups: err = %v", err)
	}
	if _, err := ParseRule("sgd"); err == nil {
		t.Error("ParseRule(sgd): no error")
	}
	if r, err := ParseRule("optax"); err != nil || r != Optax {
		t.Errorf("ParseRule(optax) = %v, %v", r, err)
	}
}

// TestStateRoundTrip runs a few steps, checkpoints (binary and JSON), and
// compares continuing in place with continuing on a restored copy.
func TestStateRoundTrip(t *testing.T) {
	type wrapped struct {
		name string
		make func(groups []Group) Optimizer
	}
	mkAdam := func(groups []Group) *Adam {
		a, err := NewAdam(groups...)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	kinds := []wrapped{
		{"adam", func(g []Group) Optimizer { return mkAdam(g) }},
		{"swa", func(g []Group) Optimizer { s, _ := NewSWA(mkAdam(g), 1, 2); return s }},
		{"ema", func(g []Group) Optimizer { e, _ := NewEMA(mkAdam(g), 0.1, 2); return e }},
	}
	for _, kind := range kinds {
		for _, codec := range []string{"binary", "json"} {
			groupsA, fill := bigModel(5, 70_000)
			optA := kind.make(groupsA)
			for step := range 4 {
				fill(step)
				optA.Step()
			}
			if a, ok := optA.(*Adam); ok {
				_ = a.SetLRScale(0.25, "leaf")
			}
			st := optA.State()
			var restored *State
			switch codec {
			case "binary":
				var buf bytes.Buffer
				if _, err := st.WriteTo(&buf); err != nil {
					t.Fatal(err)
				}
				var err error
				if restored, err = ReadState(&buf); err != nil {
					t.Fatal(err)
				}
			case "json":
				b, err := json.Marshal(st)
				if err != nil {
					t.Fatal(err)
				}
				restored = new(State)
				if err := json.Unmarshal(b, restored); err != nil {
					t.Fatal(err)
				}
			}
			// A second model with the same parameter values.
			groupsB, _ := bigModel(5, 70_000)
			for i := range groupsB {
				copy(groupsB[i].Params[0].Value, groupsA[i].Params[0].Value)
			}
			optB := kind.make(groupsB)
			if err := optB.LoadState(restored); err != nil {
				t.Fatalf("%s/%s: %v", kind.name, codec, err)
			}
			for step := 4; step < 8; step++ {
				fill(step)
				for i := range groupsB {
					copy(groupsB[i].Params[0].Grad, groupsA[i].Params[0].Grad)
				}
				optA.Step()
				optB.Step()
			}
			for i := range groupsA {
				a, b := groupsA[i].Params[0].Value, groupsB[i].Params[0].Value
				for j := range a {
					if math.Float32bits(a[j]) != math.Float32bits(b[j]) {
						t.Fatalf("%s/%s: group %d entry %d: continued %v, restored %v", kind.name, codec, i, j, a[j], b[j])
					}
				}
			}
			if optA.Steps() != optB.Steps() {
				t.Fatalf("%s/%s: steps %d vs %d", kind.name, codec, optA.Steps(), optB.Steps())
			}
		}
	}
}

func TestLoadStateErrors(t *testing.T) {
	a, _ := NewAdam(NewGroup(Keras, "g", 0.1, Param{"x", make([]float32, 3), make([]float32, 3)}))
	good := a.State()
	cases := []struct {
		name string
		mod  func(s *State)
		want string
	}{
		{"group name", func(s *State) { s.Groups[0].Name = "h" }, `no group "g"`},
		{"param name", func(s *State) { s.Groups[0].Params[0].Name = "y" }, `no param "x"`},
		{"length", func(s *State) { s.Groups[0].Params[0].M = s.Groups[0].Params[0].M[:2] }, "len(M) = 2"},
		{"groups", func(s *State) { s.Groups = append(s.Groups, s.Groups[0]) }, "2 groups"},
		{"steps", func(s *State) { s.Steps = -1 }, "Steps"},
	}
	for _, tc := range cases {
		st := a.State()
		tc.mod(st)
		if err := a.LoadState(st); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
	s, _ := NewSWA(a, 0, 5)
	if err := s.LoadState(good); err == nil || !strings.Contains(err.Error(), "swa") {
		t.Errorf("SWA from a plain Adam state: err = %v", err)
	}
	b, _ := good.MarshalBinary()
	for _, cut := range []int{0, 5, len(stateMagic) + 1, len(b) - 3, len(b) - 1} {
		if _, err := ReadState(bytes.NewReader(b[:cut])); err == nil {
			t.Errorf("truncated at %d: no error", cut)
		}
	}
	bad := append([]byte(nil), b...)
	bad[0] = 'X'
	if _, err := ReadState(bytes.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "magic") {
		t.Errorf("bad magic: err = %v", err)
	}
	var st State
	if err := st.UnmarshalBinary(b); err != nil || st.Groups[0].Name != "g" {
		t.Errorf("UnmarshalBinary: %v, %+v", err, st)
	}
}

// TestSWAAverage checks the tfa averaging schedule: with start 1 and period
// 2 the average holds the weights after steps 2, 4, 6 (iterations 1, 3, 5).
func TestSWAAverage(t *testing.T) {
	p, g := []float32{1, -1, 0.5}, make([]float32, 3)
	a, _ := NewAdam(NewGroup(Keras, "g", 0.1, Param{"x", p, g}))
	s, err := NewSWA(a, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AssignAverage(); err == nil {
		t.Fatal("AssignAverage before any snapshot: no error")
	}
	var sum [3]float64
	for step := 1; step <= 7; step++ {
		g[0], g[1], g[2] = float32(step), -1, float32(step%3)-1
		s.Step()
		if step%2 == 0 {
			for i := range p {
				sum[i] += float64(p[i])
			}
		}
	}
	if s.Snapshots() != 3 {
		t.Fatalf("snapshots = %d, want 3", s.Snapshots())
	}
	avg, err := s.Average("g", "x")
	if err != nil {
		t.Fatal(err)
	}
	for i := range avg {
		if math.Abs(float64(avg[i])-sum[i]/3) > 1e-6 {
			t.Fatalf("avg[%d] = %v, want %v", i, avg[i], sum[i]/3)
		}
	}
	if err := s.AssignAverage(); err != nil || p[0] != avg[0] {
		t.Fatalf("AssignAverage: %v, p = %v, avg = %v", err, p, avg)
	}
	if _, err := NewSWA(a, 0, 0); err == nil {
		t.Fatal("period 0: no error")
	}
}

// TestEMADamping checks GR-tf's EMA: with μ = 0.1 and overwrite every step
// the weights after each step are 0.1·θ_prev + 0.9·θ_adam.
func TestEMADamping(t *testing.T) {
	p, g := []float32{1, -1, 0.5}, make([]float32, 3)
	q, h := append([]float32(nil), p...), make([]float32, 3)
	a, _ := NewAdam(NewGroup(Keras, "g", 0.1, Param{"x", p, g}))
	e, err := NewEMA(a, 0.1, 1)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NewAdam(NewGroup(Keras, "g", 0.1, Param{"x", q, h}))
	for step := range 5 {
		for i := range g {
			g[i] = float32(step+i) - 2
		}
		copy(h, g)
		prev := append([]float32(nil), q...)
		e.Step()
		b.Step()
		for i := range q {
			q[i] = float32(float32(0.1)*prev[i]) + float32(float32(0.9)*q[i])
			if math.Float32bits(p[i]) != math.Float32bits(q[i]) {
				t.Fatalf("step %d entry %d: EMA %v, manual %v", step, i, p[i], q[i])
			}
		}
	}
}
