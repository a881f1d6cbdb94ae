package env_test

import (
	"math"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/rl/env"
	"github.com/gdt-ml/gdt/rl/env/lunar"
)

func TestScaling(t *testing.T) {
	s := lunar.Scaling
	if err := s.Check(8); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		s    env.Scaling
		dim  int
		want string
	}{
		{"width", s, 6, "6 observation components"},
		{"divisor", env.Scaling{Sub: []float32{0}, Div: []float32{0}}, 1, "divisor 0 is 0"},
		{"nan divisor", env.Scaling{Sub: []float32{0}, Div: []float32{float32(math.NaN())}}, 1, "must be positive"},
	} {
		if err := tc.s.Check(tc.dim); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	// Spec §1.5: x/1.5, y/1.5, vx/5, vy/5, angle/3.14, angvel/5, (leg−1)/0.5.
	raw := []float32{0.3, 1.2, -2, 4, 1, -0.5, 1, 0}
	want := []float32{0.3 / 1.5, 1.2 / 1.5, -2.0 / 5, 4.0 / 5, 1 / 3.14, -0.5 / 5, 0, -2}
	got := make([]float32, 8)
	s.Apply(got, raw)
	for i := range got {
		if math.Abs(float64(got[i]-want[i])) > 1e-7 {
			t.Errorf("component %d: %g, want %g", i, got[i], want[i])
		}
		if r := s.Raw(i, float64(got[i])); math.Abs(r-float64(raw[i])) > 1e-6 {
			t.Errorf("component %d: Raw(Apply(x)) = %g, want %g", i, r, raw[i])
		}
	}
}

// TestScaledEnv checks that a scaled LunarLander reports the scaled
// observation of the raw one, step for step, and scaled bounds.
func TestScaledEnv(t *testing.T) {
	m, err := env.MakerOf(lunar.ID)
	if err != nil {
		t.Fatal(err)
	}
	raw, scaled := m(), env.Scaled(m, lunar.Scaling)()
	raw.Seed(7)
	scaled.Seed(7)
	ro, so, want := make([]float32, 8), make([]float32, 8), make([]float32, 8)
	raw.Reset(ro)
	scaled.Reset(so)
	for step := 0; step < 200; step++ {
		lunar.Scaling.Apply(want, ro)
		for i := range want {
			if so[i] != want[i] {
				t.Fatalf("step %d component %d: scaled env %g, scaled raw %g", step, i, so[i], want[i])
			}
		}
		a := []float32{float32(step % 4)}
		r1, d1 := raw.Step(a, ro)
		r2, d2 := scaled.Step(a, so)
		if r1 != r2 || d1 != d2 {
			t.Fatalf("step %d: reward/termination differ: %g %v vs %g %v", step, r1, d1, r2, d2)
		}
		if d1 {
			break
		}
	}
	sp := scaled.Spec().Observation
	wantLow := []float32{-1, -1, -1, -1, float32(-math.Pi) / 3.14, -1, -2, -2}
	wantHigh := []float32{1, 1, 1, 1, float32(math.Pi) / 3.14, 1, 0, 0}
	for i := range wantLow {
		if sp.Low[i] != wantLow[i] || sp.High[i] != wantHigh[i] {
			t.Errorf("bound %d: [%g, %g], want [%g, %g]", i, sp.Low[i], sp.High[i], wantLow[i], wantHigh[i])
		}
	}
	if raw.Spec().Observation.Low[6] != 0 {
		t.Error("scaling changed the raw environment's bounds")
	}
	if _, ok := env.ScalingOf(lunar.ID); !ok {
		t.Error("LunarLander's scaling is not registered")
	}
	if _, ok := env.ScalingOf("CartPole-v1"); ok {
		t.Error("CartPole has a registered scaling; the thesis uses raw observations")
	}
}
