package main

import (
	"encoding/csv"
	"io"
	"strconv"
	"testing"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/model"
)

// benchPredictions are 48,842 binary predictions shaped like adult's.
func benchPredictions() (*model.Trained, *data.Matrix, []float64) {
	t := &model.Trained{Task: data.Binary, Classes: []string{"<=50K", ">50K"}}
	n := 48842
	p := data.NewMatrix(n, 2)
	for i := range n {
		q := float32(i%1000) / 999
		p.Set(i, 0, 1-q)
		p.Set(i, 1, q)
	}
	return t, p, model.Decide(t.Task, p)
}

// BenchmarkPredictionWriter writes adult-shaped predictions with
// probabilities (gdt predict --proba): "append" is gdt predict's writer,
// "csv" the encoding/csv loop it replaced (same bytes). Reports rows/s.
func BenchmarkPredictionWriter(b *testing.B) {
	t, p, pred := benchPredictions()
	b.Run("append", func(b *testing.B) {
		for range b.N {
			pw := newPredictionWriter(io.Discard, t, true)
			if err := pw.write(p, pred); err != nil {
				b.Fatal(err)
			}
			pw.flush()
		}
		b.ReportMetric(float64(b.N*len(pred))/b.Elapsed().Seconds(), "rows/s")
	})
	b.Run("csv", func(b *testing.B) {
		for range b.N {
			cw := csv.NewWriter(io.Discard)
			cw.Write([]string{"prediction", "p_<=50K", "p_>50K"})
			rec := make([]string, 3)
			for i, v := range pred {
				rec[0] = t.Classes[int(v)]
				for c := 1; c < 3; c++ {
					rec[c] = strconv.FormatFloat(float64(p.At(i, c-1)), 'g', 6, 32)
				}
				cw.Write(rec)
			}
			cw.Flush()
		}
		b.ReportMetric(float64(b.N*len(pred))/b.Elapsed().Seconds(), "rows/s")
	})
}
