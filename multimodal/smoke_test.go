package multimodal

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/metrics"
	"github.com/gdt-ml/gdt/preprocess"
)

// TestSmokeHAM10000 is a short run on the real data (set GDT_MM_SMOKE=1):
// it times decoding all images and one pretraining epoch on a subsample.
func TestSmokeHAM10000(t *testing.T) {
	if os.Getenv("GDT_MM_SMOKE") == "" {
		t.Skip("set GDT_MM_SMOKE=1 for the smoke run on HAM10000")
	}
	root := dataRoot(t)
	dir := filepath.Join(root, HAM10000Dir)
	start := time.Now()
	full, err := LoadHAM10000(dir, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("decoded %d images in %.1fs", full.Images.N, time.Since(start).Seconds())
	folds, err := StratifiedGroupKFold(full.Y, full.Groups, 5, true, 42)
	if err != nil {
		t.Fatal(err)
	}
	// A 1/8 subsample of fold 0's training part, the test fold as validation.
	var tr []int
	test := map[int]bool{}
	for _, i := range folds[0] {
		test[i] = true
	}
	for i := range full.Y {
		if !test[i] && i%8 == 0 {
			tr = append(tr, i)
		}
	}
	va := folds[0][:500]
	mk := func(idx []int) *Inputs {
		y := make([]float64, len(idx))
		for j, i := range idx {
			y[j] = full.Y[i]
		}
		return &Inputs{Images: full.Images, Rows: idx, Y: y}
	}
	cfg := Config{Image: true, PretrainEpochs: 1, PretrainPatience: 1}
	m := New(cfg)
	m.Progress = func(p Progress) {
		t.Logf("%s epoch %d: train %.4f valid %.4f, %.1fs (%d training images: %.2f ms/image)", p.Stage, p.Epoch, p.TrainLoss, p.ValidLoss, p.Seconds, len(tr), 1000*p.Seconds/float64(len(tr)))
	}
	if err := m.Fit(context.Background(), mk(tr), mk(va), 7); err != nil {
		t.Fatal(err)
	}
}

// TestSmokeHAM10000Fusion trains every variant briefly on a quarter of
// fold 0's training rows and scores fold 0 (set GDT_MM_SMOKE=1).
func TestSmokeHAM10000Fusion(t *testing.T) {
	if os.Getenv("GDT_MM_SMOKE") == "" {
		t.Skip("set GDT_MM_SMOKE=1 for the smoke run on HAM10000")
	}
	root := dataRoot(t)
	full, err := LoadHAM10000(filepath.Join(root, HAM10000Dir), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	folds, _ := StratifiedGroupKFold(full.Y, full.Groups, 5, true, 42)
	inTest := map[int]bool{}
	for _, i := range folds[0] {
		inTest[i] = true
	}
	var rest []int
	for i := range full.Y {
		if !inTest[i] && i%4 == 0 {
			rest = append(rest, i)
		}
	}
	y := make([]float64, len(rest))
	g := make([]string, len(rest))
	for j, i := range rest {
		y[j], g[j] = full.Y[i], full.Groups[i]
	}
	trj, vaj, _ := GroupSplit(y, g, 0.1, 42)
	pick := func(idx []int) []int {
		out := make([]int, len(idx))
		for j, i := range idx {
			out[j] = rest[i]
		}
		return out
	}
	tr, va, te := pick(trj), pick(vaj), folds[0]
	pipe := preprocess.GRPaper(preprocess.Options{Task: data.Multiclass, Seed: 42})
	mk := func(idx []int, fit bool) *Inputs {
		yy := make([]float64, len(idx))
		for j, i := range idx {
			yy[j] = full.Y[i]
		}
		var x *data.Matrix
		var err error
		if fit {
			x, _, err = pipe.FitTransform(full.Tab.Subset(idx), yy)
		} else {
			x, err = pipe.Transform(full.Tab.Subset(idx))
		}
		if err != nil {
			t.Fatal(err)
		}
		return &Inputs{Images: full.Images, Rows: idx, Tab: x, Y: yy}
	}
	trIn := mk(tr, true)
	vaIn, teIn := mk(va, false), mk(te, false)
	t.Logf("train %d, valid %d, test %d rows; %d tabular columns", len(tr), len(va), len(te), trIn.Tab.Cols)
	var enc *Model
	for _, v := range []struct {
		name    string
		image   bool
		tabular string
	}{{"cnn", true, ""}, {"mlp", false, "mlp"}, {"tab-grande", false, "grande"}, {"cnn+mlp", true, "mlp"}, {"cnn+grande", true, "grande"}} {
		m := New(Config{Image: v.image, Tabular: v.tabular, PretrainEpochs: 3, PretrainPatience: 3, Epochs: 15, Patience: 5})
		if enc != nil && v.image {
			m.UseEncoder(enc)
		}
		start := time.Now()
		if err := m.Fit(context.Background(), trIn, vaIn, 7); err != nil {
			t.Fatal(err)
		}
		if v.name == "cnn" {
			enc = m
		}
		p, err := m.PredictProba(teIn)
		if err != nil {
			t.Fatal(err)
		}
		pred := metrics.Argmax(p.Data, 7)
		auc, _ := metrics.ROCAUCOvR(teIn.Y, p.Data, 7)
		t.Logf("%-10s ROC-AUC %.3f acc %.3f bal.acc %.3f F1 %.3f  (%.1fs; %+v)", v.name, auc, metrics.Accuracy(teIn.Y, pred),
			metrics.BalancedAccuracy(teIn.Y, pred, 7), metrics.F1Macro(teIn.Y, pred, 7), time.Since(start).Seconds(), m.Reports)
	}
}
