package ensemble_test

import (
	"fmt"

	"github.com/gdt-ml/gdt/ensemble"
)

// A single tree of depth 1 on feature 0: rows below 0.5 go left.
func Example() {
	m := ensemble.NewComplete(1, 1, 1, 1, ensemble.Mean)
	m.Threshold[0] = 0.5
	m.Value[1], m.Value[2] = -1, 1
	p, err := m.Compile(1)
	if err != nil {
		fmt.Println(err)
		return
	}
	out := make([]float32, 3)
	if err := p.Predict([]float32{0.2, 0.5, 0.9}, 3, out, 0); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out, m.Leaf(0, []float32{0.2}))
	// Output: [-1 1 1] 1
}
