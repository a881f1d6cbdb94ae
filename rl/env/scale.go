package env

import (
	"fmt"
	"sync"
)

// Scaling is a fixed per-component observation map x' = (x − Sub) / Div,
// computed in float32, that a training setup applies to every observation
// before the policy and the critic see it (spec §1.5: the thesis scales
// LunarLander's observations this way; the other tasks use raw
// observations). Every Div is positive, so the map keeps the order of each
// component: the test x' ≤ t on a scaled component is the test x ≤ Raw(i, t)
// on the raw one, which is how trees learned on scaled observations are
// shown and exported in raw units.
type Scaling struct {
	Sub, Div []float32
}

// Check reports whether s maps observations of width dim.
func (s Scaling) Check(dim int) error {
	if len(s.Sub) != dim || len(s.Div) != dim {
		return fmt.Errorf("env: scaling has %d offsets and %d divisors for %d observation components", len(s.Sub), len(s.Div), dim)
	}
	for i, d := range s.Div {
		if !(d > 0) {
			return fmt.Errorf("env: scaling divisor %d is %g; it must be positive", i, d)
		}
	}
	return nil
}

// Apply writes the scaled x into dst (which may be x).
func (s Scaling) Apply(dst, x []float32) {
	for i, v := range x {
		dst[i] = (v - s.Sub[i]) / s.Div[i]
	}
}

// Raw returns the raw value of component i whose scaled value is t (the
// inverse map, in float64 for display).
func (s Scaling) Raw(i int, t float64) float64 {
	return float64(s.Sub[i]) + t*float64(s.Div[i])
}

// Space returns the box sp with its bounds scaled (unbounded or discrete
// spaces are returned unchanged).
func (s Scaling) Space(sp Space) Space {
	if sp.Low == nil || sp.High == nil {
		return sp
	}
	out := sp
	out.Low, out.High = make([]float32, len(sp.Low)), make([]float32, len(sp.High))
	s.Apply(out.Low, sp.Low)
	s.Apply(out.High, sp.High)
	return out
}

// Scaled returns a Maker whose environments report scaled observations
// (Reset and Step) and whose Spec has the scaled observation bounds. It
// panics if s does not fit the environment's observation width (a
// programming error; call Check first).
func Scaled(m Maker, s Scaling) Maker {
	return func() Env {
		e := m()
		sp := e.Spec()
		if err := s.Check(sp.Observation.Dim); err != nil {
			panic(err)
		}
		sp.Observation = s.Space(sp.Observation)
		se := &scaledEnv{Env: e, s: s, spec: sp}
		if rs, ok := e.(RandStater); ok {
			return &scaledRandEnv{scaledEnv: se, rs: rs}
		}
		return se
	}
}

// scaledRandEnv is a scaledEnv whose environment implements RandStater.
type scaledRandEnv struct {
	*scaledEnv
	rs RandStater
}

func (e *scaledRandEnv) AppendRandState(b []byte) []byte { return e.rs.AppendRandState(b) }
func (e *scaledRandEnv) SetRandState(b []byte) error     { return e.rs.SetRandState(b) }

type scaledEnv struct {
	Env
	s    Scaling
	spec Spec
}

func (e *scaledEnv) Spec() Spec { return e.spec }

func (e *scaledEnv) Reset(obs []float32) {
	e.Env.Reset(obs)
	e.s.Apply(obs, obs)
}

func (e *scaledEnv) Step(action []float32, obs []float32) (float32, bool) {
	r, done := e.Env.Step(action, obs)
	e.s.Apply(obs, obs)
	return r, done
}

var (
	scalingMu sync.RWMutex
	scalings  = map[string]Scaling{}
)

// RegisterScaling records the fixed observation scaling the thesis's setup
// applies to environment id (environment packages call it from init).
func RegisterScaling(id string, s Scaling) {
	scalingMu.Lock()
	defer scalingMu.Unlock()
	scalings[id] = s
}

// ScalingOf returns the registered observation scaling of environment id.
func ScalingOf(id string) (Scaling, bool) {
	scalingMu.RLock()
	defer scalingMu.RUnlock()
	s, ok := scalings[id]
	return s, ok
}
