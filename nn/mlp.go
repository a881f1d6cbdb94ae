package nn

import (
	"fmt"

	"github.com/gdt-ml/gdt/rng"
)

// NewMLP returns a multilayer perceptron in → hidden[0] → … → out: a Dense
// layer per width, each hidden one followed by the activation act (see
// NewActivation), the output layer linear. Hidden layers are initialised with
// init, the output layer with head (e.g. OrthogonalInit(√2) and
// OrthogonalInit(1) for a CleanRL PPO critic, OrthogonalInit(0.01) for a
// policy head, LeCunInit() for both in Flax's style). Layer i draws from its
// own stream derived from seed. The parameters are named "0.weight",
// "0.bias", "2.weight", … (Dense layers at even indices).
func NewMLP(in int, hidden []int, out int, act string, init, head Init, seed uint64) (*Sequential, error) {
	if in <= 0 || out <= 0 {
		return nil, fmt.Errorf("nn: NewMLP: in = %d, out = %d, want both > 0", in, out)
	}
	var layers []Module
	prev := in
	for i, h := range hidden {
		if h <= 0 {
			return nil, fmt.Errorf("nn: NewMLP: hidden width %d (layer %d), want > 0", h, i)
		}
		d, err := newDense(prev, h, init, rng.New(streamSeed(seed, i)))
		if err != nil {
			return nil, err
		}
		a, err := NewActivation(act, h)
		if err != nil {
			return nil, fmt.Errorf("nn: NewMLP: %w", err)
		}
		layers = append(layers, d, a)
		prev = h
	}
	d, err := newDense(prev, out, head, rng.New(streamSeed(seed, len(hidden))))
	if err != nil {
		return nil, err
	}
	layers = append(layers, d)
	return NewSequential(layers...)
}
