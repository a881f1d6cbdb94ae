package env

import (
	"fmt"
	"math"
)

// FiniteStarts is implemented by environments whose Reset draws the
// initial state from a small finite set (MiniGrid-Empty-Random: the agent's
// cell and direction, the goal fixed). With deterministic dynamics (every
// environment of gdt) a deterministic policy's episodes from all of them
// meet every observation the policy can ever meet on the task.
type FiniteStarts interface {
	// StartStates returns the number of distinct start states a Reset can
	// draw; 0 when the set is not finite or not known.
	StartStates() int
	// StartState returns a key of the current state, called right after a
	// Reset: distinct start states have distinct keys.
	StartState() int
}

// Visits are the distinct observations a policy met in a set of episodes
// (Visit), and how far those episodes cover the task's start states.
type Visits struct {
	// Obs holds the distinct observations, Rows × Features row-major, in
	// the order first met.
	Obs            []float32
	Rows, Features int
	// Steps counts the observations met, repeats included.
	Steps int
	// FirstSeed and Episodes: the episodes used seeds FirstSeed+0…
	// FirstSeed+Episodes−1.
	FirstSeed uint64
	Episodes  int
	// Starts is the environment's number of start states (FiniteStarts; 0
	// when it has no known finite set) and StartsSeen how many distinct
	// ones the episodes started from.
	Starts, StartsSeen int
}

// Complete reports whether the episodes started from every start state of
// the task: the observations are then every observation a deterministic
// policy can meet on it, not only those of the episodes played.
func (v *Visits) Complete() bool { return v.Starts > 0 && v.StartsSeen == v.Starts }

// String says what the observations cover, for people.
func (v *Visits) String() string {
	s := fmt.Sprintf("%d distinct observations (%d steps) of %d greedy episodes, seeds %d…%d", v.Rows, v.Steps, v.Episodes, v.FirstSeed, v.FirstSeed+uint64(v.Episodes)-1)
	switch {
	case v.Complete():
		return s + fmt.Sprintf(", which start from all %d start states of the task: every observation the policy meets on it", v.Starts)
	case v.Starts > 0:
		return s + fmt.Sprintf(", which start from %d of the task's %d start states: only these observations", v.StartsSeen, v.Starts)
	}
	return s + " (the task's start states are not a known finite set): only these observations"
}

// Visit plays greedy episodes with policy on e (seeds first, first+1, …,
// as Evaluate does) and records the distinct observations the policy is
// asked to act on. It stops after maxEpisodes episodes or, when e has a
// finite set of start states (FiniteStarts), as soon as the episodes have
// started from all of them.
func Visit(e Env, first uint64, maxEpisodes int, policy Policy) (*Visits, error) {
	if maxEpisodes < 1 {
		return nil, fmt.Errorf("environment %q: %d episodes: want ≥ 1", e.Spec().ID, maxEpisodes)
	}
	if policy == nil {
		return nil, fmt.Errorf("environment %q: nil policy", e.Spec().ID)
	}
	F := e.Spec().Observation.Dim
	v := &Visits{Features: F, FirstSeed: first}
	fs, _ := e.(FiniteStarts)
	if fs != nil {
		v.Starts = fs.StartStates()
	}
	seen := map[int]bool{}
	rows := map[string]bool{}
	key := make([]byte, 4*F)
	fresh := false
	rec := func(obs, action []float32) {
		if fresh && v.Starts > 0 {
			seen[fs.StartState()] = true
		}
		fresh = false
		v.Steps++
		for j, x := range obs {
			b := math.Float32bits(x)
			key[4*j], key[4*j+1], key[4*j+2], key[4*j+3] = byte(b), byte(b>>8), byte(b>>16), byte(b>>24)
		}
		if !rows[string(key)] {
			rows[string(key)] = true
			v.Obs = append(v.Obs, obs...)
			v.Rows++
		}
		policy(obs, action)
	}
	for k := 0; k < maxEpisodes; k++ {
		fresh = true
		if _, err := Evaluate(e, []uint64{first + uint64(k)}, rec); err != nil {
			return nil, err
		}
		v.Episodes++
		v.StartsSeen = len(seen)
		if v.Complete() {
			break
		}
	}
	return v, nil
}
