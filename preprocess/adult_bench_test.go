package preprocess

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gdt-ml/gdt/data"
)

// adultFile finds shared/data/grande/adult.csv.gz ($GDT_DATA, else an
// ancestor of the working directory holding shared/data); the benchmark is
// skipped without it.
func adultFile(b testing.TB) string {
	b.Helper()
	rel := filepath.Join("grande", "adult.csv.gz")
	if d := os.Getenv("GDT_DATA"); d != "" {
		return filepath.Join(d, rel)
	}
	wd, _ := os.Getwd()
	for dir := wd; ; dir = filepath.Dir(dir) {
		p := filepath.Join(dir, "shared", "data", rel)
		if _, err := os.Stat(p); err == nil {
			return p
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	b.Skip("shared/data/grande/adult.csv.gz not found (set GDT_DATA); skipping")
	return ""
}

// BenchmarkTransformAdult applies the GR-paper pipeline fitted on UCI adult
// (48,842 rows: 6 numeric columns, 8 categorical ones one-hot, ordinal or
// leave-one-out encoded, 46 outputs, quantile-to-normal scaling) to the
// same rows, as `gdt predict` does with a GRANDE model; it reports rows/s.
func BenchmarkTransformAdult(b *testing.B) {
	d, err := data.LoadDataset(adultFile(b), "class", "", data.ReadOptions{CSVOptions: data.CSVOptions{TrimSpace: true}})
	if err != nil {
		b.Fatal(err)
	}
	p := GRPaper(Options{Task: d.Task})
	if err := p.Fit(d.X, d.Y); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if _, err := p.Transform(d.X); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*d.X.NumRows())/b.Elapsed().Seconds(), "rows/s")
}
