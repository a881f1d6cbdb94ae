package grande

import (
	"context"
	"math"
	"testing"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/rng"
)

// TestFusedStepSameAsPlain: the Adam update fused into the backward pass
// (node rows updated and selected anew inside Backward) gives the same
// parameters, bit for bit, as Backward followed by a plain Adam step and
// Prepare, with and without the fast node path, for any number of workers.
func TestFusedStepSameAsPlain(t *testing.T) {
	const n, features = 300, 23
	x, y := benchData(n, features, 7)
	vx, vy := benchData(32, features, 8)
	for _, tc := range []struct {
		trees   int
		precise bool
		weights string
	}{{24, false, ""}, {24, true, ""}, {3, false, ""}, {24, false, "estimator"}} {
		precise := tc.precise
		var want [][]float32
		for _, variant := range []struct {
			fused   bool
			workers int
		}{{false, 1}, {true, 1}, {true, 2}, {true, 3}} {
			m := &Model{Task: data.Binary, Features: features, Outputs: 1, Classes: 2}
			c := Config{Trees: tc.trees, Depth: 4, Dropout: 0.25, Workers: variant.workers, Precise: precise, Weights: tc.weights}.Defaults(data.Binary)
			m.Config = c
			bs := BatchSize(c.BatchSize, n)
			lc, err := lossConfig(c, data.Binary, 1, y)
			if err != nil {
				t.Fatal(err)
			}
			r, err := m.newRun(c, 5, lc, bs, SubsetSize(c.SelectedVariables, features), x, y, vx, vy)
			if err != nil {
				t.Fatal(err)
			}
			r.fused = variant.fused
			order := rng.New(3).Perm(n)
			for i := 0; i < 12; i++ {
				lo := (i * bs) % (n - bs)
				if _, err := r.Step(order[lo : lo+bs]); err != nil {
					t.Fatal(err)
				}
				if i == 5 { // a restore in between (the kernel must prepare again)
					r.Snapshot()
					r.Restore()
				}
			}
			p := r.k.Params()
			got := [][]float32{p.IndexLogits, p.Thresholds, p.Leaves, p.LeafWeights}
			if want == nil {
				want = got
				continue
			}
			for ti := range got {
				for i := range got[ti] {
					if math.Float32bits(got[ti][i]) != math.Float32bits(want[ti][i]) {
						t.Fatalf("precise %v, fused %v, %d workers: tensor %d entry %d = %v, plain %v",
							precise, variant.fused, variant.workers, ti, i, got[ti][i], want[ti][i])
					}
				}
			}
		}
	}
}

// TestFastMatchesPrecise: short fits with the fast node path and with the
// precise one (multiclass and regression heads, many features per tree,
// one tree, depth 1, dropout) end close: the validation losses of the two
// agree to a few percent and the fast fit is deterministic and finite.
func TestFastMatchesPrecise(t *testing.T) {
	const n, features = 240, 90
	r := rng.New(11)
	x := data.NewMatrix(n, features)
	yc, yr := make([]float64, n), make([]float64, n)
	for i := 0; i < n; i++ {
		for j := 0; j < features; j++ {
			x.Set(i, j, float32(r.NormFloat64()))
		}
		v := x.At(i, 0) + 0.5*x.At(i, 3)
		yr[i] = float64(v)
		switch {
		case v > 0.5:
			yc[i] = 2
		case v > -0.5:
			yc[i] = 1
		}
	}
	tr := func(y []float64) *model.Data { return &model.Data{X: x.SubsetRows(seq(180)), Y: y[:180]} }
	va := func(y []float64) *model.Data {
		rows := make([]int, 60)
		for i := range rows {
			rows[i] = 180 + i
		}
		return &model.Data{X: x.SubsetRows(rows), Y: y[180:]}
	}
	for _, tc := range []struct {
		name string
		p    model.Problem
		y    []float64
		c    Config
	}{
		{"multiclass", model.Problem{Task: data.Multiclass, NumClasses: 3}, yc, Config{Trees: 12, Depth: 4, Dropout: 0.2}},
		{"regression", model.Problem{Task: data.Regression}, yr, Config{Trees: 12, Depth: 3}},
		{"wide-subsets", model.Problem{Task: data.Multiclass, NumClasses: 3}, yc, Config{Trees: 6, Depth: 3, SelectedVariables: 80}},
		{"one-tree", model.Problem{Task: data.Regression}, yr, Config{Trees: 1, Depth: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fit := func(precise bool) float64 {
				c := tc.c
				c.MaxEpochs, c.Precise, c.Workers = 6, precise, 2
				m := New(c)
				if err := m.Fit(context.Background(), tc.p, tr(tc.y), va(tc.y)); err != nil {
					t.Fatal(err)
				}
				l := m.Restarts[0].BestLoss
				if math.IsNaN(l) || math.IsInf(l, 0) {
					t.Fatalf("precise %v: validation loss %v", precise, l)
				}
				return l
			}
			fast, precise := fit(false), fit(true)
			if again := fit(false); again != fast {
				t.Fatalf("fast fit not deterministic: %v then %v", fast, again)
			}
			if math.Abs(fast-precise) > 0.05*math.Abs(precise)+1e-3 {
				t.Fatalf("validation loss fast %v, precise %v", fast, precise)
			}
		})
	}
}
