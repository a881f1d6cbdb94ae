package data

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// readChunked reads path with Chunks and joins the chunks: every column as
// text (String), the kinds of the first chunk, and the lines.
func readChunked(path string, opt ReadOptions) (names []string, kinds []Kind, text [][]string, lines []int, err error) {
	c, err := OpenChunks(path, opt)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	defer c.Close()
	names = c.Names()
	text = make([][]string, len(names))
	for {
		ch, err := c.Next()
		if err == io.EOF {
			return names, kinds, text, lines, nil
		}
		if err != nil {
			return nil, nil, nil, nil, err
		}
		if ch.First != len(text[0]) {
			return nil, nil, nil, nil, fmt.Errorf("chunk starts at row %d, want %d", ch.First, len(text[0]))
		}
		if kinds == nil {
			for _, col := range ch.Columns {
				kinds = append(kinds, col.Kind)
			}
		}
		for j, col := range ch.Columns {
			if col.Name != names[j] {
				return nil, nil, nil, nil, fmt.Errorf("chunk column %d is %q, want %q", j, col.Name, names[j])
			}
			for i := range col.Len() {
				text[j] = append(text[j], col.String(i))
			}
		}
		lines = append(lines, ch.Lines...)
	}
}

// checkChunked compares reading path in chunks with ReadFile: the same
// names, kinds, values and lines, or both failing.
func checkChunked(t *testing.T, path string, opt ReadOptions) {
	t.Helper()
	want, wantLines, wantErr := readFileLines(path, opt)
	names, kinds, text, lines, err := readChunked(path, opt)
	if wantErr != nil || err != nil {
		if (wantErr == nil) != (err == nil) {
			t.Fatalf("ReadFile error %v, Chunks error %v", wantErr, err)
		}
		return
	}
	if !reflect.DeepEqual(names, want.Names()) {
		t.Fatalf("names %q, want %q", names, want.Names())
	}
	if len(want.Columns) > 0 && want.NumRows() > 0 && !reflect.DeepEqual(lines, wantLines) {
		t.Fatalf("lines %v, want %v", lines, wantLines)
	}
	for j, col := range want.Columns {
		if kinds != nil && kinds[j] != col.Kind {
			t.Fatalf("column %q is %v, want %v", col.Name, kinds[j], col.Kind)
		}
		if len(text[j]) != col.Len() {
			t.Fatalf("column %q has %d rows, want %d", col.Name, len(text[j]), col.Len())
		}
		for i := range col.Len() {
			if text[j][i] != col.String(i) {
				t.Fatalf("column %q row %d: %q, want %q", col.Name, i, text[j][i], col.String(i))
			}
		}
	}
}

func withChunkBytes(t *testing.T, n int) {
	old := csvChunkBytes
	csvChunkBytes = n
	t.Cleanup(func() { csvChunkBytes = old })
}

