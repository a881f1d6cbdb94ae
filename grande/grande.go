package grande

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/ensemble"
	"github.com/gdt-ml/gdt/interpret"
	"github.com/gdt-ml/gdt/loss"
	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/optim"
	"github.com/gdt-ml/gdt/train"
	"github.com/gdt-ml/gdt/tree"
)

// Model is a GRANDE ensemble. Its exported fields are its saved form
// (encoding/json; large arrays as base64, see Float32s).
type Model struct {
	Config   Config    // the configuration with defaults filled in
	Task     data.Task // learning task
	Outputs  int       // leaf vector length: 1 (binary, regression) or the number of classes
	Classes  int       // number of classes (1 for regression)
	Features int       // model-space input width n
	// Target maps regression outputs back to target units.
	Target loss.Standardizer
	// SubsetSize is n_e; Subsets holds the features of every tree,
	// [E][n_e] (tree e's column k is feature Subsets[e·n_e + k]).
	SubsetSize int
	Subsets    Int32s
	// Ensemble is the trained form (package ensemble): E complete trees
	// of depth d stored breadth first, with the selected feature and
	// threshold of every node, the leaf values and weight logits (or one
	// weight per tree) and every node's training-row count. Prediction,
	// explanations and renderings need nothing else.
	Ensemble *ensemble.Ensemble
	// Intercept is the constant added to every raw output after training
	// (fitted on the validation rows; see Config.Intercept), already
	// included in the leaf values; nil when none was fitted.
	Intercept Float32s `json:",omitempty"`
	// Dense holds the full dense parameters (only with Config.SaveDense).
	Dense *Dense `json:",omitempty"`
	// MeanWeights is every tree's instance-wise weight a_e(x) averaged
	// over the training rows ([E]); it ranks the trees globally.
	MeanWeights Float32s
	// Usage is the global feature importance per model-space feature,
	// measured on the training rows (see FeatureImportance).
	Usage []FeatureUse `json:",omitempty"`
	// TopTrees are the trees with the largest MeanWeights, pruned with the
	// training rows (spec §7.1), largest first.
	TopTrees []TopTree `json:",omitempty"`
	// Fit facts.
	BestRestart int
	Restarts    []train.RunReport `json:",omitempty"`

	// Progress, if set before Fit, is called after every epoch.
	Progress func(train.Progress) `json:"-"`

	mu     sync.Mutex          // guards kernel and pred
	kernel *tree.Kernel        // prepared kernel (trained, or rebuilt from Ensemble)
	pred   *ensemble.Predictor // compiled Ensemble
}

// Dense is the full dense parameter set of a kernel (tree.Params) in the
// compact encoding.
type Dense struct {
	IndexLogits Float32s // Z [E][I][n_e]
	Thresholds  Float32s // T [E][I][n_e]
	Leaves      Float32s // Λ [E][L][C]
	LeafWeights Float32s // W [E][L] or [E]
}

// FeatureUse is the global importance of one model-space feature.
type FeatureUse struct {
	Feature int     `json:"feature"`
	Splits  int     `json:"splits"` // internal nodes testing it, over all trees
	Usage   float64 `json:"usage"`  // mean-weight-weighted training-row usage (interpret.Importance.Usage)
}

// TopTree is one of the globally most weighted trees.
type TopTree struct {
	Index      int             `json:"index"`
	MeanWeight float64         `json:"mean_weight"`
	Tree       *interpret.Tree `json:"tree"`
}

// New returns an unfitted model with configuration c (zero fields take the
// published defaults when Fit sees the task).
func New(c Config) *Model { return &Model{Config: c} }

// kernelConfig returns the kernel configuration of the model (m.Subsets
// must be set).
func (m *Model) kernelConfig(subsets [][]int) (tree.Config, error) {
	split, err := tree.ParseSplitFunc(m.Config.Split)
	if err != nil {
		return tree.Config{}, fmt.Errorf("grande: split: %w", err)
	}
	mode, err := m.Config.weightMode()
	if err != nil {
		return tree.Config{}, err
	}
	return tree.Config{Trees: m.Config.Trees, Depth: m.Config.Depth, Features: m.Features, Outputs: m.Outputs,
		Subsets: subsets, Split: split, Weights: mode, Workers: m.Config.Workers, Fast: !m.Config.Precise}, nil
}

