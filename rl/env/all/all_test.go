package all

import (
	"testing"

	"github.com/gdt-ml/gdt/rl/env"
)

// TestEveryEnvironmentWorks makes every registered environment, checks its
// Spec is self-consistent and plays a few vectorised steps.
func TestEveryEnvironmentWorks(t *testing.T) {
	ids := env.IDs()
	for _, want := range []string{"CartPole-v1", "Acrobot-v1", "Pendulum-v1", "MountainCarContinuous-v0"} {
		found := false
		for _, id := range ids {
			found = found || id == want
		}
		if !found {
			t.Errorf("%s not registered (have %v)", want, ids)
		}
	}
	for _, id := range ids {
		t.Run(id, func(t *testing.T) {
			v, err := env.NewVec(id, 2, 1)
			if err != nil {
				t.Fatal(err)
			}
			s := v.Spec()
			if s.ID != id {
				t.Errorf("Spec().ID = %q", s.ID)
			}
			if len(s.FeatureNames) != s.Observation.Dim {
				t.Errorf("%d feature names for %d features", len(s.FeatureNames), s.Observation.Dim)
			}
			wantNames := s.Action.Dim
			if s.Action.Discrete() {
				wantNames = s.Action.N
			}
			if len(s.ActionNames) != wantNames {
				t.Errorf("%d action names, want %d", len(s.ActionNames), wantNames)
			}
			if len(v.Obs()) != 2*s.Observation.Dim {
				t.Errorf("Obs has %d values", len(v.Obs()))
			}
			actions := make([]float32, 2*s.Action.Dim)
			for k := 0; k < 20; k++ {
				if err := v.Step(actions); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
