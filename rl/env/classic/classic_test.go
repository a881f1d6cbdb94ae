package classic

import (
	"math"
	"testing"

	"github.com/gdt-ml/gdt/rl/env"
)

// The expected values below were produced by /usr/bin/python3 with numpy
// 1.24 float32 arithmetic replicating the gymnax 0.0.8 step formulas in the
// same operation order (sin/cos as np.float32(np.sin(np.float64(x)))), one
// np.float32 operation per Python operator, e.g. for CartPole
//
//	temp = (force + pml * (thd * thd) * sn) / tm
//	thacc = (g * sn - c * temp) / (L * (F(4.0/3.0) - mp * (c * c) / tm))
//
// so the Go code must match them bit for bit.

type step struct {
	action float32
	obs    []float32
	reward float32
	term   bool
}

type transitionCase struct {
	name  string
	make  func() env.Env // returns an env already put in the start state
	steps []step
}

func cartPoleAt(x, xd, th, thd float32) func() env.Env {
	return func() env.Env {
		c := NewCartPole()
		c.x, c.xDot, c.theta, c.thetaDot = x, xd, th, thd
		return c
	}
}

func acrobotAt(s [4]float32) func() env.Env {
	return func() env.Env {
		a := NewAcrobot()
		a.s = s
		return a
	}
}

func pendulumAt(th, thd float32) func() env.Env {
	return func() env.Env {
		p := NewPendulum()
		p.theta, p.thetaDot = th, thd
		return p
	}
}

func mountainCarAt(pos, vel float32, gymnasium bool) func() env.Env {
	return func() env.Env {
		m := NewMountainCarContinuous()
		m.pos, m.vel, m.GymnasiumWall = pos, vel, gymnasium
		return m
	}
}

