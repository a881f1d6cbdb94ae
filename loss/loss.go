// Package loss holds the training losses of gdt and their gradients with
// respect to the raw model outputs (logits): binary cross-entropy on one
// logit, softmax cross-entropy, focal loss (the Keras binary form and the
// focal_loss package's multiclass form), PolyLoss, class weights with the
// reductions of the reference code, label smoothing, and the mean squared
// error on a standardised regression target (Standardizer). Of the project
// it imports only package data (whose Task it shares). The formulas follow
// spec/gradtree-grande.md §4 and §11.
//
// # Layout and reduction
//
// Outputs are row-major [B][K] float32 with K = 1 for binary (one logit y,
// p = σ(y)) and regression, K = C for multiclass (q = softmax(y)). Targets
// are float64 (as data.Dataset.Y): the class index 0…C−1 (0/1 for binary)
// or the already standardised regression target. Eval returns the batch
// loss and writes dL/dy for every output, where L is the returned batch
// loss, i.e. the per-sample gradients already carry the 1/B of the mean and
// the class weights. Per-sample values are computed in float64 from the
// float32 outputs; the gradients are rounded to float32 once.
//
// The batch loss is a mean over the batch (Keras SUM_OVER_BATCH_SIZE, torch
// mean). With class weights w_b = cw[t_b] the Weighting selects:
//
//	PerSample     L = (1/B) Σ w_b ℓ_b          Keras fit(class_weight=…), GR-paper [published]
//	BatchScale    L = mean_b(ℓ_b)·mean_b(w_b)  GT-pkg / GR-tf quirk (§4.1)
//	WeightedMean  L = Σ w_b ℓ_b / Σ w_b        torch cross_entropy(weight=…)
//
// # Per-sample losses (spec §4)
//
//	binary CE        ℓ = max(y,0) − y·t + log(1 + e^−|y|)
//	binary focal     ℓ = w_α·(1 − p_t)^γ·BCE,  p_t = t·p + (1−t)(1−p),
//	                 w_α = t·α + (1−t)(1−α) with AlphaBalancing, else 1
//	                 (keras BinaryFocalCrossentropy; the gradient also flows
//	                 through the focal factor)
//	multiclass CE    ℓ = logsumexp(y) − Σ_c τ_c y_c
//	multiclass focal ℓ = −(1 − q_t)^γ·log q_t                 (from logits)
//	                 ℓ = −(1 − q_t)^γ·log(q̃_t), q̃ = clip(q, 1e−7, 1 − 1e−7)/Σ clip
//	                 with ProbabilityInput: focal_loss.SparseCategoricalFocalLoss
//	                 applied to softmax(y), as the GT-paper multiclass default
//	PolyLoss         ℓ += ε·(1 − p_t)   (p_t from the model probability; the
//	                 GT-paper code's p_t from already-activated outputs is a
//	                 bug, spec §14 #22, not reproduced)
//	MSE              ℓ = (y − t)²
//
// Label smoothing replaces the target by (1 − ε)·onehot + ε/K over the K
// classes (K = 2 for binary: t ← t(1 − ε) + ε/2; Keras and torch agree).
// Binary focal uses the smoothed t everywhere, as Keras does; multiclass
// focal is defined for hard labels only.
package loss

import (
	"errors"
	"fmt"
	"math"

	"github.com/gdt-ml/gdt/data"
)

// Task is the kind of target: data.Task, so that a dataset's task is a
// loss configuration's task without conversion.
type Task = data.Task

// The tasks (data's constants).
const (
	// Binary: one logit per sample, labels 0 and 1.
	Binary = data.Binary
	// Multiclass: C logits per sample, labels 0…C−1.
	Multiclass = data.Multiclass
	// Regression: one output per sample, real targets.
	Regression = data.Regression
)

// Kind is the loss function.
type Kind uint8

const (
	// CrossEntropy is binary or softmax cross-entropy from logits.
	CrossEntropy Kind = iota
	// Focal is the focal loss (see the package documentation).
	Focal
	// MSE is the mean squared error (regression).
	MSE
)

