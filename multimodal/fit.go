package multimodal

import (
	"context"
	"math"
	"runtime"
	"sync"
	"time"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/loss"
	"github.com/gdt-ml/gdt/nn"
	"github.com/gdt-ml/gdt/optim"
)

// Inputs are the samples of one split: sample j is image Rows[j] of Images
// (Rows nil: image j) and row j of Tab, with label Y[j] (unused for
// prediction). Images is nil for tabular-only models, Tab for image-only
// ones.
type Inputs struct {
	Images *ImageSet
	Rows   []int
	Tab    *data.Matrix
	Y      []float64
}

// Len returns the number of samples.
func (in *Inputs) Len() int {
	switch {
	case in.Rows != nil:
		return len(in.Rows)
	case in.Tab != nil:
		return in.Tab.Rows
	case in.Images != nil:
		return in.Images.N
	}
	return len(in.Y)
}

func (in *Inputs) imageRow(j int) int {
	if in.Rows != nil {
		return in.Rows[j]
	}
	return j
}

// Progress is reported after every epoch.
type Progress struct {
	Stage     string // "pretrain" (image encoder) or "fit" (fusion / tabular)
	Epoch     int
	TrainLoss float64
	ValidLoss float64
	BestLoss  float64
	Seconds   float64 // this epoch's wall time (training + validation)
}

// StageReport summarises one training stage.
type StageReport struct {
	Stage        string  `json:"stage"`
	Epochs       int     `json:"epochs"`
	BestEpoch    int     `json:"best_epoch"`
	BestLoss     float64 `json:"best_loss"`
	EpochSeconds float64 `json:"epoch_seconds"` // mean wall time per epoch
	Seconds      float64 `json:"seconds"`
}

// inputFiller writes the network input rows of samples: [pixels] (image
// stage, or fusion with the whole encoder), [cached encoder features] and
// [tabular values], in that order.
type inputFiller struct {
	in      *Inputs
	b       *Batcher // nil: no pixels
	feat    []float32
	featDim int
	tabCols int
	workers int
}

func (f *inputFiller) RowWidth() int {
	w := f.featDim + f.tabCols
	if f.b != nil {
		w += f.b.Images.Shape.Size()
	}
	return w
}

func (f *inputFiller) Fill(dst []float32, idx []int, augment bool, epoch, offset int) {
	width := f.RowWidth()
	one := func(j int) {
		s := idx[j]
		row := dst[j*width : (j+1)*width]
		if f.b != nil {
			n := f.b.Images.Shape.Size()
			f.b.fillImage(row[:n], f.in.imageRow(s), augment, epoch, offset+j)
			row = row[n:]
		}
		if f.featDim > 0 {
			copy(row, f.feat[s*f.featDim:(s+1)*f.featDim])
			row = row[f.featDim:]
		}
		if f.tabCols > 0 {
			copy(row, f.in.Tab.Data[s*f.tabCols:(s+1)*f.tabCols])
		}
	}
	workers := f.workers
	if f.b == nil {
		workers = 1 // copying rows is cheaper than starting goroutines
	}
	parallelFor(len(idx), workers, one)
}

// parallelFor runs fn(0…n−1) on workers goroutines (0: GOMAXPROCS);
// each index is handled exactly once, so results that depend only on the
// index do not depend on workers.
func parallelFor(n, workers int, fn func(int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if workers > n {
		workers = n
	}
	if workers <= 1 {
		for j := 0; j < n; j++ {
			fn(j)
		}
		return
	}
	var wg sync.WaitGroup
	for g := 0; g < workers; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for j := g; j < n; j += workers {
				fn(j)
			}
		}(g)
	}
	wg.Wait()
}

// stage is one early-stopped training run of a network.
type stage struct {
	name            string
	net             nn.Module
	groups          []optim.Group
	train, valid    *inputFiller
	ytrain, yvalid  []float64
	epochs, patient int
	augment         bool
}

// snapshot is a copy of a network's parameters and buffers.
type snapshot struct {
	params []float32
	bufs   [][]float32
}

func takeSnapshot(net nn.Module, s *snapshot) {
	s.params = append(s.params[:0], nn.ParamVector(net)...)
	bufs := nn.Buffers(net)
	if len(s.bufs) != len(bufs) {
		s.bufs = make([][]float32, len(bufs))
	}
	for i, b := range bufs {
		s.bufs[i] = append(s.bufs[i][:0], b.Value...)
	}
}

func restoreSnapshot(net nn.Module, s *snapshot) error {
	if err := nn.SetParamVector(net, s.params); err != nil {
		return err
	}
	for i, b := range nn.Buffers(net) {
		copy(b.Value, s.bufs[i])
	}
	return nil
}

// batchesOf splits order into batches of size bs; a last batch of one
// sample joins the previous one (batch normalisation needs two rows).
func batchesOf(order []int, bs int) [][]int {
	var out [][]int
	for i := 0; i < len(order); i += bs {
		out = append(out, order[i:min(i+bs, len(order))])
	}
	if k := len(out); k > 1 && len(out[k-1]) == 1 {
		out[k-2] = order[(k-2)*bs:]
		out = out[:k-1]
	}
	return out
}

