// Package distill extracts decision-tree policies from a trained
// full-complexity policy (the "expert"), the post-hoc baselines of the
// SYMPOL study (spec sympol-rl §6.4–§6.5):
//
//   - SA-DT: behavioural cloning. The greedy expert plays 25 episodes
//     (reset seeds 42…66); a CART tree of depth 5 or 8 (package cart,
//     sklearn-exact) is fitted on the visited states labelled with the
//     expert's actions: a Gini classifier for discrete actions, one
//     squared-error regressor per component for continuous actions.
//     Samples.FromBuffer builds the reference code's data instead (its last
//     PPO rollout buffer with the sampled actions, spec §6.4 ⚠ REF).
//   - VIPER (Bastani et al. 2018, Q-DAgger): DAgger-style data aggregation
//     where the states visited by the current tree are labelled by the
//     expert and resampled with probability proportional to a criticality
//     weight; the best tree over the iterations (by validation return) is
//     kept. Discrete actions only.
package distill

import (
	"fmt"
	"math"

	"github.com/gdt-ml/gdt/cart"
	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/rl/env"
	"github.com/gdt-ml/gdt/rl/policy"
)

// Policy writes the action for one observation (len Spec().Action.Dim; a
// discrete action is its index as a float32). It has the signature of
// ppo.Greedy, so ppo.ActorGreedy(actor) is an expert.
type Policy func(obs, action []float32) error

// Samples is a behavioural-cloning data set: N observations of F features
// and the expert's actions (AD values each).
type Samples struct {
	F, AD   int
	X       []float32 // [N][F]
	Actions []float32 // [N][AD]
}

// N returns the number of samples.
func (s *Samples) N() int {
	if s.F == 0 {
		return 0
	}
	return len(s.X) / s.F
}

// Append adds one sample.
func (s *Samples) Append(obs, action []float32) {
	s.X = append(s.X, obs[:s.F]...)
	s.Actions = append(s.Actions, action[:s.AD]...)
}

// FromBuffer wraps a rollout buffer (obs [n][F], actions [n][AD]) as
// samples, copying it. With truncate, continuous actions are truncated
// toward zero as the reference's int32 action buffer stores them.
func FromBuffer(obs, actions []float32, n, F, AD int, truncate bool) (*Samples, error) {
	if n < 1 || len(obs) < n*F || len(actions) < n*AD {
		return nil, fmt.Errorf("distill: buffer of %d observations × %d and %d actions × %d: sizes disagree",
			len(obs)/max(F, 1), F, len(actions)/max(AD, 1), AD)
	}
	s := &Samples{F: F, AD: AD, X: append([]float32(nil), obs[:n*F]...), Actions: append([]float32(nil), actions[:n*AD]...)}
	if truncate {
		for i, a := range s.Actions {
			s.Actions[i] = float32(math.Trunc(float64(a)))
		}
	}
	return s, nil
}

// Episodes plays one episode per seed on a fresh environment from m with
// the policy actor (reseed, reset, act until termination or the time
// limit). For every visited state it calls visit (if not nil) with the
// observation before acting. It returns the episodes' undiscounted returns.
func Episodes(m env.Maker, seeds []uint64, actor Policy, visit func(obs []float32) error) ([]float64, error) {
	e := m()
	spec := e.Spec()
	if spec.MaxEpisodeSteps <= 0 {
		return nil, fmt.Errorf("environment %q has no time limit", spec.ID)
	}
	obs := make([]float32, spec.Observation.Dim)
	act := make([]float32, spec.Action.Dim)
	out := make([]float64, len(seeds))
	for k, seed := range seeds {
		e.Seed(seed)
		e.Reset(obs)
		ret := 0.0
		for steps := 1; ; steps++ {
			if visit != nil {
				if err := visit(obs); err != nil {
					return nil, err
				}
			}
			if err := actor(obs, act); err != nil {
				return nil, fmt.Errorf("episode %d (seed %d), step %d: %w", k, seed, steps, err)
			}
			r, term := e.Step(act, obs)
			ret += float64(r)
			if term || steps >= spec.MaxEpisodeSteps {
				break
			}
		}
		out[k] = ret
	}
	return out, nil
}

// Seeds returns n consecutive seeds starting at first.
func Seeds(first, n int) []uint64 {
	s := make([]uint64, n)
	for i := range s {
		s[i] = uint64(first + i)
	}
	return s
}

// Collect plays the expert greedily on the given reset seeds and records
// every visited state with the expert's action (the SA-DT data of the
// thesis: 25 episodes, seeds 42…66). It also returns the episodes' returns.
func Collect(m env.Maker, seeds []uint64, expert Policy) (*Samples, []float64, error) {
	spec := m().Spec()
	s := &Samples{F: spec.Observation.Dim, AD: spec.Action.Dim}
	rets, err := Episodes(m, seeds, func(obs, a []float32) error {
		if err := expert(obs, a); err != nil {
			return err
		}
		s.Append(obs, a)
		return nil
	}, nil)
	if err != nil {
		return nil, nil, err
	}
	return s, rets, nil
}

