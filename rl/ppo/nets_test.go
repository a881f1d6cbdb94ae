package ppo

import (
	"fmt"

	"github.com/gdt-ml/gdt/rl/policy"
)

// testNets builds the networks of the tests' trainers (package rl/methods,
// which builds every method's, imports ppo): SYMPOL's tree actor or the MLP
// actor, and an MLP or tree critic, with rl/methods' seeds.
type testNets struct{}

func (testNets) Actor(cfg Config, f int, d policy.Dist) (policy.Actor, error) {
	switch cfg.Method {
	case MethodSYMPOL:
		return policy.NewTreeActor(f, d, cfg.Depth, uint64(cfg.InitSeed), cfg.Workers)
	case MethodMLP:
		return policy.NewMLPActor(f, d, repeat(cfg.MLPWidth, cfg.MLPLayers), uint64(cfg.InitSeed)+1000)
	}
	return nil, fmt.Errorf("test trainers have no %s actor", cfg.Method)
}

func (testNets) Critic(cfg Config, f int) (policy.Net, error) {
	if cfg.Critic == CriticTree {
		return policy.NewTreeCritic(f, cfg.Depth, uint64(cfg.InitSeed)+2000, cfg.Workers)
	}
	return policy.NewCritic(f, repeat(cfg.CriticWidth, cfg.CriticLayers), uint64(cfg.InitSeed)+2000)
}

func repeat(w, n int) []int {
	h := make([]int, n)
	for i := range h {
		h[i] = w
	}
	return h
}
