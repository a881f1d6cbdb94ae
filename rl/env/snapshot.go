package env

import (
	"errors"
	"fmt"
	"math"
)

// ErrNoRandState is the error Snapshot and Restore wrap for an
// environment that does not implement RandStater.
var ErrNoRandState = errors.New("the environment cannot save its random state (it does not implement env.RandStater)")

// VecState is the state of a Vec's episodes in progress (Vec.Snapshot):
// enough to continue them exactly in a new Vec of the same environment
// and size (Vec.Restore), for environments whose internal state cannot be
// serialised (LunarLander's Box2D world) as for the others.
type VecState struct {
	// Envs holds one entry per instance.
	Envs []EpisodeState
}

// EpisodeState is one instance's episode in progress.
type EpisodeState struct {
	// RandState is the instance's generator state before the Reset that
	// started the episode (RandStater.AppendRandState).
	RandState []byte
	// Actions are the actions taken since that Reset, Length ×
	// Spec().Action.Dim row-major.
	Actions []float32
	// Return is the running undiscounted return of the episode.
	Return float64
	// Obs is the current observation (what the next action responds to),
	// checked against the replayed one on Restore.
	Obs []float32
}

// Snapshot returns the state of every instance's episode in progress, in
// new slices. Episodes not yet collected (Episodes) are not part of it.
// It fails with ErrNoRandState when the environment does not implement
// RandStater.
func (v *Vec) Snapshot() (VecState, error) {
	if v.rs == nil {
		return VecState{}, fmt.Errorf("environment %q: %w", v.spec.ID, ErrNoRandState)
	}
	s := VecState{Envs: make([]EpisodeState, len(v.envs))}
	for i := range v.envs {
		s.Envs[i] = EpisodeState{
			RandState: append([]byte(nil), v.startRNG[i]...),
			Actions:   append([]float32(nil), v.actLog[i]...),
			Return:    v.returns[i],
			Obs:       append([]float32(nil), v.row(v.obs, i)...),
		}
	}
	return s, nil
}

// Restore continues the episodes of s, a Snapshot of a Vec of the same
// environment and size: each instance's generator is set to the saved
// state, reset, and stepped through the saved actions, and the replay must
// arrive at the saved return and observation bit for bit. It then stands
// where the snapshotted Vec stood (uncollected episodes are forgotten;
// FinalObs equals Obs). s is untrusted input: a damaged one gives an error
// naming the instance and the field, never a panic; after an error the
// Vec's episodes are undefined (Reset it or discard it).
func (v *Vec) Restore(s VecState) error {
	if v.rs == nil {
		return fmt.Errorf("environment %q: %w", v.spec.ID, ErrNoRandState)
	}
	if len(s.Envs) != len(v.envs) {
		return fmt.Errorf("environment state: %d instances, want %d", len(s.Envs), len(v.envs))
	}
	limit := v.spec.MaxEpisodeSteps
	for i, st := range s.Envs {
		if len(st.Actions)%v.actDim != 0 {
			return fmt.Errorf("environment state: instance %d: Actions holds %d values, not a multiple of the action dimension %d", i, len(st.Actions), v.actDim)
		}
		n := len(st.Actions) / v.actDim
		if limit > 0 && n >= limit {
			return fmt.Errorf("environment state: instance %d: Actions holds %d steps, an episode ends at the time limit %d", i, n, limit)
		}
		if len(st.Obs) != v.obsDim {
			return fmt.Errorf("environment state: instance %d: Obs holds %d values, want %d", i, len(st.Obs), v.obsDim)
		}
		for k, a := range st.Actions {
			if f := float64(a); math.IsNaN(f) || math.IsInf(f, 0) {
				return fmt.Errorf("environment state: instance %d: Actions[%d] = %v: expected a finite number", i, k, a)
			}
			if v.spec.Action.Discrete() {
				if err := checkDiscrete(v.spec, a); err != nil {
					return fmt.Errorf("environment state: instance %d: Actions[%d]: %w", i, k, err)
				}
			}
		}
		if err := v.rs[i].SetRandState(st.RandState); err != nil {
			return fmt.Errorf("environment state: instance %d: RandState: %w", i, err)
		}
		v.reset(i)
		obs := v.row(v.obs, i)
		ret := 0.0
		for k := 0; k < n; k++ {
			a := st.Actions[k*v.actDim : (k+1)*v.actDim : (k+1)*v.actDim]
			v.actLog[i] = append(v.actLog[i], a...)
			r, term := v.envs[i].Step(a, obs)
			ret += float64(r)
			if term {
				return fmt.Errorf("environment state: instance %d: the episode terminates at step %d of the %d saved Actions", i, k+1, n)
			}
		}
		if math.Float64bits(ret) != math.Float64bits(st.Return) {
			return fmt.Errorf("environment state: instance %d: Return %v, but replaying the saved actions gives %v", i, st.Return, ret)
		}
		for k, x := range obs {
			if math.Float32bits(x) != math.Float32bits(st.Obs[k]) {
				return fmt.Errorf("environment state: instance %d: Obs[%d] = %v, but replaying the saved actions gives %v", i, k, st.Obs[k], x)
			}
		}
		v.steps[i], v.returns[i] = n, ret
		v.rewards[i], v.terminated[i], v.truncated[i] = 0, false, false
	}
	copy(v.finalObs, v.obs)
	v.episodes = v.episodes[:0]
	return nil
}