func TestTransitions(t *testing.T) {
	cases := []transitionCase{
		{"CartPole/balanced", cartPoleAt(0.01, -0.02, 0.03, 0.04), []step{
			{1, []float32{0.009599999524652958, 0.1746792048215866, 0.030799999833106995, -0.24306875467300415}, 1, false},
			{0, []float32{0.013093583285808563, -0.020868852734565735, 0.025938624516129494, 0.05916798114776611}, 1, false},
			{0, []float32{0.012676206417381763, -0.2163528949022293, 0.027121983468532562, 0.35992053151130676}, 1, false},
			{1, []float32{0.00834914855659008, -0.021626800298690796, 0.034320395439863205, 0.07591170072555542}, 1, false},
			{1, []float32{0.007916612550616264, 0.17298674583435059, 0.03583863005042076, -0.20574846863746643}, 1, false},
		}},
		{"CartPole/angle limit", cartPoleAt(0, 0, 0.2, 0.5), []step{
			{1, []float32{0, 0.19182398915290833, 0.21000000834465027, 0.2764083743095398}, 1, true},
		}},
		{"CartPole/angle limit left", cartPoleAt(0, 0, -0.2, -0.5), []step{
			{0, []float32{0, -0.19182398915290833, -0.21000000834465027, -0.2764083743095398}, 1, true},
		}},
		{"Acrobot/five steps", acrobotAt([4]float32{0.05, -0.03, 0.02, -0.07}), []step{
			{2, []float32{0.9994266629219055, 0.03385749086737633, 0.9999989867210388, -0.0014138906262814999, -0.17692914605140686, 0.34794583916664124}, -1, false},
			{0, []float32{0.9999547600746155, 0.009512906894087791, 0.9994362592697144, 0.03357376158237457, -0.06076394021511078, -0.007374674081802368}, -1, false},
			{1, []float32{0.9999964237213135, -0.0026824227534234524, 0.9995741844177246, 0.029179465025663376, -0.05886044353246689, -0.03769014775753021}, -1, false},
			{2, []float32{0.9996511936187744, -0.026409020647406578, 0.9986190795898438, 0.052535172551870346, -0.1727094054222107, 0.26337915658950806}, -1, false},
			{2, []float32{0.9976717829704285, -0.06819839775562286, 0.9917340874671936, 0.12831009924411774, -0.23465177416801453, 0.47771504521369934}, -1, false},
		}},
		{"Acrobot/tip above bar", acrobotAt([4]float32{3.0, 0.1, 1.0, 0.5}), []step{
			{2, []float32{-0.9994150996208191, -0.03419748693704605, 0.9679796695709229, 0.25102871656417847, 0.7961475253105164, 1.0259528160095215}, 0, true},
		}},
		{"Pendulum/five steps", pendulumAt(2.5, -0.5), []step{
			{1.5, []float32{-0.8063156604766846, 0.5914855003356934, 0.1738540530204773}, -6.277251720428467, false},
			{-3.0, []float32{-0.8156026005744934, 0.5786125063896179, 0.31746816635131836}, -6.300563335418701, false},
			{0.25, []float32{-0.8377863764762878, 0.545998215675354, 0.7889275550842285}, -6.38357400894165, false},
			{2.0, []float32{-0.8763048052787781, 0.48175713419914246, 1.4984261989593506}, -6.640402317047119, false},
			{-0.7, []float32{-0.9151480197906494, 0.4031180441379547, 1.754744052886963}, -7.188990592956543, false},
		}},
		{"MountainCarContinuous/five steps", mountainCarAt(-0.5, 0, false), []step{
			{1.0, []float32{-0.4986768364906311, 0.0013231569901108742}, -0.10000000149011612, false},
			{2.0, []float32{-0.4960404336452484, 0.0026364168152213097}, -0.4000000059604645, false},
			{-0.5, []float32{-0.49436047673225403, 0.0016799645964056253}, -0.02500000037252903, false},
			{0.3, []float32{-0.4924495220184326, 0.0019109584391117096}, -0.009000000543892384, false},
			{-1.5, []float32{-0.4922718405723572, 0.00017767888493835926}, -0.22500000894069672, false},
		}},
		{"MountainCarContinuous/goal", mountainCarAt(0.44, 0.02, false), []step{
			{0.5, []float32{0.4601295590400696, 0.020129559561610222}, 99.9749984741211, true},
		}},
		// gymnax zeroes a leftward velocity at or past the goal (to −0), and
		// −0 ≥ 0 counts as reaching the goal.
		{"MountainCarContinuous/past goal moving left", mountainCarAt(0.46, -0.001, false), []step{
			{-1, []float32{0.4570259153842926, float32(math.Copysign(0, -1))}, 99.9000015258789, true},
		}},
		// gymnax never zeroes the velocity at the left wall.
		{"MountainCarContinuous/left wall gymnax", mountainCarAt(-1.19, -0.05, false), []step{
			{-1, []float32{-1.2000000476837158, -0.049225930124521255}, -0.10000000149011612, false},
		}},
		{"MountainCarContinuous/left wall gymnasium", mountainCarAt(-1.19, -0.05, true), []step{
			{-1, []float32{-1.2000000476837158, 0}, -0.10000000149011612, false},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := tc.make()
			obs := make([]float32, e.Spec().Observation.Dim)
			for k, s := range tc.steps {
				r, term := e.Step([]float32{s.action}, obs)
				for j := range obs {
					if math.Float32bits(obs[j]) != math.Float32bits(s.obs[j]) {
						t.Errorf("step %d: obs[%d] = %.9g (%#x), want %.9g (%#x)", k, j,
							obs[j], math.Float32bits(obs[j]), s.obs[j], math.Float32bits(s.obs[j]))
					}
				}
				if r != s.reward {
					t.Errorf("step %d: reward %.9g, want %.9g", k, r, s.reward)
				}
				if term != s.term {
					t.Errorf("step %d: terminated %v, want %v", k, term, s.term)
				}
			}
		})
	}
}

