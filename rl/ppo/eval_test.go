package ppo

import (
	"math"
	"testing"

	"github.com/gdt-ml/gdt/metrics"
)

// TestSelectionSD checks the spread behind EvalRecord.SelectionSD: the sample
// standard deviation (n − 1), 0 below two values.
func TestSelectionSD(t *testing.T) {
	for _, c := range []struct {
		x    []float64
		want float64
	}{
		{nil, 0},
		{[]float64{-500}, 0},
		{[]float64{1, 2, 3, 4}, math.Sqrt(5.0 / 3)},
		{[]float64{0.95, 0.95, 0.95}, 0},
		{[]float64{-80, -120}, math.Sqrt(800)},
	} {
		if got := selectionSD(c.x); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("selectionSD(%v) = %v, want %v", c.x, got, c.want)
		}
	}
}

// TestEvalAverage checks eval_average: the training (the current actor)
// is the same as without it, the averaged actor follows the exponential
// moving average of the current parameters over the attempt's iterations
// (the first iteration starting it), every evaluation validates the
// averaged actor, and the best-validation policy is a copy of it.
func TestEvalAverage(t *testing.T) {
	cfg := smallCartPole(t, 6000, 1000)
	cfg.ReduceLR, cfg.Restarts, cfg.DynamicBuffer = false, 0, false
	plain, err := New(cfg, testNets{})
	if err != nil {
		t.Fatal(err)
	}
	cfg.EvalAverage = 1500
	avg, err := New(cfg, testNets{})
	if err != nil {
		t.Fatal(err)
	}
	var want []float32 // the moving average, computed here
	evals := 0
	for !plain.Done() {
		before := plain.global
		if _, err := plain.Iterate(); err != nil {
			t.Fatal(err)
		}
		p, err := avg.Iterate()
		if err != nil {
			t.Fatal(err)
		}
		cur := flat(plain.actor.Tensors())
		if !sameBits32(cur, flat(avg.actor.Tensors())) {
			t.Fatalf("iteration %d: the current actor differs from the run without eval_average", p.Iteration)
		}
		if want == nil {
			want = append([]float32(nil), cur...)
		} else {
			w := float32(-math.Expm1(-float64(plain.global-before) / float64(cfg.EvalAverage)))
			for k, v := range cur {
				want[k] += w * (v - want[k])
			}
		}
		if !sameBits32(want, flat(avg.avg.Tensors())) {
			t.Fatalf("iteration %d: the averaged actor is not the moving average", p.Iteration)
		}
		if p.Eval == nil {
			continue
		}
		evals++
		val, err := avg.validate(avg.avg, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Eval.Selection; got != metrics.Mean(val) {
			t.Errorf("evaluation at step %d: selection %v, the averaged actor validates %v", p.Step, got, metrics.Mean(val))
		}
		if b, ok := avg.Best(); ok && b.Step == p.Step && !sameBits32(flat(avg.best.actor.Tensors()), want) {
			t.Errorf("evaluation at step %d: the best-validation policy is not the averaged actor", p.Step)
		}
	}
	if evals < 3 {
		t.Fatalf("%d evaluations: the test needs several", evals)
	}
	if sameBits32(flat(avg.avg.Tensors()), flat(avg.actor.Tensors())) {
		t.Error("the averaged actor ends equal to the current one: the test would not tell them apart")
	}
}
