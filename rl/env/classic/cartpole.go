package classic

import "github.com/gdt-ml/gdt/rl/env"

// CartPoleID is the registered ID of the cart-pole task.
const CartPoleID = "CartPole-v1"

// CartPole constants (gymnax EnvParams), as float32.
const (
	cpGravity        float32 = 9.8
	cpMassPole       float32 = 0.1
	cpTotalMass      float32 = 1.0 + 0.1
	cpLength         float32 = 0.5
	cpPoleMassLength float32 = 0.05
	cpForceMag       float32 = 10.0
	cpTau            float32 = 0.02
	cpFourThirds     float32 = 4.0 / 3.0
	// cpThetaMax is 12·2π/360 computed in float64, then rounded.
	cpThetaMax float32 = 12 * 2 * 3.141592653589793 / 360
	cpXMax     float32 = 2.4
)

// CartPole is CartPole-v1 as gymnax implements it: a pole on a cart pushed
// left or right with force 10; reward 1 per step; the episode terminates when
// |x| > 2.4 or |θ| > 12°, and is cut at 500 steps.
type CartPole struct {
	x, xDot, theta, thetaDot float32
	source
}

// NewCartPole returns a CartPole seeded with 0.
func NewCartPole() *CartPole {
	c := &CartPole{}
	c.Seed(0)
	return c
}

// Spec describes CartPole-v1.
func (c *CartPole) Spec() env.Spec {
	return env.Spec{
		ID: CartPoleID,
		Observation: env.Space{Dim: 4,
			Low:  []float32{-2 * cpXMax, -f32max, -2 * cpThetaMax, -f32max},
			High: []float32{2 * cpXMax, f32max, 2 * cpThetaMax, f32max}},
		Action:              env.Space{N: 2, Dim: 1},
		MaxEpisodeSteps:     500,
		TimeLimitIsTerminal: true,
		FeatureNames:        []string{"cart position", "cart velocity", "pole angle", "pole angular velocity"},
		ActionNames:         []string{"push left", "push right"},
	}
}

// Seed reseeds the generator of initial states.
func (c *CartPole) Seed(seed uint64) { c.source.seed(seed) }

// Reset draws every state component from U(−0.05, 0.05).
func (c *CartPole) Reset(obs []float32) {
	c.x = c.source.uniform(-0.05, 0.05)
	c.xDot = c.source.uniform(-0.05, 0.05)
	c.theta = c.source.uniform(-0.05, 0.05)
	c.thetaDot = c.source.uniform(-0.05, 0.05)
	c.observe(obs)
}

func (c *CartPole) observe(obs []float32) {
	obs[0], obs[1], obs[2], obs[3] = c.x, c.xDot, c.theta, c.thetaDot
}

// Step pushes the cart (action 0 = left, 1 = right) and integrates one
// explicit Euler step of τ = 0.02 s using the old velocities.
func (c *CartPole) Step(action, obs []float32) (float32, bool) {
	a := float32(discreteAction(action[0], 2))
	force := float32(cpForceMag*a) - float32(cpForceMag*(1-a))
	cosT := cos32(c.theta)
	sinT := sin32(c.theta)
	temp := (force + float32(cpPoleMassLength*(c.thetaDot*c.thetaDot)*sinT)) / cpTotalMass
	thetaAcc := (float32(cpGravity*sinT) - float32(cosT*temp)) /
		(cpLength * (cpFourThirds - float32(cpMassPole*(cosT*cosT))/cpTotalMass))
	xAcc := temp - float32(cpPoleMassLength*thetaAcc*cosT)/cpTotalMass

	c.x = c.x + float32(cpTau*c.xDot)
	c.xDot = c.xDot + float32(cpTau*xAcc)
	c.theta = c.theta + float32(cpTau*c.thetaDot)
	c.thetaDot = c.thetaDot + float32(cpTau*thetaAcc)
	c.observe(obs)
	term := c.x < -cpXMax || c.x > cpXMax || c.theta < -cpThetaMax || c.theta > cpThetaMax
	return 1, term
}
