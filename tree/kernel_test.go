package tree

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// gradCase is one random configuration compared against the dense reference.
type gradCase struct {
	trees, depth, features, subset, outputs, batch int
	split                                          SplitFunc
	mode                                           WeightMode
	dropout                                        float64
	logitScale                                     float64 // std of the index logits (support size)
}

func (c gradCase) String() string {
	return fmt.Sprintf("E%d_d%d_n%d_ne%d_C%d_B%d_%v_%v_drop%.2g_z%.2g",
		c.trees, c.depth, c.features, c.subset, c.outputs, c.batch, c.split, c.mode, c.dropout, c.logitScale)
}

// randomKernel builds a kernel for c with random parameters.
func randomKernel(t testing.TB, c gradCase, r *rand.Rand) *Kernel {
	t.Helper()
	cfg := Config{Trees: c.trees, Depth: c.depth, Features: c.features, Outputs: c.outputs,
		Split: c.split, Weights: c.mode}
	if c.subset > 0 {
		cfg.Subsets = make([][]int, c.trees)
		for e := range cfg.Subsets {
			cfg.Subsets[e] = r.Perm(c.features)[:c.subset]
		}
	}
	k, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	p := k.Params()
	for i := range p.IndexLogits {
		p.IndexLogits[i] = float32(r.NormFloat64() * c.logitScale)
		p.Thresholds[i] = float32(r.NormFloat64())
	}
	for i := range p.Leaves {
		p.Leaves[i] = float32(r.NormFloat64())
	}
	for i := range p.LeafWeights {
		p.LeafWeights[i] = float32(r.NormFloat64())
	}
	k.Prepare()
	return k
}

func randomSlice(r *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return v
}

// closeTo compares a kernel tensor with the reference: every entry must
// satisfy |got − want| ≤ rtol·(|want| + floor·max|want|). The floor term
// makes the criterion absolute for entries much smaller than the tensor's
// largest (where float32 summation of mixed-sign terms limits relative
// accuracy). It returns the largest error relative to that bound's scale.
func closeTo(t *testing.T, name string, got []float32, want []float64, rtol, floor float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, reference %d", name, len(got), len(want))
	}
	var scale float64
	for _, w := range want {
		scale = math.Max(scale, math.Abs(w))
	}
	bad := 0
	for i := range got {
		diff := math.Abs(float64(got[i]) - want[i])
		if diff > rtol*(math.Abs(want[i])+floor*scale) || math.IsNaN(float64(got[i])) {
			if bad < 5 {
				t.Errorf("%s[%d] = %.9g, reference %.9g (diff %.3g, tensor max %.3g)", name, i, got[i], want[i], diff, scale)
			}
			bad++
		}
	}
	if bad > 0 {
		t.Errorf("%s: %d of %d entries differ", name, bad, len(got))
	}
}

// runKernel runs Forward and Backward and returns output and gradients.
func runKernel(t testing.TB, k *Kernel, x []float32, B int, keep []bool, dy []float32, wantDX bool) ([]float32, *Params, []float32) {
	t.Helper()
	ws := k.NewWorkspace()
	out := make([]float32, B*k.Outputs())
	if err := k.Forward(ws, x, B, keep, out); err != nil {
		t.Fatal(err)
	}
	grad := k.NewParams()
	var dX []float32
	if wantDX {
		dX = make([]float32, B*k.Features())
	}
	if err := k.Backward(ws, dy, grad, dX); err != nil {
		t.Fatal(err)
	}
	return out, grad, dX
}

