// Package methods builds what PPO is handed for each policy method: the
// actor and critic networks (SYMPOL's tree actor from package policy, the
// MLP baseline, the SDT baseline of package sdt; MLP, tree or SDT critics)
// and the presets that include the baselines' tuned hyperparameters. Package
// ppo trains whatever actor and critic it is given; the commands, the
// benchmark harness and the search build them here.
package methods

import (
	"fmt"

	"github.com/gdt-ml/gdt/rl/policy"
	"github.com/gdt-ml/gdt/rl/ppo"
	"github.com/gdt-ml/gdt/rl/sdt"
)

// Nets builds the networks of every method (ppo.Builder), initialised from
// cfg.InitSeed: the actor with seed InitSeed (SYMPOL), +1000 (MLP) or
// +3000 (SDT), the critic with +2000 (MLP or tree) or +4000 (SDT).
type Nets struct{}

var _ ppo.Builder = Nets{}

// Actor returns a new actor of cfg.Method.
func (Nets) Actor(cfg ppo.Config, f int, d policy.Dist) (policy.Actor, error) {
	seed := uint64(cfg.InitSeed)
	switch cfg.Method {
	case ppo.MethodSYMPOL:
		return policy.NewTreeActor(f, d, cfg.Depth, seed, cfg.Workers)
	case ppo.MethodMLP:
		if cfg.MLPReferenceArch && d.Discrete {
			return policy.NewMLPActorReference(f, d, cfg.MLPWidth, cfg.MLPLayers, seed+1000)
		}
		return policy.NewMLPActor(f, d, repeat(cfg.MLPWidth, cfg.MLPLayers), seed+1000)
	case ppo.MethodSDT:
		return sdt.NewActor(f, d, sdt.Config{Depth: cfg.Depth, Temperature: cfg.Temperature}, seed+3000)
	}
	return nil, fmt.Errorf("method %q: expected %s, %s or %s", cfg.Method, ppo.MethodSYMPOL, ppo.MethodMLP, ppo.MethodSDT)
}

// Critic returns a new critic of cfg.Critic.
func (Nets) Critic(cfg ppo.Config, f int) (policy.Net, error) {
	seed := uint64(cfg.InitSeed)
	switch cfg.Critic {
	case ppo.CriticMLP:
		return policy.NewCritic(f, repeat(cfg.CriticWidth, cfg.CriticLayers), seed+2000)
	case ppo.CriticTree:
		return policy.NewTreeCritic(f, cfg.Depth, seed+2000, cfg.Workers)
	case ppo.CriticSDT:
		return sdt.NewCritic(f, sdt.Config{Depth: cfg.Depth, Temperature: cfg.Temperature}, seed+4000)
	}
	return nil, fmt.Errorf("critic %q: expected %s, %s or %s", cfg.Critic, ppo.CriticMLP, ppo.CriticTree, ppo.CriticSDT)
}

func repeat(w, n int) []int {
	h := make([]int, n)
	for i := range h {
		h[i] = w
	}
	return h
}

// Preset returns the configuration of method on env with the thesis's
// best hyperparameters: ppo.Preset for SYMPOL and the MLP, and for the SDT
// baseline ppo.Base with rl/sdt's tuned values (spec §8.11).
func Preset(envID, method string) (ppo.Config, error) {
	if method != ppo.MethodSDT {
		return ppo.Preset(envID, method)
	}
	c := ppo.Base(envID, method)
	h, _ := sdt.Best(envID)
	c.Depth, c.Temperature = h.Depth, h.Temperature
	c.EntCoef, c.Lambda, c.Gamma, c.LRActor, c.LRCritic, c.MaxGradNorm = h.EntCoef, h.Lambda, h.Gamma, h.LRActor, h.LRCritic, h.MaxGradNorm
	c.Minibatch, c.NEnvs, c.NSteps, c.Epochs, c.NormAdv, c.VfCoef = h.Minibatch, h.NEnvs, h.NSteps, h.Epochs, h.NormAdv, h.VfCoef
	c.LRLogStd = h.LRActor
	if h.Critic == "sdt" {
		c.Critic = ppo.CriticSDT
	}
	return c, nil
}

// New returns a trainer for cfg with the method's networks.
func New(cfg ppo.Config) (*ppo.Trainer, error) { return ppo.New(cfg, Nets{}) }

// Load resumes the checkpoint at path with the method's networks (see
// ppo.Load).
func Load(path string, modify func(*ppo.Config) error) (*ppo.Trainer, error) {
	return ppo.Load(path, Nets{}, modify)
}
