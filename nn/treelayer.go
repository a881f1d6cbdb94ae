package nn

import (
	"fmt"

	"github.com/gdt-ml/gdt/optim"
	"github.com/gdt-ml/gdt/tree"
	"github.com/viterin/vek/vek32"
)

// TreeConfig configures a Tree layer.
type TreeConfig struct {
	// Kernel is the tree kernel's configuration: E trees of depth d on
	// Features inputs with leaf vectors of length Outputs (class logits or
	// an embedding), feature subsets, split function and weighting
	// (tree.NoWeights for GradTree, tree.LeafWeights for GRANDE).
	Kernel tree.Config
	// Init is the parameter initialisation (tree.InitNormal is GRANDE's,
	// tree.InitGlorot GradTree's published scheme).
	Init tree.InitScheme
	// Dropout is GRANDE's estimator-dropout rate in [0, 1), applied in
	// training mode only.
	Dropout float64
	// Seed seeds the initialisation and the dropout masks.
	Seed uint64
}

// Tree is package tree's kernel as a layer: hard, axis-aligned trees
// evaluated on a batch (B×Features → B×Outputs) whose backward pass is the
// kernel's sparse straight-through gradient, including the gradient with
// respect to the inputs (dL/dx[F[e,k*]] = −δ at every path node), so that
// layers below the trees (an image encoder, an embedding) learn through
// them. Routing, weighting and gradients are the kernel's; this type only
// adapts buffers and the accumulate contract.
//
// Forward prepares the kernel (arg-max of every node) on every call, so the
// parameters may be changed by an optimiser between calls. The parameters
// are named as the kernel's tensors ("index", "threshold", "leaf",
// "weight"); GradTree and GRANDE give each tensor its own optimiser group
// and learning rate.
type Tree struct {
	k       *tree.Kernel
	ws      *tree.Workspace
	grad    *tree.Params // the gradients Params exposes
	scratch *tree.Params // the kernel's output before accumulation
	params  []optim.Param
	dropout float64
	seed    uint64
	step    uint64
	over    bool
	skipDX  bool

	bs    int
	keep  []bool
	useKp bool
	y, dx []float32
}

// NewTree builds and initialises a tree layer.
func NewTree(cfg TreeConfig) (*Tree, error) {
	if !(cfg.Dropout >= 0 && cfg.Dropout < 1) {
		return nil, fmt.Errorf("nn: NewTree: dropout %v, want 0 ≤ dropout < 1", cfg.Dropout)
	}
	k, err := tree.New(cfg.Kernel)
	if err != nil {
		return nil, fmt.Errorf("nn: NewTree: %w", err)
	}
	if err := k.Init(cfg.Init, cfg.Seed); err != nil {
		return nil, fmt.Errorf("nn: NewTree: %w", err)
	}
	t := &Tree{k: k, ws: k.NewWorkspace(), grad: k.NewParams(), scratch: k.NewParams(),
		dropout: cfg.Dropout, seed: cfg.Seed}
	// Backward's output tensors are only read (scratch) or zeroed/scaled by
	// an optimiser (grad), so the kernel may clear just what it wrote.
	t.ws.ReuseGradient(true)
	vals, grads := k.Params().Tensors(), t.grad.Tensors()
	for i, v := range vals {
		t.params = append(t.params, optim.Param{Name: v.Name, Value: v.Data, Grad: grads[i].Data})
	}
	return t, nil
}

// Kernel returns the wrapped kernel (e.g. to extract the trained form with
// Ensemble, or to read TreeWeights).
func (t *Tree) Kernel() *tree.Kernel { return t.k }

// In returns the number of input features.
func (t *Tree) In() int { return t.k.Features() }

// Out returns the length of a leaf vector.
func (t *Tree) Out() int { return t.k.Outputs() }

// Params returns the kernel's tensors ("index", "threshold", "leaf" and, for
// weighted ensembles, "weight") with their gradients.
func (t *Tree) Params() []optim.Param { return t.params }

// SetSkipInputGrad makes Backward skip dL/dx and return nil.
func (t *Tree) SetSkipInputGrad(skip bool) { t.skipDX = skip }

// SetOverwriteGrad(true) lets Backward write the gradients straight into
// the Grad slices instead of adding them: cheaper for large ensembles (no
// pass over every entry), correct when every optimiser step follows exactly
// one Backward of this layer. The default (false) is the Module contract.
func (t *Tree) SetOverwriteGrad(on bool) { t.over = on }

// Forward evaluates the trees; in training mode with a dropout rate the
// estimator-dropout mask of step t is drawn from (seed, t).
func (t *Tree) Forward(x []float32, B int, train bool) []float32 {
	n, C, E := t.k.Features(), t.k.Outputs(), t.k.Trees()
	checkForward("Tree", x, B, n)
	t.bs = B
	t.y = grow(t.y, B*C)
	t.k.Prepare()
	var keep []bool
	t.useKp = train && t.dropout > 0
	if t.useKp {
		if cap(t.keep) < B*E {
			t.keep = make([]bool, B*E)
		}
		t.keep = t.keep[:B*E]
		if err := tree.DropoutMask(t.keep, t.dropout, mix64(t.seed^0x5851f42d4c957f2d)+t.step); err != nil {
			panic("nn: Tree.Forward: " + err.Error())
		}
		t.step++
		keep = t.keep
	}
	if err := t.k.Forward(t.ws, x[:B*n], B, keep, t.y); err != nil {
		panic("nn: Tree.Forward: " + err.Error())
	}
	return t.y
}

// Backward runs the kernel's sparse backward pass and returns the
// straight-through input gradient.
func (t *Tree) Backward(dy []float32) []float32 {
	B, n, C := t.bs, t.k.Features(), t.k.Outputs()
	checkBackward("Tree", dy, B, C)
	var dx []float32
	if !t.skipDX {
		t.dx = grow(t.dx, B*n)
		dx = t.dx
	}
	dst := t.scratch
	if t.over {
		dst = t.grad
	}
	if err := t.k.Backward(t.ws, dy[:B*C], dst, dx); err != nil {
		panic("nn: Tree.Backward: " + err.Error())
	}
	if !t.over {
		src := t.scratch.Tensors()
		for i, g := range t.grad.Tensors() {
			vek32.Add_Inplace(g.Data, src[i].Data)
		}
	}
	return dx
}
