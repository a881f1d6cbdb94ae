package policy

import (
	"math"
	"testing"

	"github.com/gdt-ml/gdt/rng"
)

// TestDistFormulas checks the Gaussian log-density and entropy against
// their closed forms and the Categorical against a hand computation.
func TestDistFormulas(t *testing.T) {
	g := Dist{A: 2}
	mu := []float32{0.5, -1}
	ls := []float32{float32(math.Log(2)), 0}
	a := []float32{1.5, 0}
	// log N(1.5; 0.5, 2²) + log N(0; −1, 1) = −½(0.5)² − log 2 − ½log2π − ½ − ½log2π
	want := -0.125 - math.Log(2) - 0.5 - math.Log(2*math.Pi)
	if got := g.LogProb(mu, ls, a); math.Abs(got-want) > 1e-6 {
		t.Errorf("Gaussian log-prob %v, want %v", got, want)
	}
	wantH := 2*(0.5+0.5*math.Log(2*math.Pi)) + math.Log(2)
	if got := g.Entropy(mu, ls); math.Abs(got-wantH) > 1e-6 {
		t.Errorf("Gaussian entropy %v, want %v", got, wantH)
	}
	c := Dist{Discrete: true, A: 3}
	o := []float32{0, float32(math.Log(2)), float32(math.Log(5))} // p = 1/8, 2/8, 5/8
	if got := c.LogProb(o, nil, []float32{1}); math.Abs(got-math.Log(0.25)) > 1e-6 {
		t.Errorf("categorical log-prob %v, want %v", got, math.Log(0.25))
	}
	h := -(0.125*math.Log(0.125) + 0.25*math.Log(0.25) + 0.625*math.Log(0.625))
	if got := c.Entropy(o, nil); math.Abs(got-h) > 1e-6 {
		t.Errorf("categorical entropy %v, want %v", got, h)
	}
	// Sampling frequencies follow the probabilities.
	r := rng.New(1)
	counts := make([]int, 3)
	act := make([]float32, 1)
	for i := 0; i < 20000; i++ {
		c.Sample(o, nil, r, act)
		counts[int(act[0])]++
	}
	for i, p := range []float64{0.125, 0.25, 0.625} {
		if f := float64(counts[i]) / 20000; math.Abs(f-p) > 0.015 {
			t.Errorf("action %d sampled with frequency %.3f, want %.3f", i, f, p)
		}
	}
}
