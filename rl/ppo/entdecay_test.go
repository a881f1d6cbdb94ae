package ppo

import (
	"math"
	"testing"
)

// TestEntCoef checks the entropy schedule of Config.EntDecay: the thesis's
// constant coefficient at 0, a linear decrease over the attempt's budget
// otherwise (a restarted attempt starts again from EntCoef).
func TestEntCoef(t *testing.T) {
	tests := []struct {
		decay       float64
		start, step int // attempt start and current run step
		total       int // the attempt's budget
		want        float64
	}{
		{0, 0, 500, 1000, 0.1},
		{0, 0, 1000, 1000, 0.1},
		{1, 0, 0, 1000, 0.1},
		{1, 0, 250, 1000, 0.075},
		{1, 0, 1000, 1000, 0},
		{1, 0, 1100, 1000, 0}, // the last batch overshoots the budget
		{0.5, 0, 1000, 1000, 0.05},
		{1, 400, 400, 600, 0.1}, // a restart at step 400 with 600 steps left
		{1, 400, 700, 600, 0.05},
	}
	for _, tc := range tests {
		tr := &Trainer{cfg: Config{EntCoef: 0.1, EntDecay: tc.decay}, sched: Schedule{Total: tc.total}, global: tc.step, at: attempt{step: tc.start}}
		if got := tr.entCoef(); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("decay %v, attempt from %d, step %d of %d: ent %v, want %v", tc.decay, tc.start, tc.step, tc.total, got, tc.want)
		}
		if got := tr.lossSpec().Ent; got != tr.entCoef() {
			t.Errorf("lossSpec's Ent %v, want entCoef %v", got, tr.entCoef())
		}
	}
	c, err := Preset("MiniGrid-LavaGapS7-v0", MethodSYMPOL)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Set("ent_decay", "1.5"); err == nil {
		t.Error("ent_decay 1.5 accepted")
	}
}
