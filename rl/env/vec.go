package env

import (
	"fmt"
	"math"
)

// Episode is the outcome of one finished episode.
type Episode struct {
	// Env is the index of the instance within its Vec (for Evaluate, the
	// index of the seed).
	Env int
	// Return is the undiscounted sum of the episode's rewards.
	Return float64
	// Length is the number of steps taken.
	Length int
	// Truncated reports that the time limit ended the episode (it did not
	// terminate on its own).
	Truncated bool
}

// Vec steps N instances of one environment together, Gymnasium-style:
// every Step advances all instances, enforces the time limit, reports
// terminations and truncations separately and resets finished instances at
// once, so Obs always holds the observations the next actions respond to.
// FinalObs keeps the observation each action actually led to (for a finished
// instance, the last observation of its episode), so a learner can bootstrap
// from it at a truncation. Step allocates nothing once every instance has
// run an episode of the time limit's length.
//
// When the environment implements RandStater, the Vec also remembers, per
// instance, the generator's state at the start of the current episode and
// the actions taken since, so that Snapshot and Restore can save and bring
// back the episodes in progress.
//
// Instance i is seeded with SeedFor(seed, i); results depend only on the
// seed and the actions, never on the number of workers.
// A Vec is not safe for concurrent use.
type Vec struct {
	spec   Spec
	envs   []Env
	obsDim int
	actDim int

	obs, finalObs []float32
	rewards       []float32
	terminated    []bool
	truncated     []bool
	steps         []int
	returns       []float64
	episodes      []Episode

	actions []float32 // the actions of the Step in progress, for the workers
	// Per instance, when the environment implements RandStater (rs[i] !=
	// nil): the generator's state before the Reset that started the
	// current episode, and the actions taken since (steps[i]×actDim).
	rs       []RandStater
	startRNG [][]byte
	actLog   [][]float32
	pool     *workerPool
}

// NewVec makes n instances of the environment registered under id, seeds
// instance i with SeedFor(seed, i) and resets them all.
func NewVec(id string, n int, seed uint64) (*Vec, error) {
	m, err := MakerOf(id)
	if err != nil {
		return nil, err
	}
	return NewVecFrom(m, n, seed)
}

// NewVecFrom is NewVec for an environment given by its Maker.
func NewVecFrom(m Maker, n int, seed uint64) (*Vec, error) {
	if n < 1 {
		return nil, fmt.Errorf("vectorised environment: number of instances %d, want at least 1", n)
	}
	if m == nil {
		return nil, fmt.Errorf("vectorised environment: nil Maker")
	}
	v := &Vec{envs: make([]Env, n)}
	for i := range v.envs {
		v.envs[i] = m()
	}
	v.spec = v.envs[0].Spec()
	v.obsDim, v.actDim = v.spec.Observation.Dim, v.spec.Action.Dim
	if v.obsDim < 1 || v.actDim < 1 {
		return nil, fmt.Errorf("environment %q: observation dimension %d and action dimension %d, want both at least 1",
			v.spec.ID, v.obsDim, v.actDim)
	}
	v.obs = make([]float32, n*v.obsDim)
	v.finalObs = make([]float32, n*v.obsDim)
	v.rewards = make([]float32, n)
	v.terminated = make([]bool, n)
	v.truncated = make([]bool, n)
	v.steps = make([]int, n)
	v.returns = make([]float64, n)
	if _, ok := v.envs[0].(RandStater); ok {
		v.rs = make([]RandStater, n)
		v.startRNG = make([][]byte, n)
		v.actLog = make([][]float32, n)
		for i, e := range v.envs {
			if v.rs[i], ok = e.(RandStater); !ok {
				return nil, fmt.Errorf("environment %q: instance %d cannot save its random state, instance 0 can", v.spec.ID, i)
			}
			v.actLog[i] = make([]float32, 0, max(v.spec.MaxEpisodeSteps, 1)*v.actDim)
		}
	}
	for i, e := range v.envs {
		e.Seed(SeedFor(seed, i))
	}
	v.Reset()
	return v, nil
}

// SeedFor derives the seed of instance i from a run's seed (a SplitMix64
// mix, so neighbouring seeds and indices give unrelated streams).
func SeedFor(seed uint64, i int) uint64 {
	return mix64(seed + mix64(uint64(i)+0x632be59bd9b4e019))
}

