package data

import (
	"bytes"
	"testing"
)

// BenchmarkTypeAdultInferred types UCI adult's 48,842 rows without a
// schema, as gdt train --data does: every column's kind is inferred by the
// rule of NumericLookingPercent (text columns are read on until they
// cannot be numeric-looking).
func BenchmarkTypeAdultInferred(b *testing.B) {
	rec, err := ReadCSV(bytes.NewReader(adultText(b)), "adult.csv", CSVOptions{Header: true, TrimSpace: true})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if _, err := rec.Table(Schema{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*len(rec.Rows))/b.Elapsed().Seconds(), "rows/s")
}
