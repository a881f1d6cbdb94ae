package policy

import (
	"fmt"

	"github.com/gdt-ml/gdt/nn"
)

// MLP is a multilayer perceptron of package nn seen as a Net: the critic
// (one output, the state value) and the baseline actor. Its Predict reuses
// the Forward buffers, so callers must not call it between a Forward and the
// matching Backward.
type MLP struct {
	m      *nn.Sequential
	ts     []Tensor
	dist   Dist
	actor  bool
	logStd []float32
	gLog   []float32
	// overwrite: the layers overwrite their gradients (no zeroing).
	overwrite bool
}

// NewCritic returns the value network of spec §2: in → hidden … → 1 with
// ReLU, Flax's default initialisation (LeCun truncated normal kernels, zero
// biases), tensors in group "critic". SYMPOL uses hidden = [256, 256].
func NewCritic(in int, hidden []int, seed uint64) (*MLP, error) {
	m, err := nn.NewMLP(in, hidden, 1, "relu", nn.LeCunInit(), nn.LeCunInit(), seed)
	if err != nil {
		return nil, fmt.Errorf("critic: %w", err)
	}
	m.SetSkipInputGrad(true)
	c := &MLP{m: m}
	c.overwriteGrads()
	for _, p := range m.Params() {
		c.ts = append(c.ts, Tensor{Name: p.Name, Group: "critic", Value: p.Value, Grad: p.Grad})
	}
	return c, nil
}

// NewMLPActor returns the full-complexity baseline actor (spec §6.1):
// in → hidden … → A with ReLU. Continuous heads use CleanRL's orthogonal
// initialisation (gain √2, zero biases) and a log standard deviation vector
// initialised to 0; discrete heads Flax's default initialisation. The
// network's tensors are in group "actor", the log-std in "log_std".
// (The reference's discrete architecture, which squeezes every hidden layer
// through A units, is not reproduced: this is the standard MLP.)
func NewMLPActor(in int, dist Dist, hidden []int, seed uint64) (*MLP, error) {
	if dist.A < 1 || dist.A > maxA {
		return nil, fmt.Errorf("mlp actor: %d actions, want 1…%d", dist.A, maxA)
	}
	init, head := nn.LeCunInit(), nn.LeCunInit()
	if !dist.Discrete {
		init, head = nn.OrthogonalInit(1.4142135623730951), nn.OrthogonalInit(1.4142135623730951)
	}
	m, err := nn.NewMLP(in, hidden, dist.A, "relu", init, head, seed)
	if err != nil {
		return nil, fmt.Errorf("mlp actor: %w", err)
	}
	m.SetSkipInputGrad(true)
	a := &MLP{m: m, dist: dist, actor: true}
	a.overwriteGrads()
	for _, p := range m.Params() {
		a.ts = append(a.ts, Tensor{Name: p.Name, Group: "actor", Value: p.Value, Grad: p.Grad})
	}
	if !dist.Discrete {
		a.logStd = make([]float32, dist.A)
		a.gLog = make([]float32, dist.A)
		a.ts = append(a.ts, Tensor{Name: "log_std", Group: GroupLogStd, Value: a.logStd, Grad: a.gLog})
	}
	return a, nil
}

