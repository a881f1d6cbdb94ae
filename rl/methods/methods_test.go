package methods

import (
	"context"
	"testing"

	_ "github.com/gdt-ml/gdt/rl/env/all"
	"github.com/gdt-ml/gdt/rl/policy"
	"github.com/gdt-ml/gdt/rl/ppo"
	"github.com/gdt-ml/gdt/rl/sdt"
)

// TestPresetAndNets checks the presets (SDT's tuned values applied on
// ppo.Base) and that every method's and critic's networks are built and
// train.
func TestPresetAndNets(t *testing.T) {
	c, err := Preset("MiniGrid-LavaGapS7-v0", ppo.MethodSDT)
	if err != nil {
		t.Fatal(err)
	}
	h, _ := sdt.Best("MiniGrid-LavaGapS7-v0")
	if c.Depth != h.Depth || c.NEnvs != h.NEnvs || c.LRActor != h.LRActor || c.LRLogStd != h.LRActor || c.Critic != ppo.CriticSDT || !c.StaticBatch {
		t.Errorf("SDT preset %+v from %+v", c, h)
	}
	if _, err := ppo.Preset("CartPole-v1", ppo.MethodSDT); err == nil {
		t.Error("ppo.Preset built an SDT preset without rl/sdt's values")
	}
	for _, tc := range []struct{ method, critic string }{
		{ppo.MethodSYMPOL, ppo.CriticMLP}, {ppo.MethodSYMPOL, ppo.CriticTree}, {ppo.MethodMLP, ppo.CriticMLP}, {ppo.MethodSDT, ppo.CriticSDT},
	} {
		t.Run(tc.method+"/"+tc.critic, func(t *testing.T) {
			cfg, err := Preset("CartPole-v1", tc.method)
			if err != nil {
				t.Fatal(err)
			}
			cfg.Critic, cfg.TotalSteps, cfg.EvalFreq, cfg.CriticWidth, cfg.NEnvs, cfg.NSteps = tc.critic, 600, 300, 16, 2, 64
			tr, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if err := tr.Run(context.Background(), nil); err != nil {
				t.Fatal(err)
			}
			switch a := tr.Actor().(type) {
			case *policy.TreeActor:
				if tc.method != ppo.MethodSYMPOL {
					t.Errorf("%s built a tree actor", tc.method)
				}
			default:
				if tc.method == ppo.MethodSYMPOL {
					t.Errorf("sympol built %T", a)
				}
			}
		})
	}
	bad, _ := Preset("CartPole-v1", ppo.MethodSYMPOL)
	bad.Method = "dqn"
	if _, err := (Nets{}).Actor(bad, 4, policy.Dist{Discrete: true, A: 2}); err == nil {
		t.Error("unknown method built")
	}
}