// Fit trains the ensemble on train, early-stopping on valid (required:
// GRANDE selects its weights by validation loss).
func (m *Model) Fit(ctx context.Context, p model.Problem, trainData, valid *model.Data) (err error) {
	if err := model.CheckSplits("grande", trainData, valid); err != nil {
		return err
	}
	c := m.Config.Defaults(p.Task)
	if err := c.validate(p.Task); err != nil {
		return err
	}
	*m = Model{Config: c, Task: p.Task, Features: trainData.X.Cols, Classes: p.NumClasses, Outputs: 1, Progress: m.Progress}
	defer func() {
		if err != nil { // leave no half-fitted model behind
			m.Features, m.kernel, m.pred, m.Ensemble = 0, nil, nil, nil
		}
	}()
	switch p.Task {
	case data.Binary:
		if p.NumClasses != 2 {
			return fmt.Errorf("grande: binary task with %d classes: expected 2", p.NumClasses)
		}
	case data.Multiclass:
		if p.NumClasses < 2 {
			return fmt.Errorf("grande: multiclass task with %d classes: expected at least 2", p.NumClasses)
		}
		m.Outputs = p.NumClasses
	case data.Regression:
		m.Classes = 1
	default:
		return fmt.Errorf("grande: unsupported task %v", p.Task)
	}
	yTrain, yValid := trainData.Y, valid.Y
	if p.Task == data.Regression {
		st, err := loss.FitStandardizer(trainData.Y, loss.Standardize)
		if err != nil {
			return fmt.Errorf("grande: %w", err)
		}
		m.Target = st
		yTrain, yValid = make([]float64, len(trainData.Y)), make([]float64, len(valid.Y))
		st.TransformInto(yTrain, trainData.Y)
		st.TransformInto(yValid, valid.Y)
	} else {
		for _, d := range []struct {
			name string
			y    []float64
		}{{"training", trainData.Y}, {"validation", valid.Y}} {
			for i, y := range d.y {
				if y != math.Trunc(y) || y < 0 || int(y) >= p.NumClasses {
					return fmt.Errorf("grande: %s label %v of row %d: expected a class index 0…%d", d.name, y, i, p.NumClasses-1)
				}
			}
		}
	}
	lc, err := lossConfig(c, p.Task, m.Outputs, yTrain)
	if err != nil {
		return err
	}
	if _, err := loss.New(lc); err != nil {
		return fmt.Errorf("grande: %w", err)
	}
	n := trainData.X.Rows
	bs := BatchSize(c.BatchSize, n)
	ne := SubsetSize(c.SelectedVariables, m.Features)
	m.SubsetSize = ne
	c.Trees = CoveredTrees(c.Trees, c.FeatureCoverage, m.Features, ne)
	m.Config.Trees = c.Trees
	newRun := func(restart int, seed uint64) (train.Run, error) {
		return m.newRun(c, seed, lc, bs, ne, trainData.X, yTrain, valid.X, yValid)
	}
	best, rep, err := train.Fit(ctx, n, train.Config{
		BatchSize: bs, MaxEpochs: c.MaxEpochs, Patience: c.Patience, EvalEvery: c.EvalEvery, Restarts: c.Restarts,
		Seed: uint64(c.Seed), DropRemainder: true, Parallel: c.Parallel,
	}, newRun, m.Progress)
	if err != nil {
		return fmt.Errorf("grande: %w", err)
	}
	r := best.(*run)
	m.BestRestart, m.Restarts = rep.Best, rep.Runs
	m.kernel = r.k
	if err := m.kernel.SetWorkers(c.Workers); err != nil {
		return err
	}
	m.kernel.Prepare()
	if c.Intercept == "validation" || (c.Intercept == "auto" && SmallData(n)) {
		if err := m.fitIntercept(valid.X, yValid, c.ClassWeights == "balanced"); err != nil {
			return err
		}
	}
	m.Subsets = make(Int32s, 0, c.Trees*ne)
	for e := 0; e < c.Trees; e++ {
		for k := 0; k < ne; k++ {
			m.Subsets = append(m.Subsets, int32(m.kernel.Feature(e, k)))
		}
	}
	if c.SaveDense {
		p := m.kernel.Params()
		m.Dense = &Dense{IndexLogits: p.IndexLogits, Thresholds: p.Thresholds, Leaves: p.Leaves, LeafWeights: p.LeafWeights}
	}
	return m.summarise(trainData.X)
}

