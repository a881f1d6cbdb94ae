package distill

import (
	"fmt"
	"math"

	"github.com/gdt-ml/gdt/rl/env"
	"github.com/gdt-ml/gdt/rl/policy"
	"github.com/gdt-ml/gdt/rng"
)

// Weight returns the criticality of a state for VIPER's resampling:
// ideally V(s) − min_a Q(s, a), the return lost by the worst action.
type Weight func(obs []float32) (float64, error)

// LogitSpread returns VIPER's state weight for a discrete actor-critic
// expert, which has no Q function: max_a log π(a|s) − min_a log π(a|s)
// (= max − min of the logits). Under the soft-optimal-policy view of an
// entropy-regularised expert, log π(a|s) = (Q(s,a) − V(s))/α, so the spread
// is (max_a Q − min_a Q)/α ≥ (V − min_a Q)/α: the same ordering of states
// by how much a wrong action costs.
func LogitSpread(actor policy.Actor) Weight {
	out := make([]float32, actor.Out())
	return func(obs []float32) (float64, error) {
		if err := actor.Predict(obs, 1, out); err != nil {
			return 0, err
		}
		lo, hi := out[0], out[0]
		for _, v := range out[1:] {
			lo, hi = min(lo, v), max(hi, v)
		}
		return float64(hi - lo), nil
	}
}

// VIPERConfig configures VIPER.
type VIPERConfig struct {
	Depth      int    // tree depth (5 or 8)
	Iterations int    // DAgger iterations (the first rolls out the expert)
	Episodes   int    // episodes rolled out per iteration
	FirstSeed  int    // reset seed of the first episode; iteration i uses FirstSeed + i·Episodes…
	Resample   int    // points drawn per fit (0 = the size of the aggregated data)
	ValSeed    int    // first reset seed of the episodes that pick the best tree
	ValEps     int    // number of those episodes
	Seed       uint64 // resampling stream and CART random_state
}

// DefaultVIPER returns the setup used by gdt rl bench: 10 iterations of 5
// episodes (50 episodes in all, twice SA-DT's 25), trees chosen on 5
// episodes with seeds 7000…7004 (disjoint from validation and test seeds).
func DefaultVIPER(depth int) VIPERConfig {
	return VIPERConfig{Depth: depth, Iterations: 10, Episodes: 5, FirstSeed: 42, ValSeed: 7000, ValEps: 5}
}

// VIPERResult tells how the kept tree was found.
type VIPERResult struct {
	Best       int       // iteration of the kept tree (0-based)
	ValReturns []float64 // mean selection return of every iteration's tree
	Samples    int       // aggregated data set size at the end
}

// VIPER runs Q-DAgger-style distillation of expert into a CART tree on
// environments from m (discrete actions only): iteration 0 rolls out the expert,
// iteration i ≥ 1 the tree of iteration i−1; every visited state is
// labelled with the expert's action and weighted by weight (nil: uniform);
// each fit uses Resample points drawn with replacement with probability
// proportional to the weights from all data so far. The tree with the best
// mean return on the selection episodes is returned (earliest on ties).
func VIPER(m env.Maker, expert Policy, weight Weight, dist policy.Dist, cfg VIPERConfig) (*Tree, VIPERResult, error) {
	var res VIPERResult
	if !dist.Discrete {
		return nil, res, fmt.Errorf("viper: needs discrete actions (spec §6.5)")
	}
	if cfg.Iterations < 1 || cfg.Episodes < 1 || cfg.Depth < 1 || cfg.ValEps < 1 {
		return nil, res, fmt.Errorf("viper: iterations %d, episodes %d, depth %d, selection episodes %d: expected all ≥ 1",
			cfg.Iterations, cfg.Episodes, cfg.Depth, cfg.ValEps)
	}
	all := &Samples{}
	var w []float64
	expAct := make([]float32, dist.ActionDim())
	r := rng.New(uint32(cfg.Seed) ^ 0x51f15eed)
	var best *Tree
	bestRet := math.Inf(-1)
	var cur *Tree
	for it := 0; it < cfg.Iterations; it++ {
		actor := expert
		if cur != nil {
			actor = cur.Act
		}
		seeds := Seeds(cfg.FirstSeed+it*cfg.Episodes, cfg.Episodes)
		_, err := Episodes(m, seeds, actor, func(obs []float32) error {
			if all.F == 0 {
				all.F, all.AD = len(obs), dist.ActionDim()
			}
			if err := expert(obs, expAct); err != nil {
				return err
			}
			wt := 1.0
			if weight != nil {
				var err error
				if wt, err = weight(obs); err != nil {
					return err
				}
				if !(wt >= 0) || math.IsInf(wt, 0) {
					return fmt.Errorf("viper: state weight %v: expected a finite number ≥ 0", wt)
				}
			}
			all.Append(obs, expAct)
			w = append(w, wt)
			return nil
		})
		if err != nil {
			return nil, res, fmt.Errorf("viper iteration %d: %w", it, err)
		}
		fitSet := resample(all, w, cfg.Resample, r)
		t, err := Fit(fitSet, dist, cfg.Depth, cfg.Seed, nil)
		if err != nil {
			return nil, res, fmt.Errorf("viper iteration %d: %w", it, err)
		}
		rets, err := Episodes(m, Seeds(cfg.ValSeed, cfg.ValEps), t.Act, nil)
		if err != nil {
			return nil, res, fmt.Errorf("viper iteration %d: %w", it, err)
		}
		m := mean(rets)
		res.ValReturns = append(res.ValReturns, m)
		if m > bestRet {
			best, bestRet, res.Best = t, m, it
		}
		cur = t
	}
	res.Samples = all.N()
	return best, res, nil
}

// resample draws n points (0 = all.N()) with replacement, with
// probability proportional to w; all weights 0 fall back to uniform.
func resample(all *Samples, w []float64, n int, r *rng.MT19937) *Samples {
	N := all.N()
	if n <= 0 {
		n = N
	}
	cum := make([]float64, N)
	s := 0.0
	for i, v := range w {
		s += v
		cum[i] = s
	}
	out := &Samples{F: all.F, AD: all.AD, X: make([]float32, 0, n*all.F), Actions: make([]float32, 0, n*all.AD)}
	for k := 0; k < n; k++ {
		var i int
		if s > 0 {
			u := r.Float64() * s
			lo, hi := 0, N-1
			for lo < hi {
				m := (lo + hi) / 2
				if cum[m] > u {
					hi = m
				} else {
					lo = m + 1
				}
			}
			i = lo
		} else {
			i = r.Intn(N)
		}
		out.Append(all.X[i*all.F:(i+1)*all.F], all.Actions[i*all.AD:(i+1)*all.AD])
	}
	return out
}

func mean(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}
