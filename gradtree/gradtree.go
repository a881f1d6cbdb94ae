package gradtree

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/ensemble"
	"github.com/gdt-ml/gdt/loss"
	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/optim"
	"github.com/gdt-ml/gdt/train"
	"github.com/gdt-ml/gdt/tree"
)

// Model is a GradTree model. Its exported fields are its saved form.
type Model struct {
	Config   Config    // the configuration with defaults filled in
	Task     data.Task // learning task
	Outputs  int       // leaf vector length: 1 (binary, regression) or the number of classes
	Classes  int       // number of classes (1 for regression)
	Features int       // model-space input width
	// Target maps regression outputs back to target units (the model
	// trains on the standardised target).
	Target loss.Standardizer
	// Params are the dense parameters; after pruning they encode the
	// pruned tree (GT-paper writes the pruned tree back), so the kernel and
	// the plain tree predict identically on every input.
	Params tree.Params
	// Ensemble is the trained form (package ensemble, one tree): the tree
	// pruned with the training rows, with their counts (with NoPrune the
	// full tree read from the parameters). Prediction and renderings read
	// it. Nil in a loaded version-1 file trained with NoPrune: it is
	// rebuilt from Params.
	Ensemble *ensemble.Ensemble `json:",omitempty"`
	// Fit facts.
	BestRestart int
	Restarts    []train.RunReport `json:",omitempty"`

	// Progress, if set before Fit, is called after every epoch.
	Progress func(train.Progress) `json:"-"`

	kernel *tree.Kernel
	// mu guards building and preparing the kernel of a fitted or loaded
	// model, so predictions may run concurrently; prepared reports that the
	// kernel's per-node state matches Params.
	mu       sync.Mutex
	prepared bool
	pred     *ensemble.Predictor // compiled Ensemble (guarded by mu)
}

// New returns an unfitted model with configuration c (zero fields take the
// published defaults when Fit sees the task).
func New(c Config) *Model { return &Model{Config: c} }

func (m *Model) kernelConfig(workers int) tree.Config {
	split, _ := tree.ParseSplitFunc(m.Config.Split)
	return tree.Config{Trees: 1, Depth: m.Config.Depth, Features: m.Features, Outputs: m.Outputs, Split: split, Workers: workers}
}

// Fit trains the tree on train, early-stopping on valid (required: GradTree
// selects its weights and restarts by validation loss).
func (m *Model) Fit(ctx context.Context, p model.Problem, trainData, valid *model.Data) error {
	if err := model.CheckSplits("gradtree", trainData, valid); err != nil {
		return err
	}
	c := m.Config.withDefaults(p.Task)
	if err := c.validate(p.Task); err != nil {
		return err
	}
	if _, err := tree.ParseSplitFunc(c.Split); err != nil {
		return fmt.Errorf("gradtree: split: %w", err)
	}
	m.Config, m.Task, m.Features = c, p.Task, trainData.X.Cols
	m.Classes = p.NumClasses
	m.Outputs = 1
	if p.Task == data.Multiclass {
		m.Outputs = p.NumClasses
	}
	yTrain, yValid := trainData.Y, valid.Y
	if p.Task == data.Regression {
		st, err := loss.FitStandardizer(trainData.Y, loss.Standardize)
		if err != nil {
			return fmt.Errorf("gradtree: %w", err)
		}
		m.Target = st
		yTrain, yValid = make([]float64, len(trainData.Y)), make([]float64, len(valid.Y))
		st.TransformInto(yTrain, trainData.Y)
		st.TransformInto(yValid, valid.Y)
	} else {
		for _, d := range []*model.Data{trainData, valid} {
			for i, y := range d.Y {
				if y != math.Trunc(y) || y < 0 || int(y) >= p.NumClasses {
					return fmt.Errorf("gradtree: label %v of row %d outside 0…%d", y, i, p.NumClasses-1)
				}
			}
		}
	}
	lc, err := lossConfig(c, p.Task, p.NumClasses, yTrain)
	if err != nil {
		return err
	}
	if _, err := loss.New(lc); err != nil {
		return fmt.Errorf("gradtree: %w", err)
	}
	newRun := func(restart int, seed uint64) (train.Run, error) {
		obj, err := newObjective(lc, valid.X.Rows, m.Outputs)
		if err != nil {
			return nil, err
		}
		return m.newRun(c, seed, obj, trainData.X, yTrain, valid.X, yValid)
	}
	best, rep, err := train.Fit(ctx, trainData.X.Rows, train.Config{
		BatchSize: c.BatchSize, MaxEpochs: c.MaxEpochs, Patience: c.Patience, Restarts: c.Restarts,
		Seed: uint64(c.Seed), RestoreOnStopOnly: true, Parallel: cmp.Or(c.Parallel, c.Restarts),
	}, newRun, m.Progress)
	if err != nil {
		return err
	}
	r := best.(*run)
	m.kernel = r.k
	m.Params = *r.k.Params()
	m.BestRestart, m.Restarts = rep.Best, rep.Runs
	if err := m.kernel.SetWorkers(0); err != nil {
		return err
	}
	m.Ensemble, m.pred = nil, nil
	if !c.NoPrune {
		if err := m.prune(trainData.X); err != nil {
			return err
		}
	} else {
		m.Ensemble = m.kernel.Ensemble()
	}
	m.prepared = false
	return nil
}

