package data

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestReadCSV(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		opt    CSVOptions
		header []string
		rows   [][]string
		lines  []int
	}{
		{"simple", "a,b\n1,2\n3,4\n", CSVOptions{Header: true},
			[]string{"a", "b"}, [][]string{{"1", "2"}, {"3", "4"}}, []int{2, 3}},
		{"no trailing newline", "1,2\n3,4", CSVOptions{},
			nil, [][]string{{"1", "2"}, {"3", "4"}}, []int{1, 2}},
		{"crlf", "a,b\r\n1,2\r\n\r\n3,4\r\n", CSVOptions{Header: true},
			[]string{"a", "b"}, [][]string{{"1", "2"}, {"3", "4"}}, []int{2, 4}},
		{"cr only", "a,b\r1,2\r3,4\r", CSVOptions{Header: true},
			[]string{"a", "b"}, [][]string{{"1", "2"}, {"3", "4"}}, []int{2, 3}},
		{"bom", "\xef\xbb\xbfa,b\n1,2\n", CSVOptions{Header: true},
			[]string{"a", "b"}, [][]string{{"1", "2"}}, []int{2}},
		{"blank lines", "\n\n1,2\n   \n\t\n3,4\n\n\n", CSVOptions{},
			nil, [][]string{{"1", "2"}, {"3", "4"}}, []int{3, 6}},
		{"quotes", "\"a,1\",\"say \"\"hi\"\"\",\"\"\n", CSVOptions{},
			nil, [][]string{{"a,1", `say "hi"`, ""}}, []int{1}},
		{"newline in quotes", "x,\"two\nlines\",y\nx,\"cr\r\nlf\",z\nlast,1,2\n", CSVOptions{},
			nil, [][]string{{"x", "two\nlines", "y"}, {"x", "cr\nlf", "z"}, {"last", "1", "2"}}, []int{1, 3, 5}},
		{"quote inside unquoted field", "a\"b,c\n", CSVOptions{},
			nil, [][]string{{"a\"b", "c"}}, []int{1}},
		{"text after closing quote", "\"ab\"cd,e\n", CSVOptions{},
			nil, [][]string{{"abcd", "e"}}, []int{1}},
		{"empty fields", ",,\n1,,\n", CSVOptions{},
			nil, [][]string{{"", "", ""}, {"1", "", ""}}, []int{1, 2}},
		{"semicolon detected", "a;b\n1,5;2\n", CSVOptions{Header: true},
			[]string{"a", "b"}, [][]string{{"1,5", "2"}}, []int{2}},
		{"tab detected", "a\tb c\n1\t2\n", CSVOptions{Header: true},
			[]string{"a", "b c"}, [][]string{{"1", "2"}}, []int{2}},
		{"pipe", "a|b\n1|2\n", CSVOptions{Delimiter: '|', Header: true},
			[]string{"a", "b"}, [][]string{{"1", "2"}}, []int{2}},
		{"comma space (adult)", "39, State-gov, <=50K\n50, Self-emp, >50K\n", CSVOptions{Delimiter: ',', TrimSpace: true},
			nil, [][]string{{"39", "State-gov", "<=50K"}, {"50", "Self-emp", ">50K"}}, []int{1, 2}},
		{"trim keeps quoted spaces", "  \" a \" ,b \n", CSVOptions{TrimSpace: true},
			nil, [][]string{{" a ", "b"}}, []int{1}},
		{"no trim", " a , b\n", CSVOptions{Delimiter: ','},
			nil, [][]string{{" a ", " b"}}, []int{1}},
		{"whitespace runs", "  A11 6  A34\t1 \n A12 48 A32 2\n", CSVOptions{Whitespace: true},
			nil, [][]string{{"A11", "6", "A34", "1"}, {"A12", "48", "A32", "2"}}, []int{1, 2}},
		{"whitespace detected", "1 2  3\n4 5 6\n", CSVOptions{},
			nil, [][]string{{"1", "2", "3"}, {"4", "5", "6"}}, []int{1, 2}},
		{"whitespace quoted", "\"a b\" c\n", CSVOptions{Whitespace: true},
			nil, [][]string{{"a b", "c"}}, []int{1}},
		{"skip lines and comments (segment)", ";;; lisp\n;;; edit\n\nNAME1,NAME2\n\nX,1,2\nY,3,4\n", CSVOptions{SkipLines: 4},
			nil, [][]string{{"X", "1", "2"}, {"Y", "3", "4"}}, []int{6, 7}},
		{"comment lines", ";;; c\nh1,h2\n;;; c\n1,2\n", CSVOptions{Comment: ";;;", Header: true},
			[]string{"h1", "h2"}, [][]string{{"1", "2"}}, []int{4}},
		{"solar flare", "*******DATA1; 1969 FLARE DATA *******\nC S O 1\nD S O 1\n", CSVOptions{Whitespace: true, Comment: "*"},
			nil, [][]string{{"C", "S", "O", "1"}, {"D", "S", "O", "1"}}, []int{2, 3}},
		{"single column", "x\n1\n2\n", CSVOptions{Header: true},
			[]string{"x"}, [][]string{{"1"}, {"2"}}, []int{2, 3}},
		{"duplicate and empty header names", "a,a,,a\n1,2,3,4\n", CSVOptions{Header: true},
			[]string{"a", "a.1", "Unnamed: 2", "a.2"}, [][]string{{"1", "2", "3", "4"}}, []int{2}},
		{"multi-byte delimiter", "a→b\n1→2\n", CSVOptions{Delimiter: '→', Header: true},
			[]string{"a", "b"}, [][]string{{"1", "2"}}, []int{2}},
		{"latin-1", "caf\xe9,1\n", CSVOptions{},
			nil, [][]string{{"café", "1"}}, []int{1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := ReadCSV(strings.NewReader(tt.in), "in.csv", tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(r.Header, tt.header) {
				t.Errorf("header %q, want %q", r.Header, tt.header)
			}
			if !reflect.DeepEqual(r.Rows, tt.rows) {
				t.Errorf("rows %q, want %q", r.Rows, tt.rows)
			}
			if !reflect.DeepEqual(r.Lines, tt.lines) {
				t.Errorf("lines %v, want %v", r.Lines, tt.lines)
			}
			if r.Source != "in.csv" {
				t.Errorf("source %q", r.Source)
			}
		})
	}
}

