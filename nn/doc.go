// Package nn holds gdt's neural building blocks with hand-written backward
// passes: the Module interface, dense layers, activations, multilayer
// perceptrons, normalisation, dropout, convolution and pooling, and the tree
// kernel of package tree wrapped as a layer, so that GradTree and GRANDE can
// sit inside a larger network and pass gradients to their inputs.
//
// # Layout and buffers
//
// Every batch is a row-major []float32 of B rows: a Module maps B×In to B×Out.
// Images are rows of C·H·W values in channel-major (NCHW) order; the
// convolution and pooling layers carry the C, H, W shape of their input and
// output (Shape).
//
// Forward returns a buffer owned by the module; it stays valid until the next
// call of Forward. Backward takes the gradient of the loss with respect to
// that output (B×Out, the B of the last Forward), adds (+=) the gradients of
// the module's parameters into their Grad slices and returns the gradient
// with respect to the input (B×In, module-owned). A module keeps a reference
// to the x given to Forward, so x must not change before the matching
// Backward. Buffers grow to the largest batch seen; after that Forward and
// Backward do not allocate. Modules are not safe for concurrent use.
//
// Parameters are optim.Param values (name, value, gradient) whose slices are
// views into the module's storage; hand them to optim.NewGroup and call the
// optimiser's ZeroGrad before each accumulation. Names are local to a module;
// Sequential prefixes them with the layer index ("0.weight", "2.bias"), so the
// names of one network are unique.
//
// # Determinism
//
// Initialisation draws from package rng seeded with the given seed, one
// derived stream per layer, so the same seed gives the same weights bit for
// bit. Matrix products go through linalg.Gemm (single-threaded, packed
// AVX-512/AVX2 kernels), whose every output element is computed by the same
// sequence of operations whatever the tiling or the number of cores; with
// SetPool (Dense, Sequential) large products are split by whole tiles over
// linalg's helper pool with the same bits. Reductions over the batch (bias
// gradients, normalisation statistics) run in a fixed order.
//
// # Weight layout
//
// Dense stores its weight as In×Out row-major (the transpose of PyTorch's
// Linear.weight, the same as a Keras/Flax kernel), so the forward pass is
// one product X·W. Initialisation schemes follow PyTorch/Keras/Flax:
// orthogonal with a gain (CleanRL's PPO uses √2 for hidden layers, 1 for the
// value head and 0.01 for the policy head), Glorot (Xavier) uniform, He
// (Kaiming) uniform and Flax's default LeCun truncated normal; biases start
// at zero.
package nn
