package data

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// FuzzReadParquet checks that reading an arbitrary (corrupted) Parquet
// file never panics and never asks for more than the cell limit: it gives
// an error or a valid table. Seeds are small files of every supported
// column type written by parquet-go.
func FuzzReadParquet(f *testing.F) {
	dir := f.TempDir()
	fp := func(v float64) *float64 { return &v }
	sp := func(v string) *string { return &v }
	var rows []parquetRow
	for i := range 40 {
		r := parquetRow{I32: int32(i - 10), I64: int64(i) * 7, U32: uint32(i), F32: float32(i) / 4, F64: float64(i) / 3,
			Flag: i%3 == 0, Name: []string{"red", "green", "blue"}[i%3], Price: int64(i)*100 + 5}
		if i%2 == 0 {
			r.OptF = fp(float64(i))
		}
		if i%5 != 0 {
			r.OptS = sp("x")
		}
		rows = append(rows, r)
	}
	for i, opts := range [][]parquet.WriterOption{nil, {parquet.Compression(&parquet.Gzip)}, {parquet.PageBufferSize(256)}} {
		path := filepath.Join(dir, "seed.parquet")
		fuzzWriteParquet(f, path, rows[:10+10*i], opts...)
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("PAR1PAR1"))
	f.Fuzz(func(t *testing.T, b []byte) {
		tab, err := readParquet(bytes.NewReader(b), int64(len(b)), "fuzz.parquet", 1<<14)
		if err != nil {
			return
		}
		if err := tab.Validate(); err != nil {
			t.Fatalf("a table read without error is invalid: %v", err)
		}
	})
}

func fuzzWriteParquet[T any](f *testing.F, path string, rows []T, opts ...parquet.WriterOption) {
	fh, err := os.Create(path)
	if err != nil {
		f.Fatal(err)
	}
	w := parquet.NewGenericWriter[T](fh, opts...)
	if _, err := w.Write(rows); err != nil {
		f.Fatal(err)
	}
	if err := w.Close(); err != nil {
		f.Fatal(err)
	}
	if err := fh.Close(); err != nil {
		f.Fatal(err)
	}
}
