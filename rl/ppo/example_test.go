package ppo_test

import (
	"context"
	"fmt"

	_ "github.com/gdt-ml/gdt/rl/env/classic"
	"github.com/gdt-ml/gdt/rl/methods"
	"github.com/gdt-ml/gdt/rl/policy"
	"github.com/gdt-ml/gdt/rl/ppo"
)

// Train a SYMPOL tree policy on CartPole with the thesis's best
// hyperparameters (a short budget here) and print it as rules.
func Example() {
	cfg, err := ppo.Preset("CartPole-v1", ppo.MethodSYMPOL)
	if err != nil {
		panic(err)
	}
	cfg.TotalSteps, cfg.Seed = 5_000, 142
	cfg.CriticWidth = 32                    // the preset's 256 units, narrowed to keep the example fast
	tr, err := ppo.New(cfg, methods.Nets{}) // the method's actor and critic
	if err != nil {
		panic(err)
	}
	if err := tr.Run(context.Background(), nil); err != nil {
		panic(err)
	}
	spec := tr.Spec()
	tree, err := tr.Actor().(*policy.TreeActor).Pruned(spec.Observation.Low, spec.Observation.High)
	if err != nil {
		panic(err)
	}
	rets, err := ppo.Returns(tr.Maker(), cfg.TestSeed, 5, tr.Actor(), nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(tree.NumNodes() > 0, len(rets))
	// Output: true 5
}
