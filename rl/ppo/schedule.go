package ppo

// Schedule is the dynamic rollout-length and batch-size schedule of SYMPOL
// (spec sympol-rl §4, the reference code's formulas): the per-environment
// rollout length grows from Steps0 by the factor K(g) = 2^(⌈8(g+1)/(T+1)⌉−1),
// which doubles on eight consecutive phases of ≈T/8 environment steps
// (1, 2, 4, …, 128), and the same factor is the gradient-accumulation count.
type Schedule struct {
	// Envs is the number of parallel environments.
	Envs int
	// Steps0 is the initial per-environment rollout length: max(16,
	// n_steps/8) with the dynamic buffer, else n_steps.
	Steps0 int
	// Total is the training budget T in environment steps.
	Total int
	// Dynamic grows the rollout length with K (--dynamic_buffer).
	Dynamic bool
	// Static keeps the accumulation count at 1 (--static_batch).
	Static bool
	// Minibatch is the minibatch size M after halving (see NewSchedule).
	Minibatch int
}

// NewSchedule returns the schedule of a run with nEnvs environments,
// configured rollout length nSteps, minibatch size minibatch and budget
// total. With dynamic, the initial rollout length is max(16, nSteps/8);
// the minibatch size is halved while fewer than two minibatches fit in the
// first rollout (spec §3.4) and never changes afterwards.
func NewSchedule(nEnvs, nSteps, minibatch, total int, dynamic, static bool) Schedule {
	s := Schedule{Envs: nEnvs, Steps0: nSteps, Total: total, Dynamic: dynamic, Static: static, Minibatch: minibatch}
	if dynamic {
		s.Steps0 = max(16, nSteps/8)
	}
	for s.Minibatch > 1 && (nEnvs*s.Steps0)/s.Minibatch < 2 {
		s.Minibatch /= 2
	}
	return s
}

// Factor returns K(g) = 2^(⌈8(g+1)/(T+1)⌉−1) for the global step g at the
// start of an iteration, computed exactly in integers (1 ≤ K ≤ 128 for
// 0 ≤ g < T).
func (s Schedule) Factor(g int) int {
	if g < 0 {
		g = 0
	}
	c := (8*(g+1) + s.Total) / (s.Total + 1) // ⌈8(g+1)/(T+1)⌉
	c = max(1, min(c, 8))
	return 1 << (c - 1)
}

// RolloutSteps returns the per-environment rollout length of the iteration
// that starts at global step g.
func (s Schedule) RolloutSteps(g int) int {
	if !s.Dynamic {
		return s.Steps0
	}
	return s.Steps0 * s.Factor(g)
}

// Accumulation returns the gradient-accumulation count of the iteration
// that starts at global step g (1 with Static).
func (s Schedule) Accumulation(g int) int {
	if s.Static {
		return 1
	}
	return s.Factor(g)
}

// MaxRolloutSteps is the longest per-environment rollout of the run (for
// allocating buffers once).
func (s Schedule) MaxRolloutSteps() int {
	if !s.Dynamic {
		return s.Steps0
	}
	return s.Steps0 * s.Factor(s.Total-1)
}

// Iterations returns the number of iterations of a full run and the final
// global step (the last batch may overshoot Total).
func (s Schedule) Iterations() (iters, final int) {
	g := 0
	for g < s.Total {
		g += s.Envs * s.RolloutSteps(g)
		iters++
	}
	return iters, g
}

// Evaluator decides when a run evaluates (spec §3.7): after iteration 1,
// whenever the global step at the start of an iteration entered a new block
// of Every steps, and in the last iteration(s) — when the step after this
// iteration plus this iteration's batch reaches the budget (that evaluation
// is also the test). Its fields are the state a checkpoint keeps.
type Evaluator struct {
	Every int
	Total int
	Last  int // block index of the last evaluation
}

// Due reports whether to evaluate after iteration iter (1-based) that
// started at global step before and ended at after, and whether that
// evaluation includes the test episodes. It updates Last.
func (e *Evaluator) Due(iter, before, after int) (eval, test bool) {
	cur := before / e.Every
	final := after+(after-before) >= e.Total
	eval = iter == 1 || cur > e.Last || final
	e.Last = cur
	return eval, final
}