func TestAcrobotWrapAndClip(t *testing.T) {
	// python: ab_step([3.1, -3.1, 12.0, -20.0], 0) → state below.
	a := NewAcrobot()
	a.s = [4]float32{3.1, -3.1, 12.0, -20.0}
	obs := make([]float32, 6)
	r, term := a.Step([]float32{0}, obs)
	want := [4]float32{-0.28760385513305664, -2.216538906097412, 12.566370964050293, -27.890155792236328}
	if a.s != want || r != -1 || term {
		t.Fatalf("state %v r %v term %v, want %v -1 false", a.s, r, term, want)
	}
	// python: wrap(F(x)) for x in the inputs below.
	for _, c := range []struct{ in, want float32 }{
		{3.5, -2.7831854820251465}, {-3.5, 2.7831854820251465},
		{10, -2.566370964050293}, {-10, 2.566370964050293},
		{math.Pi, -3.1415927410125732}, {-math.Pi, -3.1415927410125732},
		{7, 0.7168145179748535}, {1, 1},
	} {
		if got := wrapAngle(c.in); got != c.want {
			t.Errorf("wrapAngle(%v) = %.9g, want %.9g", c.in, got, c.want)
		}
	}
}

func TestPendulumAngleNormalize(t *testing.T) {
	// python: angnorm(F(x)) = ((x + π) mod 2π) − π with jnp's floor modulo.
	for _, c := range []struct{ in, want float32 }{
		{-7, -0.7168145179748535}, {7, 0.7168147563934326},
		{3.2, -3.0831854343414307}, {-3.2, 3.0831854343414307},
		{0, 0}, {math.Pi, -3.1415927410125732}, {-math.Pi, -3.1415927410125732},
	} {
		if got := angleNormalize(c.in); got != c.want {
			t.Errorf("angleNormalize(%v) = %.9g, want %.9g", c.in, got, c.want)
		}
	}
	// Velocity clipping at 8 and a negative angle; python: pd_step((-7, 7.9), 2).
	p := NewPendulum()
	p.theta, p.thetaDot = -7, 7.9
	obs := make([]float32, 3)
	r, term := p.Step([]float32{2}, obs)
	if p.theta != -6.6146368980407715 || p.thetaDot != 7.7072601318359375 || r != -6.758823394775391 || term {
		t.Fatalf("got θ %.9g θ̇ %.9g r %.9g term %v", p.theta, p.thetaDot, r, term)
	}
}

func TestCartPolePositionLimit(t *testing.T) {
	for _, c := range []struct {
		x, xd float32
		term  bool
	}{{2.39, 1, true}, {-2.39, -1, true}, {2.39, 0.1, false}, {2.38, 0.5, false}} {
		cp := NewCartPole()
		cp.x, cp.xDot = c.x, c.xd
		obs := make([]float32, 4)
		if _, term := cp.Step([]float32{1}, obs); term != c.term {
			t.Errorf("x=%v ẋ=%v: terminated %v, want %v (x' = %v)", c.x, c.xd, term, c.term, obs[0])
		}
	}
}

func TestPendulumNeverTerminates(t *testing.T) {
	p := NewPendulum()
	p.Seed(3)
	obs := make([]float32, 3)
	p.Reset(obs)
	for k := 0; k < 1000; k++ {
		r, term := p.Step([]float32{float32(k%5) - 2}, obs)
		if term {
			t.Fatalf("terminated at step %d", k)
		}
		if r > 0 || r < -(math.Pi*math.Pi+0.1*64+0.001*4)-1e-4 {
			t.Fatalf("reward %v out of [−16.27, 0]", r)
		}
	}
}

