package multimodal

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestImageShapeBound: a model file's image shape sizes the encoder's
// activations at prediction (the weights do not depend on it), so a file
// whose shape and widths would make a prediction batch allocate more than
// maxEncoderValues is refused at load, allocating little, while a shape
// within the bound loads and predicts. The crafted files change only the
// shape of a tiny trained image model (8 × 8 images, channels 4 and 8):
// 1024 × 1024 passes the per-side limit (maxImageSide) but exceeds the
// bound; 192 × 192 is within it.
func TestImageShapeBound(t *testing.T) {
	dir := t.TempDir()
	writeSynthetic(t, dir, 24, 8)
	tr, _ := trainTiny(t, dir, true, "")
	b, err := json.Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	withShape := func(h, w int) string {
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
	big := withShape(1024, 1024)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err = LoadTrained(big)
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "3×1024×1024") || !strings.Contains(err.Error(), "expected at most 536870912") {
		t.Fatalf("1024 × 1024 images: error %v; want the shape named and the bound", err)
	}
	if d := after.TotalAlloc - before.TotalAlloc; d > 64<<20 {
		t.Errorf("refusing the file allocated %d MB", d>>20)
	}
	ok, err := LoadTrained(withShape(192, 192))
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
