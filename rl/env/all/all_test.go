package all

import (
	"math"
	"reflect"
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

// TestSnapshotEveryEnvironment: for every registered environment (and its
// scaled form, where it has a scaling), a Vec restored from another's
// Snapshot taken mid-episode continues bit for bit as the original does.
func TestSnapshotEveryEnvironment(t *testing.T) {
	for _, id := range env.IDs() {
		makers := map[string]env.Maker{}
		m, err := env.MakerOf(id)
		if err != nil {
			t.Fatal(err)
		}
		makers[id] = m
		if s, ok := env.ScalingOf(id); ok {
			makers[id+" scaled"] = env.Scaled(m, s)
		}
		for name, m := range makers {
			t.Run(name, func(t *testing.T) {
				const n = 3
				a, err := env.NewVecFrom(m, n, 11)
				if err != nil {
					t.Fatal(err)
				}
				spec := a.Spec()
				acts := make([]float32, n*spec.Action.Dim)
				step := func(v *env.Vec, k int) []env.Episode {
					for i := range acts {
						if spec.Action.Discrete() {
							acts[i] = float32((k*7 + i*3 + k/5) % spec.Action.N)
						} else {
							acts[i] = float32(math.Sin(float64(k*13 + i)))
						}
					}
					if err := v.Step(acts); err != nil {
						t.Fatal(err)
					}
					return v.Episodes(nil)
				}
				k := 0
				for ; k < 37; k++ {
					step(a, k)
				}
				s, err := a.Snapshot()
				if err != nil {
					t.Fatal(err)
				}
				b, err := env.NewVecFrom(m, n, 99)
				if err != nil {
					t.Fatal(err)
				}
				if err := b.Restore(s); err != nil {
					t.Fatal(err)
				}
				for ; k < 37+300; k++ {
					ea, eb := step(a, k), step(b, k)
					if !reflect.DeepEqual(ea, eb) || !reflect.DeepEqual(a.Obs(), b.Obs()) || !reflect.DeepEqual(a.Rewards(), b.Rewards()) {
						t.Fatalf("step %d: the restored Vec differs from the original", k)
					}
				}
			})
		}
	}
}
