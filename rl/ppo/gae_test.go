package ppo

import (
	"math"
	"testing"
)

// TestGAEHand checks GAE against hand-computed values: one environment,
// four steps, γ = 0.9, λ = 0.5.
func TestGAEHand(t *testing.T) {
	const g, l = 0.9, 0.5
	r := []float32{1, 2, 3, 4}
	v := []float32{0.5, 1, 1.5, 2}
	last := []float32{10}
	cases := []struct {
		name  string
		ended []bool
		boot  []float32
		want  []float64
	}{
		{
			// No episode end: δ = r + γV' − V with V' = V(next), A_3 = δ_3.
			name:  "no end",
			ended: []bool{false, false, false, false},
			boot:  make([]float32, 4),
		},
		{
			// Terminated after step 1: no bootstrap (next value 0), and the
			// advantage does not flow from step 2 into step 1.
			name:  "terminated",
			ended: []bool{false, true, false, false},
			boot:  []float32{0, 0, 0, 0},
		},
		{
			// Truncated after step 1 with V(final obs) = 7: bootstrap from 7.
			name:  "truncated",
			ended: []bool{false, true, false, false},
			boot:  []float32{0, 7, 0, 0},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// Hand recursion in float64.
			next := []float64{1, 1.5, 2, 10}
			want := make([]float64, 4)
			a := 0.0
			for i := 3; i >= 0; i-- {
				nv, cont := next[i], 1.0
				if c.ended[i] {
					nv, cont = float64(c.boot[i]), 0
				}
				d := float64(r[i]) + g*nv - float64(v[i])
				a = d + g*l*cont*a
				want[i] = a
			}
			adv := make([]float32, 4)
			ret := make([]float32, 4)
			GAE(4, 1, r, v, c.boot, c.ended, last, g, l, adv, ret)
			for i := range want {
				if math.Abs(float64(adv[i])-want[i]) > 1e-5 || math.Abs(float64(ret[i])-(want[i]+float64(v[i]))) > 1e-5 {
					t.Errorf("step %d: adv %v ret %v, want %v %v", i, adv[i], ret[i], want[i], want[i]+float64(v[i]))
				}
			}
		})
	}
	// Spot values written out by hand for the terminated case:
	// δ3 = 4 + 0.9·10 − 2 = 11, A3 = 11; δ2 = 3 + 0.9·2 − 1.5 = 3.3,
	// A2 = 3.3 + 0.45·11 = 8.25; δ1 = 2 + 0 − 1 = 1, A1 = 1 (terminated);
	// δ0 = 1 + 0.9·1 − 0.5 = 1.4, A0 = 1.4 + 0.45·1 = 1.85.
	adv := make([]float32, 4)
	ret := make([]float32, 4)
	GAE(4, 1, r, v, make([]float32, 4), []bool{false, true, false, false}, last, g, l, adv, ret)
	for i, w := range []float32{1.85, 1, 8.25, 11} {
		if math.Abs(float64(adv[i]-w)) > 1e-5 {
			t.Errorf("terminated: A%d = %v, want %v", i, adv[i], w)
		}
	}
	// Truncated after step 1 with V(final) = 7: δ1 = 2 + 0.9·7 − 1 = 7.3.
	GAE(4, 1, r, v, []float32{0, 7, 0, 0}, []bool{false, true, false, false}, last, g, l, adv, ret)
	if math.Abs(float64(adv[1]-7.3)) > 1e-5 || math.Abs(float64(adv[0]-(1.4+0.45*7.3))) > 1e-5 {
		t.Errorf("truncated: A1 = %v, A0 = %v", adv[1], adv[0])
	}
}

// TestGAEEnvsIndependent checks the [T][E] layout: environments do not mix.
func TestGAEEnvsIndependent(t *testing.T) {
	r := []float32{1, 0, 1, 0}
	v := []float32{0, 0, 0, 0}
	ended := []bool{false, false, false, false}
	adv := make([]float32, 4)
	ret := make([]float32, 4)
	GAE(2, 2, r, v, make([]float32, 4), ended, []float32{0, 0}, 1, 1, adv, ret)
	want := []float32{2, 0, 1, 0}
	for i := range want {
		if adv[i] != want[i] {
			t.Fatalf("adv = %v, want %v", adv, want)
		}
	}
}
