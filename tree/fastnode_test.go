package tree

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestFastKernelsMatchScalar: the vector loops of the fast node path give
// the bits of their scalar definitions, for every row length up to 80
// (full and partial vectors, more than four vectors).
func TestFastKernelsMatchScalar(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for ne := 1; ne <= 80; ne++ {
		for trial := 0; trial < 20; trial++ {
			scale := []float64{0.05, 1, 5}[trial%3]
			z, tr, x := make([]float32, ne), make([]float32, ne), make([]float32, ne)
			for k := range z {
				z[k] = float32(r.NormFloat64() * scale)
				tr[k] = float32(r.NormFloat64())
				x[k] = float32(r.NormFloat64())
			}
			m := z[argmax(z)]
			tau := float32(-1 + r.Float64())
			a1, a2, an, am := rowStatsGo(z, m, tau)
			b1, b2, bn, bm := fastRowStats(z, m, tau)
			if math.Float32bits(a1) != math.Float32bits(b1) || math.Float32bits(a2) != math.Float32bits(b2) || an != bn || math.Float32bits(am) != math.Float32bits(bm) {
				t.Fatalf("ne %d: rowStats %v %v %v %v, scalar %v %v %v %v", ne, b1, b2, bn, bm, a1, a2, an, am)
			}
			D := float32(r.NormFloat64())
			t1, ok1 := entmaxFirstGo(z, m)
			t2, ok2 := fastEntmaxFirst(z, m)
			if ok1 != ok2 || math.Float32bits(t1) != math.Float32bits(t2) {
				t.Fatalf("ne %d scale %v: entmaxFirst %v %v, scalar %v %v", ne, scale, t2, ok2, t1, ok1)
			}
			// the fused VJP with X gathered from a wider accumulator
			acc := randomSlice(r, ne+7)
			idx := make([]int32, ne)
			for k := range idx {
				idx[k] = int32(r.IntN(len(acc)))
			}
			e1, e2 := make([]float32, ne+1), make([]float32, ne+1)
			e1[ne], e2[ne] = 5, 5
			f1 := vjpGo(z, tr, acc, idx, e1[:ne], m, tau, D, make([]float32, ne))
			f2 := fastVJP(z, tr, acc, idx, e2[:ne], m, tau, D, make([]float32, ne))
			if f1 != f2 {
				t.Fatalf("ne %d: vjp mask %x, scalar %x", ne, f2, f1)
			}
			for k := range e1 {
				if math.Float32bits(e1[k]) != math.Float32bits(e2[k]) {
					t.Fatalf("ne %d: vjp[%d] = %v, scalar %v", ne, k, e2[k], e1[k])
				}
			}
		}
	}
	for _, n := range []int{1, 15, 16, 17, 36, 46, 64, 65, 130} {
		for _, rows := range []int{0, 1, 3, 40} {
			x := randomSlice(r, (rows+2)*n)
			const slots = 5
			stride := (n + 15) &^ 15
			xo, no := make([]int32, rows), make([]int32, rows)
			dl := make([]float32, rows)
			for i := range xo {
				xo[i] = int32(r.IntN(rows+2) * n)
				no[i] = int32(r.IntN(slots) * stride)
				dl[i] = float32(r.NormFloat64())
			}
			a, b := randomSlice(r, slots*stride), make([]float32, slots*stride)
			copy(b, a)
			scatterRowsGo(a, n, x, xo, no, dl)
			fastScatterRows(b, n, x, xo, no, dl)
			for c := range a {
				if c%stride < n && math.Float32bits(a[c]) != math.Float32bits(b[c]) {
					t.Fatalf("n %d rows %d: scatterRows[%d] = %v, scalar %v", n, rows, c, b[c], a[c])
				}
				if c%stride >= n && a[c] != b[c] {
					t.Fatalf("n %d rows %d: scatterRows changed pad lane %d: %v, was %v", n, rows, c, b[c], a[c])
				}
			}
		}
	}
}

