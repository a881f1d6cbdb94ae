package ppo

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/gdt-ml/gdt/optim"
	"github.com/gdt-ml/gdt/rl/policy"
)

// splitFixture builds the same parameter groups twice (values, gradients)
// with the critic's shapes (F = 4, 2×256) or small odd ones.
func splitFixture(sizes [][]int) (a, b []optim.Group, grads func(r *rand.Rand)) {
	build := func() ([]optim.Group, [][]float32) {
		var gs []optim.Group
		var gr [][]float32
		for gi, ps := range sizes {
			g := optim.NewGroup(optim.Optax, []string{"critic", "other", "third"}[gi], 0.001*float64(gi+1))
			g.WeightDecay = 1e-4 * float64(gi%2)
			for pi, n := range ps {
				v := make([]float32, n)
				for i := range v {
					v[i] = float32(math.Sin(float64(i + 7*pi)))
				}
				gd := make([]float32, n)
				g.Params = append(g.Params, optim.Param{Name: string(rune('a' + pi)), Value: v, Grad: gd})
				gr = append(gr, gd)
			}
			gs = append(gs, g)
		}
		return gs, gr
	}
	a, ga := build()
	b, gb := build()
	return a, b, func(r *rand.Rand) {
		for i := range ga {
			for k := range ga[i] {
				x := float32(r.NormFloat64())
				if r.IntN(5) == 0 {
					x = 0
				}
				ga[i][k], gb[i][k] = x, x
			}
		}
	}
}

// TestSplitAdamBits checks that a split optimiser updates every entry bit
// for bit as the unsplit one and that its state has the unsplit layout,
// also after a round trip through LoadState.
func TestSplitAdamBits(t *testing.T) {
	for _, tc := range []struct {
		sizes [][]int
		n, at int
	}{
		{[][]int{{1024, 256, 65536, 256, 256, 1}}, 2, 0},
		{[][]int{{1024, 256, 65536, 256, 256, 1}}, 2, 1280 + 128*256}, // the critic's row half
		{[][]int{{1024, 256, 65536, 256, 256, 1}}, 3, 0},
		{[][]int{{5, 0, 300}, {7, 129}}, 2, 0},
		{[][]int{{5, 0, 300}, {7, 129}}, 2, 7},
		{[][]int{{100}}, 4, 0},
		{[][]int{{3}, {5}, {9}}, 2, 0},
	} {
		ga, gb, grads := splitFixture(tc.sizes)
		one, err := optim.NewAdam(ga...)
		if err != nil {
			t.Fatal(err)
		}
		sp, err := newSplitAdam(gb, tc.n, tc.at)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(1, 2))
		for step := 0; step < 5; step++ {
			grads(r)
			one.Step()
			sp.Step()
			if step == 2 { // checkpoint round trip in the middle
				if err := sp.LoadState(one.State()); err != nil {
					t.Fatal(err)
				}
			}
		}
		for gi := range ga {
			for pi := range ga[gi].Params {
				x, y := ga[gi].Params[pi].Value, gb[gi].Params[pi].Value
				for k := range x {
					if math.Float32bits(x[k]) != math.Float32bits(y[k]) {
						t.Fatalf("%v split %d: group %d param %d entry %d: %v, unsplit %v", tc.sizes, tc.n, gi, pi, k, y[k], x[k])
					}
				}
			}
		}
		if !reflect.DeepEqual(sp.State(), one.State()) {
			t.Fatalf("%v split %d: state differs from the unsplit optimiser's", tc.sizes, tc.n)
		}
		if sp.Steps() != one.Steps() {
			t.Fatalf("steps %d, want %d", sp.Steps(), one.Steps())
		}
	}
}

// TestClipGradBits checks that clipGrad leaves the gradients bit for bit as
// optim's ClipGradNorm does, below, near and above the threshold, for a
// plain and a split optimiser.
func TestClipGradBits(t *testing.T) {
	for _, split := range []bool{false, true} {
		for _, scale := range []float64{1e-3, 1, 3, 4.3, 4.4, 1e3} {
			ga, gb, grads := splitFixture([][]int{{1024, 256, 65536, 256, 256, 1}})
			grads(rand.New(rand.NewPCG(3, 4)))
			for _, g := range [][]optim.Group{ga, gb} {
				for _, p := range g[0].Params {
					for i := range p.Grad {
						p.Grad[i] *= float32(scale)
					}
				}
			}
			var ts []policy.Tensor
			for _, p := range gb[0].Params {
				ts = append(ts, policy.Tensor{Name: p.Name, Group: "critic", Value: p.Value, Grad: p.Grad})
			}
			ref, err := optim.NewAdam(ga...)
			if err != nil {
				t.Fatal(err)
			}
			var o netOpt
			if split {
				o, err = newSplitAdam(gb, 2, 0)
			} else {
				o, err = optim.NewAdam(gb...)
			}
			if err != nil {
				t.Fatal(err)
			}
			// The norm is about 260·scale: 1000 clips for scale ≥ 4.
			const maxNorm = 1000
			ref.ClipGradNorm(maxNorm)
			clipGrad(o, ts, maxNorm)
			for pi := range ga[0].Params {
				x, y := ga[0].Params[pi].Grad, gb[0].Params[pi].Grad
				for k := range x {
					if math.Float32bits(x[k]) != math.Float32bits(y[k]) {
						t.Fatalf("split=%v scale %v: param %d entry %d: %v, ClipGradNorm %v", split, scale, pi, k, y[k], x[k])
					}
				}
			}
		}
	}
}
