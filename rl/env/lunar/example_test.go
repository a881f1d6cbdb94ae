package lunar_test

import (
	"fmt"

	"github.com/gdt-ml/gdt/rl/env"
	"github.com/gdt-ml/gdt/rl/env/lunar"
)

// Land once with the hand-written controller through the environment
// registry.
func Example() {
	e, err := env.Make("LunarLander-v2")
	if err != nil {
		panic(err)
	}
	obs := make([]float32, e.Spec().Observation.Dim)
	act := make([]float32, 1)
	e.Seed(0)
	e.Reset(obs)
	ret := 0.0
	for t := 0; t < e.Spec().MaxEpisodeSteps; t++ {
		act[0] = float32(lunar.Heuristic(obs))
		r, terminated := e.Step(act, obs)
		ret += float64(r)
		if terminated {
			fmt.Println("landed:", r == 100, "both legs down:", obs[6] == 1 && obs[7] == 1, "return > 200:", ret > 200)
			break
		}
	}
	// Output: landed: true both legs down: true return > 200: true
}
