package ppo

import (
	"math"

	"github.com/gdt-ml/gdt/rl/policy"
)

// lossSpec selects the actor loss: PPO's clipped surrogate with clip
// coefficient Clip, or (A2C) −Â·log π; both minus Ent times the entropy.
type lossSpec struct {
	Clip, Ent float64
	A2C       bool
	// Scale multiplies a discrete actor's logits before the distribution
	// (Config.LogitScaleEnd); 0 or 1 leaves them as they are.
	Scale float64
}

// scaled reports whether the logits of distribution d are scaled under ls.
func (ls lossSpec) scaled(d policy.Dist) bool { return d.Discrete && ls.Scale != 0 && ls.Scale != 1 }

// scaleLogits multiplies v by s.
func scaleLogits(v []float32, s float64) {
	f := float32(s)
	for i := range v {
		v[i] *= f
	}
}

// actorLoss returns the actor loss of a batch under the current actor
// (spec §3.5):
//
//	PPO: mean(max(−Â ρ, −Â clip(ρ, 1−ε, 1+ε))) − ent·mean(H), ρ = π(a)/π_old(a)
//	A2C: mean(−Â log π(a)) − ent·mean(H)
//
// with the advantages as given (normalise them before if wanted).
func actorLoss(actor policy.Actor, ls lossSpec, obs, act, oldLogp, adv []float32, B int) (float64, error) {
	d := actor.Dist()
	A, AD := d.Outputs(), d.ActionDim()
	out := make([]float32, B*A)
	if err := actor.Predict(obs, B, out); err != nil {
		return 0, err
	}
	if ls.scaled(d) {
		scaleLogits(out, ls.Scale)
	}
	logStd := actor.LogStd()
	var L float64
	for j := 0; j < B; j++ {
		lp, h := d.LogProbEntropy(out[j*A:(j+1)*A], logStd, act[j*AD:(j+1)*AD])
		a := float64(adv[j])
		if ls.A2C {
			L += -a * lp
		} else {
			rho := math.Exp(lp - float64(oldLogp[j]))
			cl := math.Min(math.Max(rho, 1-ls.Clip), 1+ls.Clip)
			L += math.Max(-a*rho, -a*cl)
		}
		L -= ls.Ent * h
	}
	return L / float64(B), nil
}

// actorLossGrad runs the actor's training forward pass on the batch and
// writes the gradient of actorLoss into the actor's tensors (Backward, and
// LogStdGrad for continuous heads). out and dOut are [B][A] scratch. Per
// sample (spec §3.5): ∂L/∂log π = −Â·ρ/B on the active (unclipped) branch
// (Â > 0 and ρ ≤ 1+ε, or Â < 0 and ρ ≥ 1−ε), else 0; A2C −Â/B; the entropy
// term adds −ent/B·∂H.
func actorLossGrad(actor policy.Actor, ls lossSpec, obs, act, oldLogp, adv []float32, B int, out, dOut []float32) error {
	d := actor.Dist()
	A, AD := d.Outputs(), d.ActionDim()
	if err := actor.Forward(obs, B, out); err != nil {
		return err
	}
	if ls.scaled(d) {
		scaleLogits(out[:B*A], ls.Scale)
	}
	logStd := actor.LogStd()
	gls := actor.LogStdGrad()
	clear(gls)
	g := dOut[:B*A]
	clear(g)
	cEnt := -ls.Ent / float64(B)
	for j := 0; j < B; j++ {
		o := out[j*A : (j+1)*A]
		a := act[j*AD : (j+1)*AD]
		av := float64(adv[j])
		var c float64
		if ls.A2C {
			c = -av / float64(B)
		} else {
			lp := d.LogProb(o, logStd, a)
			rho := math.Exp(lp - float64(oldLogp[j]))
			if (av > 0 && rho <= 1+ls.Clip) || (av < 0 && rho >= 1-ls.Clip) {
				c = -av * rho / float64(B)
			}
		}
		d.AddGrad(o, logStd, a, c, cEnt, g[j*A:(j+1)*A], gls)
	}
	if ls.scaled(d) { // ∂L/∂o = Scale·∂L/∂(Scale·o)
		scaleLogits(g, ls.Scale)
	}
	return actor.Backward(g)
}
