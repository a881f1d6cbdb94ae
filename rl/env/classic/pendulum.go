package classic

import (
	"math"

	"github.com/gdt-ml/gdt/rl/env"
)

// PendulumID is the registered ID of the pendulum swing-up task.
const PendulumID = "Pendulum-v1"

// Pendulum constants (gymnax EnvParams), as float32.
const (
	pdMaxSpeed  float32 = 8
	pdMaxTorque float32 = 2
	pdDt        float32 = 0.05
	pdG         float32 = 10
	pdM         float32 = 1
	pdL         float32 = 1
	pdPi        float32 = math.Pi
	pdTwoPi     float32 = 2 * math.Pi
)

// Pendulum is Pendulum-v1 as gymnax implements it: a torque-limited
// pendulum to be swung up and held; reward −(θ² + 0.1·θ̇² + 0.001·u²) with θ
// normalised to [−π, π); it never terminates and is cut at 200 steps.
type Pendulum struct {
	theta, thetaDot float32
	source
}

// NewPendulum returns a Pendulum seeded with 0.
func NewPendulum() *Pendulum {
	p := &Pendulum{}
	p.Seed(0)
	return p
}

// Spec describes Pendulum-v1.
func (p *Pendulum) Spec() env.Spec {
	return env.Spec{
		ID: PendulumID,
		Observation: env.Space{Dim: 3,
			Low:  []float32{-1, -1, -pdMaxSpeed},
			High: []float32{1, 1, pdMaxSpeed}},
		Action: env.Space{Dim: 1,
			Low: []float32{-pdMaxTorque}, High: []float32{pdMaxTorque}},
		MaxEpisodeSteps:     200,
		TimeLimitIsTerminal: true,
		FeatureNames:        []string{"cos θ", "sin θ", "angular velocity"},
		ActionNames:         []string{"torque"},
	}
}

// Seed reseeds the generator of initial states.
func (p *Pendulum) Seed(seed uint64) { p.source.seed(seed) }

// Reset draws θ from U(−π, π) and θ̇ from U(−1, 1).
func (p *Pendulum) Reset(obs []float32) {
	p.theta = p.source.uniform(-pdPi, pdPi)
	p.thetaDot = p.source.uniform(-1, 1)
	p.observe(obs)
}

func (p *Pendulum) observe(obs []float32) {
	obs[0] = cos32(p.theta)
	obs[1] = sin32(p.theta)
	obs[2] = p.thetaDot
}

// Step clips the torque to [−2, 2], computes the reward from the pre-step
// state and integrates one semi-implicit Euler step of 0.05 s.
func (p *Pendulum) Step(action, obs []float32) (float32, bool) {
	u := clip32(action[0], -pdMaxTorque, pdMaxTorque)
	n := angleNormalize(p.theta)
	cost := float32(n*n) + float32(0.1*(p.thetaDot*p.thetaDot))
	cost = cost + float32(0.001*(u*u))
	reward := -cost

	const k1 = 3 * pdG / (2 * pdL)
	const k2 = 3.0 / (pdM * (pdL * pdL))
	acc := float32(k1*sin32(p.theta)) + float32(k2*u)
	thetaDot := p.thetaDot + float32(acc*pdDt)
	thetaDot = clip32(thetaDot, -pdMaxSpeed, pdMaxSpeed)
	p.theta = p.theta + float32(thetaDot*pdDt)
	p.thetaDot = thetaDot
	p.observe(obs)
	return reward, false
}

// angleNormalize is ((x + π) mod 2π) − π with the floor modulo of jnp's %
// (the exact remainder, shifted by 2π when its sign differs from 2π's).
func angleNormalize(x float32) float32 {
	r := float32(math.Mod(float64(x+pdPi), float64(pdTwoPi)))
	if r != 0 && r < 0 {
		r = r + pdTwoPi
	}
	return r - pdPi
}
