package tree_test

import (
	"fmt"
	"math"

	"github.com/gdt-ml/gdt/tree"
)

// A GradTree-style training step: one tree of depth 2 on 3 features with a
// sigmoid head and binary cross-entropy (the head and the loss live outside
// the kernel). The parameters are the worked example of spec §13.
func Example() {
	k, err := tree.New(tree.Config{Trees: 1, Depth: 2, Features: 3, Outputs: 1, Split: tree.Softsign})
	if err != nil {
		panic(err)
	}
	p := k.Params()
	copy(p.IndexLogits, []float32{0.30, -0.20, 0.10, 0.00, 0.50, -0.50, 0.25, 0.20, -0.40})
	copy(p.Thresholds, []float32{0.10, -0.40, 0.60, 0.25, 0.00, -0.30, -0.10, 0.70, 0.20})
	copy(p.Leaves, []float32{0.5, -1.0, 1.5, -0.2})
	k.Prepare()

	x := []float32{0.4, -0.1, 0.3} // one sample, label 1
	ws := k.NewWorkspace()
	out := make([]float32, 1)
	if err := k.Forward(ws, x, 1, nil, out); err != nil {
		panic(err)
	}
	g := 1/(1+math.Exp(-float64(out[0]))) - 1 // dBCE/dy for label 1
	grad := k.NewParams()
	if err := k.Backward(ws, []float32{float32(g)}, grad, nil); err != nil {
		panic(err)
	}
	fmt.Printf("y = %.1f\n", out[0])
	fmt.Printf("dT[root] = %.6f\n", grad.Thresholds[0])
	fmt.Printf("dZ[root] = %.6f\n", grad.IndexLogits[:3])

	m := k.Ensemble() // the trained form: one complete tree stored breadth first
	fmt.Printf("root: x[%d] < %.2f, reached leaf %d\n", m.Feature[0], m.Threshold[0], m.Leaf(0, x)-k.Nodes())
	// Output:
	// y = -0.2
	// dT[root] = -0.113871
	// dZ[root] = [0.016053 0.010193 -0.026246]
	// root: x[0] < 0.10, reached leaf 3
}

// A GRANDE-style ensemble: 16 trees on feature subsets with instance-wise
// leaf weights and estimator dropout during training.
func Example_ensemble() {
	const n, E, B = 8, 16, 4
	subsets := make([][]int, E)
	for e := range subsets {
		subsets[e] = []int{e % n, (e + 3) % n, (e + 5) % n}
	}
	k, err := tree.New(tree.Config{Trees: E, Depth: 3, Features: n, Outputs: 1,
		Subsets: subsets, Split: tree.Softsign, Weights: tree.LeafWeights})
	if err != nil {
		panic(err)
	}
	if err := k.Init(tree.InitNormal, 42); err != nil {
		panic(err)
	}
	k.Prepare()
	x := make([]float32, B*n)
	for i := range x {
		x[i] = float32(i%7) - 3
	}
	keep := make([]bool, B*E)
	_ = tree.DropoutMask(keep, 0.25, 1) // a new seed every step
	ws := k.NewWorkspace()
	out := make([]float32, B)
	_ = k.Forward(ws, x, B, keep, out)
	grad := k.NewParams()
	dX := make([]float32, B*n) // gradient for layers below the trees
	_ = k.Backward(ws, []float32{1, 1, 1, 1}, grad, dX)

	weights := make([]float32, B*E) // inference-time instance-wise weights
	_ = k.TreeWeights(ws, x, B, weights)
	var sum float32
	for _, w := range weights[:E] {
		sum += w
	}
	fmt.Printf("tree weights of sample 0 sum to %.3f\n", sum)
	// Output:
	// tree weights of sample 0 sum to 1.000
}
