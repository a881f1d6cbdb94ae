package ppo

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// poison makes one actor parameter NaN before an iteration: its update
// then leaves a non-finite parameter, as a diverging update does.
func poison(tr *Trainer) {
	ts := tr.Actor().Tensors()
	ts[len(ts)-1].Value[0] = float32(math.NaN())
	tr.Actor().Changed()
}

// TestDivergence checks what a run does when an update makes a parameter
// non-finite: it restarts a fresh attempt while the restart machinery
// allows one (recorded with the reason "diverged"); otherwise it ends at
// that step, delivers its best-validation policy (whose test episodes are
// played) and reports the divergence, also after a checkpoint round trip;
// without a policy to deliver it fails with ErrDiverged naming the tensor,
// the iteration and the step.
func TestDivergence(t *testing.T) {
	for _, tc := range []struct {
		name     string
		restarts int
		after    float64 // RestartAfter
		poison   []int   // iterations whose update diverges
		reasons  []string
		end      int // iteration at which the run ends diverged (0: it uses its budget)
		wantErr  bool
	}{
		{name: "restart", restarts: 2, after: 0.25, poison: []int{2}, reasons: []string{RestartDiverged}},
		{name: "restart before any evaluation", restarts: 1, after: 0.25, poison: []int{1}, reasons: []string{RestartDiverged}},
		{name: "restarts used up: deliver the best", restarts: 1, after: 0.25, poison: []int{2, 4}, reasons: []string{RestartDiverged}, end: 4},
		{name: "restarts off: deliver the best", restarts: 2, after: 0, poison: []int{3}, end: 3},
		{name: "too little budget left to restart: deliver the best", restarts: 2, after: 0.25, poison: []int{8}, end: 8},
		{name: "no policy yet: fail", restarts: 0, after: 0.25, poison: []int{1}, wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := smallCartPole(t, 8000, 500) // 9 iterations of 896 steps, each evaluated
			cfg.DynamicBuffer, cfg.Restarts, cfg.RestartAfter = false, tc.restarts, tc.after
			tr, err := New(cfg, testNets{})
			if err != nil {
				t.Fatal(err)
			}
			var diverged []Progress
			for !tr.Done() {
				it := tr.Iteration() + 1
				if slices.Contains(tc.poison, it) {
					poison(tr)
				}
				p, err := tr.Iterate()
				if tc.wantErr {
					if !errors.Is(err, ErrDiverged) {
						t.Fatalf("iteration %d: %v, want ErrDiverged", it, err)
					}
					for _, want := range []string{"actor tensor ", fmt.Sprintf("iteration %d", it), fmt.Sprintf("step %d", tr.Step())} {
						if !strings.Contains(err.Error(), want) {
							t.Errorf("error %q does not name %q", err, want)
						}
					}
					return
				}
				if err != nil {
					t.Fatalf("iteration %d: %v", it, err)
				}
				if (p.Diverged != nil) != slices.Contains(tc.poison, it) {
					t.Fatalf("iteration %d: Diverged %+v", it, p.Diverged)
				}
				if p.Diverged != nil {
					if p.Diverged.Iteration != it || p.Diverged.Step != p.Step || !strings.HasPrefix(p.Diverged.Cause, "actor tensor ") || p.Eval != nil {
						t.Errorf("iteration %d: divergence %+v at step %d, evaluation %v", it, *p.Diverged, p.Step, p.Eval)
					}
					diverged = append(diverged, p)
				}
			}
			if tc.wantErr {
				t.Fatal("the run ended without an error")
			}
			var reasons []string
			for i, r := range tr.Restarts() {
				reasons = append(reasons, r.Reason)
				if r.Step != diverged[i].Step || !diverged[i].Restarted || diverged[i].Attempt != i+1 {
					t.Errorf("restart %d at step %d, progress %+v", i, r.Step, diverged[i])
				}
			}
			if !slices.Equal(reasons, tc.reasons) || tr.Attempt() != len(tc.reasons) {
				t.Fatalf("restarts %v (attempt %d), want %v", reasons, tr.Attempt(), tc.reasons)
			}
			d, ok := tr.Diverged()
			if tc.end == 0 {
				if ok || tr.Step() < cfg.TotalSteps {
					t.Fatalf("run ended at step %d of %d, diverged %v %+v", tr.Step(), cfg.TotalSteps, ok, d)
				}
				if h := tr.History(); h[len(h)-1].Attempt != len(tc.reasons) {
					t.Errorf("last evaluation by attempt %d, want %d", h[len(h)-1].Attempt, len(tc.reasons))
				}
				return
			}
			last := diverged[len(diverged)-1]
			if !ok || d != *last.Diverged || d.Iteration != tc.end || last.Restarted || d.Step != tr.Step() || tr.Step() >= cfg.TotalSteps {
				t.Fatalf("run ended at step %d (iteration %d): diverged %v %+v, want iteration %d", tr.Step(), tr.Iteration(), ok, d, tc.end)
			}
			b, ok := tr.Best()
			if !ok || len(b.Test) != cfg.EvalEpisodes || b.Step >= d.Step {
				t.Fatalf("best policy %+v (%v) of a run diverged at step %d", b, ok, d.Step)
			}
			if a, best := tr.Delivered(); !best || a == tr.Actor() {
				t.Error("the delivered policy is not the best-validation one")
			}
			if err := tr.Run(context.Background(), nil); err != nil || tr.Iteration() != tc.end {
				t.Errorf("Run after the end: %v, iteration %d", err, tr.Iteration())
			}
			if _, err := tr.Iterate(); !errors.Is(err, ErrDiverged) {
				t.Errorf("Iterate after the end: %v, want ErrDiverged", err)
			}
			path := filepath.Join(t.TempDir(), "ck")
			if err := tr.Save(path); err != nil {
				t.Fatal(err)
			}
			r, err := Load(path, testNets{}, nil)
			if err != nil {
				t.Fatalf("loading a diverged run: %v", err)
			}
			rd, rok := r.Diverged()
			rb, _ := r.Best()
			if !r.Done() || !rok || rd != d || !reflect.DeepEqual(rb, b) || !reflect.DeepEqual(r.Restarts(), tr.Restarts()) {
				t.Errorf("loaded: done %v, diverged %v %+v, best %+v, restarts %v", r.Done(), rok, rd, rb, r.Restarts())
			}
			if diff := trainerDiff(tr, r); diff != "" {
				t.Errorf("loaded run differs: %s", diff)
			}
		})
	}
}

// TestRestartLogOfOldCheckpoint checks that a checkpoint written before
// the restart log loads with its restarts as "not learned" at the steps
// they happened.
func TestRestartLogOfOldCheckpoint(t *testing.T) {
	ck := &checkpoint{Attempt: 2, AttemptStep: 700, History: []EvalRecord{
		{Step: 100}, {Step: 300}, {Step: 500, Attempt: 1}, {Step: 700, Attempt: 1}, {Step: 900, Attempt: 2}}}
	want := []Restart{{300, RestartNotLearned}, {700, RestartNotLearned}}
	if got := restartLog(ck); !reflect.DeepEqual(got, want) {
		t.Errorf("restart log %v, want %v", got, want)
	}
	ck.RestartLog = []Restart{{250, RestartDiverged}}
	want[0] = Restart{250, RestartDiverged}
	if got := restartLog(ck); !reflect.DeepEqual(got, want) {
		t.Errorf("restart log %v, want %v", got, want)
	}
}
