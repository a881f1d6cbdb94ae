package lunar

import "testing"

// BenchmarkStep steps one environment with the heuristic controller,
// resetting at termination or at the time limit; reports steps/s.
func BenchmarkStep(b *testing.B) {
	l := New()
	l.Seed(1)
	obs := make([]float32, 8)
	act := make([]float32, 1)
	l.Reset(obs)
	t := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		act[0] = float32(Heuristic(obs))
		_, done := l.Step(act, obs)
		t++
		if done || t == MaxEpisodeSteps {
			l.Reset(obs)
			t = 0
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "steps/s")
}

// BenchmarkStepNoReset measures Step alone (a long hover with random side
// engines would crash; the noop policy on a fresh lander falls, so the
// environment is reset outside the timer).
func BenchmarkStepNoReset(b *testing.B) {
	l := New()
	l.Seed(2)
	obs := make([]float32, 8)
	act := []float32{ActionNoop}
	l.Reset(obs)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		act[0] = float32(Heuristic(obs))
		if _, done := l.Step(act, obs); done {
			b.StopTimer()
			l.Reset(obs)
			b.StartTimer()
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "steps/s")
}

// BenchmarkReset measures building a new episode (world, terrain, lander,
// legs, joints and the first step).
func BenchmarkReset(b *testing.B) {
	l := New()
	obs := make([]float32, 8)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		l.Reset(obs)
	}
}
