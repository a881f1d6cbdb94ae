package nn

import (
	"fmt"
	"strconv"

	"github.com/gdt-ml/gdt/optim"
)

// Module is a differentiable map from a batch of B rows of In values to B
// rows of Out values (see the package documentation for buffer ownership).
type Module interface {
	// Forward evaluates the module on x (B×In, row-major) and returns the
	// module-owned output B×Out, valid until the next Forward. train selects
	// training behaviour (dropout active, batch statistics).
	Forward(x []float32, B int, train bool) []float32
	// Backward takes dL/dy (B×Out for the B of the last Forward), adds the
	// parameter gradients into the Grad slices of Params and returns dL/dx
	// (B×In, module-owned; nil if the module was told not to compute it).
	Backward(dy []float32) []float32
	// Params returns the trainable parameters (views into the module's
	// storage; the same slices on every call).
	Params() []optim.Param
	// In is the number of input values per row.
	In() int
	// Out is the number of output values per row.
	Out() int
}

// grow returns buf resliced to n values, reallocating only when its capacity
// is too small. The contents are unspecified. The result is never nil (a
// nil gradient means "not computed" in Backward, also for empty batches).
func grow[T any](buf []T, n int) []T {
	if cap(buf) < n || buf == nil {
		return make([]T, n)
	}
	return buf[:n]
}

func checkForward(name string, x []float32, B, in int) {
	if B < 0 || len(x) < B*in {
		panic(fmt.Sprintf("nn: %s.Forward: len(x) = %d, want B×In = %d×%d", name, len(x), B, in))
	}
}

func checkBackward(name string, dy []float32, B, out int) {
	if len(dy) < B*out {
		panic(fmt.Sprintf("nn: %s.Backward: len(dy) = %d, want B×Out = %d×%d (B of the last Forward)", name, len(dy), B, out))
	}
}

// Sequential chains modules: the output of layer i is the input of layer i+1.
type Sequential struct {
	layers []Module
	params []optim.Param
}

// NewSequential checks that consecutive widths match (Out of layer i = In of
// layer i+1) and returns the chain. Parameter names are prefixed with the
// layer index: "0.weight", "0.bias", "2.weight", ….
func NewSequential(layers ...Module) (*Sequential, error) {
	if len(layers) == 0 {
		return nil, fmt.Errorf("nn: NewSequential: no layers")
	}
	s := &Sequential{layers: layers}
	for i, l := range layers {
		if l == nil {
			return nil, fmt.Errorf("nn: NewSequential: layer %d is nil", i)
		}
		if i > 0 && layers[i-1].Out() != l.In() {
			return nil, fmt.Errorf("nn: NewSequential: layer %d (%T) outputs %d values per row but layer %d (%T) expects %d",
				i-1, layers[i-1], layers[i-1].Out(), i, l, l.In())
		}
		for _, p := range l.Params() {
			p.Name = strconv.Itoa(i) + "." + p.Name
			s.params = append(s.params, p)
		}
	}
	return s, nil
}

// Buffers returns the non-trainable state of the layers, names prefixed
// with the layer index.
func (s *Sequential) Buffers() []Buffer {
	var out []Buffer
	for i, l := range s.layers {
		out = prefixBuffers(out, strconv.Itoa(i)+".", l)
	}
	return out
}

// Layers returns the modules of the chain (shared, not copied).
func (s *Sequential) Layers() []Module { return s.layers }

// In returns the input width of the first layer.
func (s *Sequential) In() int { return s.layers[0].In() }

// Out returns the output width of the last layer.
func (s *Sequential) Out() int { return s.layers[len(s.layers)-1].Out() }

// Params returns the parameters of all layers in order, names prefixed with
// the layer index.
func (s *Sequential) Params() []optim.Param { return s.params }

// Forward runs the layers in order. A Dense layer on the pool followed by
// a ReLU runs as one step (the bias and the ReLU applied to each block of
// the product on the goroutine that computed it), with the same results.
func (s *Sequential) Forward(x []float32, B int, train bool) []float32 {
	checkForward("Sequential", x, B, s.In())
	for i := 0; i < len(s.layers); i++ {
		if d, r := s.pair(i, i+1); d != nil {
			x = d.forwardReLU(x, B, r)
			i++
			continue
		}
		x = s.layers[i].Forward(x, B, train)
	}
	return x
}

