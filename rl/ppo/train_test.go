package ppo

import (
	"context"
	"math"
	"runtime"
	"testing"

	"github.com/gdt-ml/gdt/interpret"
	"time"

	"github.com/gdt-ml/gdt/linalg"
	"github.com/gdt-ml/gdt/metrics"
	_ "github.com/gdt-ml/gdt/rl/env/classic"
	"github.com/gdt-ml/gdt/rl/policy"
)

// TestCartPoleImproves trains SYMPOL with the CartPole preset (a narrower
// critic and a short budget, to stay fast) and checks that the greedy
// return clearly improves on the initial policy's, and that the exported,
// range-pruned plain tree takes the trained actor's action on every
// observation of the test episodes (zero information loss).
func TestCartPoleImproves(t *testing.T) {
	cfg, err := Preset("CartPole-v1", MethodSYMPOL)
	if err != nil {
		t.Fatal(err)
	}
	cfg.TotalSteps = 40_000
	cfg.CriticWidth = 64
	cfg.EvalFreq = 20_000
	tr, err := New(cfg, testNets{})
	if err != nil {
		t.Fatal(err)
	}
	before, err := Returns(tr.Maker(), cfg.TestSeed, 5, tr.Actor(), nil)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := tr.Run(context.Background(), func(p Progress) error {
		if p.Eval != nil {
			t.Logf("step %d: validation %.1f, recent training return %.1f", p.Step, p.Eval.Validation, p.RecentReturn)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	ta := tr.Actor().(*policy.TreeActor)
	spec := tr.Spec()
	pruned, err := ta.Pruned(spec.Observation.Low, spec.Observation.High)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float32, 2)
	visited := 0
	after, err := Returns(tr.Maker(), cfg.TestSeed, 5, tr.Actor(), func(obs []float32) {
		visited++
		if err := ta.Predict(obs, 1, out); err != nil {
			t.Fatal(err)
		}
		if a, b := policy.Argmax(leafValue(t, pruned, obs)), policy.Argmax(out); a != b {
			t.Fatalf("obs %v: exported tree acts %d, actor %d", obs, a, b)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("test return %.1f → %.1f after %d steps in %v (%.0f steps/s); pruned tree %d nodes; %d observations compared",
		metrics.Mean(before), metrics.Mean(after), tr.Step(), time.Since(start), float64(tr.Step())/tr.TrainSeconds(), pruned.NumNodes(), visited)
	if !(metrics.Mean(after) > math.Max(2*metrics.Mean(before), 150)) {
		t.Errorf("return %.1f → %.1f: no clear improvement", metrics.Mean(before), metrics.Mean(after))
	}
	h := tr.History()
	if len(h) == 0 || len(h[len(h)-1].Test) != 5 {
		t.Errorf("the final evaluation has no test returns: %+v", h)
	}
}

// TestResume checks that a checkpoint restores the trainer: parameters,
// counters and optimiser state, and that training continues from it.
func TestResume(t *testing.T) {
	cfg, err := Preset("CartPole-v1", MethodSYMPOL)
	if err != nil {
		t.Fatal(err)
	}
	cfg.TotalSteps, cfg.CriticWidth, cfg.CriticLayers, cfg.NSteps = 4000, 16, 1, 128
	a, err := New(cfg, testNets{})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if _, err := a.Iterate(); err != nil {
			t.Fatal(err)
		}
	}
	path := t.TempDir() + "/ck"
	if err := a.Save(path); err != nil {
		t.Fatal(err)
	}
	b, err := Load(path, testNets{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if b.Step() != a.Step() || b.Iteration() != a.Iteration() {
		t.Fatalf("restored step %d iteration %d, want %d %d", b.Step(), b.Iteration(), a.Step(), a.Iteration())
	}
	for i, x := range a.Actor().Tensors() {
		y := b.Actor().Tensors()[i]
		for k := range x.Value {
			if x.Value[k] != y.Value[k] {
				t.Fatalf("%s[%d] = %v after loading, want %v", x.Name, k, y.Value[k], x.Value[k])
			}
		}
	}
	if a.aOpt.Steps() != b.aOpt.Steps() {
		t.Fatalf("optimiser steps %d after loading, want %d", b.aOpt.Steps(), a.aOpt.Steps())
	}
	if err := b.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if !b.Done() {
		t.Fatal("resumed run did not finish")
	}
}

// TestDeterministic checks that the same seed gives the same parameters,
// whatever the number of cores and kernel workers, and whether the update
// runs on one goroutine (Serial) or on linalg's helper pool with the actor
// and the critic stepping concurrently (the pool's load adaptation is off,
// so the parallel paths run even on a busy machine). The 256-wide critic
// takes the split (pool) paths of the matrix products and of its optimiser.
func TestDeterministic(t *testing.T) {
	defer linalg.SetAdaptive(linalg.SetAdaptive(false))
	run := func(workers int, serial bool) []float32 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(workers))
		cfg, _ := Preset("CartPole-v1", MethodSYMPOL)
		cfg.TotalSteps, cfg.NSteps, cfg.Workers, cfg.Serial = 3000, 128, workers, serial
		tr := trained(t, cfg)
		var v []float32
		for _, x := range tr.Actor().Tensors() {
			v = append(v, x.Value...)
		}
		for _, x := range tr.critic.Tensors() {
			v = append(v, x.Value...)
		}
		st := tr.cOpt.State()
		for _, g := range st.Groups {
			for _, p := range g.Params {
				v = append(v, p.M...)
				v = append(v, p.V...)
			}
		}
		return v
	}
	a := run(1, true)
	for _, c := range []struct {
		workers int
		serial  bool
	}{{2, false}, {3, false}} {
		b := run(c.workers, c.serial)
		if len(a) != len(b) {
			t.Fatalf("%+v: %d values, want %d", c, len(b), len(a))
		}
		for i := range a {
			if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
				t.Fatalf("%+v: value %d differs from the serial one-core run: %v vs %v", c, i, b[i], a[i])
			}
		}
	}
}

// leafValue is the value of the leaf of tr that x reaches (routed by the
// tree's trained form).
func leafValue(t testing.TB, tr *interpret.Tree, x []float32) []float32 {
	t.Helper()
	l, err := tr.LeafOf(x)
	if err != nil {
		t.Fatal(err)
	}
	return tr.Nodes[l].Value
}
