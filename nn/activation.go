package nn

import (
	"fmt"
	"math"
	"strings"

	"github.com/gdt-ml/gdt/linalg"
	"github.com/gdt-ml/gdt/optim"
)

// elementwise holds what every elementwise activation shares.
type elementwise struct {
	n  int
	bs int
	x  []float32
	y  []float32
	dx []float32
}

func (e *elementwise) In() int               { return e.n }
func (e *elementwise) Out() int              { return e.n }
func (e *elementwise) Params() []optim.Param { return nil }
func (e *elementwise) start(name string, x []float32, B int) ([]float32, []float32) {
	checkForward(name, x, B, e.n)
	e.x, e.bs = x[:B*e.n], B
	e.y = grow(e.y, B*e.n)
	return e.x, e.y
}
func (e *elementwise) back(name string, dy []float32) ([]float32, []float32) {
	checkBackward(name, dy, e.bs, e.n)
	e.dx = grow(e.dx, e.bs*e.n)
	return dy[:e.bs*e.n], e.dx
}

// ReLU is max(0, x) elementwise; its derivative at 0 is taken as 0.
type ReLU struct{ elementwise }

// NewReLU returns a ReLU on rows of n values.
func NewReLU(n int) *ReLU { return &ReLU{elementwise{n: n}} }

// Forward computes max(0, x).
func (a *ReLU) Forward(x []float32, B int, train bool) []float32 {
	x, y := a.start("ReLU", x, B)
	linalg.Relu(y, x)
	return y
}

// Backward returns dy where x > 0, else 0.
func (a *ReLU) Backward(dy []float32) []float32 {
	dy, dx := a.back("ReLU", dy)
	// dy where the sign bit of x is clear and x is not +0 (a NaN with a
	// clear sign bit passes dy through).
	linalg.ReluGrad(dx, dy, a.x)
	return dx
}

// Tanh is the hyperbolic tangent elementwise.
type Tanh struct{ elementwise }

// NewTanh returns a tanh on rows of n values.
func NewTanh(n int) *Tanh { return &Tanh{elementwise{n: n}} }

// Forward computes tanh(x).
func (a *Tanh) Forward(x []float32, B int, train bool) []float32 {
	x, y := a.start("Tanh", x, B)
	for i, v := range x {
		y[i] = float32(math.Tanh(float64(v)))
	}
	return y
}

// Backward returns dy·(1 − y²).
func (a *Tanh) Backward(dy []float32) []float32 {
	dy, dx := a.back("Tanh", dy)
	for i, y := range a.y {
		dx[i] = dy[i] * (1 - y*y)
	}
	return dx
}

// Sigmoid is the logistic function elementwise.
type Sigmoid struct{ elementwise }

// NewSigmoid returns a logistic sigmoid on rows of n values.
func NewSigmoid(n int) *Sigmoid { return &Sigmoid{elementwise{n: n}} }

// Forward computes 1/(1 + e^−x).
func (a *Sigmoid) Forward(x []float32, B int, train bool) []float32 {
	x, y := a.start("Sigmoid", x, B)
	for i, v := range x {
		y[i] = float32(1 / (1 + math.Exp(-float64(v))))
	}
	return y
}

// Backward returns dy·y·(1 − y).
func (a *Sigmoid) Backward(dy []float32) []float32 {
	dy, dx := a.back("Sigmoid", dy)
	for i, y := range a.y {
		dx[i] = dy[i] * y * (1 - y)
	}
	return dx
}

// GELU is the exact Gaussian error linear unit x·Φ(x) (PyTorch's default
// nn.GELU, approximate='none').
type GELU struct{ elementwise }

// NewGELU returns a GELU on rows of n values.
func NewGELU(n int) *GELU { return &GELU{elementwise{n: n}} }

// Forward computes x·Φ(x) with Φ(x) = ½(1 + erf(x/√2)).
func (a *GELU) Forward(x []float32, B int, train bool) []float32 {
	x, y := a.start("GELU", x, B)
	for i, v := range x {
		f := float64(v)
		y[i] = float32(0.5 * f * (1 + math.Erf(f/math.Sqrt2)))
	}
	return y
}

// Backward returns dy·(Φ(x) + x·φ(x)).
func (a *GELU) Backward(dy []float32) []float32 {
	dy, dx := a.back("GELU", dy)
	const invSqrt2Pi = 0.3989422804014327
	for i, v := range a.x {
		f := float64(v)
		d := 0.5*(1+math.Erf(f/math.Sqrt2)) + f*invSqrt2Pi*math.Exp(-0.5*f*f)
		dx[i] = float32(float64(dy[i]) * d)
	}
	return dx
}

// Identity passes its input through unchanged.
type Identity struct{ elementwise }

// NewIdentity returns the identity on rows of n values.
func NewIdentity(n int) *Identity { return &Identity{elementwise{n: n}} }

// Forward returns a copy of x.
func (a *Identity) Forward(x []float32, B int, train bool) []float32 {
	x, y := a.start("Identity", x, B)
	copy(y, x)
	return y
}

// Backward returns a copy of dy.
func (a *Identity) Backward(dy []float32) []float32 {
	dy, dx := a.back("Identity", dy)
	copy(dx, dy)
	return dx
}

// NewActivation returns the activation named name ("relu", "tanh", "gelu",
// "sigmoid", "identity"/"linear") on rows of n values.
func NewActivation(name string, n int) (Module, error) {
	if n <= 0 {
		return nil, fmt.Errorf("nn: NewActivation: width %d, want > 0", n)
	}
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "relu":
		return NewReLU(n), nil
	case "tanh":
		return NewTanh(n), nil
	case "gelu":
		return NewGELU(n), nil
	case "sigmoid":
		return NewSigmoid(n), nil
	case "identity", "linear", "none":
		return NewIdentity(n), nil
	}
	return nil, fmt.Errorf("nn: unknown activation %q (want relu, tanh, gelu, sigmoid or identity)", name)
}
