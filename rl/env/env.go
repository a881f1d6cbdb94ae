// Package env holds reinforcement-learning environments behind one
// interface, and the vectorised runner that steps many instances of one
// environment without allocating.
//
// An Env is one episode-based simulator. It knows nothing of time limits:
// Step reports only true terminations (the pole fell, the agent reached the
// goal), and the time limit in its Spec is enforced by Vec, which reports
// truncations separately, so learners can bootstrap at a truncation and not
// at a termination.
package env

import (
	"fmt"
	"sort"
	"sync"
)

// Space describes an observation or action space.
type Space struct {
	// N is the number of discrete actions (N > 0) or 0 for a continuous box.
	N int
	// Dim is the length of a vector in the space: the observation width, 1
	// for a discrete action (its index stored as a float32), or the number of
	// continuous action components.
	Dim int
	// Low and High bound every component of a box (len Dim); nil when
	// unbounded or discrete.
	Low, High []float32
}

// Discrete reports whether the space is a finite set of actions.
func (s Space) Discrete() bool { return s.N > 0 }

// Spec is what a learner needs to know about an environment.
type Spec struct {
	// ID is the Gymnasium-style identifier, e.g. "CartPole-v1".
	ID string
	// Observation is the observation space (Dim = number of features).
	Observation Space
	// Action is the action space.
	Action Space
	// MaxEpisodeSteps is the time limit: Vec truncates an episode after this
	// many steps (0 = no limit).
	MaxEpisodeSteps int
	// TimeLimitIsTerminal reports whether the canonical implementation
	// treats the time limit as a true terminal (gymnax: done = terminal or
	// time limit) rather than a truncation.
	TimeLimitIsTerminal bool
	// OneEpisode reports that the environment has one fixed layout: every
	// Reset starts the same state whatever the seed, and the dynamics are
	// deterministic, so two greedy episodes of a policy are the same episode
	// however their seeds differ (MiniGrid-DistShift1/2). Validation and
	// test episodes then coincide, and a policy selected on validation has
	// no independent test estimate.
	OneEpisode bool
	// FeatureNames names every observation component for people
	// ("pole angular velocity", "cell one to the left is lava"); len =
	// Observation.Dim.
	FeatureNames []string
	// ActionNames names every discrete action ("push left"); for continuous
	// actions, one name per component ("torque").
	ActionNames []string
}

// Env is one instance of an environment. Implementations own their random
// generator; Seed replaces it, Reset draws the next initial state from it.
// Observations are written into caller-owned slices of length
// Spec().Observation.Dim; actions are read from slices of length
// Spec().Action.Dim (a discrete action is its index as a float32).
// An Env is not safe for concurrent use.
type Env interface {
	Spec() Spec
	// Seed reseeds the environment's generator.
	Seed(seed uint64)
	// Reset starts a new episode and writes its first observation.
	Reset(obs []float32)
	// Step applies the action, writes the next observation and returns the
	// reward and whether the episode terminated (not truncated: time limits
	// are Vec's business).
	Step(action []float32, obs []float32) (reward float32, terminated bool)
}

// RandStater is implemented by environments whose random generator can be
// saved and restored, which lets Vec.Snapshot save episodes in progress:
// the generator's state before an episode's Reset, replayed with the
// episode's actions, gives the episode back exactly (the dynamics are
// deterministic). Every environment registered by gdt implements it.
type RandStater interface {
	// AppendRandState appends the generator's state to b and returns it,
	// allocating only when b lacks the capacity.
	AppendRandState(b []byte) []byte
	// SetRandState sets the generator's state from what AppendRandState
	// wrote; anything else is an error.
	SetRandState(b []byte) error
}

// Maker creates a fresh environment instance.
type Maker func() Env

var (
	regMu    sync.RWMutex
	registry = map[string]Maker{}
)

// Register makes an environment available under its ID. Packages holding
// environments call it from init; registering an ID twice panics (a
// programming error, not a user error).
func Register(id string, m Maker) {
	regMu.Lock()
	defer regMu.Unlock()
	if _, dup := registry[id]; dup {
		panic("env: duplicate registration of " + id)
	}
	registry[id] = m
}

// Make returns a new instance of the environment registered under id.
func Make(id string) (Env, error) {
	m, err := MakerOf(id)
	if err != nil {
		return nil, err
	}
	return m(), nil
}

// MakerOf returns the registered Maker of environment id.
func MakerOf(id string) (Maker, error) {
	regMu.RLock()
	m, ok := registry[id]
	regMu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("unknown environment %q (known: %v)", id, IDs())
	}
	return m, nil
}

// IDs lists the registered environment IDs in sorted order.
func IDs() []string {
	regMu.RLock()
	defer regMu.RUnlock()
	ids := make([]string, 0, len(registry))
	for id := range registry {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}
