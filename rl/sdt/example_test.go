package sdt_test

import (
	"fmt"

	"github.com/gdt-ml/gdt/rl/policy"
	"github.com/gdt-ml/gdt/rl/sdt"
)

// An SDT actor is a policy.Actor that PPO trains like any other; after
// training, Discretize turns it into the hard D-SDT tree.
func ExampleTree_Discretize() {
	actor, err := sdt.NewActor(4, policy.Dist{Discrete: true, A: 2}, sdt.Config{Depth: 3, Temperature: 1}, 42)
	if err != nil {
		panic(err)
	}
	logits := make([]float32, 2)
	obs := []float32{0.02, -0.1, 0.03, 0.2}
	if err := actor.Predict(obs, 1, logits); err != nil {
		panic(err)
	}
	d, err := actor.Discretize()
	if err != nil {
		panic(err)
	}
	action := make([]float32, 1)
	d.Act(obs, action)
	plain := d.Plain()
	leaf, _ := plain.LeafOf(obs) // routed by the plain tree's trained form
	fmt.Printf("soft logits %.3f, D-SDT action %v, plain tree action %v, %d nodes\n",
		logits, action[0], policy.Argmax(plain.Nodes[leaf].Value), plain.NumNodes())
	// Output:
	// soft logits [-0.098 -0.074], D-SDT action 1, plain tree action 1, 15 nodes
}
