package optim

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// grandeModel returns the four GRANDE tensors at the published defaults
// (E = 2048, d = 6, n_e = 50: Z and T [2048][63][50], Λ and W [2048][64]),
// 13 165 568 parameters, as Keras Adam groups with GR-paper learning rates,
// and sets a fraction frac of the gradient entries to non-zero values.
func grandeModel(frac float64) ([]Group, int) {
	const e, nodes, ne, leaves = 2048, 63, 50, 64
	r := rand.New(rand.NewPCG(1, 2))
	mk := func(name string, n int, lr float64) Group {
		p, g := make([]float32, n), make([]float32, n)
		for i := range p {
			p[i] = float32(r.NormFloat64() * 0.05)
			if frac >= 1 || r.Float64() < frac {
				g[i] = float32(r.NormFloat64())
			}
		}
		return NewGroup(Keras, name, lr, Param{name, p, g})
	}
	groups := []Group{
		mk("index", e*nodes*ne, 0.01),
		mk("threshold", e*nodes*ne, 0.01),
		mk("leaf", e*leaves, 0.01),
		mk("weight", e*leaves, 0.005),
	}
	return groups, 2*e*nodes*ne + 2*e*leaves
}

// BenchmarkAdamStep13M measures one Keras Adam step over the GRANDE default
// model with dense gradients and with 1 % and 0.1 % non-zero gradients (the
// same entries every step, so the live state keeps that density), through
// the exact sparse skip and, for comparison, forced through the dense sweep.
func BenchmarkAdamStep13M(b *testing.B) {
	for _, frac := range []float64{1, 0.01, 0.001} {
		groups, n := grandeModel(frac)
		a, err := NewAdam(groups...)
		if err != nil {
			b.Fatal(err)
		}
		for _, dense := range []bool{false, true} {
			name := fmt.Sprintf("grad=%g%%", frac*100)
			if dense {
				name += "/denseSweep"
			} else {
				name += "/skip"
			}
			b.Run(name, func(b *testing.B) {
				for _, g := range a.groups {
					g.dense = dense
				}
				a.Step() // warm: pages touched, live bits set
				b.SetBytes(int64(n) * 4)
				b.ResetTimer()
				cpu := processCPU()
				for range b.N {
					a.Step()
				}
				b.ReportMetric((processCPU()-cpu)*1e9/float64(b.N), "cpu-ns/op")
			})
		}
	}
}

// BenchmarkAdamStepWorkers shows the scaling of the dense sweep.
func BenchmarkAdamStepWorkers(b *testing.B) {
	groups, n := grandeModel(1)
	a, _ := NewAdam(groups...)
	for _, w := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) {
			a.SetWorkers(w)
			b.SetBytes(int64(n) * 4)
			for range b.N {
				a.Step()
			}
		})
	}
}

func BenchmarkZeroGrad13M(b *testing.B) {
	groups, n := grandeModel(0)
	a, _ := NewAdam(groups...)
	b.SetBytes(int64(n) * 4)
	for range b.N {
		a.ZeroGrad()
	}
}

// gradTreeModel returns the three GradTree tensors of a depth-10 tree on 14
// features (Z and T [1023][14], Λ [1024]) as Keras groups, and a gradient
// filler with a trained tree's pattern: a gradient on the reached leaves,
// on the selected threshold of the visited nodes, and on the index logits
// of the few visited nodes whose entmax support has more than one column.
func gradTreeModel() ([]Group, func()) {
	const nodes, ne, leaves = 1023, 14, 1024
	r := rand.New(rand.NewPCG(3, 4))
	mk := func(name string, n int, lr float64) (Group, []float32) {
		p, g := make([]float32, n), make([]float32, n)
		for i := range p {
			p[i] = float32(r.NormFloat64())
		}
		return NewGroup(Keras, name, lr, Param{name, p, g}), g
	}
	gz, zg := mk("index", nodes*ne, 0.01)
	gt, tg := mk("threshold", nodes*ne, 0.01)
	gl, lg := mk("leaf", leaves, 0.05)
	sel := make([]int, nodes)
	wide := make([]bool, nodes)
	for i := range sel {
		sel[i] = r.IntN(ne)
		wide[i] = r.IntN(10) == 0
	}
	fill := func() {
		clear(zg)
		clear(tg)
		clear(lg)
		for range 100 {
			node := r.IntN(nodes)
			tg[node*ne+sel[node]] = float32(r.NormFloat64()) * 1e-3
			if wide[node] {
				for k := range 3 {
					zg[node*ne+(sel[node]+k)%ne] = float32(r.NormFloat64()) * 1e-3
				}
			}
		}
		for range 30 {
			lg[r.IntN(leaves)] = float32(r.NormFloat64()) * 1e-2
		}
	}
	return []Group{gz, gt, gl}, fill
}

// BenchmarkAdamGradTree measures a Keras Adam step on a GradTree-sized
// model (29,668 parameters) with a trained tree's sparse gradients, after
// 3,000 warm-up steps (moments of entries without gradient have reached
// their flush-to-zero fixed points). The gradients cycle through 4
// precomputed sets; the time includes copying one in (≈ 120 KB). It also
// reports the process CPU time per step.
func BenchmarkAdamGradTree(b *testing.B) {
	groups, fill := gradTreeModel()
	a, err := NewAdam(groups...)
	if err != nil {
		b.Fatal(err)
	}
	var sets [4][][]float32
	for i := range sets {
		fill()
		for _, g := range groups {
			sets[i] = append(sets[i], append([]float32(nil), g.Params[0].Grad...))
		}
	}
	load := func(i int) {
		for gi, g := range groups {
			copy(g.Params[0].Grad, sets[i%len(sets)][gi])
		}
	}
	for i := range 3000 {
		load(i)
		a.Step()
	}
	b.ResetTimer()
	cpu := processCPU()
	for i := range b.N {
		load(i)
		a.Step()
	}
	b.ReportMetric((processCPU()-cpu)*1e9/float64(b.N), "cpu-ns/op")
}
