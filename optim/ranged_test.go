package optim

import (
	"math"
	"math/rand/v2"
	"sync"
	"testing"
)

// TestRangedSameAsStep: a step in pieces (BeginStep, Ranged.UpdateFrom on
// rows of two tensors from an outside gradient or Update from their own,
// on two goroutines, then
// EndStep) gives the bits of Step, over many steps of sparse gradients, for
// small (lazy) and large tensors and for the Keras and Torch rules, also
// when Step takes over afterwards.
func TestRangedSameAsStep(t *testing.T) {
	for _, tc := range []struct {
		rows, width int
		rule        Rule
	}{{40, 36, Keras}, {9000, 36, Keras}, {50, 13, Torch}, {60, 64, Keras}} {
		r := rand.New(rand.NewPCG(uint64(tc.rows), 3))
		n := tc.rows * tc.width
		type model struct {
			z, gz, t, gt, l, gl []float32
			a                   *Adam
		}
		mk := func() *model {
			m := &model{z: make([]float32, n), gz: make([]float32, n), t: make([]float32, n), gt: make([]float32, n),
				l: make([]float32, 100), gl: make([]float32, 100)}
			rr := rand.New(rand.NewPCG(1, 2))
			for i := range m.z {
				m.z[i], m.t[i] = float32(rr.NormFloat64()), float32(rr.NormFloat64())
			}
			var err error
			m.a, err = NewAdam(NewGroup(tc.rule, "z", 0.01, Param{"z", m.z, m.gz}),
				NewGroup(tc.rule, "t", 0.02, Param{"t", m.t, m.gt}), NewGroup(tc.rule, "l", 0.03, Param{"l", m.l, m.gl}))
			if err != nil {
				t.Fatal(err)
			}
			return m
		}
		plain, pieces := mk(), mk()
		zr, err := pieces.a.Ranged(pieces.z)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := pieces.a.Ranged(pieces.t)
		if err != nil {
			t.Fatal(err)
		}
		gz, gt := make([]float32, n), make([]float32, n)
		for step := 0; step < 60; step++ {
			clear(gz)
			clear(gt)
			for row := 0; row < tc.rows; row++ {
				if r.IntN(3) == 0 {
					continue // an untouched row
				}
				for c := 0; c < tc.width; c++ {
					if r.IntN(4) > 0 {
						gz[row*tc.width+c] = float32(r.NormFloat64())
					}
				}
				gt[row*tc.width+r.IntN(min(tc.width, 3+step/10))] = float32(r.NormFloat64())
			}
			gl := make([]float32, 100)
			for i := range gl {
				gl[i] = float32(r.NormFloat64())
			}
			copy(plain.gz, gz)
			copy(plain.gt, gt)
			copy(plain.gl, gl)
			plain.a.Step()
			copy(pieces.gl, gl)
			if step >= 50 {
				// Step takes over
				copy(pieces.gz, gz)
				copy(pieces.gt, gt)
				pieces.a.Step()
			} else {
				pieces.a.BeginStep()
				var wg sync.WaitGroup
				for w := 0; w < 2; w++ {
					wg.Add(1)
					go func(w int) {
						defer wg.Done()
						for row := w; row < tc.rows; row += 2 {
							lo, hi := row*tc.width, (row+1)*tc.width
							zr.UpdateFrom(lo, hi, gz[lo:hi])
							if row%3 == 0 {
								copy(pieces.gt[lo:hi], gt[lo:hi]) // the tensor's own gradient
								tr.Update(lo, hi)
							} else {
								tr.UpdateFrom(lo, hi, gt[lo:hi])
							}
						}
					}(w)
				}
				wg.Wait()
				pieces.a.EndStep(pieces.z, pieces.t)
			}
			for _, pair := range [][2][]float32{{plain.z, pieces.z}, {plain.t, pieces.t}, {plain.l, pieces.l}} {
				for i := range pair[0] {
					if math.Float32bits(pair[0][i]) != math.Float32bits(pair[1][i]) {
						t.Fatalf("%d×%d %v step %d entry %d: pieces %v, Step %v", tc.rows, tc.width, tc.rule, step, i, pair[1][i], pair[0][i])
					}
				}
			}
		}
	}
}
