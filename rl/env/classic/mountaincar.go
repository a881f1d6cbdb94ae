package classic

import "github.com/gdt-ml/gdt/rl/env"

// MountainCarContinuousID is the registered ID of the continuous mountain
// car.
const MountainCarContinuousID = "MountainCarContinuous-v0"

// MountainCarContinuous constants (gymnax EnvParams), as float32.
const (
	mcMinAction    float32 = -1
	mcMaxAction    float32 = 1
	mcMinPosition  float32 = -1.2
	mcMaxPosition  float32 = 0.6
	mcMaxSpeed     float32 = 0.07
	mcGoalPosition float32 = 0.45
	mcGoalVelocity float32 = 0
	mcPower        float32 = 0.0015
	mcGravity      float32 = 0.0025
)

// MountainCarContinuous is MountainCarContinuous-v0 as gymnax implements it:
// an underpowered car in a valley, force in [−1, 1]; reward −0.1·a² per step
// (a the unclipped action) plus 100 on reaching position 0.45 with
// non-negative velocity, which terminates the episode; cut at 999 steps.
type MountainCarContinuous struct {
	// GymnasiumWall selects Gymnasium's velocity rule (zero the velocity when
	// the car hits the left wall −1.2 moving left) instead of gymnax's (zero
	// it when the car is at or past the goal moving left), which SYMPOL's
	// experiments used and is the default.
	GymnasiumWall bool

	pos, vel float32
	source
}

// NewMountainCarContinuous returns a MountainCarContinuous with gymnax's
// velocity rule, seeded with 0.
func NewMountainCarContinuous() *MountainCarContinuous {
	m := &MountainCarContinuous{}
	m.Seed(0)
	return m
}

// Spec describes MountainCarContinuous-v0.
func (m *MountainCarContinuous) Spec() env.Spec {
	return env.Spec{
		ID: MountainCarContinuousID,
		Observation: env.Space{Dim: 2,
			Low:  []float32{mcMinPosition, -mcMaxSpeed},
			High: []float32{mcMaxPosition, mcMaxSpeed}},
		Action: env.Space{Dim: 1,
			Low: []float32{mcMinAction}, High: []float32{mcMaxAction}},
		MaxEpisodeSteps:     999,
		TimeLimitIsTerminal: true,
		FeatureNames:        []string{"position", "velocity"},
		ActionNames:         []string{"force"},
	}
}

// Seed reseeds the generator of initial states.
func (m *MountainCarContinuous) Seed(seed uint64) { m.source.seed(seed) }

// Reset draws the position from U(−0.6, −0.4) with velocity 0.
func (m *MountainCarContinuous) Reset(obs []float32) {
	m.pos = m.source.uniform(-0.6, -0.4)
	m.vel = 0
	obs[0], obs[1] = m.pos, m.vel
}

// Step applies the clipped force and moves the car one step.
func (m *MountainCarContinuous) Step(action, obs []float32) (float32, bool) {
	a := action[0]
	force := clip32(a, mcMinAction, mcMaxAction)
	vel := m.vel + float32(force*mcPower)
	vel = vel - float32(cos32(3*m.pos)*mcGravity)
	vel = clip32(vel, -mcMaxSpeed, mcMaxSpeed)
	pos := m.pos + vel
	pos = clip32(pos, mcMinPosition, mcMaxPosition)
	if m.GymnasiumWall {
		if pos == mcMinPosition && vel < 0 {
			vel = 0
		}
	} else if pos >= mcGoalPosition && vel < 0 {
		vel = vel * 0 // gymnax multiplies by (1 − 1): −0, not +0
	}
	m.pos, m.vel = pos, vel
	obs[0], obs[1] = pos, vel
	reward := float32(-0.1 * (a * a))
	term := pos >= mcGoalPosition && vel >= mcGoalVelocity
	if term {
		reward = reward + 100
	}
	return reward, term
}