func mix64(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Spec describes the environment.
func (v *Vec) Spec() Spec { return v.spec }

// N is the number of instances.
func (v *Vec) N() int { return len(v.envs) }

// Reset starts a new episode in every instance (continuing each instance's
// random stream), clears the running returns and lengths and forgets
// collected episodes.
func (v *Vec) Reset() {
	for i := range v.envs {
		v.reset(i)
		v.steps[i], v.returns[i] = 0, 0
		v.rewards[i], v.terminated[i], v.truncated[i] = 0, false, false
	}
	copy(v.finalObs, v.obs)
	v.episodes = v.episodes[:0]
}

// reset starts a new episode in instance i, remembering the generator's
// state before it and clearing the action log.
func (v *Vec) reset(i int) {
	if v.rs != nil {
		v.startRNG[i] = v.rs[i].AppendRandState(v.startRNG[i][:0])
		v.actLog[i] = v.actLog[i][:0]
	}
	v.envs[i].Reset(v.row(v.obs, i))
}

func (v *Vec) row(buf []float32, i int) []float32 {
	return buf[i*v.obsDim : (i+1)*v.obsDim : (i+1)*v.obsDim]
}

// Obs returns the current observations, N×F row-major (F =
// Spec().Observation.Dim): what the next actions respond to. For an
// instance whose episode ended in the last Step, its row is the first
// observation of the new episode. The slice is owned by the Vec and
// overwritten by Step and Reset.
func (v *Vec) Obs() []float32 { return v.obs }

// FinalObs returns, N×F row-major, the observation each instance's last
// action led to: for an instance whose episode ended in the last Step, the
// last observation of that episode (to bootstrap a truncation from); for
// the others, the same row as Obs. Owned by the Vec.
func (v *Vec) FinalObs() []float32 { return v.finalObs }

// Rewards returns the reward of each instance in the last Step.
func (v *Vec) Rewards() []float32 { return v.rewards }

// Terminated reports, per instance, whether the last Step ended its episode
// in a terminal state (no bootstrapping).
func (v *Vec) Terminated() []bool { return v.terminated }

// Truncated reports, per instance, whether the last Step hit the time limit
// without terminating (bootstrap from FinalObs).
func (v *Vec) Truncated() []bool { return v.truncated }

// Episodes appends the episodes finished since the last call (in the order
// they finished, instances in index order within a step) to dst and returns
// it. Call it regularly: the Vec keeps finished episodes until collected.
func (v *Vec) Episodes(dst []Episode) []Episode {
	dst = append(dst, v.episodes...)
	v.episodes = v.episodes[:0]
	return dst
}

// Step applies actions (N×Spec().Action.Dim row-major; a discrete action is
// its index as a float32) to every instance, records rewards, terminations
// and truncations, and resets the instances whose episodes ended.
func (v *Vec) Step(actions []float32) error {
	n := len(v.envs)
	if len(actions) != n*v.actDim {
		return fmt.Errorf("environment %q: %d action values, want %d (%d instances × %d)",
			v.spec.ID, len(actions), n*v.actDim, n, v.actDim)
	}
	if v.spec.Action.Discrete() {
		for i, a := range actions {
			if err := checkDiscrete(v.spec, a); err != nil {
				return fmt.Errorf("instance %d: %w", i/v.actDim, err)
			}
		}
	}
	v.actions = actions
	if v.pool == nil {
		v.stepRange(0, n)
	} else {
		v.pool.run(n)
	}
	v.actions = nil
	for i := 0; i < n; i++ {
		v.returns[i] += float64(v.rewards[i])
		if v.terminated[i] || v.truncated[i] {
			v.episodes = append(v.episodes, Episode{Env: i, Return: v.returns[i],
				Length: v.steps[i], Truncated: v.truncated[i]})
			v.returns[i], v.steps[i] = 0, 0
		}
	}
	return nil
}

// stepRange steps instances lo..hi−1; it touches only their own rows, so
// workers can run disjoint ranges at once.
func (v *Vec) stepRange(lo, hi int) {
	limit := v.spec.MaxEpisodeSteps
	for i := lo; i < hi; i++ {
		next := v.row(v.finalObs, i)
		a := v.actions[i*v.actDim : (i+1)*v.actDim : (i+1)*v.actDim]
		if v.rs != nil {
			if len(a) == 1 { // the common case, without append's copy call
				v.actLog[i] = append(v.actLog[i], a[0])
			} else {
				v.actLog[i] = append(v.actLog[i], a...)
			}
		}
		r, term := v.envs[i].Step(a, next)
		v.steps[i]++
		trunc := !term && limit > 0 && v.steps[i] >= limit
		v.rewards[i], v.terminated[i], v.truncated[i] = r, term, trunc
		if term || trunc {
			v.reset(i)
		} else {
			copy(v.row(v.obs, i), next)
		}
	}
}

func checkDiscrete(s Spec, a float32) error {
	if a != float32(math.Trunc(float64(a))) || a < 0 || a >= float32(s.Action.N) {
		return fmt.Errorf("environment %q: action %v, want an integer in [0, %d)", s.ID, a, s.Action.N)
	}
	return nil
}

// SetWorkers makes Step run the instances on k goroutines (k ≤ 1: on the
// calling goroutine). Worth it for expensive environments such as
// LunarLander; results do not depend on k. Call Close when done with a Vec
// that has workers.
func (v *Vec) SetWorkers(k int) {
	if v.pool != nil {
		v.pool.close()
		v.pool = nil
	}
	if k > len(v.envs) {
		k = len(v.envs)
	}
	if k > 1 {
		v.pool = newWorkerPool(k, v.stepRange)
	}
}

// Close stops the worker goroutines started by SetWorkers. The Vec stays
// usable and steps on the calling goroutine afterwards.
func (v *Vec) Close() { v.SetWorkers(0) }

// workerPool runs contiguous ranges of instances on k−1 goroutines plus the
// caller.
type workerPool struct {
	k    int
	fn   func(lo, hi int)
	jobs chan [2]int
	done chan struct{}
}

func newWorkerPool(k int, fn func(lo, hi int)) *workerPool {
	p := &workerPool{k: k, fn: fn, jobs: make(chan [2]int, k), done: make(chan struct{}, k)}
	for w := 1; w < k; w++ {
		go func() {
			for r := range p.jobs {
				p.fn(r[0], r[1])
				p.done <- struct{}{}
			}
		}()
	}
	return p
}

// run calls fn on k contiguous ranges covering 0..n−1 and waits for all.
func (p *workerPool) run(n int) {
	chunk := (n + p.k - 1) / p.k
	sent := 0
	for lo := chunk; lo < n; lo += chunk {
		p.jobs <- [2]int{lo, min(lo+chunk, n)}
		sent++
	}
	p.fn(0, min(chunk, n))
	for ; sent > 0; sent-- {
		<-p.done
	}
}

func (p *workerPool) close() { close(p.jobs) }
