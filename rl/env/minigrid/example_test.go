package minigrid_test

import (
	"fmt"

	"github.com/gdt-ml/gdt/rl/env"
	"github.com/gdt-ml/gdt/rl/env/minigrid" // registers the MiniGrid IDs
)

// Playing DistShift1's shortest solution: down below the lava, east, up to
// the goal. The reward is 1 − 0.9·13/252.
func Example() {
	e, err := env.Make(minigrid.IDDistShift1)
	if err != nil {
		panic(err)
	}
	spec := e.Spec()
	obs := make([]float32, spec.Observation.Dim)
	e.Seed(0)
	e.Reset(obs)
	fmt.Println(e.(*minigrid.Env))
	for _, f := range []int{(1*3+1)*5 + 4, (1*3+0)*5 + 4} {
		fmt.Println(spec.FeatureNames[f], "=", obs[f])
	}

	plan := []int{1, 2, 2, 0, 2, 2, 2, 2, 2, 2, 0, 2, 2}
	act := []float32{0}
	for _, a := range plan {
		act[0] = float32(a)
		if r, done := e.Step(act, obs); done {
			fmt.Printf("%s ×%d → reward %.4f\n", spec.ActionNames[a], len(plan), r)
		}
	}
	// Output:
	// #########
	// #>.~~~.G#
	// #..~~~..#
	// #.......#
	// #.......#
	// #.......#
	// #########
	// cell ahead is lava = -1
	// cell two ahead is lava = 1
	// move forward ×13 → reward 0.9536
}

// The agent's 3×3 view in DoorKey: walls and the locked door hide what lies
// behind them.
func ExampleEnv_ViewString() {
	e, err := minigrid.New(minigrid.IDDoorKey5x5)
	if err != nil {
		panic(err)
	}
	obs := make([]float32, e.Spec().Observation.Dim)
	e.Seed(0)
	e.Reset(obs)
	fmt.Println(e)
	fmt.Println()
	fmt.Println(e.ViewString())
	// Output:
	// #####
	// #.L.#
	// #K#.#
	// #<#G#
	// #####
	//
	// ???
	// ###
	// #^K
}