// Tree is a distilled tree policy: one CART classifier (discrete actions)
// or one CART regressor per action component (continuous actions).
type Tree struct {
	Dist  policy.Dist
	Class *cart.Tree   // discrete actions
	Reg   []*cart.Tree // continuous actions, one per component
}

// Fit grows the tree policy of maximum depth on the samples (sklearn's
// defaults otherwise, random_state = seed). weights may be nil.
func Fit(s *Samples, dist policy.Dist, depth int, seed uint64, weights []float64) (*Tree, error) {
	n := s.N()
	if n < 1 {
		return nil, fmt.Errorf("distill: no samples to fit")
	}
	if depth < 1 {
		return nil, fmt.Errorf("distill: depth %d: expected ≥ 1", depth)
	}
	if s.AD != dist.ActionDim() {
		return nil, fmt.Errorf("distill: samples hold %d action values, the head expects %d", s.AD, dist.ActionDim())
	}
	X := &data.Matrix{Rows: n, Cols: s.F, Data: s.X}
	cfg := cart.Config{MaxDepth: depth, Seed: seed}
	t := &Tree{Dist: dist}
	y := make([]float64, n)
	if dist.Discrete {
		for i := range y {
			a := s.Actions[i]
			if a < 0 || int(a) >= dist.A || float32(int(a)) != a {
				return nil, fmt.Errorf("distill: sample %d has action %v: expected an integer in [0, %d)", i, a, dist.A)
			}
			y[i] = float64(a)
		}
		c, err := cart.FitClassifier(X, y, dist.A, cfg, weights)
		if err != nil {
			return nil, fmt.Errorf("distill: %w", err)
		}
		t.Class = c
		return t, nil
	}
	for k := 0; k < dist.A; k++ {
		for i := range y {
			y[i] = float64(s.Actions[i*s.AD+k])
		}
		r, err := cart.FitRegressor(X, y, cfg, weights)
		if err != nil {
			return nil, fmt.Errorf("distill: action component %d: %w", k, err)
		}
		t.Reg = append(t.Reg, r)
	}
	return t, nil
}

// Act writes the tree's action for obs: the class label, or each
// regressor's leaf mean. It does not allocate.
func (t *Tree) Act(obs, action []float32) error {
	if t.Class != nil {
		c, err := t.Class.PredictRow(obs)
		if err != nil {
			return err
		}
		action[0] = float32(c)
		return nil
	}
	for k, r := range t.Reg {
		v, err := r.PredictRow(obs)
		if err != nil {
			return err
		}
		action[k] = float32(v)
	}
	return nil
}

// Nodes returns the tree size (sklearn node_count; summed over the
// regressors of a multi-component action).
func (t *Tree) Nodes() int {
	if t.Class != nil {
		return t.Class.NumNodes()
	}
	n := 0
	for _, r := range t.Reg {
		n += r.NumNodes()
	}
	return n
}

// Text renders the tree (or the regressors one after another) as rules.
func (t *Tree) Text(featureNames, actionNames []string) string {
	if t.Class != nil {
		return t.Class.Text(featureNames, actionNames)
	}
	s := ""
	for k, r := range t.Reg {
		name := fmt.Sprintf("action %d", k)
		if k < len(actionNames) {
			name = actionNames[k]
		}
		s += "# " + name + "\n" + r.Text(featureNames, nil)
	}
	return s
}

// SADTConfig configures SA-DT.
type SADTConfig struct {
	Depth     int    // 5 or 8 in the thesis
	Episodes  int    // expert episodes (25)
	FirstSeed int    // reset seed of the first episode (42)
	Seed      uint64 // CART random_state
}

// DefaultSADT returns the thesis's SA-DT setup for a depth.
func DefaultSADT(depth int) SADTConfig {
	return SADTConfig{Depth: depth, Episodes: 25, FirstSeed: 42}
}

// SADT collects the expert's greedy episodes and fits the tree on them.
func SADT(m env.Maker, expert Policy, dist policy.Dist, cfg SADTConfig) (*Tree, *Samples, error) {
	if cfg.Episodes < 1 {
		return nil, nil, fmt.Errorf("sa-dt: %d expert episodes: expected ≥ 1", cfg.Episodes)
	}
	s, _, err := Collect(m, Seeds(cfg.FirstSeed, cfg.Episodes), expert)
	if err != nil {
		return nil, nil, fmt.Errorf("sa-dt: %w", err)
	}
	t, err := Fit(s, dist, cfg.Depth, cfg.Seed, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("sa-dt: %w", err)
	}
	return t, s, nil
}

// Greedy returns the deterministic policy of an actor: the arg-max of its
// logits or its mean (spec §1.5). The policy reuses one output buffer, so
// it must not be shared between goroutines.
func Greedy(a policy.Actor) Policy {
	out := make([]float32, a.Out())
	d := a.Dist()
	return func(obs, action []float32) error {
		if err := a.Predict(obs, 1, out); err != nil {
			return err
		}
		d.Greedy(out, action)
		return nil
	}
}
