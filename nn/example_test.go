package nn_test

import (
	"fmt"

	"github.com/gdt-ml/gdt/nn"
	"github.com/gdt-ml/gdt/optim"
	"github.com/gdt-ml/gdt/tree"
)

// A PPO-style critic (2×256 ReLU, Flax init) trained with AdamW (optax
// rule) on a squared error toward fixed targets.
func Example_critic() {
	const obsDim, B = 4, 32
	critic, err := nn.NewMLP(obsDim, []int{256, 256}, 1, "relu", nn.LeCunInit(), nn.LeCunInit(), 42)
	if err != nil {
		panic(err)
	}
	g := optim.NewGroup(optim.Optax, "critic", 1e-3, critic.Params()...)
	g.WeightDecay = 1e-4
	opt, err := optim.NewAdam(g)
	if err != nil {
		panic(err)
	}
	obs := make([]float32, B*obsDim)
	target := make([]float32, B)
	for i := range obs {
		obs[i] = float32(i%7) / 7
	}
	for i := range target {
		target[i] = obs[i*obsDim] - 2*obs[i*obsDim+1] + 0.5
	}
	dv := make([]float32, B)
	mse := func(v []float32) float64 {
		var s float64
		for i := range v {
			d := float64(v[i] - target[i])
			s += d * d
		}
		return s / B
	}
	first := mse(critic.Forward(obs, B, false))
	for step := 0; step < 200; step++ {
		opt.ZeroGrad()
		v := critic.Forward(obs, B, true)
		for i := range v {
			dv[i] = 2 * (v[i] - target[i]) / B
		}
		critic.Backward(dv)
		opt.ClipGradNorm(1000)
		opt.Step()
	}
	last := mse(critic.Forward(obs, B, false))
	fmt.Println(last < first/100)
	// Output: true
}

// A small multimodal network: a CNN on 8×8 RGB images and a GRANDE layer on
// 4 tabular features, fused by concatenation into a dense head over 3
// classes. An input row is [image pixels | tabular features].
func Example_fusion() {
	img := nn.Shape{C: 3, H: 8, W: 8}
	conv, _ := nn.NewConv2D(img, 8, 3, 1, 1, nn.HeInit(), 1)
	bn, _ := nn.NewBatchNorm2D(conv.OutShape(), 0, 0)
	pool, _ := nn.NewMaxPool2D(conv.OutShape(), 2, 0)
	gap, _ := nn.NewGlobalAvgPool(pool.OutShape())
	cnn, _ := nn.NewSequential(conv, bn, nn.NewReLU(bn.Out()), pool, gap) // 8 features
	trees, _ := nn.NewTree(nn.TreeConfig{
		Kernel: tree.Config{Trees: 16, Depth: 3, Features: 4, Outputs: 6, Split: tree.Softsign, Weights: tree.LeafWeights},
		Init:   tree.InitNormal, Dropout: 0.1, Seed: 2}) // a 6-value embedding
	fused, _ := nn.NewConcat(cnn, trees)
	head, _ := nn.NewDense(fused.Out(), 3, nn.GlorotInit(), 3)
	net, _ := nn.NewSequential(fused, head)

	const B = 4
	x := make([]float32, B*net.In())
	logits := net.Forward(x, B, true)
	dLogits := make([]float32, len(logits)) // from a loss
	net.Backward(dLogits)
	fmt.Println(net.In(), net.Out(), len(net.Params()))
	// Output: 196 3 10
}
