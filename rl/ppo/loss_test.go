package ppo

import (
	"fmt"
	"math"
	"testing"

	"github.com/gdt-ml/gdt/rl/policy"
	"github.com/gdt-ml/gdt/rng"
)

// TestActorLossGradient checks the PPO and A2C actor-loss gradients against
// central finite differences of the loss: every tensor of the MLP actor,
// and the leaf values and log-std of the tree actor (its thresholds and
// split logits get straight-through gradients, which the tree kernel's own
// tests check against the dense formulation; the hard tree's loss is
// piecewise constant in them). Scale (logit_scale_end) multiplies a
// discrete actor's logits inside the loss.
func TestActorLossGradient(t *testing.T) {
	const F, B = 3, 24
	type mk func(d policy.Dist) (policy.Actor, error)
	makers := map[string]mk{
		"mlp-ref": func(d policy.Dist) (policy.Actor, error) {
			if !d.Discrete {
				return policy.NewMLPActor(F, d, []int{6}, 9)
			}
			return policy.NewMLPActorReference(F, d, 8, 2, 9)
		},
		"tree": func(d policy.Dist) (policy.Actor, error) { return policy.NewTreeActor(F, d, 3, 7, 1) },
		"mlp":  func(d policy.Dist) (policy.Actor, error) { return policy.NewMLPActor(F, d, []int{8, 8}, 7) },
	}
	for _, name := range []string{"tree", "mlp", "mlp-ref"} {
		for _, d := range []policy.Dist{{Discrete: true, A: 3}, {Discrete: false, A: 2}} {
			for _, ls := range []lossSpec{{Clip: 0.2, Ent: 0.1}, {Clip: 0.2, Ent: 0.05, A2C: true}, {Clip: 0.2, Ent: 0.1, Scale: 2.5}} {
				t.Run(fmt.Sprintf("%s/discrete=%v/a2c=%v/scale=%g", name, d.Discrete, ls.A2C, ls.Scale), func(t *testing.T) {
					a, err := makers[name](d)
					if err != nil {
						t.Fatal(err)
					}
					// Spread the tree's leaves so that the logits differ.
					r := rng.New(3)
					for _, ts := range a.Tensors() {
						if ts.Name == "leaf_array" || ts.Name == "log_std" {
							for k := range ts.Value {
								ts.Value[k] = float32(0.5 * r.NormFloat64())
							}
						}
					}
					a.Changed()
					checkLossGrad(t, a, ls, r, B, name != "tree")
				})
			}
		}
	}
}

func checkLossGrad(t *testing.T, a policy.Actor, ls lossSpec, r *rng.MT19937, B int, all bool) {
	d := a.Dist()
	F, A, AD := a.In(), d.Outputs(), d.ActionDim()
	obs := make([]float32, B*F)
	for i := range obs {
		obs[i] = float32(r.NormFloat64())
	}
	act := make([]float32, B*AD)
	out := make([]float32, B*A)
	if err := a.Predict(obs, B, out); err != nil {
		t.Fatal(err)
	}
	oldLogp := make([]float32, B)
	adv := make([]float32, B)
	offsets := []float64{-0.3, -0.05, 0, 0.05, 0.3} // ratios 1.35, 1.05, 1, 0.95, 0.74
	for j := 0; j < B; j++ {
		d.Sample(out[j*A:(j+1)*A], a.LogStd(), r, act[j*AD:(j+1)*AD])
		lp := d.LogProb(out[j*A:(j+1)*A], a.LogStd(), act[j*AD:(j+1)*AD])
		oldLogp[j] = float32(lp + offsets[j%len(offsets)])
		adv[j] = float32(r.NormFloat64())
	}
	dOut := make([]float32, B*A)
	if err := actorLossGrad(a, ls, obs, act, oldLogp, adv, B, out, dOut); err != nil {
		t.Fatal(err)
	}
	checked, nonzero := 0, 0
	for _, ts := range a.Tensors() {
		if !all && ts.Name != "leaf_array" && ts.Name != "log_std" {
			for _, g := range ts.Grad {
				if g != 0 {
					nonzero++
				}
			}
			continue
		}
		grad := append([]float32(nil), ts.Grad...)
		for k := range ts.Value {
			v := ts.Value[k]
			h := float32(3e-4)
			ts.Value[k] = v + h
			a.Changed()
			lp, err := actorLoss(a, ls, obs, act, oldLogp, adv, B)
			if err != nil {
				t.Fatal(err)
			}
			ts.Value[k] = v - h
			a.Changed()
			lm, _ := actorLoss(a, ls, obs, act, oldLogp, adv, B)
			ts.Value[k] = v
			a.Changed()
			fd := (lp - lm) / float64((v+h)-(v-h))
			if math.Abs(fd-float64(grad[k])) > 2e-3+1e-2*math.Abs(fd) {
				t.Errorf("%s[%d]: gradient %.6g, finite difference %.6g", ts.Name, k, grad[k], fd)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("nothing checked")
	}
	if !all && nonzero == 0 {
		t.Error("thresholds and split logits received no gradient")
	}
}