// lossConfig returns the training loss (spec §4, §11): focal loss with γ
// (binary: Keras BinaryFocalCrossentropy with α = 0.5 class balancing, the
// GR-paper default; multiclass: the focal loss on the softmax of the
// logits) or cross-entropy, with balanced class weights per sample; MSE on
// the standardised target for regression.
func lossConfig(c Config, task data.Task, outputs int, y []float64) (loss.Config, error) {
	var lc loss.Config
	switch task {
	case data.Regression:
		return loss.Config{Task: loss.Regression, Kind: loss.MSE}, nil
	case data.Binary:
		lc = loss.Config{Task: loss.Binary, Kind: loss.CrossEntropy}
		if c.Loss == "focal" {
			lc = loss.GRANDEPaperBinary(nil)
			lc.Gamma = c.FocalGamma
		}
	case data.Multiclass:
		lc = loss.Config{Task: loss.Multiclass, Classes: outputs, Kind: loss.CrossEntropy}
		if c.Loss == "focal" {
			lc.Kind, lc.Gamma = loss.Focal, c.FocalGamma
		}
	}
	if c.ClassWeights == "balanced" {
		w, err := loss.BalancedWeights(y, max(outputs, 2))
		if err != nil {
			return lc, fmt.Errorf("grande: class_weights=balanced: %w", err)
		}
		lc.ClassWeights, lc.Weighting = w, loss.PerSample
	}
	return lc, nil
}

// run is one restart: a kernel with its own parameters, optimiser and
// random streams.
type run struct {
	k     *tree.Kernel
	ws    *tree.Workspace
	grad  *tree.Params
	saved *tree.Params
	opt   *optim.Adam
	train *loss.Func
	valid *loss.Func

	dropout float64
	seed    uint64
	rows    *rowSubsets // nil: every tree sees every row

	x    *data.Matrix
	y    []float64
	xb   []float32
	yb   []float64
	out  []float32
	dout []float32
	keep []bool
	vx   *data.Matrix
	vy   []float64
	vout []float32
	step uint64

	// fused: the optimiser updates the index logits and thresholds of a
	// tree inside Backward, right after their gradients (nodeStep);
	// prepared: the kernel's selection matches the parameters
	fused    bool
	prepared bool
}

// nodeStep is the Adam update of node rows fused into the kernel's
// backward pass (tree.NodeUpdater).
type nodeStep struct {
	z, t optim.Ranged
	ne   int
}

// UpdateNodes updates the index logits and thresholds of node rows
// [lo, hi) from their gradients. (Updating only the threshold columns that
// ever had a gradient is exact too, but no faster: the scattered entries
// touch about as many cache lines as the rows.)
func (u *nodeStep) UpdateNodes(lo, hi int, gz, gt []float32, _ []int32) {
	u.z.UpdateFrom(lo*u.ne, hi*u.ne, gz)
	u.t.UpdateFrom(lo*u.ne, hi*u.ne, gt)
}

