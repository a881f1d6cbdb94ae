package distill

import (
	"testing"

	"github.com/gdt-ml/gdt/rl/env"
	_ "github.com/gdt-ml/gdt/rl/env/classic"
	"github.com/gdt-ml/gdt/rl/policy"
	"github.com/gdt-ml/gdt/rl/sdt"
	"github.com/gdt-ml/gdt/rng"
)

// cartpoleExpert pushes right iff the pole rotates right (an axis-aligned
// rule a depth-1 tree can represent); it balances the pole for a while.
func cartpoleExpert(obs, a []float32) error {
	a[0] = 0
	if obs[3] > 0 {
		a[0] = 1
	}
	return nil
}

// pendulumExpert is piecewise constant in two features.
func pendulumExpert(obs, a []float32) error {
	switch {
	case obs[1] > 0.2:
		a[0] = -1.5
	case obs[2] > 0:
		a[0] = 2
	default:
		a[0] = -0.25
	}
	return nil
}

func TestSADTReproducesExpert(t *testing.T) {
	cases := []struct {
		env    string
		dist   policy.Dist
		expert Policy
	}{
		{"CartPole-v1", policy.Dist{Discrete: true, A: 2}, cartpoleExpert},
		{"Pendulum-v1", policy.Dist{A: 1}, pendulumExpert},
	}
	for _, c := range cases {
		t.Run(c.env, func(t *testing.T) {
			cfg := DefaultSADT(5)
			cfg.Episodes = 3
			tr, s, err := SADT(maker(t, c.env), c.expert, c.dist, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if s.N() < 30 {
				t.Fatalf("only %d samples", s.N())
			}
			// Identical actions on every training state.
			a, b := make([]float32, c.dist.ActionDim()), make([]float32, c.dist.ActionDim())
			for i := 0; i < s.N(); i++ {
				x := s.X[i*s.F : (i+1)*s.F]
				if err := c.expert(x, a); err != nil {
					t.Fatal(err)
				}
				if err := tr.Act(x, b); err != nil {
					t.Fatal(err)
				}
				if a[0] != b[0] || s.Actions[i] != a[0] {
					t.Fatalf("state %d: expert %v, stored %v, tree %v", i, a, s.Actions[i], b)
				}
			}
			// And the same returns on the expert's own episodes.
			seeds := Seeds(cfg.FirstSeed, cfg.Episodes)
			re, err := Episodes(maker(t, c.env), seeds, c.expert, nil)
			if err != nil {
				t.Fatal(err)
			}
			rt, err := Episodes(maker(t, c.env), seeds, tr.Act, nil)
			if err != nil {
				t.Fatal(err)
			}
			for i := range re {
				if re[i] != rt[i] {
					t.Errorf("episode %d: expert %v, tree %v", i, re[i], rt[i])
				}
			}
			if n := tr.Nodes(); n < 3 || n > 63 {
				t.Errorf("tree of %d nodes", n)
			}
			if tr.Text(nil, nil) == "" {
				t.Error("empty text")
			}
		})
	}
}

func TestFromBuffer(t *testing.T) {
	s, err := FromBuffer([]float32{1, 2, 3, 4}, []float32{-1.7, 0.9}, 2, 2, 1, true)
	if err != nil {
		t.Fatal(err)
	}
	if s.N() != 2 || s.Actions[0] != -1 || s.Actions[1] != 0 {
		t.Fatalf("samples %+v", s)
	}
	if _, err := FromBuffer([]float32{1}, []float32{1}, 2, 2, 1, false); err == nil {
		t.Error("short buffer accepted")
	}
	if _, err := Fit(s, policy.Dist{Discrete: true, A: 2}, 3, 0, nil); err == nil {
		t.Error("action −1 accepted for a discrete head")
	}
}

func TestVIPER(t *testing.T) {
	dist := policy.Dist{Discrete: true, A: 2}
	cfg := DefaultVIPER(3)
	cfg.Iterations, cfg.Episodes, cfg.ValEps = 3, 2, 2
	tr, res, err := VIPER(maker(t, "CartPole-v1"), cartpoleExpert, nil, dist, cfg)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Episodes(maker(t, "CartPole-v1"), Seeds(cfg.ValSeed, cfg.ValEps), cartpoleExpert, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.ValReturns) != 3 || res.ValReturns[res.Best] != mean(want) {
		t.Errorf("selection returns %v (best %d), expert %v", res.ValReturns, res.Best, mean(want))
	}
	if tr.Nodes() < 3 {
		t.Errorf("tree of %d nodes", tr.Nodes())
	}
	if _, _, err := VIPER(maker(t, "Pendulum-v1"), pendulumExpert, nil, policy.Dist{A: 1}, cfg); err == nil {
		t.Error("continuous actions accepted")
	}
}

func TestResampleWeights(t *testing.T) {
	s := &Samples{F: 1, AD: 1}
	for i := 0; i < 4; i++ {
		s.Append([]float32{float32(i)}, []float32{float32(i % 2)})
	}
	out := resample(s, []float64{0, 3, 0, 1}, 400, rng.New(1))
	count := map[float32]int{}
	for _, x := range out.X {
		count[x]++
	}
	if count[0] != 0 || count[2] != 0 || count[1] < 250 || count[3] < 60 {
		t.Errorf("draw counts %v, expected about 300 and 100 for points 1 and 3", count)
	}
}

func TestLogitSpreadAndGreedy(t *testing.T) {
	a, err := sdt.NewActor(3, policy.Dist{Discrete: true, A: 3}, sdt.Config{Depth: 2, Temperature: 1}, 4)
	if err != nil {
		t.Fatal(err)
	}
	w := LogitSpread(a)
	g := Greedy(a)
	obs := []float32{0.3, -1, 2}
	out := make([]float32, 3)
	if err := a.Predict(obs, 1, out); err != nil {
		t.Fatal(err)
	}
	got, err := w(obs)
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := min(out[0], out[1], out[2]), max(out[0], out[1], out[2])
	if got != float64(hi-lo) || got <= 0 {
		t.Errorf("spread %v, logits %v", got, out)
	}
	act := make([]float32, 1)
	if err := g(obs, act); err != nil || int(act[0]) != policy.Argmax(out) {
		t.Errorf("greedy %v (err %v), logits %v", act, err, out)
	}
}

func maker(t *testing.T, id string) env.Maker {
	t.Helper()
	m, err := env.MakerOf(id)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