// TestEntmaxTau32 compares the float32 threshold with the float64 one.
func TestEntmaxTau32(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	for trial := 0; trial < 3000; trial++ {
		ne := 1 + r.IntN(70)
		z := make([]float32, ne)
		scale := []float64{0.01, 0.3, 1, 4, 30}[trial%5]
		for k := range z {
			z[k] = float32(r.NormFloat64() * scale)
		}
		if trial%7 == 0 {
			for k := range z {
				z[k] = z[0] // ties: uniform
			}
		}
		m := z[argmax(z)]
		tau, ok := entmaxTau32(z, m)
		if !ok {
			t.Fatalf("trial %d: no threshold for %v", trial, z)
		}
		_, want := entmaxTau(z)
		if math.Abs(float64(tau)-want) > 2e-6*math.Max(1, math.Abs(want)) {
			t.Fatalf("trial %d (ne %d, scale %v): τ = %v, float64 %v", trial, ne, scale, tau, want)
		}
		// Σ p = 1 up to float32 rounding
		var sum float64
		for _, v := range z {
			if s := (v-m)*0.5 - tau; s > 0 {
				sum += float64(s) * float64(s)
			}
		}
		if math.Abs(sum-1) > 1e-5 {
			t.Fatalf("trial %d: Σp = %v", trial, sum)
		}
	}
}

// TestFastGradientsMatchDenseReference is TestGradientsMatchDenseReference
// for Config.Fast: the float32 node path agrees with the dense float64
// reference within 1e−5 relative, with an absolute floor of 1e−7 × the
// tensor's largest entry (a small entry of a row is the difference of
// float32 sums of the row's scale: the float64 path needs 1e−6 relative
// and 1e−13 × the largest entry), and exact zeros stay
// exact, except that an index logit at the edge of the entmax support may
// move in or out of it by float32 rounding (none occurs in these cases).
func TestFastGradientsMatchDenseReference(t *testing.T) {
	for ci, c := range gradCases() {
		t.Run(c.String(), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(ci), 7))
			k := randomKernel(t, c, r)
			k.cfg.Fast = true
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
				closeTo(t, v.name, v.got, v.want, 1e-5, 0.01)
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

// TestFastDeterministicAcrossWorkers: the fast path gives the same bits
// for any number of workers.
func TestFastDeterministicAcrossWorkers(t *testing.T) {
	for ci, c := range []gradCase{
		{trees: 37, depth: 5, features: 20, subset: 8, outputs: 1, batch: 203, split: Softsign, mode: LeafWeights, dropout: 0.25, logitScale: 0.05},
		{trees: 5, depth: 6, features: 46, subset: 36, outputs: 1, batch: 64, split: Softsign, mode: LeafWeights, logitScale: 1},
		{trees: 3, depth: 4, features: 200, subset: 50, outputs: 2, batch: 50, split: Softsign, mode: LeafWeights, logitScale: 1},
	} {
		t.Run(fmt.Sprint(c), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(ci), 98))
			k := randomKernel(t, c, r)
			k.cfg.Fast = true
			x := randomSlice(r, c.batch*c.features)
			dy := randomSlice(r, c.batch*c.outputs)
			var first [][]float32
			for _, w := range []int{1, 2, 3, 8} {
				if err := k.SetWorkers(w); err != nil {
					t.Fatal(err)
				}
				k.Prepare()
				_, grad, dX := runKernel(t, k, x, c.batch, nil, dy, true)
				all := [][]float32{grad.IndexLogits, grad.Thresholds, grad.Leaves, grad.LeafWeights, dX}
				if first == nil {
					first = all
					continue
				}
				for i := range all {
					for j := range all[i] {
						if math.Float32bits(all[i][j]) != math.Float32bits(first[i][j]) {
							t.Fatalf("workers %d: tensor %d entry %d = %v, with 1 worker %v", w, i, j, all[i][j], first[i][j])
						}
					}
				}
			}
		})
	}
}

// BenchmarkEntmaxTau32 times the float32 threshold search per row (36
// columns, as a default GRANDE tree on PhishingWebsites) against the float64
// support search of the precise path.
func BenchmarkEntmaxTau32(b *testing.B) {
	for _, scale := range []float64{0.05, 3} {
		r := rand.New(rand.NewPCG(1, 2))
		rows := make([][]float32, 1024)
		for i := range rows {
			rows[i] = make([]float32, 36)
			for k := range rows[i] {
				rows[i][k] = float32(r.NormFloat64() * scale)
			}
		}
		b.Run(fmt.Sprintf("float32/logit-std=%v", scale), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				z := rows[i%1024]
				entmaxTau32(z, z[argmax(z)])
			}
		})
		b.Run(fmt.Sprintf("float64/logit-std=%v", scale), func(b *testing.B) {
			idx := make([]int32, 36)
			sv := make([]float64, 36)
			for i := 0; i < b.N; i++ {
				z := rows[i%1024]
				entmaxSupport(z, float64(z[argmax(z)]), idx, sv)
			}
		})
	}
}

