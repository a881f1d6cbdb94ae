// Package policy holds the actors of gdt's on-policy learners: the SYMPOL
// tree actor (one hard GradTree of the tree kernel whose leaves hold action
// logits, or action means plus a learned state-independent log standard
// deviation), an MLP actor for the full-complexity baseline, and the action
// distributions they parameterise (spec sympol-rl §1 and §3.5).
//
// An actor maps a batch of observations to the raw inputs of its
// distribution head ("outputs": A logits for a Categorical, A means for a
// diagonal Gaussian). The learner samples, scores and differentiates actions
// through Dist, and passes dL/d(outputs) back through Actor.Backward. The
// tree actor exports itself as a plain decision tree that is pruned with the
// observation-space bounds (spec §1.7) and acts exactly as the trained actor.
package policy

import (
	"math"

	"github.com/gdt-ml/gdt/rng"
)

// halfLog2Pi is ½·log(2π).
var halfLog2Pi = 0.5 * math.Log(2*math.Pi)

// Dist describes an action distribution head: a Categorical over A actions
// parameterised by A logits, or a diagonal Gaussian over A continuous
// components parameterised by A means and A log standard deviations.
type Dist struct {
	// Discrete selects the Categorical head.
	Discrete bool
	// A is the number of actions (discrete) or action components.
	A int
}

// Outputs is the width of the head's input (logits or means): A.
func (d Dist) Outputs() int { return d.A }

// ActionDim is the length of a stored action: 1 (the index as a float32)
// for a Categorical, A otherwise.
func (d Dist) ActionDim() int {
	if d.Discrete {
		return 1
	}
	return d.A
}

// logSoftmax writes log softmax(o) into lp (float64) and returns nothing.
func logSoftmax(o []float32, lp []float64) {
	m := math.Inf(-1)
	for _, v := range o {
		if float64(v) > m {
			m = float64(v)
		}
	}
	s := 0.0
	for _, v := range o {
		s += math.Exp(float64(v) - m)
	}
	ls := m + math.Log(s)
	for i, v := range o {
		lp[i] = float64(v) - ls
	}
}

// maxA bounds the stack buffers of the Categorical helpers.
const maxA = 64

// LogProb returns log π(a) for the head input o (len A), the log standard
// deviations logStd (continuous only) and the action a (len ActionDim).
func (d Dist) LogProb(o, logStd, a []float32) float64 {
	if d.Discrete {
		var buf [maxA]float64
		lp := buf[:d.A]
		logSoftmax(o, lp)
		return lp[int(a[0])]
	}
	s := 0.0
	for k := 0; k < d.A; k++ {
		ls := float64(logStd[k])
		z := (float64(a[k]) - float64(o[k])) / math.Exp(ls)
		s += -0.5*z*z - ls - halfLog2Pi
	}
	return s
}

// Entropy returns the entropy of the distribution: −Σ p log p for a
// Categorical, Σ_k (½ + ½ log 2π + log σ_k) for the Gaussian.
func (d Dist) Entropy(o, logStd []float32) float64 {
	if d.Discrete {
		var buf [maxA]float64
		lp := buf[:d.A]
		logSoftmax(o, lp)
		h := 0.0
		for _, l := range lp {
			h -= math.Exp(l) * l
		}
		return h
	}
	h := 0.0
	for k := 0; k < d.A; k++ {
		h += 0.5 + halfLog2Pi + float64(logStd[k])
	}
	return h
}

// LogProbEntropy returns LogProb and Entropy together (one softmax).
func (d Dist) LogProbEntropy(o, logStd, a []float32) (logp, ent float64) {
	if !d.Discrete {
		return d.LogProb(o, logStd, a), d.Entropy(o, logStd)
	}
	var buf [maxA]float64
	lp := buf[:d.A]
	logSoftmax(o, lp)
	for _, l := range lp {
		ent -= math.Exp(l) * l
	}
	return lp[int(a[0])], ent
}

// Sample draws an action into a (len ActionDim) from the distribution:
// inverse-CDF sampling of one uniform for a Categorical, μ + σ·N(0, 1) per
// component for the Gaussian (no squashing, no clipping: spec §1.5).
func (d Dist) Sample(o, logStd []float32, r *rng.MT19937, a []float32) {
	if d.Discrete {
		var buf [maxA]float64
		lp := buf[:d.A]
		logSoftmax(o, lp)
		u := r.Float64()
		c := 0.0
		pick := d.A - 1
		for i, l := range lp {
			c += math.Exp(l)
			if u < c {
				pick = i
				break
			}
		}
		a[0] = float32(pick)
		return
	}
	for k := 0; k < d.A; k++ {
		a[k] = float32(float64(o[k]) + math.Exp(float64(logStd[k]))*r.NormFloat64())
	}
}

// Greedy writes the deterministic action into a: the arg-max of the logits
// (lowest index on ties) or the mean.
func (d Dist) Greedy(o []float32, a []float32) {
	if d.Discrete {
		a[0] = float32(Argmax(o))
		return
	}
	copy(a[:d.A], o[:d.A])
}

// Argmax returns the index of the largest value (lowest index on ties).
func Argmax(o []float32) int {
	best := 0
	for i := 1; i < len(o); i++ {
		if o[i] > o[best] {
			best = i
		}
	}
	return best
}

// AddGrad adds cLogp·∂log π(a)/∂o + cEnt·∂H/∂o into dO (len A) and, for the
// Gaussian, the same derivatives with respect to the log standard
// deviations into dLogStd (spec §3.5):
//
//	Categorical, p = softmax(o): ∂log π(a)/∂o = e_a − p, ∂H/∂o_i = −p_i(log p_i + H)
//	Gaussian: ∂log π/∂μ_k = (a_k − μ_k)/σ_k², ∂log π/∂log σ_k = (a_k − μ_k)²/σ_k² − 1,
//	          ∂H/∂μ = 0, ∂H/∂log σ_k = 1
func (d Dist) AddGrad(o, logStd, a []float32, cLogp, cEnt float64, dO []float32, dLogStd []float32) {
	if d.Discrete {
		var buf [maxA]float64
		lp := buf[:d.A]
		logSoftmax(o, lp)
		h := 0.0
		for _, l := range lp {
			h -= math.Exp(l) * l
		}
		ai := int(a[0])
		for i, l := range lp {
			p := math.Exp(l)
			g := -cLogp * p
			if i == ai {
				g += cLogp
			}
			if cEnt != 0 {
				g += cEnt * (-p * (l + h))
			}
			dO[i] += float32(g)
		}
		return
	}
	for k := 0; k < d.A; k++ {
		ls := float64(logStd[k])
		v := math.Exp(2 * ls)
		diff := float64(a[k]) - float64(o[k])
		dO[k] += float32(cLogp * diff / v)
		dLogStd[k] += float32(cLogp*(diff*diff/v-1) + cEnt)
	}
}