// run is one restart: a kernel with its own parameters and optimiser.
type run struct {
	k     *tree.Kernel
	ws    *tree.Workspace
	grad  *tree.Params
	saved *tree.Params
	opt   *optim.Adam
	obj   *objective

	x      *data.Matrix
	y      []float64
	xb     []float32
	yb     []float64
	out    []float32
	dout   []float32
	vx     *data.Matrix
	vy     []float64
	vout   []float32
	stepNo int
	// prepared reports that the kernel's per-node state matches its
	// parameters (after a step only the nodes the optimiser changed are
	// prepared anew).
	prepared bool
}

func (m *Model) newRun(c Config, seed uint64, obj *objective, x *data.Matrix, y []float64, vx *data.Matrix, vy []float64) (*run, error) {
	// One worker per kernel: restarts run in parallel instead, which keeps
	// the small per-step work on one core without scheduling overhead.
	k, err := tree.New(m.kernelConfig(1))
	if err != nil {
		return nil, err
	}
	scheme := tree.InitGlorot
	if c.Init == "normal" {
		scheme = tree.InitNormal
	}
	if err := k.Init(scheme, seed); err != nil {
		return nil, err
	}
	r := &run{k: k, ws: k.NewWorkspace(), grad: k.NewParams(), saved: k.NewParams(), obj: obj,
		x: x, y: y, vx: vx, vy: vy}
	// Only Backward writes the gradient, so it may clear just the rows it
	// wrote the step before.
	r.ws.ReuseGradient(true)
	p := k.Params()
	var sched optim.Schedule
	if c.CosineDecaySteps > 0 {
		// The same rule as GRANDE's: a value ≤ 1 is a fraction of an epoch
		// of train's batches (BatchSize capped at ⌈N/2⌉).
		first, err := optim.CosineDecaySteps(c.CosineDecaySteps, x.Rows/max(1, min(c.BatchSize, (x.Rows+1)/2)))
		if err != nil {
			return nil, fmt.Errorf("gradtree: %w", err)
		}
		sched = optim.GRANDERestarts(first)
	}
	group := func(name string, lr float64, v, g []float32) optim.Group {
		gr := optim.NewGroup(optim.Keras, name, lr, optim.Param{Name: name, Value: v, Grad: g})
		gr.Schedule = sched
		return gr
	}
	r.opt, err = optim.NewAdam(
		group("index", c.LRIndex, p.IndexLogits, r.grad.IndexLogits),
		group("threshold", c.LRValues, p.Thresholds, r.grad.Thresholds),
		group("leaf", c.LRLeaf, p.Leaves, r.grad.Leaves),
	)
	if err != nil {
		return nil, err
	}
	r.opt.SetWorkers(1)
	bs := min(c.BatchSize, x.Rows)
	r.xb = make([]float32, bs*x.Cols)
	r.yb = make([]float64, bs)
	r.out = make([]float32, bs*k.Outputs())
	r.dout = make([]float32, bs*k.Outputs())
	r.vout = make([]float32, vx.Rows*k.Outputs())
	return r, nil
}

