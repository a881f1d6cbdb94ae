package hpo

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpen covers the study life cycle of Open: create, join, create-only,
// target changes, requests that disagree with the stored study, and
// RunWorkers reaching the target.
func TestOpen(t *testing.T) {
	store, err := OpenJournal(filepath.Join(t.TempDir(), "s.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	cfg := Config{Sampler: "random", Pruner: "none", Seed: 1}
	base := Request{Kind: "cart", Dataset: "demo", Trials: 3, Seed: 42, Config: cfg, Where: "test"}

	if _, _, err := Open(store, Request{Kind: "cart", Config: cfg}); !errors.Is(err, ErrRequest) {
		t.Errorf("no dataset: %v", err)
	}
	bad := base
	bad.Fixed = map[string]string{"depth": "0"}
	if _, _, err := Open(store, bad); err == nil || !strings.Contains(err.Error(), "depth") {
		t.Errorf("fixed depth=0: %v", err)
	}
	s, op, err := Open(store, base)
	if err != nil || !op.Created || s == nil || s.Budget() != 3 || !strings.Contains(op.Summary, `created study "cart:demo" in test: cart on demo, gradtree-cv3 protocol`) {
		t.Fatalf("create: %v %+v", err, op)
	}
	again := base
	again.Trials, again.TrialsExplicit = 5, true
	s, op, err = Open(store, again)
	if err != nil || op.Created || op.Retarget != 3 || s.Budget() != 5 {
		t.Fatalf("join with a new target: %v %+v budget %d", err, op, s.Budget())
	}
	for _, r := range []Request{
		{Name: "cart:demo", Kind: "grande", Config: cfg},
		{Name: "cart:demo", Fixed: map[string]string{"depth": "3"}, Config: cfg},
		{Name: "cart:demo", CreateOnly: true, Config: cfg},
		{Name: "nope", Join: true, Config: cfg},
	} {
		if _, _, err := Open(store, r); err == nil {
			t.Errorf("%+v accepted", r)
		}
	}
	co := base
	co.Name, co.CreateOnly = "second", true
	if s, op, err := Open(store, co); err != nil || s != nil || !op.Created {
		t.Fatalf("create-only: %v %v %+v", s, err, op)
	}
	n := 0
	obj := func(ctx context.Context, opts map[string]string, report func(int, float64) error) (float64, error) {
		n++
		return float64(len(opts)), nil
	}
	if err := RunWorkers(context.Background(), store, "second", cfg, 1, obj); err != nil {
		t.Fatal(err)
	}
	s2, _ := LoadStudy(store, "second", cfg)
	if c, _ := s2.Counts(); c.Complete != 3 || n != 3 {
		t.Errorf("RunWorkers: %+v after %d evaluations", c, n)
	}
}
