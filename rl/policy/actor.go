package policy

import "fmt"

// Tensor is one named trainable tensor of a network: Value is updated in
// place by an optimiser from Grad. Group names the optimiser group it
// belongs to (spec §1.6: "split_values", "split_idx_array", "leaf_array",
// "log_std" for the tree actor; "actor" for the MLP actor; "critic").
type Tensor struct {
	Name  string
	Group string
	Value []float32
	Grad  []float32
}

// Net is a differentiable function of a batch of rows: the common part of
// actors and critics. Forward keeps what Backward needs; Predict may reuse
// the Forward buffers (the MLP does), so call it only outside a
// Forward–Backward pair. Inputs are row-major [B][In()], outputs [B][Out()].
// A Net is not safe for concurrent use.
type Net interface {
	// In is the input width.
	In() int
	// Out is the output width.
	Out() int
	// Forward evaluates the training batch x and writes out.
	Forward(x []float32, B int, out []float32) error
	// Backward takes dL/d(out) of the last Forward and overwrites the
	// gradients of the tensors (Tensors()[i].Grad).
	Backward(dOut []float32) error
	// Predict evaluates x for inference (hard routing for trees).
	Predict(x []float32, B int, out []float32) error
	// Tensors lists the trainable tensors in a fixed order.
	Tensors() []Tensor
	// Changed must be called after the tensors' values changed (an
	// optimiser step, loading).
	Changed()
}

// Actor is a policy: a Net whose outputs parameterise Dist. For a
// continuous head the log standard deviations are an extra tensor (the last
// of Tensors, group "log_std") whose gradient the caller writes through
// LogStdGrad before the optimiser step; Backward does not touch it.
type Actor interface {
	Net
	// Dist is the action distribution head.
	Dist() Dist
	// LogStd returns the log standard deviations (nil for discrete heads).
	LogStd() []float32
	// LogStdGrad returns the gradient buffer of LogStd (nil for discrete).
	LogStdGrad() []float32
}

// checkBatch validates the lengths of a batch call.
func checkBatch(name string, x []float32, B, in int, out []float32, width int) error {
	if B < 0 || len(x) < B*in {
		return fmt.Errorf("%s: input holds %d values, want %d rows × %d", name, len(x), B, in)
	}
	if len(out) < B*width {
		return fmt.Errorf("%s: output holds %d values, want %d rows × %d", name, len(out), B, width)
	}
	return nil
}