// Step trains on one batch.
func (r *run) Step(batch []int) (float64, error) {
	B, n, C := len(batch), r.x.Cols, r.k.Outputs()
	if B > len(r.yb) {
		return 0, fmt.Errorf("gradtree: batch of %d rows exceeds the buffer of %d", B, len(r.yb))
	}
	for i, row := range batch {
		copy(r.xb[i*n:(i+1)*n], r.x.Row(row))
		r.yb[i] = r.y[row]
	}
	if !r.prepared {
		r.k.Prepare()
		r.prepared = true
	}
	if err := r.k.Forward(r.ws, r.xb[:B*n], B, nil, r.out[:B*C]); err != nil {
		return 0, err
	}
	l, err := r.obj.train.Eval(r.out[:B*C], r.yb[:B], r.dout[:B*C])
	if err != nil {
		return 0, err
	}
	if err := r.k.Backward(r.ws, r.dout[:B*C], r.grad, nil); err != nil {
		return 0, err
	}
	p := r.k.Params()
	// the kernel knows which gradient entries it wrote: Adam need not scan
	if z, t := r.ws.GradientSupport(); z != nil {
		if err := r.opt.HintGrad(p.IndexLogits, z); err != nil {
			return 0, err
		}
		if err := r.opt.HintGrad(p.Thresholds, t); err != nil {
			return 0, err
		}
	}
	r.opt.Step()
	r.k.PrepareChanged(r.opt.Changed(p.IndexLogits), r.opt.Changed(p.Thresholds))
	r.stepNo++
	return l, nil
}

// ValidLoss evaluates the validation rows in inference mode (unweighted).
func (r *run) ValidLoss() (float64, error) {
	if !r.prepared {
		r.k.Prepare()
		r.prepared = true
	}
	if err := r.k.Predict(r.ws, r.vx.Data, r.vx.Rows, r.vout); err != nil {
		return 0, err
	}
	return r.obj.valid.Eval(r.vout, r.vy, r.obj.scratch)
}

func (r *run) Snapshot() { r.saved.CopyFrom(r.k.Params()) }
func (r *run) Restore() {
	r.k.Params().CopyFrom(r.saved)
	r.prepared = false
}

// ensureKernel rebuilds the kernel of a loaded model.
func (m *Model) ensureKernel() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.ensureKernelLocked()
}

// Kernel returns the model's prepared kernel (rebuilt from Params for a
// loaded model). Do not change its parameters.
func (m *Model) Kernel() (*tree.Kernel, error) { return m.preparedKernel() }

// preparedKernel returns the model's kernel, built and prepared once, for
// concurrent prediction.
func (m *Model) preparedKernel() (*tree.Kernel, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.ensureKernelLocked(); err != nil {
		return nil, err
	}
	if !m.prepared {
		m.kernel.Prepare()
		m.prepared = true
	}
	return m.kernel, nil
}

func (m *Model) ensureKernelLocked() error {
	if m.kernel != nil {
		return nil
	}
	if err := m.checkShape(); err != nil {
		return err
	}
	k, err := tree.New(m.kernelConfig(0))
	if err != nil {
		return fmt.Errorf("gradtree: model: %w", err)
	}
	if err := k.Params().CopyFrom(&m.Params); err != nil {
		return fmt.Errorf("gradtree: model parameters do not match its configuration: %w", err)
	}
	m.kernel = k
	m.Params = *k.Params()
	return nil
}

