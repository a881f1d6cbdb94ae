package classic

import (
	"math"
	"testing"
)

// TestMountainCarTestStarts pins the start positions of the five test
// episodes (seeds 123456 …, ppo.Config.TestSeed): two of them start
// within 0.015 of the left end of the start range (−0.6), where a policy
// that has not learned to back up first fails, so a policy's test return
// depends on those starts more than U(−0.6, −0.4) would suggest. It logs
// how often 20 and 100 validation episodes (the default val_episodes and
// MountainCarContinuous's preset) hold no start left of −0.58
// (BENCHMARKS.md "Pendulum and MountainCarContinuous").
func TestMountainCarTestStarts(t *testing.T) {
	m := &MountainCarContinuous{}
	obs := make([]float32, 2)
	start := func(seed int) float32 {
		m.Seed(uint64(seed))
		m.Reset(obs)
		return obs[0]
	}
	want := []float32{-0.592, -0.514, -0.404, -0.522, -0.589}
	for i, w := range want {
		if got := start(123456 + i); got < w-0.0005 || got > w+0.0005 {
			t.Errorf("test seed %d: start %.4f, want %.3f", 123456+i, got, w)
		}
	}
	for _, n := range []int{20, 100} {
		const runs = 1000
		missed := 0
		for s := 0; s < runs; s++ {
			lo := float32(0)
			for i := 0; i < n; i++ {
				lo = min(lo, start(200000+s*n+i))
			}
			if lo >= -0.58 {
				missed++
			}
		}
		t.Logf("MountainCarContinuous, %d validation episodes: %.1f %% of seed ranges have no start left of -0.58 (two of the five test episodes do)",
			n, 100*float64(missed)/runs)
	}
}

// TestPendulumTestStarts pins the start angles of Pendulum's five test
// episodes: three start within 0.35 rad of hanging straight down (|θ| ≥
// 2.79), where the policy must swing up from rest, against 11 % of
// episodes under U(−π, π); so a policy's test return weighs its swing-up
// from the bottom about five times more than its validation return does
// (BENCHMARKS.md "Pendulum and MountainCarContinuous").
func TestPendulumTestStarts(t *testing.T) {
	p := &Pendulum{}
	obs := make([]float32, 3)
	want := []float64{-2.88, -0.45, 3.02, -0.69, -2.80}
	bottom := 0
	for i, w := range want {
		p.Seed(uint64(123456 + i))
		p.Reset(obs)
		th := math.Atan2(float64(obs[1]), float64(obs[0]))
		if math.Abs(th-w) > 0.005 {
			t.Errorf("test seed %d: θ %.3f, want %.2f", 123456+i, th, w)
		}
		if math.Abs(th) >= 2.79 {
			bottom++
		}
	}
	if bottom != 3 {
		t.Errorf("%d test starts within 0.35 rad of the bottom, want 3", bottom)
	}
}
