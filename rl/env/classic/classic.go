// Package classic holds the four classic-control environments the thesis
// trains on, written to follow gymnax 0.0.8 step for step: CartPole-v1,
// Acrobot-v1 (the "book" dynamics, one RK4 step), Pendulum-v1 and
// MountainCarContinuous-v0. All arithmetic is float32 in the operation order
// of the gymnax source (spec sympol-rl.md §5.1–§5.4); sin and cos are the
// correctly rounded float32 values. Every product that feeds a sum is
// rounded explicitly (float32(...)) so that the compiler never fuses it into
// an FMA, which would change trajectories on machines that have one.
//
// The initial-state distributions are those of gymnax, drawn from a PCG
// generator of the environment's own (gymnax's threefry keys are not
// reproduced). Importing this package registers the four IDs with package
// env.
package classic

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gdt-ml/gdt/rl/env"
)

func init() {
	env.Register(CartPoleID, func() env.Env { return NewCartPole() })
	env.Register(AcrobotID, func() env.Env { return NewAcrobot() })
	env.Register(PendulumID, func() env.Env { return NewPendulum() })
	env.Register(MountainCarContinuousID, func() env.Env { return NewMountainCarContinuous() })
}

// pcgStream is the fixed PCG stream (increment selector) of every classic
// environment; the seed picks the state.
const pcgStream = 0x9e3779b97f4a7c15

// source draws the random initial states of an environment. Embedded in
// every classic environment, it gives them env.RandStater.
type source struct{ pcg rand.PCG }

func (s *source) seed(seed uint64) { s.pcg.Seed(seed, pcgStream) }

// AppendRandState appends the generator's state to b (env.RandStater).
func (s *source) AppendRandState(b []byte) []byte {
	b, err := s.pcg.AppendBinary(b)
	if err != nil { // rand.PCG's AppendBinary never fails
		panic(err)
	}
	return b
}

// SetRandState restores a generator state AppendRandState wrote.
func (s *source) SetRandState(b []byte) error {
	var p rand.PCG
	if err := p.UnmarshalBinary(b); err != nil {
		return fmt.Errorf("generator state of %d bytes: %w", len(b), err)
	}
	s.pcg = p
	return nil
}

// uniform returns a float32 in [lo, hi): lo + (hi−lo)·u with u a 24-bit
// uniform in [0, 1), as jax.random.uniform computes it.
func (s *source) uniform(lo, hi float32) float32 {
	u := float32(s.pcg.Uint64()>>40) * (1.0 / (1 << 24))
	v := lo + float32((hi-lo)*u)
	if v >= hi { // rounding of lo + (hi−lo)·u can reach hi
		v = lo
	}
	return v
}

func sin32(x float32) float32 { return float32(math.Sin(float64(x))) }
func cos32(x float32) float32 { return float32(math.Cos(float64(x))) }

func clip32(x, lo, hi float32) float32 {
	if x < lo {
		return lo
	}
	if x > hi {
		return hi
	}
	return x
}

// discreteAction reads a discrete action stored as a float32, rounding to
// the nearest index and clamping to [0, n): env.Vec rejects invalid actions
// before they get here, so the clamp only guards direct callers.
func discreteAction(a float32, n int) int {
	if a != a { // NaN
		return 0
	}
	i := int(math.Round(float64(a)))
	if i < 0 {
		return 0
	}
	if i >= n {
		return n - 1
	}
	return i
}

// f32max is the largest finite float32, gymnax's bound for unbounded
// observation components.
const f32max = math.MaxFloat32
