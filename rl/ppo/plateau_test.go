package ppo

import (
	"fmt"
	"testing"
)

// TestPlateauOptions checks that plateau_patience and plateau_factor reach
// the trainer's plateau rule: with a flat validation return the actor's
// learning-rate scale first drops after patience evaluations, by factor;
// plateau_reference keeps the reference's own rule (patience 3, factor 0.5).
func TestPlateauOptions(t *testing.T) {
	for _, tc := range []struct {
		name          string
		set           map[string]string
		wantFirstDrop int // evaluation (1-based) at which the scale first drops
		wantScale     float64
	}{
		{"defaults", nil, 6, 0.5},
		{"patience 2, factor 0.25", map[string]string{"plateau_patience": "2", "plateau_factor": "0.25"}, 3, 0.25},
		{"patience 8", map[string]string{"plateau_patience": "8"}, 9, 0.5},
		{"reference", map[string]string{"plateau_reference": "true", "plateau_patience": "8"}, 4, 0.5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := smallCartPole(t, 8000, 500)
			cfg.ReduceLR = true
			for k, v := range tc.set {
				if err := cfg.Set(k, v); err != nil {
					t.Fatal(err)
				}
			}
			tr, err := New(cfg, testNets{})
			if err != nil {
				t.Fatal(err)
			}
			// A flat return of 10: neither the maximising rule nor the
			// reference's minimising one sees an improvement after the first.
			for i := 1; i <= 12; i++ {
				tr.plat.Step(10)
				if s := tr.plat.Scale(); s != 1 {
					if i != tc.wantFirstDrop || s != tc.wantScale {
						t.Fatalf("scale %v at evaluation %d; want %v first at %d", s, i, tc.wantScale, tc.wantFirstDrop)
					}
					return
				}
			}
			t.Fatalf("no drop in 12 flat evaluations; want one at %d", tc.wantFirstDrop)
		})
	}
}

// TestPlateauAllVal checks which validation mean the plateau reads: the
// first n_eval_episodes by default, all val_episodes under plateau_all_val.
// Episode returns that rise only beyond the first n_eval_episodes are a
// plateau for the default rule and an improvement for plateau_all_val.
func TestPlateauAllVal(t *testing.T) {
	for _, tc := range []struct {
		name     string
		allVal   bool
		wantDrop bool
	}{
		{"first n_eval_episodes", false, true},
		{"all val_episodes", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := smallCartPole(t, 8000, 500)
			cfg.ReduceLR = true
			if err := cfg.Set("plateau_all_val", fmt.Sprint(tc.allVal)); err != nil {
				t.Fatal(err)
			}
			tr, err := New(cfg, testNets{})
			if err != nil {
				t.Fatal(err)
			}
			for i := 1; i <= 12; i++ {
				// The first EvalEpisodes' mean is flat; the mean of all rises.
				tr.plat.Step(cfg.plateauInput(EvalRecord{Validation: 10, Selection: 10 + float64(i)}))
			}
			if dropped := tr.plat.Scale() != 1; dropped != tc.wantDrop {
				t.Fatalf("scale %v after 12 evaluations; want a drop: %v", tr.plat.Scale(), tc.wantDrop)
			}
		})
	}
}