func gradCases() []gradCase {
	var cs []gradCase
	splits := []SplitFunc{Sigmoid, Softsign, Entmoid}
	// single trees (GradTree / SYMPOL): every depth 1…8, several widths, heads
	for d := 1; d <= 8; d++ {
		for _, n := range []int{1, 3, 11} {
			outputs := []int{1, 4}[d%2]
			cs = append(cs, gradCase{trees: 1, depth: d, features: n, outputs: outputs, batch: 23,
				split: splits[(d+n)%3], logitScale: []float64{0.05, 1, 4}[d%3]})
		}
	}
	// a regression-like and a multiclass single tree with both main splits
	for _, s := range splits {
		cs = append(cs,
			gradCase{trees: 1, depth: 5, features: 6, outputs: 1, batch: 40, split: s, logitScale: 1},
			gradCase{trees: 1, depth: 4, features: 5, outputs: 3, batch: 31, split: s, logitScale: 0.3},
		)
	}
	// ensembles (GRANDE): leaf weights, one weight per tree, none; subsets; dropout
	for i, d := range []int{1, 2, 3, 4, 6, 8} {
		for mi, mode := range []WeightMode{LeafWeights, EstimatorWeights, NoWeights} {
			cs = append(cs, gradCase{trees: 2 + (i+mi)%4, depth: d, features: 9, subset: []int{0, 4, 9}[(i+mi)%3],
				outputs: []int{1, 3}[(i+mi)%2], batch: 19, split: splits[(i+mi)%3], mode: mode,
				dropout: []float64{0, 0.3, 0.6}[(i+2*mi)%3], logitScale: []float64{0.05, 1, 3}[i%3]})
		}
	}
	// GRANDE-like: many shallow trees, subsets, dropout that drops whole rows sometimes
	cs = append(cs,
		gradCase{trees: 16, depth: 3, features: 12, subset: 5, outputs: 1, batch: 12, split: Softsign, mode: LeafWeights, dropout: 0.5, logitScale: 0.05},
		gradCase{trees: 3, depth: 2, features: 4, subset: 2, outputs: 2, batch: 30, split: Softsign, mode: LeafWeights, dropout: 0.9, logitScale: 2},
		gradCase{trees: 1, depth: 3, features: 4, outputs: 2, batch: 20, split: Sigmoid, mode: LeafWeights, dropout: 0.4, logitScale: 1},
	)
	return cs
}

// TestGradientsMatchDenseReference is the proof of correctness: the sparse
// kernel's outputs and gradients (index logits, thresholds, leaf values,
// leaf weights, inputs) equal the dense float64 thesis formulation of
// reference_test.go. The kernel accumulates in float64 and rounds once to
// float32, so the bound is 1e-6 relative per entry (observed: ≤ 6e-8, the
// float32 rounding of the result), with an absolute floor of 1e-7 × the
// tensor's largest entry; entries that are exactly 0 in the reference
// (off-path nodes, unselected thresholds, coordinates outside the entmax
// support, unreached leaves) must be exactly 0.
func TestGradientsMatchDenseReference(t *testing.T) {
	for ci, c := range gradCases() {
		t.Run(c.String(), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(ci), 7))
			k := randomKernel(t, c, r)
			x := randomSlice(r, c.batch*c.features)
			dy := randomSlice(r, c.batch*c.outputs)
			var keep []bool
			if c.dropout > 0 {
				keep = make([]bool, c.batch*c.trees)
				if err := DropoutMask(keep, c.dropout, uint64(ci)); err != nil {
					t.Fatal(err)
				}
			}
			out, grad, dX := runKernel(t, k, x, c.batch, keep, dy, true)
			ref := refFromKernel(k).run(to64(x), c.batch, keep, to64(dy))
			for _, v := range []struct {
				name string
				got  []float32
				want []float64
			}{
				{"y", out, ref.y}, {"dLeaves", grad.Leaves, ref.dLam}, {"dWeights", grad.LeafWeights, ref.dW},
				{"dThresholds", grad.Thresholds, ref.dT}, {"dIndexLogits", grad.IndexLogits, ref.dZ}, {"dX", dX, ref.dX},
			} {
				closeTo(t, v.name, v.got, v.want, 1e-6, 1e-7)
				for i, w := range v.want {
					if w == 0 && v.got[i] != 0 {
						t.Errorf("%s[%d] = %g, reference exactly 0", v.name, i, v.got[i])
					}
				}
			}
			sameWithoutDX(t, k, x, c.batch, keep, dy, grad)
		})
	}
}

// sameWithoutDX checks that Backward without input gradients (the fused
// pass when there are at least four trees per worker) gives the bits of
// want, the parameter gradients of the pass with input gradients, on one
// and on two workers: the fused pass meets the dense reference's bound
// because it computes the same values.
func sameWithoutDX(t *testing.T, k *Kernel, x []float32, B int, keep []bool, dy []float32, want *Params) {
	t.Helper()
	defer func() { _ = k.SetWorkers(0) }()
	for _, w := range []int{1, 2} {
		if err := k.SetWorkers(w); err != nil {
			t.Fatal(err)
		}
		_, grad, _ := runKernel(t, k, x, B, keep, dy, false)
		wt, gt := want.Tensors(), grad.Tensors()
		for i := range wt {
			for j := range wt[i].Data {
				if math.Float32bits(wt[i].Data[j]) != math.Float32bits(gt[i].Data[j]) {
					t.Fatalf("%d workers, no dX (fused: %v): %s[%d] = %v, with dX %v", w, k.e >= 4*w, wt[i].Name, j, gt[i].Data[j], wt[i].Data[j])
				}
			}
		}
	}
}