func TestReadCSVErrors(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		opt    CSVOptions
		schema *Schema // when set, the records are typed too
		want   []string
	}{
		{"ragged", "a,b\n1,2\n\n3\n", CSVOptions{Header: true}, nil,
			[]string{"bad.csv:4:", "row has 1 fields, expected 2", "header, line 1"}},
		{"ragged no header", "1,2\n3,4,5\n", CSVOptions{}, nil,
			[]string{"bad.csv:2:", "row has 3 fields, expected 2", "first row, line 1"}},
		{"ragged after quoted newline", "1,\"a\nb\"\n3,4,5\n", CSVOptions{}, nil,
			[]string{"bad.csv:3:", "row has 3 fields"}},
		{"unterminated quote", "a,b\n1,\"oops\n2,3\n", CSVOptions{Header: true}, nil,
			[]string{"bad.csv:2:", "unterminated quoted field"}},
		{"empty", "", CSVOptions{}, nil,
			[]string{"bad.csv:", "empty file"}},
		{"only blank lines", "\n \n\r\n", CSVOptions{}, nil,
			[]string{"bad.csv:", "empty file"}},
		{"empty after preamble", "title\n", CSVOptions{SkipLines: 1}, nil,
			[]string{"bad.csv:", "empty file", "skipping 1 preamble"}},
		{"header only", "a,b\n", CSVOptions{Header: true}, nil,
			[]string{"bad.csv:", "header only (line 1)", "no data rows"}},
		{"binary", "a,b\n1,2\n\x00\x01\x02garbage", CSVOptions{}, nil,
			[]string{"bad.csv:3:", "binary data"}},
		{"utf-16", "\xff\xfea\x00,\x00b\x00", CSVOptions{}, nil,
			[]string{"bad.csv:", "UTF-16"}},
		{"max columns", "1,2,3\n", CSVOptions{MaxColumns: 2}, nil,
			[]string{"bad.csv:1:", "more than 2 fields"}},
		{"bad delimiter", "1,2\n", CSVOptions{Delimiter: '"'}, nil,
			[]string{"bad.csv:", "invalid delimiter"}},
		{"negative skip", "1,2\n", CSVOptions{SkipLines: -1}, nil,
			[]string{"bad.csv:", "SkipLines"}},
		{"text in numeric column", "x,y\n1,2\n3,abc\n", CSVOptions{Header: true}, &Schema{Numeric: []string{"y"}},
			[]string{"bad.csv:3:", `"y"`, `"abc"`, "expected a number"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := ReadCSV(strings.NewReader(tt.in), "bad.csv", tt.opt)
			if err == nil && tt.schema != nil {
				_, err = r.Table(*tt.schema)
			}
			if err == nil {
				t.Fatalf("no error; rows %q", r.Rows)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestReadCSVFile(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.csv")
	if err := os.WriteFile(plain, []byte("a,b\n1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gz := filepath.Join(dir, "small.csv.gz")
	writeGzip(t, gz, "a,b\n1,2\n3,4\n")
	disguised := filepath.Join(dir, "disguised.csv") // gzip content, plain name
	writeGzip(t, disguised, "a,b\n5,6\n")

	for _, c := range []struct {
		path string
		rows int
	}{{plain, 1}, {gz, 2}, {disguised, 1}} {
		r, err := ReadCSVFile(c.path, CSVOptions{Header: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Rows) != c.rows || r.Source != c.path {
			t.Errorf("%s: %d rows, source %q", c.path, len(r.Rows), r.Source)
		}
	}

	missing := filepath.Join(dir, "nope.csv")
	_, err := ReadCSVFile(missing, CSVOptions{})
	if err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing file: error %v does not name %s", err, missing)
	}

	broken := filepath.Join(dir, "broken.csv.gz")
	if err := os.WriteFile(broken, []byte{0x1f, 0x8b, 8, 0, 0, 0}, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadCSVFile(broken, CSVOptions{}); err == nil || !strings.Contains(err.Error(), broken) {
		t.Errorf("broken gzip: error %v does not name the file", err)
	}
}

func TestDetectDelimiter(t *testing.T) {
	tests := []struct {
		in   string
		d    rune
		ws   bool
		desc string
	}{
		{"a,b,c\n1,2,3\n", ',', false, "comma"},
		{"a;b;c\n1,5;2,5;3\n", ';', false, "semicolon with decimal commas"},
		{"a\tb\n1\t2\n", '\t', false, "tab"},
		{"a|b\n1|2\n", '|', false, "pipe"},
		{"1 2 3\n4  5 6\n", ' ', true, "blank runs"},
		{"\"x,y\";b\n\"1,2\";3\n", ';', false, "commas inside quotes ignored"},
		{"title; here\n1,2\n3,4\n5,6\n", ',', false, "title line ignored"},
		{"a;b\n1,5;2\n3,5;4\n5,5;6\n", ';', false, "semicolon on every line, commas below the header"},
		{"1,5;2,25\n3,5;4,5\n5,5;6,5\n", ';', false, "decimal commas, no header"},
		{"1,5;2,x\n3,5;4,5\n5,5;6,5\n", ',', false, "a comma that is not a decimal comma"},
		{"single\ncolumn\n", ',', false, "fallback"},
		{"", ',', false, "empty"},
	}
	for _, tt := range tests {
		d, ws := detectDelimiter(tt.in, "")
		if d != tt.d || ws != tt.ws {
			t.Errorf("%s: got %q/%v, want %q/%v", tt.desc, d, ws, tt.d, tt.ws)
		}
	}
}

func ExampleReadCSV() {
	const text = `sepal length,sepal width,class
5.1,3.5,Iris-setosa

7.0,3.2,"Iris, versicolor"
`
	r, err := ReadCSV(strings.NewReader(text), "iris.csv", CSVOptions{Header: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.Header)
	for i, row := range r.Rows {
		fmt.Printf("line %d: %q\n", r.Lines[i], row)
	}
	t, _ := r.Table(Schema{})
	fmt.Println(t.Col("sepal width").Kind, t.Col("class").Kind, t.Col("class").Levels)

	_, err = ReadCSV(strings.NewReader("a,b\n1,2\n3\n"), "bad.csv", CSVOptions{Header: true})
	fmt.Println(err)
	// Output:
	// [sepal length sepal width class]
	// line 2: ["5.1" "3.5" "Iris-setosa"]
	// line 4: ["7.0" "3.2" "Iris, versicolor"]
	// numeric categorical [Iris-setosa Iris, versicolor]
	// bad.csv:3: row has 1 fields, expected 2 (header, line 1)
}