func (m *Model) newRun(c Config, seed uint64, lc loss.Config, bs, ne int, x *data.Matrix, y []float64, vx *data.Matrix, vy []float64) (*run, error) {
	subsets := FeatureSubsets(c.Trees, m.Features, ne, seed)
	kc, err := m.kernelConfig(subsets)
	if err != nil {
		return nil, err
	}
	k, err := tree.New(kc)
	if err != nil {
		return nil, fmt.Errorf("grande: %w", err)
	}
	if err := k.Init(tree.InitNormal, seed); err != nil {
		return nil, err
	}
	r := &run{k: k, ws: k.NewWorkspace(), grad: k.NewParams(), saved: k.NewParams(),
		dropout: c.Dropout, seed: seed, x: x, y: y, vx: vx, vy: vy}
	// only Backward writes r.grad (Adam reads it): Backward may clear just
	// the entries of its previous call
	r.ws.ReuseGradient(true)
	if r.train, err = loss.New(lc); err != nil {
		return nil, fmt.Errorf("grande: %w", err)
	}
	r.valid = r.train.Unweighted()
	if c.DataSubsetFraction < 1 || c.Bootstrap {
		r.rows = newRowSubsets(c.Trees, x.Rows, c.DataSubsetFraction, c.Bootstrap, seed)
	}
	var sched optim.Schedule
	if c.CosineDecaySteps > 0 {
		first, err := optim.CosineDecaySteps(c.CosineDecaySteps, x.Rows/bs)
		if err != nil {
			return nil, fmt.Errorf("grande: %w", err)
		}
		sched = optim.GRANDERestarts(first)
	}
	p := k.Params()
	group := func(name string, lr float64, v, g []float32) optim.Group {
		gr := optim.NewGroup(optim.Keras, name, lr, optim.Param{Name: name, Value: v, Grad: g})
		gr.Schedule = sched
		return gr
	}
	r.opt, err = optim.NewAdam(
		group("index", c.LRIndex, p.IndexLogits, r.grad.IndexLogits),
		group("threshold", c.LRValues, p.Thresholds, r.grad.Thresholds),
		group("leaf", c.LRLeaf, p.Leaves, r.grad.Leaves),
		group("weight", c.LRWeights, p.LeafWeights, r.grad.LeafWeights),
	)
	if err != nil {
		return nil, fmt.Errorf("grande: %w", err)
	}
	r.opt.SetWorkers(c.Workers)
	zr, err := r.opt.Ranged(p.IndexLogits)
	if err != nil {
		return nil, fmt.Errorf("grande: %w", err)
	}
	tr, err := r.opt.Ranged(p.Thresholds)
	if err != nil {
		return nil, fmt.Errorf("grande: %w", err)
	}
	r.ws.SetNodeUpdater(&nodeStep{z: zr, t: tr, ne: k.SubsetSize()})
	r.fused = true
	C := k.Outputs()
	r.xb = make([]float32, bs*x.Cols)
	r.yb = make([]float64, bs)
	r.out = make([]float32, bs*C)
	r.dout = make([]float32, bs*C)
	if r.dropout > 0 || r.rows != nil {
		r.keep = make([]bool, bs*c.Trees)
	}
	r.vout = make([]float32, vx.Rows*C)
	return r, nil
}

// Step trains on one batch: forward with the dropout and data-subset keep
// mask, loss, sparse backward, one Adam step per tensor.
func (r *run) Step(batch []int) (float64, error) {
	B, n, C, E := len(batch), r.x.Cols, r.k.Outputs(), r.k.Trees()
	if B > len(r.yb) {
		return 0, fmt.Errorf("grande: batch of %d rows exceeds the buffer of %d", B, len(r.yb))
	}
	for i, row := range batch {
		copy(r.xb[i*n:(i+1)*n], r.x.Row(row))
		r.yb[i] = r.y[row]
	}
	var keep []bool
	if r.keep != nil {
		keep = r.keep[:B*E]
		if r.dropout > 0 {
			if err := tree.DropoutMask(keep, r.dropout, uint64(seed32(r.seed, tagDropout))<<32|r.step); err != nil {
				return 0, err
			}
		} else {
			for i := range keep {
				keep[i] = true
			}
		}
		if r.rows != nil {
			r.rows.apply(keep, batch, E)
		}
	}
	r.step++
	if !r.prepared || !r.fused {
		r.k.Prepare()
		r.prepared = true
	}
	if err := r.k.Forward(r.ws, r.xb[:B*n], B, keep, r.out[:B*C]); err != nil {
		return 0, err
	}
	l, err := r.train.Eval(r.out[:B*C], r.yb[:B], r.dout[:B*C])
	if err != nil {
		return 0, err
	}
	if !r.fused {
		r.ws.SetNodeUpdater(nil)
		if err := r.k.Backward(r.ws, r.dout[:B*C], r.grad, nil); err != nil {
			return 0, err
		}
		r.opt.Step()
		return l, nil
	}
	// Adam in pieces: the node rows of every tree inside Backward (which
	// also selects their columns anew), then the leaves and weights
	r.opt.BeginStep()
	if err := r.k.Backward(r.ws, r.dout[:B*C], r.grad, nil); err != nil {
		r.prepared = false
		return 0, err
	}
	p := r.k.Params()
	r.opt.EndStep(p.IndexLogits, p.Thresholds)
	r.k.PrepareWeights()
	return l, nil
}

