package policy

import (
	"fmt"

	"github.com/gdt-ml/gdt/rng"
	"github.com/gdt-ml/gdt/tree"
)

// Group names of the SYMPOL actor's optimiser groups (spec §1.6).
const (
	GroupSplitValues = "split_values"    // thresholds T: Adam, no weight decay
	GroupSplitIndex  = "split_idx_array" // feature-selection logits Z: AdamW
	GroupLeaves      = "leaf_array"      // leaf logits or means Λ: AdamW
	GroupLogStd      = "log_std"         // log standard deviations: AdamW
)

// TreeActor is the SYMPOL actor (spec §1): one hard, axis-aligned tree of
// the tree kernel (softsign split, no tree weights) whose reached leaf holds
// the action logits (discrete) or the action means (continuous, with a
// state-independent learned log standard deviation). Its gradients are the
// kernel's exact straight-through gradients.
type TreeActor struct {
	k      *tree.Kernel
	ws     *tree.Workspace // training Forward/Backward
	pws    *tree.Workspace // Predict
	grad   *tree.Params
	dist   Dist
	logStd []float32
	gLog   []float32
	ts     []Tensor
}

// NewTreeActor returns a depth-d tree actor on obs features with the head
// dist, initialised as SYMPOL does (spec §1.1): every tensor, the log
// standard deviations included, iid N(0, 0.05²), drawn from seed.
// workers is the kernel's goroutine count (0 = GOMAXPROCS; results do not
// depend on it); small minibatches are fastest with 1.
func NewTreeActor(obs int, dist Dist, depth int, seed uint64, workers int) (*TreeActor, error) {
	if dist.A < 1 || dist.A > maxA {
		return nil, fmt.Errorf("tree actor: %d actions, want 1…%d", dist.A, maxA)
	}
	t, err := newTree(obs, dist.A, depth, seed, workers, "tree actor")
	if err != nil {
		return nil, err
	}
	t.dist = dist
	if !dist.Discrete {
		t.logStd = make([]float32, dist.A)
		t.gLog = make([]float32, dist.A)
		r := rng.New(uint32(seed) + 5)
		for i := range t.logStd {
			t.logStd[i] = float32(0.05 * r.NormFloat64())
		}
		t.ts = append(t.ts, Tensor{Name: "log_std", Group: GroupLogStd, Value: t.logStd, Grad: t.gLog})
	}
	return t, nil
}

// NewTreeCritic returns a SYMPOL tree used as the value network (the
// ablation "w/o separate architecture", spec §2): a depth-d tree with one
// output (the leaf holds the value), the actor's initialisation and the
// actor's tensor groups, so that it trains with the actor's optimiser
// settings.
func NewTreeCritic(obs, depth int, seed uint64, workers int) (*TreeActor, error) {
	return newTree(obs, 1, depth, seed, workers, "tree critic")
}

func newTree(obs, outputs, depth int, seed uint64, workers int, what string) (*TreeActor, error) {
	k, err := tree.New(tree.Config{Trees: 1, Depth: depth, Features: obs, Outputs: outputs,
		Split: tree.Softsign, Weights: tree.NoWeights, Workers: workers})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if err := k.Init(tree.InitNormal, seed); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	t := &TreeActor{k: k, ws: k.NewWorkspace(), pws: k.NewWorkspace(), grad: k.NewParams(), dist: Dist{A: outputs}}
	p := k.Params()
	t.ts = []Tensor{
		{Name: "split_idx_array", Group: GroupSplitIndex, Value: p.IndexLogits, Grad: t.grad.IndexLogits},
		{Name: "split_values", Group: GroupSplitValues, Value: p.Thresholds, Grad: t.grad.Thresholds},
		{Name: "leaf_array", Group: GroupLeaves, Value: p.Leaves, Grad: t.grad.Leaves},
	}
	k.Prepare()
	return t, nil
}

// Kernel returns the underlying tree kernel (E = 1).
func (t *TreeActor) Kernel() *tree.Kernel { return t.k }

// In returns the observation width.
func (t *TreeActor) In() int { return t.k.Features() }

// Out returns A (1 for a critic).
func (t *TreeActor) Out() int { return t.dist.A }

// Dist returns the head.
func (t *TreeActor) Dist() Dist { return t.dist }

// LogStd returns the log standard deviations (nil for discrete actions).
func (t *TreeActor) LogStd() []float32 { return t.logStd }

// LogStdGrad returns the gradient buffer of LogStd.
func (t *TreeActor) LogStdGrad() []float32 { return t.gLog }

// Tensors lists split_idx_array, split_values, leaf_array and (continuous)
// log_std.
func (t *TreeActor) Tensors() []Tensor { return t.ts }

// Changed re-prepares the kernel after a parameter change.
func (t *TreeActor) Changed() { t.k.Prepare() }

// Forward evaluates the training batch.
func (t *TreeActor) Forward(x []float32, B int, out []float32) error {
	if err := checkBatch("tree actor", x, B, t.In(), out, t.dist.A); err != nil {
		return err
	}
	return t.k.Forward(t.ws, x[:B*t.In()], B, nil, out[:B*t.dist.A])
}

// Backward computes the exact kernel gradients of the last Forward.
func (t *TreeActor) Backward(dOut []float32) error {
	return t.k.Backward(t.ws, dOut, t.grad, nil)
}

// Predict evaluates x (hard routing; no Forward state).
func (t *TreeActor) Predict(x []float32, B int, out []float32) error {
	if err := checkBatch("tree actor", x, B, t.In(), out, t.dist.A); err != nil {
		return err
	}
	return t.k.Predict(t.pws, x[:B*t.In()], B, out[:B*t.dist.A])
}

// Route writes the leaf every row of x reaches (0…2^depth−1, left to right)
// into leaves (len B): the leaf whose values Predict returns for it.
func (t *TreeActor) Route(x []float32, B int, leaves []int32) error {
	if len(x) < B*t.In() || len(leaves) != B {
		return fmt.Errorf("tree actor: Route: %d values for %d rows of %d features, %d leaves", len(x), B, t.In(), len(leaves))
	}
	return t.k.Route(t.pws, x[:B*t.In()], B, leaves)
}

// LeafValues returns the values (logits or means) of leaf l, a slice of the
// leaf_array tensor: call Changed after writing it.
func (t *TreeActor) LeafValues(l int) []float32 {
	a := t.dist.A
	return t.k.Params().Leaves[l*a : (l+1)*a]
}
