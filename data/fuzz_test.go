package data

import (
	"errors"
	"strings"
	"testing"
)

// FuzzReadCSV checks that ReadCSV never panics and that what it returns is
// well formed: every row has NumCols fields, one line number per row, line
// numbers strictly increasing, and typing the records never panics.
func FuzzReadCSV(f *testing.F) {
	seeds := []struct {
		data    string
		delim   rune
		flags   uint8 // bit 0 Whitespace, 1 Header, 2 TrimSpace
		skip    uint8
		comment string
	}{
		{"a,b\n1,2\n", 0, 2, 0, ""},
		{"a;b\r\n1;2\r\n", ';', 2, 0, ""},
		{"x\ty\r1\t2\r", 0, 2, 0, ""},
		{"\"q,1\",\"a\"\"b\"\n\"multi\nline\",2\n", ',', 0, 0, ""},
		{"\"unterminated,1\n", ',', 0, 0, ""},
		{";;; c\n;;; d\n\nA,B\n\nX,1,2\n", 0, 0, 4, ""},
		{"*title\nC S O 1\nD S O 2\n", 0, 1, 0, "*"},
		{"  1  2 3 \n4 5 6\n", 0, 1, 0, ""},
		{"39, State-gov, <=50K\n", ',', 4, 0, ""},
		{"\xef\xbb\xbfa|b\n1|2\n\n\n", '|', 2, 0, ""},
		{"a,b\n1\n", 0, 2, 0, ""},
		{"", 0, 0, 0, ""},
		{"\x00\x01", 0, 0, 0, ""},
		{"caf\xe9,1\n", 0, 0, 0, ""},
		{"a→b\n1→2\n", '→', 2, 0, ""},
		{"a,a,,a\n1,2,3,4\n", ',', 2, 0, ""},
		{"\"ab\"cd,e\n", ',', 4, 0, ""},
		{"% c\n1,?,NA\n2,x,3\n", 0, 0, 0, "%"},
		{"age\n1\n2\n3\n4\n5\n6\n7\n8\n9\n10\nabc\n", 0, 0, 0, ""},
		{"a;b\n3,5;1.234,5\n\"1,234.5\";2\n", 0, 2, 0, ""},
	}
	for _, s := range seeds {
		f.Add(s.data, s.delim, s.flags, s.skip, s.comment)
	}
	f.Fuzz(func(t *testing.T, data string, delim rune, flags, skip uint8, comment string) {
		opt := CSVOptions{
			Delimiter:  delim,
			Whitespace: flags&1 != 0,
			Header:     flags&2 != 0,
			TrimSpace:  flags&4 != 0,
			SkipLines:  int(skip % 8),
			Comment:    comment,
			MaxColumns: 1000,
		}
		r, err := ReadCSV(strings.NewReader(data), "fuzz.csv", opt)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.csv:") {
				t.Fatalf("error does not name the source: %v", err)
			}
			return
		}
		n := r.NumCols()
		if n == 0 {
			t.Fatalf("success with no columns")
		}
		if len(r.Rows) == 0 {
			t.Fatalf("success with no rows")
		}
		if len(r.Lines) != len(r.Rows) {
			t.Fatalf("%d lines for %d rows", len(r.Lines), len(r.Rows))
		}
		for i, row := range r.Rows {
			if len(row) != n {
				t.Fatalf("row %d has %d fields, NumCols %d", i, len(row), n)
			}
			if r.Lines[i] < 1 || (i > 0 && r.Lines[i] <= r.Lines[i-1]) {
				t.Fatalf("bad line numbers %v", r.Lines)
			}
		}
		tab, err := r.Table(Schema{LenientOthers: true})
		if err != nil {
			t.Fatalf("Table: %v", err)
		}
		// The column rule only adds errors: where it passes, the kinds and
		// values are those of the older rule.
		if strict, err := r.Table(Schema{}); err != nil {
			var ce *ColumnError
			if !errors.As(err, &ce) || ce.Declared || !strings.HasPrefix(err.Error(), "fuzz.csv:") || ce.Count == 0 {
				t.Fatalf("Table: %v", err)
			}
		} else if msg := sameTable(tab, strict); msg != "" {
			t.Fatalf("the column rule changed the table: %s", msg)
		}
		if err := tab.Validate(); err != nil {
			t.Fatalf("Validate: %v", err)
		}
		if tab.NumRows() != len(r.Rows) || tab.NumCols() != n {
			t.Fatalf("table %dx%d, records %dx%d", tab.NumRows(), tab.NumCols(), len(r.Rows), n)
		}
		if _, err := r.Table(Schema{Numeric: r.Names()[:1]}); err != nil && !strings.HasPrefix(err.Error(), "fuzz.csv:") {
			t.Fatalf("Table error does not name the source: %v", err)
		}
	})
}

// FuzzReadARFF checks that ReadARFF never panics and returns valid tables.
func FuzzReadARFF(f *testing.F) {
	seeds := []string{
		weatherARFF,
		"@relation r\n@attribute a numeric\n@data\n1\n?\n",
		"@attribute 'a b' {x,'y z'}\n@attribute c string\n@data\n'y z','q'\nx,?\n",
		"@ATTRIBUTE a REAL\r\n@DATA\r\n1e3\r\n",
		"@attribute a numeric\n@data\n{0 1}\n",
		"@attribute a {x}\n@data\ny\n",
		"@attribute a date 'yyyy'\n@data\n'2020'\n",
		"@attribute a string\n@data\n'unterminated\n",
		"% only comment\n",
		"@attribute a numeric % c\n@attribute b {p,q}\n@data\n1,p % c\n",
		"@attribute a{}\n@data\n?\n",
		"@attribute \"q\\\"x\" numeric\n@data\n1\n",
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) {
		tab, err := ReadARFF(strings.NewReader(data), "fuzz.arff")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.arff:") {
				t.Fatalf("error does not name the source: %v", err)
			}
			return
		}
		if tab.NumCols() == 0 || tab.NumRows() == 0 {
			t.Fatalf("success with %d columns and %d rows", tab.NumCols(), tab.NumRows())
		}
		if err := tab.Validate(); err != nil {
			t.Fatalf("Validate: %v", err)
		}
	})
}