// ValidLoss evaluates the validation rows in inference mode (all trees,
// no dropout; unweighted loss, as the reference's early stopping).
func (r *run) ValidLoss() (float64, error) {
	r.k.Prepare()
	if err := r.k.Predict(r.ws, r.vx.Data, r.vx.Rows, r.vout); err != nil {
		return 0, err
	}
	return r.valid.Eval(r.vout, r.vy, nil)
}

// Snapshot remembers the current parameters.
func (r *run) Snapshot() { _ = r.saved.CopyFrom(r.k.Params()) }

// Restore puts the remembered parameters back.
func (r *run) Restore() {
	_ = r.k.Params().CopyFrom(r.saved)
	r.prepared = false
}

// subsetRows returns Subsets as [E][n_e] ints.
func (m *Model) subsetRows() ([][]int, error) {
	E, ne := m.Config.Trees, m.SubsetSize
	if ne < 1 || len(m.Subsets) != E*ne {
		return nil, fmt.Errorf("grande: model has %d subset entries: expected %d trees × %d features", len(m.Subsets), E, ne)
	}
	out := make([][]int, E)
	for e := range out {
		out[e] = make([]int, ne)
		for k := range out[e] {
			out[e][k] = int(m.Subsets[e*ne+k])
		}
	}
	return out, nil
}

// check validates a fitted (or loaded) model: the trained form (complete
// trees of the configured depth, the configured weighting), the feature
// subsets, and that every node tests a feature of its tree's subset. It
// returns the subsets as rows.
func (m *Model) check() ([][]int, error) {
	if m.Features < 1 || m.Ensemble == nil {
		return nil, errors.New("grande: model is not fitted")
	}
	if m.Outputs < 1 {
		return nil, fmt.Errorf("grande: model: %d outputs: expected at least 1", m.Outputs)
	}
	f := m.Ensemble
	if err := f.Validate(m.Features); err != nil {
		return nil, fmt.Errorf("grande: model: %w", err)
	}
	subsets, err := m.subsetRows()
	if err != nil {
		return nil, err
	}
	c := m.Config
	if f.Trees() != c.Trees || f.CompleteDepth() != c.Depth || f.Outputs != m.Outputs {
		return nil, fmt.Errorf("grande: model: trained form of %d trees, complete depth %d, %d outputs does not match the configuration (%d, %d, %d)",
			f.Trees(), f.CompleteDepth(), f.Outputs, c.Trees, c.Depth, m.Outputs)
	}
	mode, err := c.weightMode()
	if err != nil {
		return nil, err
	}
	if want := map[bool]ensemble.Weighting{true: ensemble.TreeWeights, false: ensemble.LeafWeights}[mode != tree.LeafWeights]; f.Weighting != want {
		return nil, fmt.Errorf("grande: model: weighting %q does not match estimator_weights %q", f.Weighting, c.Weights)
	}
	ni := 1<<c.Depth - 1
	in := make(map[int32]bool, m.SubsetSize)
	for e, row := range subsets {
		clear(in)
		for _, f := range row {
			if f < 0 || f >= m.Features {
				return nil, fmt.Errorf("grande: model: tree %d's feature subset holds %d: expected 0…%d", e, f, m.Features-1)
			}
			in[int32(f)] = true
		}
		r := int(f.Roots[e])
		for i := 0; i < ni; i++ {
			if ft := f.Feature[r+i]; !in[ft] {
				return nil, fmt.Errorf("grande: model: tree %d node %d tests feature %d, which is not in the tree's feature subset", e, i, ft)
			}
		}
	}
	return subsets, nil
}

