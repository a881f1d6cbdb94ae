package tree

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPrepareChanged: after random changes to some logits and thresholds
// (ties, NaNs, −0), PrepareChanged with bitsets covering the changes gives
// Prepare's state; nil bitsets prepare everything.
func TestPrepareChanged(t *testing.T) {
	cases := []struct {
		name            string
		trees, depth, n int
		subset          int
	}{
		{"gradtree adult", 1, 10, 14, 0},
		{"narrow", 1, 4, 5, 0},
		{"wide rows", 1, 3, 70, 0},
		{"ensemble subsets", 3, 5, 20, 9},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(21, 22))
			cfg := Config{Trees: c.trees, Depth: c.depth, Features: c.n, Outputs: 1, Split: Sigmoid, Workers: 1}
			if c.subset > 0 {
				for e := 0; e < c.trees; e++ {
					cfg.Subsets = append(cfg.Subsets, r.Perm(c.n)[:c.subset])
				}
			}
			k, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if err := k.Init(InitGlorot, 5); err != nil {
				t.Fatal(err)
			}
			ref, _ := New(cfg)
			p := k.Params()
			k.PrepareChanged(nil, nil) // never prepared: everything
			words := (len(p.IndexLogits) + 63) / 64
			for step := 0; step < 200; step++ {
				zm, tm := make([]uint64, words), make([]uint64, words)
				for i := 0; i < 1+r.IntN(8); i++ {
					j := r.IntN(len(p.IndexLogits))
					switch r.IntN(6) {
					case 0:
						p.IndexLogits[j] = float32(math.NaN())
					case 1:
						p.IndexLogits[j] = float32(math.Copysign(0, -1))
					case 2:
						row := j / k.SubsetSize() * k.SubsetSize()
						p.IndexLogits[j] = slices.Max(p.IndexLogits[row : row+k.SubsetSize()]) // a tie
					default:
						p.IndexLogits[j] += float32(r.NormFloat64())
					}
					zm[j/64] |= 1 << (j % 64)
				}
				for i := 0; i < r.IntN(20); i++ {
					j := r.IntN(len(p.Thresholds))
					p.Thresholds[j] = float32(r.NormFloat64())
					tm[j/64] |= 1 << (j % 64)
				}
				for i := 0; i < 3; i++ { // extra bits are harmless
					zm[r.IntN(words)] |= 1 << r.IntN(64)
				}
				if step%50 == 49 {
					k.PrepareChanged(zm, nil)
				} else {
					k.PrepareChanged(zm, tm)
				}
				if err := ref.Params().CopyFrom(p); err != nil {
					t.Fatal(err)
				}
				ref.Prepare()
				if !slices.Equal(k.sel, ref.sel) || !slices.Equal(k.selFeat, ref.selFeat) {
					t.Fatalf("step %d: selected columns differ from Prepare's", step)
				}
				for i := range k.selThr {
					if math.Float32bits(k.selThr[i]) != math.Float32bits(ref.selThr[i]) {
						t.Fatalf("step %d: node %d threshold %v, Prepare %v", step, i, k.selThr[i], ref.selThr[i])
					}
				}
			}
		})
	}
}

// TestSingleSupportCache: a workspace that remembers the one-column entmax
// supports across steps (logits changed between steps, prepared by
// PrepareChanged or Prepare, supports growing and shrinking) computes the
// same gradients bit for bit as a fresh workspace.
func TestSingleSupportCache(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	const B, n = 64, 10
	cfg := Config{Trees: 1, Depth: 6, Features: n, Outputs: 1, Split: Sigmoid, Workers: 1}
	k, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := k.Init(InitGlorot, 3); err != nil {
		t.Fatal(err)
	}
	p := k.Params()
	for i := range p.IndexLogits {
		p.IndexLogits[i] *= 60 // mostly one-column supports
	}
	k.Prepare()
	kept := k.NewWorkspace()
	words := (len(p.IndexLogits) + 63) / 64
	for step := 0; step < 60; step++ {
		zm, tm := make([]uint64, words), make([]uint64, words)
		for i := 0; i < 6; i++ {
			row := r.IntN(len(p.IndexLogits) / n)
			z := p.IndexLogits[row*n : (row+1)*n]
			c := r.IntN(n)
			switch r.IntN(3) {
			case 0: // join the support
				z[c] = z[argmax(z)] - 0.5
			case 1: // leave it
				z[c] -= 5
			default:
				z[c] += float32(r.NormFloat64())
			}
			j := row*n + c
			zm[j/64] |= 1 << (j % 64)
		}
		if step%10 == 9 {
			k.Prepare()
		} else {
			k.PrepareChanged(zm, tm)
		}
		x, dy := randomSlice(r, B*n), randomSlice(r, B)
		want, got := k.NewParams(), k.NewParams()
		for _, c := range []struct {
			ws *Workspace
			g  *Params
		}{{k.NewWorkspace(), want}, {kept, got}} {
			out := make([]float32, B)
			if err := k.Forward(c.ws, x, B, nil, out); err != nil {
				t.Fatal(err)
			}
			if err := k.Backward(c.ws, dy, c.g, nil); err != nil {
				t.Fatal(err)
			}
		}
		for i := range want.IndexLogits {
			if math.Float32bits(want.IndexLogits[i]) != math.Float32bits(got.IndexLogits[i]) ||
				math.Float32bits(want.Thresholds[i]) != math.Float32bits(got.Thresholds[i]) {
				t.Fatalf("step %d: entry %d: gradients differ from a fresh workspace's", step, i)
			}
		}
	}
}
