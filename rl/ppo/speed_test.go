package ppo

import (
	"context"
	"os"
	"strconv"
	"testing"
)

// TestSpeedCartPole measures SYMPOL training throughput on CartPole with
// the full preset (critic 2×256), evaluation excluded. It runs only when
// GDT_RL_SPEED_STEPS is set (e.g. 1000000 for the speed target);
// GDT_RL_SPEED_WORKERS sets the tree kernel's workers (default 0 = GOMAXPROCS).
//
//	GDT_RL_SPEED_STEPS=1000000 go test -run Speed -v ./rl/ppo
func TestSpeedCartPole(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("GDT_RL_SPEED_STEPS"))
	if n <= 0 {
		t.Skip("set GDT_RL_SPEED_STEPS to measure training speed")
	}
	cfg, err := Preset("CartPole-v1", MethodSYMPOL)
	if err != nil {
		t.Fatal(err)
	}
	cfg.TotalSteps = n
	cfg.EvalEpisodes = 0
	cfg.Workers, _ = strconv.Atoi(os.Getenv("GDT_RL_SPEED_WORKERS"))
	tr, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d steps in %.2f s of training (rollouts %.2f s, updates %.2f s): %.0f steps/s", tr.Step(), tr.TrainSeconds(),
		tr.RolloutSeconds(), tr.TrainSeconds()-tr.RolloutSeconds(), float64(tr.Step())/tr.TrainSeconds())
}
