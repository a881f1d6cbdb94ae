package grande_test

import (
	"context"
	"testing"
	"time"

	"github.com/gdt-ml/gdt/bench"
	"github.com/gdt-ml/gdt/datasets"
	"github.com/gdt-ml/gdt/grande"
	"github.com/gdt-ml/gdt/train"
)

// BenchmarkGRANDEPhishingEpoch times training epochs with the published
// defaults on the first fold of PhishingWebsites under the GRANDE protocol
// (≈ 7,960 training rows, 46 features, 124 steps of 64 rows per epoch,
// then validation on ≈ 885 rows). It reports seconds per epoch; a full
// default training runs until 25 epochs pass without improvement.
//
//	go test -run '^$' -bench PhishingEpoch -benchtime 1x ./grande
func BenchmarkGRANDEPhishingEpoch(b *testing.B) {
	prep := phishingFold0(b)
	const epochs = 2
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m := grande.New(grande.Config{MaxEpochs: epochs})
		var last time.Time
		var per []float64
		m.Progress = func(p train.Progress) {
			now := time.Now()
			if !last.IsZero() {
				per = append(per, now.Sub(last).Seconds())
			}
			last = now
		}
		start := time.Now()
		if err := m.Fit(context.Background(), prep.Problem, prep.Train, prep.Valid); err != nil {
			b.Fatal(err)
		}
		total := time.Since(start).Seconds()
		b.ReportMetric(total/epochs, "s/epoch")
		if len(per) > 0 {
			b.ReportMetric(per[len(per)-1], "s/epoch-steady")
		}
		b.ReportMetric(float64(prep.Train.X.Rows), "train-rows")
	}
}

// phishingFold0 is fold 0 of PhishingWebsites under the GRANDE protocol
// (skips the benchmark when the data folder is absent).
func phishingFold0(b *testing.B) *bench.Prepared {
	b.Helper()
	root, err := datasets.Root("")
	if err != nil {
		b.Skipf("benchmark data not found (%v); set GDT_DATA to run this benchmark", err)
	}
	ds, err := datasets.Load(root, "grande/PhishingWebsites")
	if err != nil {
		b.Fatal(err)
	}
	proto := bench.CVProtocol{K: 5, ValidFraction: 0.1, Seed: 42, Pipeline: "gr-paper"}
	folds, err := proto.Folds(ds, 1)
	if err != nil {
		b.Fatal(err)
	}
	prep, err := proto.Prepare(ds, folds[0])
	if err != nil {
		b.Fatal(err)
	}
	return prep
}
