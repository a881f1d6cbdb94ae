package classic

import (
	"math"

	"github.com/gdt-ml/gdt/rl/env"
)

// AcrobotID is the registered ID of the acrobot swing-up task.
const AcrobotID = "Acrobot-v1"

// Acrobot constants (gymnax EnvParams, "book" dynamics), as float32.
const (
	abDt      float32 = 0.2
	abL1      float32 = 1.0
	abM1      float32 = 1.0
	abM2      float32 = 1.0
	abLc1     float32 = 0.5
	abLc2     float32 = 0.5
	abI1      float32 = 1.0
	abI2      float32 = 1.0
	abG       float32 = 9.8
	abMaxVel1 float32 = 4 * math.Pi
	abMaxVel2 float32 = 9 * math.Pi
	abPi      float32 = math.Pi
	abHalfPi  float32 = math.Pi / 2
	abTwoPi   float32 = 2 * math.Pi
)

// Acrobot is Acrobot-v1 as gymnax implements it: two links, torque −1, 0 or
// +1 on the joint between them; reward −1 per step and 0 on the step that
// lifts the tip above the bar (−cos θ1 − cos(θ1+θ2) > 1), which terminates
// the episode; cut at 500 steps.
type Acrobot struct {
	s [4]float32 // θ1, θ2, θ̇1, θ̇2
	source
}

// NewAcrobot returns an Acrobot seeded with 0.
func NewAcrobot() *Acrobot {
	a := &Acrobot{}
	a.Seed(0)
	return a
}

// Spec describes Acrobot-v1.
func (a *Acrobot) Spec() env.Spec {
	return env.Spec{
		ID: AcrobotID,
		Observation: env.Space{Dim: 6,
			Low:  []float32{-1, -1, -1, -1, -abMaxVel1, -abMaxVel2},
			High: []float32{1, 1, 1, 1, abMaxVel1, abMaxVel2}},
		Action:              env.Space{N: 3, Dim: 1},
		MaxEpisodeSteps:     500,
		TimeLimitIsTerminal: true,
		FeatureNames: []string{"cos of link-1 angle", "sin of link-1 angle",
			"cos of link-2 angle", "sin of link-2 angle",
			"link-1 angular velocity", "link-2 angular velocity"},
		ActionNames: []string{"torque −1", "torque 0", "torque +1"},
	}
}

// Seed reseeds the generator of initial states.
func (a *Acrobot) Seed(seed uint64) { a.source.seed(seed) }

// Reset draws θ1, θ2, θ̇1, θ̇2 from U(−0.1, 0.1).
func (a *Acrobot) Reset(obs []float32) {
	for i := range a.s {
		a.s[i] = a.source.uniform(-0.1, 0.1)
	}
	a.observe(obs)
}

func (a *Acrobot) observe(obs []float32) {
	obs[0] = cos32(a.s[0])
	obs[1] = sin32(a.s[0])
	obs[2] = cos32(a.s[1])
	obs[3] = sin32(a.s[1])
	obs[4] = a.s[2]
	obs[5] = a.s[3]
}

// Step applies torque −1, 0, +1 (actions 0, 1, 2), integrates one RK4 step
// of 0.2 s, wraps the angles into [−π, π) and clips the velocities.
func (a *Acrobot) Step(action, obs []float32) (float32, bool) {
	torque := float32(discreteAction(action[0], 3) - 1)
	// torque + U(−0, 0): gymnax adds zero noise; x + 0 is x.
	y0 := a.s
	const dt2 = abDt / 2
	var k1, k2, k3, k4, y [4]float32
	acrobotDeriv(&k1, &y0, torque)
	for i := range y {
		y[i] = y0[i] + float32(dt2*k1[i])
	}
	acrobotDeriv(&k2, &y, torque)
	for i := range y {
		y[i] = y0[i] + float32(dt2*k2[i])
	}
	acrobotDeriv(&k3, &y, torque)
	for i := range y {
		y[i] = y0[i] + float32(abDt*k3[i])
	}
	acrobotDeriv(&k4, &y, torque)
	const dt6 = abDt / 6
	for i := range y {
		sum := k1[i] + float32(2*k2[i])
		sum = sum + float32(2*k3[i])
		sum = sum + k4[i]
		y[i] = y0[i] + float32(dt6*sum)
	}
	a.s[0] = wrapAngle(y[0])
	a.s[1] = wrapAngle(y[1])
	a.s[2] = clip32(y[2], -abMaxVel1, abMaxVel1)
	a.s[3] = clip32(y[3], -abMaxVel2, abMaxVel2)
	a.observe(obs)
	if -cos32(a.s[0])-cos32(a.s[1]+a.s[0]) > 1 {
		return 0, true
	}
	return -1, false
}

