package ppo

import "testing"

// TestScheduleOracle checks the dynamic rollout and batch schedule against
// the table of spec sympol-rl §4.2 (best SYMPOL configs, T = 1 000 000).
func TestScheduleOracle(t *testing.T) {
	cases := []struct {
		env                  string
		nEnvs, nSteps        int
		steps0, first, last  int
		minibatch, iters, gT int
	}{
		{"CP", 7, 512, 64, 448, 57344, 64, 559, 1017856},
		{"AB", 8, 128, 16, 128, 16384, 64, 1948, 1014144},
		{"LL", 6, 512, 64, 384, 49152, 64, 651, 1030656},
		{"MC-C", 5, 128, 16, 80, 10240, 32, 3115, 1002320},
		{"PD-C", 15, 128, 16, 240, 30720, 64, 1040, 1012560},
		{"E-R", 14, 128, 16, 224, 28672, 64, 1115, 1027936},
		{"DK", 14, 512, 64, 896, 114688, 64, 280, 1007104},
		{"LG-5", 16, 512, 64, 1024, 131072, 64, 245, 1025024},
		{"LG-7", 7, 128, 16, 112, 14336, 32, 2226, 1009456},
		{"DS", 10, 512, 64, 640, 81920, 64, 392, 1077760},
	}
	for _, c := range cases {
		t.Run(c.env, func(t *testing.T) {
			s := NewSchedule(c.nEnvs, c.nSteps, 64, 1_000_000, true, false)
			if s.Steps0 != c.steps0 {
				t.Errorf("n_steps0 = %d, want %d", s.Steps0, c.steps0)
			}
			if got := c.nEnvs * s.RolloutSteps(0); got != c.first {
				t.Errorf("first batch = %d, want %d", got, c.first)
			}
			if got := c.nEnvs * s.MaxRolloutSteps(); got != c.last {
				t.Errorf("last batch = %d, want %d", got, c.last)
			}
			if s.Minibatch != c.minibatch {
				t.Errorf("minibatch = %d, want %d", s.Minibatch, c.minibatch)
			}
			iters, final := s.Iterations()
			if iters != c.iters || final != c.gT {
				t.Errorf("iterations, final step = %d, %d, want %d, %d", iters, final, c.iters, c.gT)
			}
		})
	}
}

func TestFactorPhases(t *testing.T) {
	s := NewSchedule(1, 128, 64, 1_000_000, true, false)
	for _, c := range []struct{ g, k int }{
		{0, 1}, {124_999, 1}, {125_000, 2}, {249_999, 2}, {250_000, 4},
		{500_000, 16}, {874_999, 64}, {875_000, 128}, {999_999, 128},
	} {
		if got := s.Factor(c.g); got != c.k {
			t.Errorf("K(%d) = %d, want %d", c.g, got, c.k)
		}
	}
	st := NewSchedule(1, 128, 64, 1_000_000, true, true)
	if st.Accumulation(900_000) != 1 || st.RolloutSteps(900_000) != 16*128 {
		t.Errorf("static batch: accumulation %d, rollout %d", st.Accumulation(900_000), st.RolloutSteps(900_000))
	}
	nd := NewSchedule(1, 128, 64, 1_000_000, false, false)
	if nd.RolloutSteps(900_000) != 128 || nd.Accumulation(900_000) != 128 {
		t.Errorf("no dynamic buffer: rollout %d, accumulation %d", nd.RolloutSteps(900_000), nd.Accumulation(900_000))
	}
}

func TestEvaluatorCount(t *testing.T) {
	// The best configs evaluate 18–22 times per run (spec §3.7).
	for _, c := range []struct{ nEnvs, nSteps int }{{7, 512}, {8, 128}, {5, 128}, {16, 512}} {
		s := NewSchedule(c.nEnvs, c.nSteps, 64, 1_000_000, true, false)
		e := Evaluator{Every: 50_000, Total: 1_000_000}
		g, n, tests := 0, 0, 0
		for it := 1; g < s.Total; it++ {
			b := g
			g += s.Envs * s.RolloutSteps(g)
			ev, te := e.Due(it, b, g)
			if ev {
				n++
			}
			if te {
				tests++
			}
		}
		if n < 18 || n > 22 || tests < 1 || tests > 2 {
			t.Errorf("%d envs × %d: %d evaluations, %d tests", c.nEnvs, c.nSteps, n, tests)
		}
	}
}
