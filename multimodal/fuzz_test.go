package multimodal

import (
	"context"
	"encoding/json"
	"math"
	"path/filepath"
	"testing"
)

// FuzzLoadTrained decodes arbitrary bytes as a multimodal model file and,
// when that succeeds, predicts a small CSV with it: an error or finite
// class probabilities, never a panic. Seeds are tiny trained models with
// an image branch and a GRANDE or MLP backbone.
func FuzzLoadTrained(f *testing.F) {
	dir := f.TempDir()
	writeSynthetic(f, dir, 16, 8)
	csvPath := filepath.Join(dir, "ham10000.csv")
	ds, err := LoadCSV(csvPath, dir, CSVOptions{LoadOptions: LoadOptions{Size: 8, Workers: 1}})
	if err != nil {
		f.Fatal(err)
	}
	for _, tab := range []string{"grande", "mlp"} {
		cfg := tinyConfig(true, tab)
		cfg.PretrainEpochs, cfg.Epochs, cfg.Trees = 1, 1, 4
		tr, err := TrainDataset(context.Background(), ds, TrainOptions{Config: cfg, ValidFraction: 0.25})
		if err != nil {
			f.Fatal(err)
		}
		b, err := json.Marshal(tr)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		tr, err := decodeTrained(b, "fuzz.json")
		if err != nil {
			return
		}
		p, err := tr.PredictCSV(context.Background(), csvPath, PredictOptions{ImagesDir: dir})
		if err != nil {
			return
		}
		for _, v := range p.Proba.Data {
			if math.IsNaN(float64(v)) || v < 0 || v > 1 {
				t.Fatalf("a loaded model predicts the probability %v", v)
			}
		}
	})
}