// TestReuseGradientSameAsFullClear runs a few steps with changing
// parameters and batches on two workspaces, one with ReuseGradient, and
// checks that the gradients agree bit for bit, also when the gradient is
// scaled between steps, when another gradient tensor is used for a step,
// when the batch is empty and when reuse is switched off and on again.
func TestReuseGradientSameAsFullClear(t *testing.T) {
	for _, c := range []gradCase{
		{trees: 6, depth: 4, features: 12, subset: 9, outputs: 1, batch: 20, split: Softsign, mode: LeafWeights, logitScale: 3},
		{trees: 3, depth: 3, features: 70, outputs: 2, batch: 9, split: Sigmoid, mode: NoWeights, logitScale: 0.05}, // n_e > 64: ignored
		{trees: 2, depth: 5, features: 8, outputs: 3, batch: 40, split: Entmoid, mode: EstimatorWeights, dropout: 0.3, logitScale: 1},
	} {
		t.Run(c.String(), func(t *testing.T) {
			r := rand.New(rand.NewPCG(11, 12))
			k := randomKernel(t, c, r)
			plain, reuse := k.NewWorkspace(), k.NewWorkspace()
			reuse.ReuseGradient(true)
			want, g1, g2 := k.NewParams(), k.NewParams(), k.NewParams()
			for step := 0; step < 9; step++ {
				B := c.batch
				if step == 4 {
					B = 0
				}
				x := randomSlice(r, B*c.features)
				dy := randomSlice(r, B*c.outputs)
				var keep []bool
				if c.dropout > 0 {
					keep = make([]bool, B*c.trees)
					_ = DropoutMask(keep, c.dropout, uint64(step))
				}
				out := make([]float32, B*c.outputs)
				g := g1
				if step == 5 {
					g = g2 // another tensor for one step, then back to g1
				}
				if step == 7 {
					reuse.ReuseGradient(false)
				}
				if step == 8 {
					reuse.ReuseGradient(true)
				}
				for _, ws := range []*Workspace{plain, reuse} {
					if err := k.Forward(ws, x, B, keep, out); err != nil {
						t.Fatal(err)
					}
				}
				if err := k.Backward(plain, dy, want, nil); err != nil {
					t.Fatal(err)
				}
				if err := k.Backward(reuse, dy, g, nil); err != nil {
					t.Fatal(err)
				}
				if err := k.SetWorkers(1 + step%2); err != nil { // both ways of building the bitsets
					t.Fatal(err)
				}
				zb, tb := reuse.GradientSupport()
				ne := c.subset
				if ne == 0 {
					ne = c.features
				}
				if tracked := step != 7 && ne <= 64; tracked != (zb != nil && tb != nil) {
					t.Fatalf("step %d: GradientSupport tracked %v, want %v", step, zb != nil, tracked)
				}
				for _, gs := range []struct {
					v []float32
					b []uint64
				}{{g.IndexLogits, zb}, {g.Thresholds, tb}} {
					for j, v := range gs.v {
						if gs.b != nil && (v != 0) != (gs.b[j/64]>>(j%64)&1 == 1) {
							t.Fatalf("step %d: gradient entry %d = %v, in GradientSupport %v", step, j, v, gs.b[j/64]>>(j%64)&1 == 1)
						}
					}
				}
				wt, gt := want.Tensors(), g.Tensors()
				for i := range wt {
					for j := range wt[i].Data {
						if math.Float32bits(wt[i].Data[j]) != math.Float32bits(gt[i].Data[j]) {
							t.Fatalf("step %d, %s[%d]: %v with ReuseGradient, %v without", step, wt[i].Name, j, gt[i].Data[j], wt[i].Data[j])
						}
					}
				}
				// an optimiser-like change of the parameters, a scaling of g
				p := k.Params()
				for i := range p.IndexLogits {
					p.IndexLogits[i] += float32(r.NormFloat64() * 0.3)
					p.Thresholds[i] += float32(r.NormFloat64() * 0.1)
				}
				k.Prepare()
				for _, ts := range g.Tensors() {
					for j := range ts.Data {
						ts.Data[j] *= 0.5
					}
				}
			}
		})
	}
}