// NewMLPActorReference returns the reference code's discrete MLP actor
// (spec §6.1, quirk mlp_discrete_arch): for each of layers repetitions
// Dense(width) → ReLU → Dense(A), so the hidden state is squeezed to A
// units between repetitions (F → w → A → w → A for two layers), with Flax's
// default initialisation. Discrete heads only.
func NewMLPActorReference(in int, dist Dist, width, layers int, seed uint64) (*MLP, error) {
	if !dist.Discrete || dist.A < 1 || dist.A > maxA {
		return nil, fmt.Errorf("mlp actor (reference architecture): needs 1…%d discrete actions, got %+v", maxA, dist)
	}
	if width < 1 || layers < 1 {
		return nil, fmt.Errorf("mlp actor (reference architecture): width %d, layers %d: want ≥ 1", width, layers)
	}
	var mods []nn.Module
	prev := in
	for i := 0; i < layers; i++ {
		d1, err := nn.NewDense(prev, width, nn.LeCunInit(), seed+uint64(2*i))
		if err != nil {
			return nil, err
		}
		d2, err := nn.NewDense(width, dist.A, nn.LeCunInit(), seed+uint64(2*i+1))
		if err != nil {
			return nil, err
		}
		mods = append(mods, d1, nn.NewReLU(width), d2)
		prev = dist.A
	}
	m, err := nn.NewSequential(mods...)
	if err != nil {
		return nil, err
	}
	m.SetSkipInputGrad(true)
	a := &MLP{m: m, dist: dist, actor: true}
	a.overwriteGrads()
	for _, p := range m.Params() {
		a.ts = append(a.ts, Tensor{Name: p.Name, Group: "actor", Value: p.Value, Grad: p.Grad})
	}
	return a, nil
}

// In returns the input width.
func (m *MLP) In() int { return m.m.In() }

// Out returns the output width.
func (m *MLP) Out() int { return m.m.Out() }

// Dist returns the head (zero for a critic).
func (m *MLP) Dist() Dist { return m.dist }

// LogStd returns the log standard deviations (continuous actor only).
func (m *MLP) LogStd() []float32 { return m.logStd }

// LogStdGrad returns the gradient buffer of LogStd.
func (m *MLP) LogStdGrad() []float32 { return m.gLog }

// Tensors lists the layers' weights and biases (and log_std).
func (m *MLP) Tensors() []Tensor { return m.ts }

// SetPool makes the network's matrix products run on package linalg's
// helper pool when they are large enough (see nn.Sequential.SetPool);
// results are bit-identical either way.
func (m *MLP) SetPool(on bool) { m.m.SetPool(on) }

// SplitAt returns where a two-part optimiser over Tensors should cut their
// concatenation so that each part holds the weight rows that its half of
// the pooled products owns (nn.Dense.RowHalf, for the largest layer that
// splits): the entries a core's gradient computation writes are then the
// ones the same core's optimiser step reads. It returns 0 when no layer
// splits.
func (m *MLP) SplitAt() int {
	at, size, off := 0, 0, 0
	for _, l := range m.m.Layers() {
		if d, ok := l.(*nn.Dense); ok && d.RowHalf() > 0 && d.In()*d.Out() > size {
			at, size = off+d.RowHalf()*d.Out(), d.In()*d.Out()
		}
		for _, p := range l.Params() {
			off += len(p.Value)
		}
	}
	return at
}

// Changed is a no-op: the network reads its parameters directly.
func (m *MLP) Changed() {}

// Forward evaluates the training batch.
func (m *MLP) Forward(x []float32, B int, out []float32) error {
	if err := checkBatch("mlp", x, B, m.In(), out, m.Out()); err != nil {
		return err
	}
	y := m.m.Forward(x, B, true)
	copy(out[:B*m.Out()], y)
	return nil
}

// Backward overwrites the network's gradients with those of dOut.
func (m *MLP) Backward(dOut []float32) error {
	if !m.overwrite {
		for _, t := range m.ts {
			if t.Group != GroupLogStd {
				clear(t.Grad)
			}
		}
	}
	m.m.Backward(dOut)
	return nil
}

// overwriteGrads makes the layers overwrite their gradients in Backward
// when every layer with parameters can (then Backward need not zero them
// first).
func (m *MLP) overwriteGrads() {
	for _, l := range m.m.Layers() {
		if _, ok := l.(nn.GradOverwriter); !ok && len(l.Params()) > 0 {
			return
		}
	}
	m.m.SetOverwriteGrad(true)
	m.overwrite = true
}

// Predict evaluates x (reusing the Forward buffers).
func (m *MLP) Predict(x []float32, B int, out []float32) error {
	if err := checkBatch("mlp", x, B, m.In(), out, m.Out()); err != nil {
		return err
	}
	y := m.m.Forward(x, B, false)
	copy(out[:B*m.Out()], y)
	return nil
}