// Raw returns the raw outputs (logits or standardised values) for X,
// computed by the trained form's predictor (ensemble.Predictor).
func (m *Model) Raw(X *data.Matrix) ([]float32, error) {
	if m.Features == 0 {
		return nil, errors.New("gradtree: model is not fitted")
	}
	if X == nil || X.Check() != nil {
		return nil, errors.New("gradtree: malformed input matrix")
	}
	if X.Cols != m.Features {
		return nil, fmt.Errorf("gradtree: input has %d columns, the model %d", X.Cols, m.Features)
	}
	p, err := m.predictor()
	if err != nil {
		return nil, err
	}
	out := make([]float32, X.Rows*m.Outputs)
	return out, p.Predict(X.Data, X.Rows, out, 0)
}

// predictor returns the compiled trained form (built from the parameters
// when a version-1 file trained with NoPrune holds none).
func (m *Model) predictor() (*ensemble.Predictor, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.pred != nil {
		return m.pred, nil
	}
	if m.Ensemble == nil {
		if err := m.ensureKernelLocked(); err != nil {
			return nil, err
		}
		m.Ensemble = m.kernel.Ensemble()
	}
	p, err := m.Ensemble.Compile(m.Features)
	if err != nil {
		return nil, fmt.Errorf("gradtree: model: %w", err)
	}
	if m.Ensemble.Trees() != 1 || m.Ensemble.Outputs != m.Outputs {
		return nil, fmt.Errorf("gradtree: model: trained form of %d trees with %d outputs: expected 1 tree with %d", m.Ensemble.Trees(), m.Ensemble.Outputs, m.Outputs)
	}
	m.pred = p
	return p, nil
}

// PredictProba returns class probabilities (binary: 2 columns) or, for
// regression, the prediction in the target's units.
func (m *Model) PredictProba(X *data.Matrix) (*data.Matrix, error) {
	raw, err := m.Raw(X)
	if err != nil {
		return nil, err
	}
	return m.outputs(raw, X.Rows), nil
}

// outputs turns raw leaf outputs into probabilities or target values.
func (m *Model) outputs(raw []float32, rows int) *data.Matrix {
	return model.Head(m.Task, raw, rows, m.Outputs, m.Target.Inverse)
}

// NumNodes returns the size of the tree (internal + leaf nodes, after pruning).
func (m *Model) NumNodes() int {
	pt, err := m.PlainTree()
	if err != nil {
		return 0
	}
	return pt.NumNodes()
}

// checkShape checks a loaded model's depth, features and outputs against
// the sizes of its stored parameters before the kernel allocates for
// them (a damaged model file can claim any depth or width).
func (m *Model) checkShape() error {
	d, F, C := m.Config.Depth, m.Features, m.Outputs
	if d < 1 || d > 30 || F < 1 || C < 1 || F > len(m.Params.IndexLogits) || C > len(m.Params.Leaves) {
		return fmt.Errorf("gradtree: model: depth %d, %d features, %d outputs: expected depth 1…30 and sizes that fit the stored parameters (%d index logits, %d leaf values)",
			d, F, C, len(m.Params.IndexLogits), len(m.Params.Leaves))
	}
	I, L := 1<<d-1, 1<<d
	if len(m.Params.IndexLogits) != I*F || len(m.Params.Thresholds) != I*F || len(m.Params.Leaves) != L*C {
		return fmt.Errorf("gradtree: model: %d index logits, %d thresholds, %d leaf values: expected %d, %d and %d for depth %d, %d features, %d outputs",
			len(m.Params.IndexLogits), len(m.Params.Thresholds), len(m.Params.Leaves), I*F, I*F, L*C, d, F, C)
	}
	return nil
}
