package ppo

import (
	"fmt"
	"math"
	"testing"

	"github.com/gdt-ml/gdt/rl/env"
	"github.com/gdt-ml/gdt/rng"
)

// countEnv counts its steps: observation [t], reward 1, never terminates;
// its time limit (3 steps) is a truncation.
type countEnv struct{ t int }

func (c *countEnv) Spec() env.Spec {
	return env.Spec{ID: "TestCount-v0", Observation: env.Space{Dim: 1}, Action: env.Space{N: 2, Dim: 1},
		MaxEpisodeSteps: 3, FeatureNames: []string{"t"}, ActionNames: []string{"a", "b"}}
}
func (c *countEnv) Seed(uint64)                     {}
func (c *countEnv) AppendRandState(b []byte) []byte { return b } // no generator
func (c *countEnv) SetRandState(b []byte) error {
	if len(b) != 0 {
		return fmt.Errorf("%d bytes, want none", len(b))
	}
	return nil
}
func (c *countEnv) Reset(obs []float32) { c.t = 0; obs[0] = 0 }
func (c *countEnv) Step(_, obs []float32) (float32, bool) {
	c.t++
	obs[0] = float32(c.t)
	return 1, false
}

func init() { env.Register("TestCount-v0", func() env.Env { return &countEnv{} }) }

func testConfig(t *testing.T) Config {
	c, err := Preset("TestCount-v0", MethodSYMPOL)
	if err != nil {
		t.Fatal(err)
	}
	c.NEnvs, c.NSteps, c.Minibatch, c.Epochs = 2, 6, 4, 1
	c.DynamicBuffer, c.CriticWidth, c.CriticLayers, c.TotalSteps, c.EvalEpisodes = false, 8, 1, 1000, 0
	return c
}

// TestTruncation checks the done bookkeeping at a time limit: the default
// ends the episode and bootstraps from V(final observation); the reference
// profile does not store a Gymnasium truncation as done.
func TestTruncation(t *testing.T) {
	for _, ref := range []bool{false, true} {
		c := testConfig(t)
		c.TruncationReference = ref
		tr, err := New(c, testNets{})
		if err != nil {
			t.Fatal(err)
		}
		v := make([]float32, 1) // the critic changes only after the rollout
		if err := tr.critic.Predict([]float32{3}, 1, v); err != nil {
			t.Fatal(err)
		}
		if _, err := tr.Iterate(); err != nil {
			t.Fatal(err)
		}
		for s := 0; s < 6; s++ {
			for e := 0; e < 2; e++ {
				i := s*2 + e
				end := s%3 == 2
				wantEnded := end && !ref
				if tr.ended[i] != wantEnded {
					t.Errorf("reference=%v step %d env %d: ended %v, want %v", ref, s, e, tr.ended[i], wantEnded)
				}
				if wantEnded && tr.boot[i] != v[0] {
					t.Errorf("step %d env %d: bootstrap %v, want V(final obs) = %v", s, e, tr.boot[i], v[0])
				}
				if tr.obs[i] != float32(s%3) {
					t.Errorf("step %d env %d: observation %v, want %d", s, e, tr.obs[i], s%3)
				}
			}
		}
	}
}

// TestAccumulation counts actor optimiser steps per iteration: the default
// takes one step per K minibatches; the reference two per minibatch while
// K = 1 and one per minibatch afterwards.
func TestAccumulation(t *testing.T) {
	for _, c := range []struct {
		ref   bool
		k     int
		steps int64 // actor steps of one iteration with 3 minibatches
	}{{false, 1, 3}, {true, 1, 6}, {false, 2, 2}, {true, 2, 3}, {false, 4, 1}} {
		cfg := testConfig(t)
		cfg.AccumReference = c.ref
		tr, err := New(cfg, testNets{})
		if err != nil {
			t.Fatal(err)
		}
		// 12 samples, minibatch 4: 3 minibatches; K forced through the
		// schedule's factor at this step.
		tr.sched.Dynamic, tr.sched.Static = false, false
		tr.global = 0
		for tr.sched.Accumulation(tr.global) != c.k {
			tr.global += 1000 / 8
		}
		tr.cfg.TotalSteps = 1 << 30
		if _, err := tr.Iterate(); err != nil {
			t.Fatal(err)
		}
		if got := tr.aOpt.Steps(); got != c.steps {
			t.Errorf("reference=%v K=%d: %d actor steps, want %d", c.ref, c.k, got, c.steps)
		}
		if got := tr.cOpt.Steps(); got != 3 {
			t.Errorf("critic steps %d, want 3", got)
		}
	}
}

// TestRewardScale checks that reward_scale multiplies the rewards the
// critic's targets are built from, and only those: the training episodes'
// returns stay raw.
func TestRewardScale(t *testing.T) {
	for _, scale := range []float64{1, 0.25, 3} {
		c := testConfig(t)
		c.RewardScale = scale
		tr, err := New(c, testNets{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tr.Iterate(); err != nil {
			t.Fatal(err)
		}
		for i, r := range tr.rew[:12] {
			if r != float32(scale) {
				t.Fatalf("scale %v: stored reward %d is %v, want %v", scale, i, r, float32(scale))
			}
		}
		if tr.episodes == 0 {
			t.Fatalf("scale %v: no finished episode", scale)
		}
		for _, ret := range tr.recent[:min(tr.recentN, len(tr.recent))] {
			if ret != 3 {
				t.Errorf("scale %v: episode return %v, want the raw 3", scale, ret)
			}
		}
	}
	c := testConfig(t)
	c.RewardScale = 0
	if err := c.Validate(); err == nil {
		t.Error("reward_scale 0 accepted")
	}
}

// TestLogitScale checks logit_scale_end's schedule (1 at an attempt's
// start, rising linearly to the option at its end) and that the rollout
// samples from the scaled logits: the stored log-probabilities are those
// of softmax(scale·logits).
func TestLogitScale(t *testing.T) {
	c := testConfig(t)
	c.LogitScaleEnd = 5
	tr, err := New(c, testNets{})
	if err != nil {
		t.Fatal(err)
	}
	total := tr.sched.Total
	for _, tc := range []struct {
		rel  int
		want float64
	}{{0, 1}, {total / 2, 3}, {total, 5}, {2 * total, 5}} {
		if got := tr.logitScaleAt(tc.rel); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("logitScaleAt(%d of %d) = %v, want %v", tc.rel, total, got, tc.want)
		}
	}
	// Leaves of their own, so that the logits differ between actions.
	r := rng.New(7)
	for _, ts := range tr.actor.Tensors() {
		if ts.Name == "leaf_array" {
			for k := range ts.Value {
				ts.Value[k] = float32(r.NormFloat64())
			}
		}
	}
	tr.actor.Changed()
	tr.logitScale = 3
	if err := tr.rollout(2, rng.New(1)); err != nil {
		t.Fatal(err)
	}
	out := make([]float32, tr.A)
	for i := 0; i < 2*tr.E; i++ {
		if err := tr.actor.Predict(tr.obs[i*tr.F:(i+1)*tr.F], 1, out); err != nil {
			t.Fatal(err)
		}
		scaleLogits(out, 3)
		want := tr.dist.LogProb(out, nil, tr.act[i*tr.AD:(i+1)*tr.AD])
		if math.Abs(float64(tr.logp[i])-want) > 1e-5 {
			t.Errorf("row %d: stored log-probability %v, want %v under the scaled logits", i, tr.logp[i], want)
		}
	}
}
