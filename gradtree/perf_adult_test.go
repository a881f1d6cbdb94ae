package gradtree_test

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"hash/fnv"
	"math"
	"os"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/gdt-ml/gdt/bench"
	"github.com/gdt-ml/gdt/datasets"
	"github.com/gdt-ml/gdt/gradtree"
)

// BenchmarkGradTreeAdultFit is the default GradTree fit on trial 0 of Adult
// under the GT-paper protocol (all restarts); GDT_PERF_PROFILE names a CPU
// profile.
func BenchmarkGradTreeAdultFit(b *testing.B) {
	root, err := datasets.Root("")
	if err != nil {
		b.Skipf("benchmark data not found (%v)", err)
	}
	ds, err := datasets.Load(root, "gradtree/adult")
	if err != nil {
		b.Fatal(err)
	}
	var proto bench.GradTreeProtocol
	folds, err := proto.Folds(ds, 1)
	if err != nil {
		b.Fatal(err)
	}
	prep, err := proto.Prepare(ds, folds[0])
	if err != nil {
		b.Fatal(err)
	}
	if p := os.Getenv("GDT_PERF_PROFILE"); p != "" {
		f, _ := os.Create(p)
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m := gradtree.New(gradtree.Config{})
		start := time.Now()
		if err := m.Fit(context.Background(), prep.Problem, prep.Train, prep.Valid); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(time.Since(start).Seconds(), "fit-s")
		h := fnv.New64a()
		for _, v := range m.Params.IndexLogits {
			binary.Write(h, binary.LittleEndian, math.Float32bits(v))
		}
		for _, v := range m.Params.Thresholds {
			binary.Write(h, binary.LittleEndian, math.Float32bits(v))
		}
		for _, v := range m.Params.Leaves {
			binary.Write(h, binary.LittleEndian, math.Float32bits(v))
		}
		b.Logf("params hash %x best restart %d", h.Sum64(), m.BestRestart)
		for _, r := range m.Restarts {
			b.Logf("restart %d: %d epochs (best %d), %.2f s", r.Restart, r.Epochs, r.BestEpoch, r.Seconds)
		}
		if p := os.Getenv("GDT_PERF_HISTORY"); p != "" {
			f, err := os.Create(p)
			if err != nil {
				b.Fatal(err)
			}
			json.NewEncoder(f).Encode(m.Restarts)
			f.Close()
		}
	}
}
