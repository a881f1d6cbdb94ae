package ppo

import (
	"math"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/rl/policy"
)

// TestAccumulatedStepSize checks the step that the default profile takes
// after accumulating n minibatch gradients (spec §3.6, intended): the mean
// gradient, with the actor learning rates multiplied by √n under AccumSqrt
// and unscaled under AccumMean. A first Adam step with a constant gradient
// moves every parameter by exactly lr (the bias-corrected m̂/√v̂ is ±1), so
// the parameter change is lr·scale.
func TestAccumulatedStepSize(t *testing.T) {
	for _, tc := range []struct {
		mode  string
		n     int
		scale float64
	}{
		{AccumSqrt, 4, 2},
		{AccumSqrt, 16, 4},
		{AccumSqrt, 1, 1},
		{AccumMean, 4, 1},
		{AccumMean, 16, 1},
	} {
		cfg := testConfig(t)
		cfg.AdamW = false
		cfg.AccumMode = tc.mode
		tr, err := New(cfg, testNets{})
		if err != nil {
			t.Fatal(err)
		}
		lr := map[string]float64{policy.GroupSplitValues: cfg.LRSplitValues, policy.GroupSplitIndex: cfg.LRSplitIndex,
			policy.GroupLeaves: cfg.LRLeaves, policy.GroupLogStd: cfg.LRLogStd}
		var before [][]float32
		for j, x := range tr.actor.Tensors() {
			before = append(before, append([]float32(nil), x.Value...))
			for k := range tr.acc[j] {
				tr.acc[j][k] = 0.5 * float32(tc.n) // n minibatch gradients of 0.5 each
			}
		}
		tr.flushAccum(tc.n)
		for j, x := range tr.actor.Tensors() {
			want := lr[x.Group] * tc.scale
			for k, v := range x.Value {
				if got := float64(before[j][k] - v); math.Abs(got-want) > 1e-6+1e-4*want {
					t.Fatalf("%s n=%d: %s[%d] moved by %g, want %g", tc.mode, tc.n, x.Name, k, got, want)
				}
			}
			for k, a := range tr.acc[j] {
				if a != 0 {
					t.Fatalf("%s n=%d: accumulator %s[%d] = %g after the step, want 0", tc.mode, tc.n, x.Name, k, a)
				}
			}
		}
		// The learning-rate scale is back to the plateau's afterwards: a
		// second step with the same gradient moves by lr again (scale 1).
		for j, x := range tr.actor.Tensors() {
			copy(before[j], x.Value)
			for k := range x.Grad {
				x.Grad[k] = 0.5
			}
		}
		tr.actorStep()
		for j, x := range tr.actor.Tensors() {
			want := lr[x.Group]
			for k, v := range x.Value {
				if got := float64(before[j][k] - v); math.Abs(got-want) > 1e-6+1e-4*want {
					t.Fatalf("%s n=%d: plain step after the accumulated one: %s[%d] moved by %g, want %g", tc.mode, tc.n, x.Name, k, got, want)
				}
			}
		}
	}
}

// TestAccumModeKey checks the accum_mode key: the default "auto" uses the
// square-root rule exactly for the configurations without reduce_lr,
// "mean" and "sqrt" can be chosen, anything else is rejected, and the
// reference profile's accumulation switch is independent of it.
func TestAccumModeKey(t *testing.T) {
	for _, tc := range []struct {
		env  string
		sqrt bool
	}{
		{"Pendulum-v1", true}, {"MiniGrid-Empty-Random-6x6-v0", true},
		{"MountainCarContinuous-v0", false}, {"CartPole-v1", false}, {"MiniGrid-DoorKey-5x5-v0", false},
	} {
		c, err := Preset(tc.env, MethodSYMPOL)
		if err != nil {
			t.Fatal(err)
		}
		if c.AccumMode != AccumAuto || c.SqrtAccum() != tc.sqrt {
			t.Errorf("%s: accum_mode %q, √K scaling %v, want %q, %v", tc.env, c.AccumMode, c.SqrtAccum(), AccumAuto, tc.sqrt)
		}
	}
	c, err := Preset("MountainCarContinuous-v0", MethodSYMPOL)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Set("accum_mode", "sqrt"); err != nil || !c.SqrtAccum() {
		t.Errorf("accum_mode=sqrt: %v, %v", err, c.SqrtAccum())
	}
	if err := c.Set("accum_mode", "mean"); err != nil || c.SqrtAccum() {
		t.Errorf("accum_mode=mean: %v, %v", err, c.SqrtAccum())
	}
	if err := c.Set("accum_mode", "sum"); err == nil || !strings.Contains(err.Error(), "expected one of auto, sqrt, mean") {
		t.Errorf(`accum_mode "sum": %v`, err)
	}
	c.AccumMode = "sum"
	if err := c.Validate(); err == nil {
		t.Error(`accum_mode "sum" accepted`)
	}
	c.AccumMode = AccumSqrt
	if err := c.SetProfile(ProfileReference); err != nil || !c.AccumReference {
		t.Errorf("reference profile: %v, accum_reference %v", err, c.AccumReference)
	}
}
