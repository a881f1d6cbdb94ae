package ppo

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gdt-ml/gdt/metrics"
)

// TestRecheck trains a small CartPole tree with and without recheck and
// checks that the training is the same, that the delivered policy is the
// kept candidate with the highest recorded recheck return (the later on a
// tie), that each recorded return replays on the recheck episodes (seeds
// after the validation episodes'), that a checkpoint restores the
// candidates, and that recheck episodes overlapping the test episodes are
// refused.
func TestRecheck(t *testing.T) {
	cfg := smallCartPole(t, 6000, 500)
	cfg.ValEpisodes = 3
	plain := trained(t, cfg)
	cfg.Recheck, cfg.RecheckEpisodes = 3, 4
	tr := trained(t, cfg)

	h0, h1 := plain.History(), tr.History()
	if len(h0) != len(h1) {
		t.Fatalf("%d evaluations with recheck, %d without", len(h1), len(h0))
	}
	for i := range h0 {
		if h0[i].Selection != h1[i].Selection || h0[i].Step != h1[i].Step {
			t.Fatalf("evaluation %d: %+v with recheck, %+v without: recheck changed the training", i, h1[i], h0[i])
		}
	}
	if !sameTensors(plain.Actor(), tr.Actor()) {
		t.Fatal("the final actors differ: recheck changed the training")
	}

	b, ok := tr.Best()
	if !ok || b.Recheck == nil {
		t.Fatalf("best %+v (%v): want a recheck record", b, ok)
	}
	r := b.Recheck
	t.Logf("recheck %+v, delivered step %d", r, b.Step)
	if n := len(r.Steps); n < 1 || n > 3 || n != len(r.Returns) || n != len(r.SDs) || n != len(tr.cands) {
		t.Fatalf("recheck %+v with %d candidates kept: want 1…3 policies, one return and one SD each", r, len(tr.cands))
	}
	pick := 0
	for i, m := range r.Returns {
		if m >= r.Returns[pick] {
			pick = i
		}
		want, err := Returns(tr.Maker(), cfg.ValidationSeed()+cfg.ValidationEpisodes(), cfg.RecheckEpisodes, tr.cands[i].actor, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Steps[i] != tr.cands[i].info.Step || metrics.Mean(want) != m || selectionSD(want) != r.SDs[i] {
			t.Errorf("candidate %d: recorded step %d return %v sd %v, replays step %d return %v sd %v", i, r.Steps[i], m, r.SDs[i], tr.cands[i].info.Step, metrics.Mean(want), selectionSD(want))
		}
	}
	if b.Step != r.Steps[pick] {
		t.Errorf("delivered step %d, want %d (the highest recheck return, the later on a tie: %+v)", b.Step, r.Steps[pick], r)
	}
	if pb, _ := plain.Best(); pb.Step != r.Steps[len(r.Steps)-1] {
		t.Errorf("the last candidate is step %d, the plain run's best-validation policy step %d", r.Steps[len(r.Steps)-1], pb.Step)
	}

	path := filepath.Join(t.TempDir(), "ck")
	if err := tr.Save(path); err != nil {
		t.Fatal(err)
	}
	back, err := Load(path, testNets{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.cands) != len(tr.cands) {
		t.Fatalf("loaded %d candidates, saved %d", len(back.cands), len(tr.cands))
	}
	for i := range tr.cands {
		if back.cands[i].info.Step != tr.cands[i].info.Step || !sameTensors(back.cands[i].actor, tr.cands[i].actor) {
			t.Errorf("loaded candidate %d differs from the saved one", i)
		}
	}
	if lb, _ := back.Best(); lb.Recheck == nil || !slices.Equal(lb.Recheck.Returns, r.Returns) {
		t.Errorf("loaded best's recheck %+v, saved %+v", lb.Recheck, r)
	}
	if err := back.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}

	bad := cfg
	bad.Seed = cfg.TestSeed - cfg.ValidationEpisodes() - cfg.RecheckEpisodes + 1
	if err := bad.Validate(); err == nil {
		t.Errorf("seed %d: recheck episodes %d…%d overlap the test seeds %d…, yet Validate accepts it",
			bad.Seed, bad.Seed+bad.ValidationEpisodes(), bad.Seed+bad.ValidationEpisodes()+bad.RecheckEpisodes-1, bad.TestSeed)
	}
	bad.Recheck = 0
	if err := bad.Validate(); err != nil {
		t.Errorf("seed %d without recheck: %v", bad.Seed, err)
	}
}