// Backward runs the layers' backward passes in reverse order. If a layer
// returns nil (it was told not to compute its input gradient) the chain
// stops there and Backward returns nil. A Dense layer on the pool preceded
// by a ReLU runs as one step, as in Forward; when its products split (see
// Dense.halves) and the ReLU follows a first Dense layer whose input
// gradient is skipped, that layer's gradients are computed in the same
// step (by column halves, with the same bits).
func (s *Sequential) Backward(dy []float32) []float32 {
	for i := len(s.layers) - 1; i >= 0; i-- {
		if d, r := s.pair(i, i-1); d != nil {
			if first := s.firstOf(i - 2); first != nil && d.splits() {
				// Dense(first) → ReLU → Dense(d): d's split backward
				// also computes first's parameter gradients, each part
				// from the input-gradient columns it just computed.
				return d.backward(dy, r, first)
			}
			dy = d.backward(dy, r, nil)
			i--
		} else {
			dy = s.layers[i].Backward(dy)
		}
		if dy == nil {
			return nil
		}
	}
	return dy
}

// firstOf returns layer i as a Dense when it is the first layer and skips
// its input gradient (its input is data), else nil.
func (s *Sequential) firstOf(i int) *Dense {
	if i != 0 {
		return nil
	}
	if d, ok := s.layers[0].(*Dense); ok && d.skipDX {
		return d
	}
	return nil
}

// pair returns layer i as a Dense on the pool and layer j as a ReLU when
// both are, else nils.
func (s *Sequential) pair(i, j int) (*Dense, *ReLU) {
	if j < 0 || j >= len(s.layers) {
		return nil, nil
	}
	d, ok := s.layers[i].(*Dense)
	if !ok || !d.pool {
		return nil, nil
	}
	r, ok := s.layers[j].(*ReLU)
	if !ok {
		return nil, nil
	}
	return d, r
}

// SetSkipInputGrad forwards to the first layer if it supports skipping its
// input gradient (see InputGradSkipper).
func (s *Sequential) SetSkipInputGrad(skip bool) {
	if k, ok := s.layers[0].(InputGradSkipper); ok {
		k.SetSkipInputGrad(skip)
	}
}

// SetPool switches every layer that supports it (see PoolUser) to or from
// package linalg's helper pool.
func (s *Sequential) SetPool(on bool) {
	for _, l := range s.layers {
		if p, ok := l.(PoolUser); ok {
			p.SetPool(on)
		}
	}
}

// SetOverwriteGrad switches every layer that supports it (see
// GradOverwriter) to overwriting its parameter gradients in Backward.
func (s *Sequential) SetOverwriteGrad(on bool) {
	for _, l := range s.layers {
		if g, ok := l.(GradOverwriter); ok {
			g.SetOverwriteGrad(on)
		}
	}
}

// GradOverwriter is implemented by modules whose Backward can overwrite
// the parameter gradients instead of adding to them (with the bits of
// adding to zeroed gradients), e.g. Dense.
type GradOverwriter interface {
	SetOverwriteGrad(on bool)
}

// PoolUser is implemented by modules whose work can run on package
// linalg's helper pool (linalg.Run, linalg.GemmPool) with bit-identical
// results, e.g. Dense.
type PoolUser interface {
	SetPool(on bool)
}

// InputGradSkipper is implemented by modules that can omit dL/dx in
// Backward (returning nil), e.g. the first layer of a network whose input is
// data.
type InputGradSkipper interface {
	SetSkipInputGrad(skip bool)
}

// NumParams returns the number of trainable values of m.
func NumParams(m Module) int {
	n := 0
	for _, p := range m.Params() {
		n += len(p.Value)
	}
	return n
}

// ZeroGrad sets every parameter gradient of m to zero.
func ZeroGrad(m Module) {
	for _, p := range m.Params() {
		clear(p.Grad)
	}
}

// ParamVector returns a copy of all parameter values of m, concatenated in
// Params order (e.g. to keep the best weights during early stopping).
func ParamVector(m Module) []float32 {
	v := make([]float32, 0, NumParams(m))
	for _, p := range m.Params() {
		v = append(v, p.Value...)
	}
	return v
}

// SetParamVector copies v (as returned by ParamVector of a module with the
// same architecture) into the parameters of m.
func SetParamVector(m Module, v []float32) error {
	if n := NumParams(m); len(v) != n {
		return fmt.Errorf("nn: SetParamVector: %d values, the module has %d parameters", len(v), n)
	}
	off := 0
	for _, p := range m.Params() {
		off += copy(p.Value, v[off:off+len(p.Value)])
	}
	return nil
}