func TestChunksMatchReadFile(t *testing.T) {
	var long strings.Builder
	long.WriteString("x,name,when\n")
	for i := range 2500 {
		fmt.Fprintf(&long, "%d.5,\"n%d\nsecond line\",%s\n", i, i%7, []string{"", "?", "early", "late"}[i%4])
	}
	var latin strings.Builder
	latin.WriteString("city,v\ncafé,1\n") // valid UTF-8 early …
	for i := range 3000 {
		fmt.Fprintf(&latin, "c%d,%d\n", i%9, i)
	}
	latin.WriteString("caf\xe9,2\n") // … Latin-1 late: the whole file is Latin-1
	var utf strings.Builder
	utf.WriteString("city,v\n")
	for i := range 3000 {
		fmt.Fprintf(&utf, "ç%d,%d\r\n", i%9, i)
	}
	var noHeader strings.Builder
	for i := range 1500 {
		fmt.Fprintf(&noHeader, "%d;%s\n", i, []string{"a", "b"}[i%2])
	}
	files := []struct {
		name, text string
		opt        ReadOptions
	}{
		{"header detected, quoted newlines", long.String(), ReadOptions{}},
		{"numeric schema", long.String(), ReadOptions{Schema: Schema{Numeric: []string{"x"}, Categorical: []string{"when"}}}},
		{"latin-1 late", latin.String(), ReadOptions{}},
		{"utf-8 crlf", utf.String(), ReadOptions{CSVOptions: CSVOptions{Header: true}}},
		{"no header", noHeader.String(), ReadOptions{NoHeader: true}},
		{"names", noHeader.String(), ReadOptions{Names: []string{"i", "ab"}}},
		{"bom, comments, skip", "junk line\n\xef\xbb\xbf# c\na|b\n# c\n1|2\n\n3|4", ReadOptions{CSVOptions: CSVOptions{SkipLines: 1, Comment: "#"}}},
		{"cr only", "a,b\r1,2\r3,4\r", ReadOptions{}},
		{"whitespace", "  A11 6  A34\t1 \n A12 48 A32 2\n", ReadOptions{CSVOptions: CSVOptions{Whitespace: true}}},
		{"adult spaces", "39, State-gov, <=50K\n50, Self-emp, >50K\n", ReadOptions{CSVOptions: CSVOptions{Delimiter: ',', TrimSpace: true}}},
		{"header only", "a,b\n", ReadOptions{CSVOptions: CSVOptions{Header: true}}},
		{"empty", "", ReadOptions{}},
		{"ragged late", long.String() + "1,2\n", ReadOptions{}},
		{"unterminated late", long.String() + "1,\"2,3\n", ReadOptions{}},
		{"control byte late", long.String() + "1,\x01,3\n", ReadOptions{}},
		{"no such column", "a,b\n1,2\n", ReadOptions{Schema: Schema{Numeric: []string{"c"}}}},
		{"not a number late", long.String() + "abc,x,y\n", ReadOptions{Schema: Schema{Numeric: []string{"x"}}}},
		{"utf-16", "\xff\xfea\x00", ReadOptions{}},
	}
	dir := t.TempDir()
	for _, f := range files {
		path := filepath.Join(dir, "f.csv")
		if err := os.WriteFile(path, []byte(f.text), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, size := range []int{1, 7, 100, 1 << 20} {
			t.Run(fmt.Sprintf("%s/%d bytes", f.name, size), func(t *testing.T) {
				withChunkBytes(t, size)
				checkChunked(t, path, f.opt)
			})
		}
	}
}

func TestChunksSplitsFile(t *testing.T) {
	withChunkBytes(t, 100)
	path := filepath.Join(t.TempDir(), "f.csv")
	var b strings.Builder
	b.WriteString("a,b\n")
	for i := range 3000 {
		fmt.Fprintf(&b, "%d,%d\n", i, -i)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := OpenChunks(path, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var sizes []int
	next := 0
	for {
		ch, err := c.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if ch.First != next || ch.Lines[0] != next+2 || ch.Col("b").Num[0] != -float64(next) {
			t.Fatalf("chunk at row %d: First %d, line %d, b %v", next, ch.First, ch.Lines[0], ch.Col("b").Num[0])
		}
		next += ch.NumRows()
		sizes = append(sizes, ch.NumRows())
	}
	if next != 3000 || len(sizes) < 10 || sizes[0] < headerSampleRows-1 {
		t.Errorf("chunk sizes %v (%d rows)", sizes, next)
	}
}

func TestChunksWholeFormats(t *testing.T) {
	old := wholeChunkRows
	wholeChunkRows = 2
	defer func() { wholeChunkRows = old }()
	path := filepath.Join(t.TempDir(), "f.arff")
	text := "@relation r\n@attribute a numeric\n@attribute c {x,y}\n@data\n1,x\n2,y\n?,x\n4,?\n5,y\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	checkChunked(t, path, ReadOptions{})
	c, err := OpenChunks(path, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for {
		ch, err := c.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if ch.NumRows() > 2 || ch.First != n {
			t.Fatalf("chunk of %d rows at %d, want ≤ 2 at %d", ch.NumRows(), ch.First, n)
		}
		if v := ch.Col("a").Num[0]; !math.IsNaN(v) && v != []float64{1, 2, math.NaN(), 4, 5}[n] {
			t.Fatalf("row %d: a = %v", n, v)
		}
		n += ch.NumRows()
	}
	if n != 5 {
		t.Errorf("%d rows, want 5", n)
	}
}

// FuzzChunks checks that reading in small chunks gives what ReadFile gives
// (every column categorical, so that values compare as text).
func FuzzChunks(f *testing.F) {
	for _, s := range []string{"a,b\n1,2\n", "x\ty\r1\t2\r", "\"q,1\",\"a\"\"b\"\n\"multi\nline\",2\n", "caf\xe9,1\nb,2\n", "a;b\r\n\r\n1;\"2\n\"\n"} {
		f.Add(s, uint8(3))
	}
	f.Fuzz(func(t *testing.T, text string, size uint8) {
		path := filepath.Join(t.TempDir(), "f.csv")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		withChunkBytes(t, int(size%64)+1)
		opt := ReadOptions{}
		if tab, err := ReadFile(path, ReadOptions{Schema: Schema{LenientOthers: true}}); err == nil {
			opt.Schema.Categorical = tab.Names()
		}
		checkChunked(t, path, opt)
	})
}

func TestScanText(t *testing.T) {
	naive := func(b []byte) (int, bool) {
		ascii := true
		for i, c := range b {
			if controlByte[c] {
				return i, ascii
			}
			if c >= 0x80 {
				ascii = false
			}
		}
		return -1, ascii
	}
	rs := rand.New(rand.NewPCG(3, 4))
	alphabet := []byte("a,1 \t\n\r\x00\x01\x1a\x1f\x7f\x80\xc3\xa9\xff")
	for range 20000 {
		b := make([]byte, rs.IntN(40))
		for i := range b {
			if rs.IntN(4) == 0 {
				b[i] = alphabet[rs.IntN(len(alphabet))]
			} else {
				b[i] = byte(0x20 + rs.IntN(0x5f))
			}
		}
		gi, ga := scanText(b)
		wi, wa := naive(b)
		if gi != wi || ga != wa {
			t.Fatalf("scanText(%q) = %d, %v; want %d, %v", b, gi, ga, wi, wa)
		}
	}
}