func TestSpecs(t *testing.T) {
	for _, c := range []struct {
		id        string
		dim, n    int
		actDim    int
		maxSteps  int
		nFeatures int
		nActions  int
	}{
		{CartPoleID, 4, 2, 1, 500, 4, 2},
		{AcrobotID, 6, 3, 1, 500, 6, 3},
		{PendulumID, 3, 0, 1, 200, 3, 1},
		{MountainCarContinuousID, 2, 0, 1, 999, 2, 1},
	} {
		e, err := env.Make(c.id)
		if err != nil {
			t.Fatal(err)
		}
		s := e.Spec()
		if s.ID != c.id || s.Observation.Dim != c.dim || s.Action.N != c.n || s.Action.Dim != c.actDim ||
			s.MaxEpisodeSteps != c.maxSteps || len(s.FeatureNames) != c.nFeatures ||
			len(s.ActionNames) != c.nActions || !s.TimeLimitIsTerminal {
			t.Errorf("%s: spec %+v", c.id, s)
		}
		if len(s.Observation.Low) != c.dim || len(s.Observation.High) != c.dim {
			t.Errorf("%s: observation bounds %v %v", c.id, s.Observation.Low, s.Observation.High)
		}
		if !s.Action.Discrete() && (len(s.Action.Low) != 1 || len(s.Action.High) != 1) {
			t.Errorf("%s: action bounds %v %v", c.id, s.Action.Low, s.Action.High)
		}
	}
	// python: F(12 * 2 * np.pi / 360)
	if cpThetaMax != 0.20943951606750488 {
		t.Errorf("θ_max = %.9g", cpThetaMax)
	}
}

func TestResetDistributions(t *testing.T) {
	type bound struct{ lo, hi float32 }
	for _, c := range []struct {
		id     string
		bounds []bound // per observation component
	}{
		{CartPoleID, []bound{{-0.05, 0.05}, {-0.05, 0.05}, {-0.05, 0.05}, {-0.05, 0.05}}},
		{AcrobotID, []bound{{0.99, 1}, {-0.1, 0.1}, {0.99, 1}, {-0.1, 0.1}, {-0.1, 0.1}, {-0.1, 0.1}}},
		{PendulumID, []bound{{-1, 1}, {-1, 1}, {-1, 1}}},
		{MountainCarContinuousID, []bound{{-0.6, -0.4}, {0, 0}}},
	} {
		e, _ := env.Make(c.id)
		e.Seed(11)
		obs := make([]float32, len(c.bounds))
		first := make([]float32, len(c.bounds))
		var sum float64
		const n = 2000
		for k := 0; k < n; k++ {
			e.Reset(obs)
			if k == 0 {
				copy(first, obs)
			}
			for j, b := range c.bounds {
				if obs[j] < b.lo || obs[j] > b.hi {
					t.Fatalf("%s: reset obs[%d] = %v outside [%v, %v]", c.id, j, obs[j], b.lo, b.hi)
				}
			}
			sum += float64(obs[0])
		}
		mid := (float64(c.bounds[0].lo) + float64(c.bounds[0].hi)) / 2
		if c.id != AcrobotID && c.id != PendulumID && math.Abs(sum/n-mid) > 0.01 {
			t.Errorf("%s: mean of obs[0] %v, want ≈ %v", c.id, sum/n, mid)
		}
		// Reseeding replays the same initial states.
		e.Seed(11)
		e.Reset(obs)
		for j := range obs {
			if obs[j] != first[j] {
				t.Fatalf("%s: reseeded reset differs: %v vs %v", c.id, obs, first)
			}
		}
	}
}

func TestDiscreteActionClamp(t *testing.T) {
	for _, c := range []struct {
		a    float32
		n    int
		want int
	}{{0, 2, 0}, {1, 2, 1}, {0.4, 2, 0}, {0.6, 2, 1}, {-3, 3, 0}, {7, 3, 2}, {float32(math.NaN()), 3, 0}} {
		if got := discreteAction(c.a, c.n); got != c.want {
			t.Errorf("discreteAction(%v, %d) = %d, want %d", c.a, c.n, got, c.want)
		}
	}
}
