package grande

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/rng"
)

// TestParamDigest prints, with GDT_DIGEST_STEPS=N set, the loss sum and a
// SHA-256 digest of every parameter after N training steps for a few
// configurations (GDT_DIGEST_ONLY=name for one). It checks nothing by
// itself: scripts/param-digest.sh runs it on two commits and compares the
// lines, to show that a change of the kernel keeps the same bits.
func TestParamDigest(t *testing.T) {
	steps, _ := strconv.Atoi(os.Getenv("GDT_DIGEST_STEPS"))
	if steps == 0 {
		t.Skip("set GDT_DIGEST_STEPS")
	}
	for _, cfg := range []struct {
		name string
		c    Config
		n, f int
		task data.Task
	}{
		{"ref", Config{Trees: 1024, Depth: 5, BatchSize: 256, Dropout: 0.2, Loss: "crossentropy"}, 4096, 32, data.Binary},
		{"default", Config{}, 2048, 46, data.Binary},
		{"small-est", Config{Trees: 6, Depth: 4, BatchSize: 64, Dropout: 0.1, Weights: "estimator"}, 1024, 12, data.Binary},
		{"multi", Config{Trees: 64, Depth: 4, BatchSize: 128, Dropout: 0.3}, 1024, 80, data.Multiclass},
		{"precise", Config{Trees: 64, Depth: 3, BatchSize: 100, Precise: true}, 1024, 20, data.Binary},
	} {
		if only := os.Getenv("GDT_DIGEST_ONLY"); only != "" && only != cfg.name {
			continue
		}
		n, features := cfg.n, cfg.f
		x, y := benchData(n, features, 1)
		C, classes := 1, 2
		if cfg.task == data.Multiclass {
			classes, C = 3, 3
			for i := range y {
				y[i] = float64(i % 3)
			}
		}
		vx, vy := benchData(64, features, 2)
		m := &Model{Task: cfg.task, Features: features, Outputs: C, Classes: classes}
		c := cfg.c.Defaults(cfg.task)
		m.Config = c
		bs := BatchSize(c.BatchSize, n)
		lc, err := lossConfig(c, cfg.task, C, y)
		if err != nil {
			t.Fatal(err)
		}
		ne := SubsetSize(c.SelectedVariables, features)
		r, err := m.newRun(c, 42, lc, bs, ne, x, y, vx, vy)
		if err != nil {
			t.Fatal(err)
		}
		order := rng.New(3).Perm(n)
		var ls float64
		for i := 0; i < steps; i++ {
			lo := (i * bs) % (n - bs)
			l, err := r.Step(order[lo : lo+bs])
			if err != nil {
				t.Fatal(err)
			}
			ls += l
		}
		h := sha256.New()
		p := r.k.Params()
		for _, v := range [][]float32{p.IndexLogits, p.Thresholds, p.Leaves, p.LeafWeights} {
			for _, f := range v {
				_ = binary.Write(h, binary.LittleEndian, math.Float32bits(f))
			}
		}
		fmt.Printf("digest %s steps=%d loss=%.17g sha256=%x\n", cfg.name, steps, ls, h.Sum(nil))
	}
}