// ensureKernel rebuilds the kernel of a loaded model: from Dense when
// saved, else from Ensemble (each node's index logits one-hot at the
// column of its feature, its threshold in that column). Either way the
// kernel routes, weighs and predicts exactly as the trained one.
func (m *Model) ensureKernel() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.kernel != nil {
		return nil
	}
	subsets, err := m.check()
	if err != nil {
		return err
	}
	kc, err := m.kernelConfig(subsets)
	if err != nil {
		return err
	}
	k, err := tree.New(kc)
	if err != nil {
		return fmt.Errorf("grande: model: %w", err)
	}
	p := k.Params()
	if m.Dense != nil {
		d := &tree.Params{IndexLogits: m.Dense.IndexLogits, Thresholds: m.Dense.Thresholds, Leaves: m.Dense.Leaves, LeafWeights: m.Dense.LeafWeights}
		if err := p.CopyFrom(d); err != nil {
			return fmt.Errorf("grande: model: dense parameters: %w", err)
		}
	} else {
		f := m.Ensemble
		ni, nl, ne, C := k.Nodes(), k.Leaves(), k.SubsetSize(), m.Outputs
		col := make(map[int32]int, ne)
		for e := 0; e < kc.Trees; e++ {
			clear(col)
			for c := 0; c < ne; c++ {
				col[int32(subsets[e][c])] = c
			}
			r := int(f.Roots[e])
			for i := 0; i < ni; i++ {
				c := col[f.Feature[r+i]]
				p.IndexLogits[(e*ni+i)*ne+c] = 1
				p.Thresholds[(e*ni+i)*ne+c] = f.Threshold[r+i]
			}
			copy(p.Leaves[e*nl*C:(e+1)*nl*C], f.Value[(r+ni)*C:(r+ni+nl)*C])
			if f.Weighting == ensemble.LeafWeights {
				copy(p.LeafWeights[e*nl:(e+1)*nl], f.LeafWeight[r+ni:r+ni+nl])
			}
		}
		if f.Weighting == ensemble.TreeWeights {
			copy(p.LeafWeights, f.TreeWeight)
		}
	}
	k.Prepare()
	m.kernel = k
	return nil
}

// predictor returns the compiled trained form.
func (m *Model) predictor() (*ensemble.Predictor, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.pred != nil {
		return m.pred, nil
	}
	if _, err := m.check(); err != nil {
		return nil, err
	}
	p, err := m.Ensemble.Compile(m.Features)
	if err != nil {
		return nil, fmt.Errorf("grande: model: %w", err)
	}
	m.pred = p
	return p, nil
}

// Kernel returns the model's prepared kernel (rebuilt for a loaded model).
// Do not change its parameters.
func (m *Model) Kernel() (*tree.Kernel, error) {
	if err := m.ensureKernel(); err != nil {
		return nil, err
	}
	return m.kernel, nil
}

func (m *Model) checkInput(X *data.Matrix) error {
	if m.Features == 0 {
		return errors.New("grande: model is not fitted")
	}
	if X == nil || X.Check() != nil {
		return errors.New("grande: malformed input matrix")
	}
	if X.Cols != m.Features {
		return fmt.Errorf("grande: input has %d columns: expected %d (the model's features)", X.Cols, m.Features)
	}
	return nil
}

// Raw returns the raw outputs ([rows][C]: logits or standardised values)
// computed by the trained form's predictor (ensemble.Predictor), in
// parallel over blocks of rows with Config.Workers goroutines.
func (m *Model) Raw(X *data.Matrix) ([]float32, error) {
	if err := m.checkInput(X); err != nil {
		return nil, err
	}
	p, err := m.predictor()
	if err != nil {
		return nil, err
	}
	out := make([]float32, X.Rows*m.Outputs)
	return out, p.Predict(X.Data, X.Rows, out, m.Config.Workers)
}

// PredictProba returns class probabilities (binary: 2 columns [1 − p, p]
// with p = σ(y)), or for regression the prediction in target units.
func (m *Model) PredictProba(X *data.Matrix) (*data.Matrix, error) {
	raw, err := m.Raw(X)
	if err != nil {
		return nil, err
	}
	return m.outputs(raw, X.Rows), nil
}

// outputs maps raw outputs through the task's head.
func (m *Model) outputs(raw []float32, rows int) *data.Matrix {
	return model.Head(m.Task, raw, rows, m.Outputs, m.Target.Inverse)
}

// NumNodes returns the size of the ensemble: E·(2^(d+1) − 1) nodes of the
// full trees (internal + leaves).
func (m *Model) NumNodes() int {
	if m.Features == 0 {
		return 0
	}
	return m.Config.Trees * (1<<(m.Config.Depth+1) - 1)
}
