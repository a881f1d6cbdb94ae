package data

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// adultSchema types UCI adult's columns as a model trained on it does.
var adultSchema = Schema{
	Categorical: []string{"workclass", "education", "marital-status", "occupation", "relationship", "race", "sex", "native-country", "class"},
	Numeric:     []string{"age", "fnlwgt", "education-num", "capital-gain", "capital-loss", "hours-per-week"},
}

// adultText returns the decompressed text of shared/data/grande/adult.csv.gz.
func adultText(b *testing.B) []byte {
	text, err := readAllFile(filepath.Join(sharedDataDir(b), "grande", "adult.csv.gz"))
	if err != nil {
		b.Fatal(err)
	}
	return text
}

// BenchmarkReadAdult splits and types UCI adult's 48,842 rows (15 columns,
// 5.3 MB of text, read from memory) with the schema `gdt predict` uses;
// it reports rows/s.
func BenchmarkReadAdult(b *testing.B) {
	text := adultText(b)
	b.SetBytes(int64(len(text)))
	rows := 0
	b.ResetTimer()
	for range b.N {
		rec, err := ReadCSV(bytes.NewReader(text), "adult.csv", CSVOptions{Header: true, TrimSpace: true})
		if err != nil {
			b.Fatal(err)
		}
		t, err := rec.Table(adultSchema)
		if err != nil {
			b.Fatal(err)
		}
		rows += t.NumRows()
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkChunksAdult reads UCI adult's 48,842 rows from a plain CSV file
// in chunks, as `gdt predict` does (split, typed with the model schema);
// it reports rows/s.
func BenchmarkChunksAdult(b *testing.B) {
	path := filepath.Join(b.TempDir(), "adult.csv")
	text := adultText(b)
	if err := os.WriteFile(path, text, 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(text)))
	rows := 0
	b.ResetTimer()
	for range b.N {
		c, err := OpenChunks(path, ReadOptions{CSVOptions: CSVOptions{TrimSpace: true}, Schema: adultSchema})
		if err != nil {
			b.Fatal(err)
		}
		for {
			ch, err := c.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			rows += ch.NumRows()
		}
		c.Close()
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
}