// acrobotDeriv writes the time derivative of (θ1, θ2, θ̇1, θ̇2) under the
// constant torque tau, in gymnax's operation order.
func acrobotDeriv(out, s *[4]float32, tau float32) {
	th1, th2, dth1, dth2 := s[0], s[1], s[2], s[3]
	cos2 := cos32(th2)
	sin2 := sin32(th2)
	// d1 = m1·lc1² + m2·(l1² + lc2² + 2·l1·lc2·cos θ2) + I1 + I2
	d1 := float32(abM1*(abLc1*abLc1)) +
		float32(abM2*((abL1*abL1+abLc2*abLc2)+float32(2*abL1*abLc2*cos2)))
	d1 = d1 + abI1
	d1 = d1 + abI2
	// d2 = m2·(lc2² + l1·lc2·cos θ2) + I2
	d2 := float32(abM2*(abLc2*abLc2+float32(abL1*abLc2*cos2))) + abI2
	// φ2 = m2·lc2·g·cos(θ1 + θ2 − π/2)
	phi2 := float32(abM2 * abLc2 * abG * cos32((th1+th2)-abHalfPi))
	// φ1 = −m2·l1·lc2·θ̇2²·sin θ2 − 2·m2·l1·lc2·θ̇2·θ̇1·sin θ2
	//      + (m1·lc1 + m2·l1)·g·cos(θ1 − π/2) + φ2
	t1 := float32(-abM2 * abL1 * abLc2 * (dth2 * dth2) * sin2)
	t2 := float32(2 * abM2 * abL1 * abLc2 * dth2 * dth1 * sin2)
	t3 := float32(float32(abM1*abLc1+abM2*abL1) * abG * cos32(th1-abHalfPi))
	phi1 := t1 - t2
	phi1 = phi1 + t3
	phi1 = phi1 + phi2
	// θ̈2 = (τ + d2/d1·φ1 − m2·l1·lc2·θ̇1²·sin θ2 − φ2) / (m2·lc2² + I2 − d2²/d1)
	num := tau + float32(d2/d1*phi1)
	num = num - float32(abM2*abL1*abLc2*(dth1*dth1)*sin2)
	num = num - phi2
	den := abM2*abLc2*abLc2 + abI2 - float32(d2*d2)/d1
	ddth2 := num / den
	// θ̈1 = −(d2·θ̈2 + φ1)/d1
	ddth1 := -(float32(d2*ddth2) + phi1) / d1
	out[0], out[1], out[2], out[3] = dth1, dth2, ddth1, ddth2
}

// wrapAngle maps x into [−π, π) the way gymnax's wrap does: below −π add
// ⌈(−π−x)/2π⌉·2π, at or above π subtract (⌊(x−π)/2π + 1⌋)·2π.
func wrapAngle(x float32) float32 {
	if x < -abPi {
		n := float32(math.Ceil(float64((-abPi - x) / abTwoPi)))
		return x + float32(n*abTwoPi)
	}
	if x >= abPi {
		n := float32(math.Floor(float64((x-abPi)/abTwoPi + 1)))
		return x - float32(n*abTwoPi)
	}
	return x
}
