package preprocess

import (
	"testing"

	"github.com/gdt-ml/gdt/data"
)

// BenchmarkSnapGRANDESize snaps 129,024 splits (2048 trees of depth 6,
// GRANDE's default size) over adult-like columns.
func BenchmarkSnapGRANDESize(b *testing.B) {
	X, y := adultTable(30000)
	p := GRPaper(Options{Task: data.Binary})
	M, _, err := p.FitTransform(X, y)
	if err != nil {
		b.Fatal(err)
	}
	var splits []Split
	for len(splits) < 2048*63 {
		splits = append(splits, snapSplits(p, M, uint32(len(splits)))...)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := p.Snap(X, splits); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTransformSnapped transforms 30,000 new rows with a pipeline
// snapped to GRANDE-size splits and, for reference, without the cuts.
func BenchmarkTransformSnapped(b *testing.B) {
	X, y := adultTable(30000)
	p := GRPaper(Options{Task: data.Binary})
	M, _, err := p.FitTransform(X, y)
	if err != nil {
		b.Fatal(err)
	}
	var splits []Split
	for len(splits) < 2048*63 {
		splits = append(splits, snapSplits(p, M, uint32(len(splits)))...)
	}
	q, err := p.Snap(X, splits)
	if err != nil {
		b.Fatal(err)
	}
	Y, _ := adultTable(30001) // other rows
	for _, c := range []struct {
		name string
		p    *Pipeline
	}{{"exact", p}, {"snapped", q}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := c.p.Transform(Y); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
