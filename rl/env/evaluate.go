package env

import "fmt"

// Policy writes the action for an observation: obs has length
// Spec().Observation.Dim, action length Spec().Action.Dim (a discrete action
// is its index as a float32).
type Policy func(obs, action []float32)

// Evaluate plays one episode per seed on e, as Gymnasium evaluation does:
// reseed (e.Seed(seed)), reset, then act with policy until the episode
// terminates or reaches the time limit Spec().MaxEpisodeSteps. Episode k of
// the result has Env = k.
func Evaluate(e Env, seeds []uint64, policy Policy) ([]Episode, error) {
	spec := e.Spec()
	if spec.MaxEpisodeSteps <= 0 {
		return nil, fmt.Errorf("environment %q: no time limit (MaxEpisodeSteps %d), evaluation might never end",
			spec.ID, spec.MaxEpisodeSteps)
	}
	if policy == nil {
		return nil, fmt.Errorf("environment %q: nil policy", spec.ID)
	}
	obs := make([]float32, spec.Observation.Dim)
	action := make([]float32, spec.Action.Dim)
	out := make([]Episode, len(seeds))
	for k, seed := range seeds {
		e.Seed(seed)
		e.Reset(obs)
		ep := Episode{Env: k}
		for {
			policy(obs, action)
			if spec.Action.Discrete() {
				for _, a := range action {
					if err := checkDiscrete(spec, a); err != nil {
						return nil, fmt.Errorf("episode %d (seed %d), step %d: %w", k, seed, ep.Length, err)
					}
				}
			}
			r, term := e.Step(action, obs)
			ep.Return += float64(r)
			ep.Length++
			if term {
				break
			}
			if ep.Length >= spec.MaxEpisodeSteps {
				ep.Truncated = true
				break
			}
		}
		out[k] = ep
	}
	return out, nil
}
