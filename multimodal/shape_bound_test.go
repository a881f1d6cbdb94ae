package multimodal

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/nn"
)

// TestImageShapeBound: a model file's image shape sizes the encoder's
// activations at prediction (the weights do not depend on it), so a file
// whose shape and widths would make ONE image allocate more than
// maxImageValues is refused at load, allocating little, while a shape
// within the bound loads, with prediction batches small enough for
// maxBatchValues. The crafted files change only the shape of tiny trained
// image models (8 × 8 images). Channels 4 and 8 at 1024 × 1024 (the
// per-side limit) need 2.15e7 values per image (32 % of maxImageValues):
// the file loads and predicts 36 images per batch (5.26e8 values of the 2^29
// maxBatchValues allows).
// One convolution of 64 channels at stride 1 needs 2.39e8 values per image
// at 1024 × 1024: refused.
func TestImageShapeBound(t *testing.T) {
	dir := t.TempDir()
	writeSynthetic(t, dir, 24, 8)
	ds, err := LoadCSV(filepath.Join(dir, "ham10000.csv"), dir, CSVOptions{LoadOptions: LoadOptions{Size: 8, Workers: 2}})
	if err != nil {
		t.Fatal(err)
	}
	withShape := func(channels []int, stride, h, w int) string {
		cfg := tinyConfig(true, "")
		cfg.Channels, cfg.StemStride = channels, stride
		cfg.PretrainEpochs, cfg.Epochs = 1, 1
		tr, err := TrainDataset(context.Background(), ds, TrainOptions{Config: cfg, ValidFraction: 0.25})
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(tr)
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		m := doc["model"].(map[string]any)
		m["shape"] = map[string]any{"C": 3, "H": h, "W": w}
		nb, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(t.TempDir(), "m.json")
		if err := os.WriteFile(p, nb, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	wide := withShape([]int{64}, 1, 1024, 1024)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err = LoadTrained(wide)
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "3×1024×1024") || !strings.Contains(err.Error(), "one image allocate 2.39e+08") ||
		!strings.Contains(err.Error(), "expected at most 67108864") {
		t.Fatalf("1024 × 1024 images through 64 channels: error %v; want the shape named, the values and the bound", err)
	}
	if d := after.TotalAlloc - before.TotalAlloc; d > 64<<20 {
		t.Errorf("refusing the file allocated %d MB", d>>20)
	}
	big, err := LoadTrained(withShape([]int{4, 8}, 2, 1024, 1024))
	if err != nil {
		t.Fatalf("1024 × 1024 images through channels 4, 8: %v", err)
	}
	per, col := encoderValues(big.Model.Shape, big.Model.p.body.Layers())
	if bs := big.Model.p.evalBatch; bs != 36 || float64(bs)*per+col > maxBatchValues {
		t.Errorf("1024 × 1024 images through channels 4, 8: %d images per batch of %.3g + %.3g values: want 36, within %d", bs, per, col, maxBatchValues)
	}
	ok, err := LoadTrained(withShape([]int{4, 8}, 2, 192, 192))
	if err != nil {
		t.Fatalf("192 × 192 images: %v", err)
	}
	p, err := ok.PredictCSV(context.Background(), filepath.Join(dir, "ham10000.csv"), PredictOptions{ImagesDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if p.Proba.Rows != 24 {
		t.Fatalf("%d predictions for 24 rows", p.Proba.Rows)
	}
}

// TestEvalBatchSize: the default encoder predicts in full batches of
// evalBatch up to 224 × 224 images and in smaller ones above, each within
// maxBatchValues, and one image stays within maxImageValues up to the
// per-side limit (the figures of the maxBatchValues and maxImageValues
// comments).
func TestEvalBatchSize(t *testing.T) {
	cfg := Config{Image: true}.Defaults()
	for _, tc := range []struct{ side, batch int }{{64, 256}, {224, 256}, {256, 246}, {384, 109}, {1024, 15}} {
		img := nn.Shape{C: 3, H: tc.side, W: tc.side}
		p, err := buildParts(cfg, img, 0, 7)
		if err != nil {
			t.Fatalf("%d × %d: %v", tc.side, tc.side, err)
		}
		per, col := encoderValues(img, p.body.Layers())
		if p.evalBatch != tc.batch || float64(p.evalBatch)*per+col > maxBatchValues || per+col > maxImageValues {
			t.Errorf("%d × %d: batch %d of %.3g + %.3g values: want %d within %d (one image within %d)",
				tc.side, tc.side, p.evalBatch, per, col, tc.batch, maxBatchValues, maxImageValues)
		}
	}
	if got := evalBatchSize(maxBatchValues, 1); got != 1 {
		t.Errorf("an image larger than the batch bound: batch %d, want 1", got)
	}
}

// TestPredictBatchInvariant: prediction in batches of 1, 3 or 7 images
// gives bit-identical probabilities to one batch of evalBatch (images too
// large for evalBatch are predicted in smaller batches).
func TestPredictBatchInvariant(t *testing.T) {
	train, valid, _ := synthInputs(t, 40)
	for _, tab := range []string{"", "mlp"} {
		cfg := tinyConfig(true, tab)
		cfg.PretrainEpochs, cfg.Epochs = 1, 1
		m := &Model{Config: cfg}
		if err := m.Fit(context.Background(), train, valid, 3); err != nil {
			t.Fatal(err)
		}
		want, err := m.PredictProba(valid)
		if err != nil {
			t.Fatal(err)
		}
		for _, bs := range []int{1, 3, 7} {
			m.p.evalBatch = bs
			got, err := m.PredictProba(valid)
			if err != nil {
				t.Fatal(err)
			}
			for i := range want.Data {
				if math.Float32bits(got.Data[i]) != math.Float32bits(want.Data[i]) {
					t.Fatalf("tabular %q, batches of %d: probability %d is %v, %v in one batch", tab, bs, i, got.Data[i], want.Data[i])
				}
			}
		}
	}
}

// TestTrain256: a model on 256 × 256 images through the default encoder
// (whose prediction batches of 256 would exceed maxBatchValues) trains and
// predicts, in batches of evalBatchSize.
func TestTrain256(t *testing.T) {
	if testing.Short() {
		t.Skip("trains on 256 × 256 images")
	}
	dir := t.TempDir()
	writeSynthetic(t, dir, 24, 256)
	ds, err := LoadCSV(filepath.Join(dir, "ham10000.csv"), dir, CSVOptions{LoadOptions: LoadOptions{Size: 256, Workers: 2}})
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Image: true, BatchSize: 4, PretrainEpochs: 1, Epochs: 1, Workers: 2}
	tr, err := TrainDataset(context.Background(), ds, TrainOptions{Config: cfg, ValidFraction: 0.25})
	if err != nil {
		t.Fatal(err)
	}
	if bs := tr.Model.p.evalBatch; bs != 246 {
		t.Errorf("prediction batch %d, want 246", bs)
	}
	p, err := tr.PredictCSV(context.Background(), filepath.Join(dir, "ham10000.csv"), PredictOptions{ImagesDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if p.Proba.Rows != 24 {
		t.Fatalf("%d predictions for 24 rows", p.Proba.Rows)
	}
	for i, v := range p.Proba.Data {
		if !(v >= 0 && v <= 1) {
			t.Fatalf("probability %d is %v", i, v)
		}
	}
}
