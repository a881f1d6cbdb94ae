package multimodal

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"

	"github.com/gdt-ml/gdt/internal/corrupt"
)

// TestCorruptModelFiles damages saved multimodal models (an image branch
// with a GRANDE or an MLP backbone, and the image-only network) field by
// field (corrupt.Mutate) and loads and predicts with each damaged file as
// gdt predict does: every one must give an error or finite class
// probabilities summing to 1 — never a panic. Every 8th mutation by
// default; GDT_CORRUPT_ALL=1 tries all.
func TestCorruptModelFiles(t *testing.T) {
	debug.SetMaxStack(64 << 20)
	dir := t.TempDir()
	writeSynthetic(t, dir, 24, 8)
	csvPath := filepath.Join(dir, "ham10000.csv")
	stride := 8
	if os.Getenv("GDT_CORRUPT_ALL") != "" {
		stride = 1
	}
	for vi, v := range []struct {
		image   bool
		tabular string
	}{{true, "grande"}, {true, "mlp"}, {true, ""}} {
		mem, _ := trainTiny(t, dir, v.image, v.tabular)
		path := filepath.Join(t.TempDir(), "m.json")
		if err := mem.Save(path); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		muts, err := corrupt.Mutate(b, uint64(vi))
		if err != nil {
			t.Fatal(err)
		}
		total, rejected := 0, 0
		for mi, m := range muts {
			if mi%stride != vi%stride {
				continue
			}
			total++
			bad := filepath.Join(t.TempDir(), "bad.json")
			if err := os.WriteFile(bad, m.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			err := func() (err error) {
				defer func() {
					if r := recover(); r != nil {
						err = fmt.Errorf("panic: %v", r)
						t.Errorf("image %v, tabular %q: %s: %v", v.image, v.tabular, m.What, err)
					}
				}()
				tr, err := LoadTrained(bad)
				if err != nil {
					return err
				}
				p, err := tr.PredictCSV(context.Background(), csvPath, PredictOptions{ImagesDir: dir})
				if err != nil {
					return err
				}
				for r := 0; r < p.Proba.Rows; r++ {
					sum := 0.0
					for _, x := range p.Proba.Row(r) {
						if math.IsNaN(float64(x)) || x < 0 || x > 1 {
							t.Errorf("image %v, tabular %q: %s: loaded, but predicts the probability %v", v.image, v.tabular, m.What, x)
						}
						sum += float64(x)
					}
					if math.Abs(sum-1) > 1e-3 {
						t.Errorf("image %v, tabular %q: %s: loaded, but its probabilities sum to %v", v.image, v.tabular, m.What, sum)
					}
				}
				return nil
			}()
			if err != nil {
				rejected++
			}
		}
		t.Logf("image %v, tabular %q: %d damaged files of %d mutations, %d rejected with an error", v.image, v.tabular, total, len(muts), rejected)
	}
}
