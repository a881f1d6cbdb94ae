package ppo

// GAE computes generalised advantage estimates and value targets for a
// rollout of T steps over E environments (arrays are [T][E], step-major),
// in float32 like the reference (spec §3.3):
//
//	next_t = boot[t,e]      if ended[t,e]  (the episode ended after step t)
//	         values[t+1,e]  otherwise (last[e] for t = T−1)
//	δ_t    = r_t + γ·next_t − V_t
//	A_t    = δ_t + γλ·(1 − ended_t)·A_{t+1}
//	R_t    = A_t + V_t
//
// boot holds the bootstrap value of an ended episode: 0 for a termination,
// V(final observation) for a truncation that is bootstrapped. A truncation
// that the reference does not store as done (Gymnasium backends) is passed
// with ended = false, so the estimate continues into the next episode.
func GAE(T, E int, rewards, values, boot []float32, ended []bool, last []float32, gamma, lambda float32, adv, ret []float32) {
	gl := gamma * lambda
	for e := 0; e < E; e++ {
		var a float32
		next := last[e]
		for t := T - 1; t >= 0; t-- {
			i := t*E + e
			nv, c := next, gl*a
			if ended[i] {
				nv, c = boot[i], 0
			}
			delta := rewards[i] + gamma*nv - values[i]
			a = delta + c
			adv[i] = a
			ret[i] = a + values[i]
			next = values[i]
		}
	}
}
