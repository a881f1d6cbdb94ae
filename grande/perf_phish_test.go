package grande_test

import (
	"context"
	"encoding/binary"
	"hash/fnv"
	"math"
	"os"
	"runtime/pprof"
	"strconv"
	"testing"
	"time"

	"github.com/gdt-ml/gdt/grande"
	"github.com/gdt-ml/gdt/train"
)

// BenchmarkGRANDEPhishingLate trains GDT_PERF_EPOCHS (default 8) epochs on
// fold 0 of PhishingWebsites and reports the time of the last half of
// them (trained-like state); GDT_PERF_PROFILE names a CPU profile of that
// half, and GDT_PERF_PRECISE=1 trains with Config.Precise (the float64
// node path, whose parameters must hash as before the fast path existed).
func BenchmarkGRANDEPhishingLate(b *testing.B) {
	prep := phishingFold0(b)
	epochs := 8
	if s := os.Getenv("GDT_PERF_EPOCHS"); s != "" {
		epochs, _ = strconv.Atoi(s)
	}
	prof := os.Getenv("GDT_PERF_PROFILE")
	for i := 0; i < b.N; i++ {
		m := grande.New(grande.Config{MaxEpochs: epochs, Patience: 1000, Precise: os.Getenv("GDT_PERF_PRECISE") != ""})
		var mid time.Time
		var last []float64
		var prev time.Time
		m.Progress = func(p train.Progress) {
			now := time.Now()
			if !prev.IsZero() {
				last = append(last, now.Sub(prev).Seconds())
			}
			prev = now
			if p.Epoch+1 == epochs/2 {
				mid = now
				if prof != "" {
					f, _ := os.Create(prof)
					pprof.StartCPUProfile(f)
				}
			}
			b.Logf("epoch %d train %x valid %x", p.Epoch, math.Float64bits(p.TrainLoss), math.Float64bits(p.ValidLoss))
		}
		start := time.Now()
		if err := m.Fit(context.Background(), prep.Problem, prep.Train, prep.Valid); err != nil {
			b.Fatal(err)
		}
		if prof != "" {
			pprof.StopCPUProfile()
		}
		end := time.Now()
		if k, err := m.Kernel(); err == nil {
			h := fnv.New64a()
			p := k.Params()
			for _, t := range [][]float32{p.IndexLogits, p.Thresholds, p.Leaves, p.LeafWeights} {
				for _, v := range t {
					binary.Write(h, binary.LittleEndian, math.Float32bits(v))
				}
			}
			b.Logf("params hash %x", h.Sum64())
		}
		b.ReportMetric(end.Sub(start).Seconds(), "s-total")
		b.ReportMetric(end.Sub(mid).Seconds()/float64(epochs-epochs/2), "s/epoch-late")
	}
}