// run trains st with early stopping on the validation loss and restores
// the best parameters.
func (m *Model) run(ctx context.Context, st *stage, lossFn *loss.Func) (StageReport, error) {
	rep := StageReport{Stage: st.name, BestLoss: math.Inf(1)}
	start := time.Now()
	opt, err := optim.NewAdam(st.groups...)
	if err != nil {
		return rep, err
	}
	classes := lossFn.Outputs()
	n := len(st.ytrain)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	perm := splitmix64(partSeed(m.Config.Seed, 60) ^ uint64(len(st.name)))
	var best snapshot
	takeSnapshot(st.net, &best)
	grad := make([]float32, m.Config.BatchSize*2*classes)
	yb := make([]float64, 0, 2*m.Config.BatchSize)
	wait := 0
	for epoch := 1; epoch <= st.epochs; epoch++ {
		t0 := time.Now()
		for i := n - 1; i > 0; i-- { // Fisher–Yates from the stage's stream
			j := int(perm.next() % uint64(i+1))
			order[i], order[j] = order[j], order[i]
		}
		batches := batchesOf(order, m.Config.BatchSize)
		stop := make(chan struct{})
		ch, release := stream(st.train, batches, st.augment, epoch, 2, stop)
		var sum float64
		var failed error
		for bt := range ch {
			if failed != nil {
				release(bt)
				continue
			}
			if err := ctx.Err(); err != nil {
				failed = err
				close(stop)
				release(bt)
				continue
			}
			B := len(bt.Rows)
			yb = yb[:0]
			for _, r := range bt.Rows {
				yb = append(yb, st.ytrain[r])
			}
			opt.ZeroGrad()
			out := st.net.Forward(bt.X, B, true)
			l, err := lossFn.Eval(out, yb, grad[:B*classes])
			if err != nil {
				release(bt)
				failed = err
				close(stop)
				continue
			}
			st.net.Backward(grad[:B*classes])
			// The modules read their input in Backward: the buffer goes
			// back to the producer only now.
			release(bt)
			opt.Step()
			sum += l * float64(B)
		}
		if failed != nil {
			return rep, failed
		}
		trainLoss := sum / float64(n)
		vl, err := m.evalLoss(st.net, st.valid, st.yvalid, lossFn)
		if err != nil {
			return rep, err
		}
		rep.Epochs = epoch
		if vl < rep.BestLoss {
			rep.BestLoss, rep.BestEpoch, wait = vl, epoch, 0
			takeSnapshot(st.net, &best)
		} else {
			wait++
		}
		secs := time.Since(t0).Seconds()
		if m.Progress != nil {
			m.Progress(Progress{Stage: st.name, Epoch: epoch, TrainLoss: trainLoss, ValidLoss: vl, BestLoss: rep.BestLoss, Seconds: secs})
		}
		if math.IsNaN(trainLoss) || wait >= st.patient {
			break
		}
	}
	if err := restoreSnapshot(st.net, &best); err != nil {
		return rep, err
	}
	rep.Seconds = time.Since(start).Seconds()
	rep.EpochSeconds = rep.Seconds / float64(max(rep.Epochs, 1))
	return rep, nil
}

// evalBatch is the largest batch size of prediction and evaluation passes
// (images too large for it get smaller ones: evalBatchSize).
const evalBatch = 256

// forwardAll evaluates net (inference mode) on every sample of f in
// batches of bs and returns the outputs (n×Out).
func forwardAll(net nn.Module, f *inputFiller, n, bs int) []float32 {
	out := make([]float32, n*net.Out())
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	batches := batchesOf(order, bs)
	ch, release := stream(f, batches, false, 0, 2, nil)
	pos := 0
	for bt := range ch {
		y := net.Forward(bt.X, len(bt.Rows), false)
		copy(out[pos*net.Out():], y)
		pos += len(bt.Rows)
		release(bt)
	}
	return out
}

func (m *Model) evalLoss(net nn.Module, f *inputFiller, y []float64, lossFn *loss.Func) (float64, error) {
	out := forwardAll(net, f, len(y), m.p.evalBatch)
	return lossFn.Eval(out, y, nil)
}

// lossFor returns the training loss: softmax cross-entropy with balanced
// class weights per sample (cfg "balanced") or none.
func lossFor(cfg Config, y []float64, classes int) (*loss.Func, error) {
	lc := loss.Config{Task: loss.Multiclass, Classes: classes, Kind: loss.CrossEntropy, Weighting: loss.PerSample}
	if cfg.ClassWeights == "balanced" {
		counts := make([]int, classes)
		for _, v := range y {
			counts[int(v)]++
		}
		w := make([]float64, classes)
		for c, k := range counts {
			if k > 0 {
				w[c] = float64(len(y)) / float64(classes*k)
			}
		}
		lc.ClassWeights = w
	}
	return loss.New(lc)
}