// String returns the kind's name.
func (k Kind) String() string {
	switch k {
	case CrossEntropy:
		return "crossentropy"
	case Focal:
		return "focal"
	case MSE:
		return "mse"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Weighting is how class weights enter the batch loss.
type Weighting uint8

const (
	// PerSample: L = (1/B) Σ w_b ℓ_b (Keras class_weight; canonical).
	PerSample Weighting = iota
	// BatchScale: L = mean(ℓ)·mean(w) (GT-pkg / GR-tf quirk).
	BatchScale
	// WeightedMean: L = Σ w ℓ / Σ w (torch cross_entropy with weight).
	WeightedMean
)

// ProbClip is the clipping bound of focal_loss's probability input
// (tf.keras.backend.epsilon()).
const ProbClip = 1e-7

// Config selects a loss.
type Config struct {
	Task Task
	// Classes is the number of classes C ≥ 2 of a multiclass task (the
	// number of logits per sample); ignored otherwise.
	Classes int
	Kind    Kind
	// Gamma is the focal focusing parameter γ ≥ 0 (Focal only).
	Gamma float64
	// Alpha ∈ [0, 1] is the binary focal α, used when AlphaBalancing is set
	// (Keras apply_class_balancing): w_α = t·α + (1−t)(1−α).
	Alpha          float64
	AlphaBalancing bool
	// ProbabilityInput applies multiclass focal loss to softmax(y) with
	// focal_loss's clipping (GT-paper); false uses the logits directly.
	ProbabilityInput bool
	// Poly is the PolyLoss ε (0: off; classification only).
	Poly float64
	// LabelSmoothing ε ∈ [0, 1) (classification only).
	LabelSmoothing float64
	// ClassWeights, if not nil, holds one weight ≥ 0 per class (2 for
	// binary), e.g. BalancedWeights of the training labels.
	ClassWeights []float64
	// Weighting is how ClassWeights enter the batch loss.
	Weighting Weighting
}

// GRANDEPaperBinary is the published GRANDE default loss (GR-paper, spec
// §4): Keras BinaryFocalCrossentropy(γ = 2, α = 0.5, apply_class_balancing,
// from_logits), i.e. a constant factor 0.5, with balanced class weights per
// sample (nil: none). Its early-stopping validation loss is the unweighted
// one (Func.Unweighted).
func GRANDEPaperBinary(classWeights []float64) Config {
	return Config{Task: Binary, Kind: Focal, Gamma: 2, Alpha: 0.5, AlphaBalancing: true,
		ClassWeights: classWeights, Weighting: PerSample}
}

// GradTreePaperMulticlass is the GT-paper multiclass default (spec §4):
// SparseCategoricalFocalLoss(γ = 3) on the softmax probabilities.
func GradTreePaperMulticlass(classes int) Config {
	return Config{Task: Multiclass, Classes: classes, Kind: Focal, Gamma: 3, ProbabilityInput: true}
}

// Func evaluates one configured loss. It keeps a small scratch buffer and is
// not safe for concurrent use; Eval does not allocate.
type Func struct {
	cfg Config
	k   int
	// scratch: y (k), dℓ/dy (k), q (k), τ (k) in float64.
	y, d, q, tau []float64
}

// New validates cfg and returns the loss.
func New(cfg Config) (*Func, error) {
	bad := func(format string, a ...any) (*Func, error) {
		return nil, fmt.Errorf("loss: "+format, a...)
	}
	k := 1
	switch cfg.Task {
	case Binary:
	case Multiclass:
		if cfg.Classes < 2 {
			return bad("multiclass: Classes = %d, want ≥ 2", cfg.Classes)
		}
		k = cfg.Classes
	case Regression:
		if cfg.Kind != MSE {
			return bad("regression: Kind = %v, want mse", cfg.Kind)
		}
		if cfg.ClassWeights != nil || cfg.LabelSmoothing != 0 || cfg.Poly != 0 {
			return bad("regression: class weights, label smoothing and PolyLoss do not apply")
		}
	default:
		return bad("unknown Task %d", cfg.Task)
	}
	switch cfg.Kind {
	case CrossEntropy:
	case Focal:
		if !(cfg.Gamma >= 0) || math.IsInf(cfg.Gamma, 0) {
			return bad("focal: Gamma = %v, want a finite value ≥ 0", cfg.Gamma)
		}
		if cfg.AlphaBalancing && !(cfg.Alpha >= 0 && cfg.Alpha <= 1) {
			return bad("focal: Alpha = %v, want 0 ≤ α ≤ 1", cfg.Alpha)
		}
		if cfg.Task == Multiclass && cfg.LabelSmoothing != 0 {
			return bad("multiclass focal loss is defined for hard labels only: LabelSmoothing = %v, want 0", cfg.LabelSmoothing)
		}
	case MSE:
		if cfg.Task != Regression {
			return bad("%v task: Kind mse, want crossentropy or focal", cfg.Task)
		}
	default:
		return bad("unknown Kind %d", cfg.Kind)
	}
	if cfg.Kind != Focal && (cfg.AlphaBalancing || cfg.ProbabilityInput) {
		return bad("AlphaBalancing and ProbabilityInput apply to the focal loss only (Kind = %v)", cfg.Kind)
	}
	if cfg.ProbabilityInput && cfg.Task != Multiclass {
		return bad("ProbabilityInput applies to multiclass focal loss only (binary focal on σ(y) equals focal on logits)")
	}
	if math.IsNaN(cfg.Poly) || math.IsInf(cfg.Poly, 0) {
		return bad("Poly = %v, want a finite number", cfg.Poly)
	}
	if !(cfg.LabelSmoothing >= 0 && cfg.LabelSmoothing < 1) {
		return bad("LabelSmoothing = %v, want 0 ≤ ε < 1", cfg.LabelSmoothing)
	}
	if cfg.Weighting > WeightedMean {
		return bad("unknown Weighting %d", cfg.Weighting)
	}
	if cfg.ClassWeights != nil {
		nc := max(k, 2)
		if len(cfg.ClassWeights) != nc {
			return bad("len(ClassWeights) = %d, want %d (one per class)", len(cfg.ClassWeights), nc)
		}
		for c, w := range cfg.ClassWeights {
			if !(w >= 0) || math.IsInf(w, 0) {
				return bad("ClassWeights[%d] = %v, want a finite value ≥ 0", c, w)
			}
		}
		cfg.ClassWeights = append([]float64(nil), cfg.ClassWeights...)
	}
	f := &Func{cfg: cfg, k: k}
	buf := make([]float64, 4*k)
	f.y, f.d, f.q, f.tau = buf[:k], buf[k:2*k], buf[2*k:3*k], buf[3*k:]
	return f, nil
}

// Config returns the configuration.
func (f *Func) Config() Config {
	c := f.cfg
	c.ClassWeights = append([]float64(nil), c.ClassWeights...)
	return c
}

// Outputs returns the number of outputs per sample K.
func (f *Func) Outputs() int { return f.k }

// Unweighted returns the same loss without class weights (the validation
// loss of the reference code).
func (f *Func) Unweighted() *Func {
	c := f.cfg
	c.ClassWeights = nil
	g, _ := New(c)
	return g
}

var errEmpty = errors.New("loss: empty batch")

// Eval computes the batch loss of outputs out ([B][K]) against targets y
// ([B]) and, if grad is not nil, writes dL/d(out) into grad (same layout,
// overwritten). It returns an error for mismatched lengths and for targets
// that are not valid labels (or not finite, for regression).
func (f *Func) Eval(out []float32, y []float64, grad []float32) (float64, error) {
	b := len(y)
	if b == 0 {
		return 0, errEmpty
	}
	if len(out) != b*f.k {
		return 0, fmt.Errorf("loss: len(out) = %d, want %d (%d samples × %d outputs)", len(out), b*f.k, b, f.k)
	}
	if grad != nil && len(grad) != len(out) {
		return 0, fmt.Errorf("loss: len(grad) = %d, want %d", len(grad), len(out))
	}
	cw := f.cfg.ClassWeights
	if cw == nil && f.cfg.Task == Binary && f.cfg.Kind == CrossEntropy && f.cfg.Poly == 0 && f.cfg.LabelSmoothing == 0 {
		// plain binary cross-entropy: the labels checked in one tight loop
		for i, t := range y {
			// t·(t − 1) is 0 exactly for t = 0 and t = 1 (NaN and ±Inf
			// give NaN or Inf); one well-predicted branch per label
			if t*(t-1) != 0 {
				_, err := f.label(i, t)
				return 0, err
			}
		}
		return f.evalBCE(out, y, grad, 1/float64(b)), nil
	}
	// Pass 1: validate the targets and sum the weights.
	var wsum float64
	for i, t := range y {
		c, err := f.label(i, t)
		if err != nil {
			return 0, err
		}
		if cw != nil {
			wsum += cw[c]
		} else {
			wsum++
		}
	}
	// Scale s_b of sample b in L = Σ_b s_b ℓ_b.
	var scale float64
	switch {
	case cw == nil:
		scale = 1 / float64(b)
	case f.cfg.Weighting == PerSample:
		scale = 1 / float64(b)
	case f.cfg.Weighting == BatchScale:
		scale = wsum / float64(b) / float64(b)
	default:
		if wsum == 0 {
			return 0, errors.New("loss: weighted mean over a batch whose class weights sum to 0")
		}
		scale = 1 / wsum
	}
	perSampleWeight := cw != nil && f.cfg.Weighting != BatchScale
	if f.cfg.Task == Binary && f.cfg.Kind == CrossEntropy && f.cfg.Poly == 0 && f.cfg.LabelSmoothing == 0 && !perSampleWeight {
		return f.evalBCE(out, y, grad, scale), nil
	}
	var total float64
	k := f.k
	for i, t := range y {
		row := out[i*k : i*k+k]
		for j, v := range row {
			f.y[j] = float64(v)
		}
		l := f.sample(t)
		s := scale
		if perSampleWeight {
			c, _ := f.label(i, t)
			s *= cw[c]
		}
		total += s * l
		if grad != nil {
			g := grad[i*k : i*k+k]
			for j := range g {
				g[j] = float32(s * f.d[j])
			}
		}
	}
	return total, nil
}

// evalBCE is Eval's loop for plain binary cross-entropy with one scale for
// every sample (validated targets): the operations of binary, without
// the focal and Poly terms.
func (f *Func) evalBCE(out []float32, y []float64, grad []float32, scale float64) float64 {
	var total float64
	out = out[:len(y)]
	if grad != nil {
		grad = grad[:len(y)]
	}
	// A batch's outputs often repeat (a hard tree outputs one value per
	// leaf): p and log1p(e) are remembered per distinct float32 output in a
	// small direct-mapped table, so the exponential and the logarithm run
	// once per distinct value, with the same bits as computing them anew.
	var memo bceMemo
	for i, t := range y {
		bits := math.Float32bits(out[i])
		v := float64(out[i])
		slot := (bits * 0x9e3779b1) >> (32 - bceMemoBits)
		var p, lg float64
		if memo.key[slot] == uint64(bits)|1<<32 {
			p, lg = memo.p[slot], memo.lg[slot]
		} else {
			e := math.Exp(-math.Abs(v))
			p = 1 / (1 + e)
			if v < 0 {
				p = e / (1 + e)
			}
			lg = math.Log1p(e)
			memo.key[slot], memo.p[slot], memo.lg[slot] = uint64(bits)|1<<32, p, lg
		}
		l := math.Max(v, 0) - v*t + lg
		total += scale * l
		if grad != nil {
			grad[i] = float32(scale * (p - t))
		}
	}
	return total
}

// bceMemoBits is log2 of the number of slots of bceMemo.
const bceMemoBits = 7

// bceMemo remembers σ(v) and log1p(exp(−|v|)) of recent outputs v, keyed by
// their float32 bits with bit 32 set (0 marks an empty slot).
type bceMemo struct {
	key   [1 << bceMemoBits]uint64
	p, lg [1 << bceMemoBits]float64
}

// label checks target t of sample i and returns its class (0 for
// regression).
func (f *Func) label(i int, t float64) (int, error) {
	switch f.cfg.Task {
	case Regression:
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return 0, fmt.Errorf("loss: sample %d: target %v, want a finite number", i, t)
		}
		return 0, nil
	case Binary:
		if t != 0 && t != 1 {
			return 0, fmt.Errorf("loss: sample %d: binary label %v, want 0 or 1", i, t)
		}
		return int(t), nil
	}
	if !(t >= 0 && t < float64(f.k)) || t != math.Trunc(t) {
		return 0, fmt.Errorf("loss: sample %d: label %v, want an integer in [0, %d)", i, t, f.k)
	}
	return int(t), nil
}

// sample computes ℓ and dℓ/dy (into f.d) for the outputs in f.y and the
// validated target t, in float64.
func (f *Func) sample(t float64) float64 {
	switch f.cfg.Task {
	case Regression:
		r := f.y[0] - t
		f.d[0] = 2 * r
		return r * r
	case Binary:
		ts := t
		if e := f.cfg.LabelSmoothing; e != 0 {
			ts = t*(1-e) + e/2
		}
		l, d := f.binary(f.y[0], ts)
		f.d[0] = d
		return l
	}
	return f.multiclass(int(t))
}

// sigmoid returns σ(x) without overflow.
func sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

// binary returns ℓ and dℓ/dy for logit y and (possibly smoothed) target t.
func (f *Func) binary(y, t float64) (float64, float64) {
	// p and 1 − p, both accurate, from one exponential (the same bits as
	// sigmoid(y) and sigmoid(−y)).
	e := math.Exp(-math.Abs(y))
	p, pc := 1/(1+e), e/(1+e)
	if y < 0 {
		p, pc = pc, p
	}
	bce := math.Max(y, 0) - y*t + math.Log1p(e)
	dbce := p - t
	// 1 − p_t and dp_t/dy, without cancellation.
	omp := t*pc + (1-t)*p
	dpt := (2*t - 1) * p * pc
	l, d := bce, dbce
	if f.cfg.Kind == Focal {
		g := f.cfg.Gamma
		fac := math.Pow(omp, g)
		var dfac float64
		if g != 0 && omp > 0 {
			dfac = -g * math.Pow(omp, g-1) * dpt
		}
		wa := 1.0
		if f.cfg.AlphaBalancing {
			wa = t*f.cfg.Alpha + (1-t)*(1-f.cfg.Alpha)
		}
		l = wa * fac * bce
		d = wa * (dfac*bce + fac*dbce)
	}
	if e := f.cfg.Poly; e != 0 {
		l += e * omp
		d -= e * dpt
	}
	return l, d
}

// multiclass computes ℓ and dℓ/dy (into f.d) for the logits in f.y and
// class c.
func (f *Func) multiclass(c int) float64 {
	y, d, q, tau := f.y, f.d, f.q, f.tau
	mx := math.Inf(-1)
	for _, v := range y {
		mx = math.Max(mx, v)
	}
	var s float64
	for j, v := range y {
		q[j] = math.Exp(v - mx)
		s += q[j]
	}
	for j := range q {
		q[j] /= s
	}
	lse := mx + math.Log(s)
	// 1 − q_c as the sum of the other probabilities (no cancellation).
	var omq float64
	for j, v := range q {
		if j != c {
			omq += v
		}
	}
	eps := f.cfg.LabelSmoothing
	for j := range tau {
		tau[j] = eps / float64(len(tau))
	}
	tau[c] += 1 - eps
	var l float64
	switch {
	case f.cfg.Kind == CrossEntropy:
		var ty float64
		for j, v := range y {
			ty += tau[j] * v
		}
		l = lse - ty
		for j := range d {
			d[j] = q[j] - tau[j]
		}
	case f.cfg.ProbabilityInput:
		l = f.focalProb(c, omq)
	default:
		g := f.cfg.Gamma
		logq := y[c] - lse
		fac := math.Pow(omq, g)
		var coef float64
		if g != 0 && omq > 0 {
			coef = g * math.Pow(omq, g-1) * q[c] * logq
		}
		l = -fac * logq
		// dℓ/dy = (e_c − q)(γ(1−q_c)^(γ−1) q_c log q_c − (1−q_c)^γ)
		for j := range d {
			d[j] = -q[j] * (coef - fac)
		}
		d[c] += coef - fac
	}
	if e := f.cfg.Poly; e != 0 {
		// p_t = ⟨τ, q⟩; dp_t/dy_j = q_j(τ_j − p_t).
		var pt float64
		for j := range q {
			pt += tau[j] * q[j]
		}
		onept := omq
		if eps != 0 {
			onept = 1 - pt
		}
		l += e * onept
		for j := range d {
			d[j] -= e * q[j] * (tau[j] - pt)
		}
	}
	return l
}

// focalProb is focal_loss.sparse_categorical_focal_loss(from_logits=False)
// applied to q = softmax(y): ℓ = −(1 − q_c)^γ·log(q̃_c) with
// q̃ = clip(q)/Σ clip(q); the gradient flows through the clip (zero outside
// [ProbClip, 1 − ProbClip], as TF's clip_by_value) and the softmax.
func (f *Func) focalProb(c int, omq float64) float64 {
	q, d := f.q, f.d
	lo, hi := ProbClip, 1-ProbClip
	var s float64
	for _, v := range q {
		s += math.Min(math.Max(v, lo), hi)
	}
	qc := math.Min(math.Max(q[c], lo), hi)
	logq := math.Log(qc) - math.Log(s)
	g := f.cfg.Gamma
	fac := math.Pow(omq, g)
	l := -fac * logq
	// G_j = ∂ℓ/∂q_j with q treated as free.
	for j, v := range q {
		var gj float64
		if v >= lo && v <= hi {
			gj = fac / s
		}
		d[j] = gj
	}
	if q[c] >= lo && q[c] <= hi {
		d[c] -= fac / qc
	}
	if g != 0 && omq > 0 {
		d[c] += g * math.Pow(omq, g-1) * logq
	}
	// Softmax VJP: dy_j = q_j (G_j − ⟨G, q⟩).
	var gq float64
	for j, v := range q {
		gq += d[j] * v
	}
	for j, v := range q {
		d[j] = v * (d[j] - gq)
	}
	return l
}

// BalancedWeights returns sklearn's balanced class weights N/(C·N_c) of the
// labels y (0…classes−1; classes = 2 for binary). Every class must occur.
func BalancedWeights(y []float64, classes int) ([]float64, error) {
	if classes < 2 {
		return nil, fmt.Errorf("loss: BalancedWeights: classes = %d, want ≥ 2", classes)
	}
	if len(y) == 0 {
		return nil, errors.New("loss: BalancedWeights: no labels")
	}
	counts := make([]int, classes)
	for i, t := range y {
		if !(t >= 0 && t < float64(classes)) || t != math.Trunc(t) {
			return nil, fmt.Errorf("loss: BalancedWeights: label %d = %v, want an integer in [0, %d)", i, t, classes)
		}
		counts[int(t)]++
	}
	w := make([]float64, classes)
	for c, n := range counts {
		if n == 0 {
			return nil, fmt.Errorf("loss: BalancedWeights: class %d does not occur in the %d labels", c, len(y))
		}
		w[c] = float64(len(y)) / (float64(classes) * float64(n))
	}
	return w, nil
}