// recordNodes is a NodeUpdater that copies the gradients it receives into
// full tensors and then takes a small step on the rows.
type recordNodes struct {
	p      *Params
	ne     int
	gz, gt []float32
}

func (u *recordNodes) UpdateNodes(lo, hi int, gz, gt []float32, sel []int32) {
	copy(u.gz[lo*u.ne:hi*u.ne], gz)
	copy(u.gt[lo*u.ne:hi*u.ne], gt)
	for r := range sel {
		for c := 0; c < u.ne; c++ {
			if c != int(sel[r]) && gt[r*u.ne+c] != 0 {
				panic("threshold gradient outside the selected column")
			}
		}
	}
	z, t := u.p.IndexLogits[lo*u.ne:hi*u.ne], u.p.Thresholds[lo*u.ne:hi*u.ne]
	for i := range z {
		z[i] -= 0.5 * gz[i]
		t[i] -= 0.5 * gt[i]
	}
}

// TestNodeUpdater: a NodeUpdater receives exactly the node gradients
// Backward writes without one (for both node paths and both kinds of
// units), Backward leaves grad's node tensors alone, and afterwards the
// kernel's selection is what Prepare gives for the updated parameters.
func TestNodeUpdater(t *testing.T) {
	for ci, c := range []gradCase{
		{trees: 9, depth: 4, features: 12, subset: 7, outputs: 1, batch: 50, split: Softsign, mode: LeafWeights, logitScale: 1},
		{trees: 2, depth: 5, features: 6, outputs: 2, batch: 40, split: Sigmoid, mode: LeafWeights, logitScale: 3},
	} {
		for _, fast := range []bool{false, true} {
			r := rand.New(rand.NewPCG(uint64(ci), 11))
			k := randomKernel(t, c, r)
			k.cfg.Fast = fast
			_ = k.SetWorkers(2)
			x := randomSlice(r, c.batch*c.features)
			dy := randomSlice(r, c.batch*c.outputs)
			_, want, _ := runKernel(t, k, x, c.batch, nil, dy, false)
			ws := k.NewWorkspace()
			u := &recordNodes{p: k.Params(), ne: k.SubsetSize(), gz: make([]float32, len(want.IndexLogits)), gt: make([]float32, len(want.Thresholds))}
			ws.SetNodeUpdater(u)
			out := make([]float32, c.batch*c.outputs)
			if err := k.Forward(ws, x, c.batch, nil, out); err != nil {
				t.Fatal(err)
			}
			grad := k.NewParams()
			if err := k.Backward(ws, dy, grad, nil); err != nil {
				t.Fatal(err)
			}
			for i := range want.IndexLogits {
				if math.Float32bits(u.gz[i]) != math.Float32bits(want.IndexLogits[i]) || math.Float32bits(u.gt[i]) != math.Float32bits(want.Thresholds[i]) {
					t.Fatalf("case %d fast %v: entry %d: updater got %v, %v; Backward writes %v, %v", ci, fast, i, u.gz[i], u.gt[i], want.IndexLogits[i], want.Thresholds[i])
				}
				if grad.IndexLogits[i] != 0 || grad.Thresholds[i] != 0 {
					t.Fatalf("case %d fast %v: grad's node entry %d written", ci, fast, i)
				}
			}
			for i := range want.Leaves {
				if math.Float32bits(grad.Leaves[i]) != math.Float32bits(want.Leaves[i]) {
					t.Fatalf("case %d fast %v: leaf gradient %d = %v, want %v", ci, fast, i, grad.Leaves[i], want.Leaves[i])
				}
			}
			sel := append([]int32(nil), k.sel...)
			thr := append([]float32(nil), k.selThr...)
			k.Prepare()
			for i := range sel {
				if sel[i] != k.sel[i] || math.Float32bits(thr[i]) != math.Float32bits(k.selThr[i]) {
					t.Fatalf("case %d fast %v: row %d selected %d (%v) after Backward, Prepare gives %d (%v)", ci, fast, i, sel[i], thr[i], k.sel[i], k.selThr[i])
				}
			}
		}
	}
}
