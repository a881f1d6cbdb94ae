package data

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCommaNumber(t *testing.T) {
	tests := []struct {
		in   string
		want commaStyle
	}{
		{"3,5", decimalComma},
		{"-0,25", decimalComma},
		{"1.234,5", decimalComma},
		{"12.345.678,90", decimalComma},
		{"1.234.567", decimalComma},
		{"1,2345", decimalComma},
		{"1234,5", decimalComma},
		{"1,234.5", thousandsSep},
		{"12,345,678", thousandsSep},
		{"+1,234,567.25", thousandsSep},
		{"1,234", eitherComma},
		{"999,000", eitherComma},
		{"abc", notComma},
		{"0x10", notComma},
		{"1,2,3", notComma},
		{"1,23,456", notComma},
		{",5", notComma},
		{"5,", notComma},
		{"1.234", notComma}, // a plain number, parsed as such
		{"a,b", notComma},
		{"1;2", notComma},
		{"", notComma},
	}
	for _, tt := range tests {
		if got := commaNumber(tt.in); got != tt.want {
			t.Errorf("commaNumber(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

// numericFile writes a CSV with an id column, an Age column of n rows
// (ages 20, 21, …) whose rows listed in odd hold those values instead, and
// returns its path.
func numericFile(t *testing.T, delim string, n int, odd map[int]string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("id" + delim + "Age\n")
	for i := range n {
		v := fmt.Sprint(20 + i%50)
		if s, ok := odd[i]; ok {
			v = s
		}
		fmt.Fprintf(&b, "r%d%s%s\n", i, delim, v)
	}
	path := filepath.Join(t.TempDir(), "people.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestNumericLookingColumns checks the rule of NumericLookingPercent: its
// errors name file:line, column and value, and --categorical or
// --na-values (Schema.Categorical, ReadOptions.NAValues) make the file read.
func TestNumericLookingColumns(t *testing.T) {
	tests := []struct {
		name  string
		delim string
		odd   map[int]string
		opt   ReadOptions
		want  []string // error parts; nil: no error
		kind  Kind     // Age's kind when no error
		nan   int      // missing Age values when no error
	}{
		{"one word", ",", map[int]string{7: "abc"}, ReadOptions{},
			[]string{"people.csv:9:", `column 2 ("Age")`, `"abc" is not a number`, "99 of the column's 100", "1 value is not", "--categorical Age", "--na-values abc"}, 0, 0},
		{"hex", ",", map[int]string{3: "0x10"}, ReadOptions{},
			[]string{"people.csv:5:", `"Age"`, `"0x10"`}, 0, 0},
		{"several words", ",", map[int]string{10: "n/a", 20: "unknown", 30: "n/a", 40: "old one"}, ReadOptions{},
			[]string{"people.csv:12:", `"n/a" is not a number`, "96 of the column's 100", "4 values are not", `"n/a", "unknown", "old one"`, `--na-values 'n/a,unknown,old one'`}, 0, 0},
		{"declared categorical", ",", map[int]string{7: "abc"}, ReadOptions{Schema: Schema{Categorical: []string{"Age"}}},
			nil, Categorical, 0},
		{"declared missing", ",", map[int]string{7: "abc"}, ReadOptions{NAValues: []string{"abc"}},
			nil, Numeric, 1},
		{"declared missing, several", ",", map[int]string{10: "n/a", 20: "unknown", 30: "n/a"}, ReadOptions{NAValues: []string{"n/a", "unknown"}},
			nil, Numeric, 3},
		{"default missing markers stay missing", ",", map[int]string{1: "?", 2: "NA", 3: ""}, ReadOptions{},
			nil, Numeric, 3},
		{"thousands separator", ",", map[int]string{12: `"1,234.5"`}, ReadOptions{},
			[]string{"people.csv:14:", `"Age"`, `"1,234.5" is a number written with a thousands separator`, "gdt reads only '.' as the decimal point"}, 0, 0},
		{"decimal commas", ";", map[int]string{0: "3,5", 1: "1.234,5", 5: "20,25"}, ReadOptions{},
			[]string{"people.csv:2:", `"Age"`, `"3,5" is a number written with a decimal comma`, "3 of the column's 100 non-missing values are written with commas", "3,5 -> 3.5"}, 0, 0},
		{"all decimal commas", ";", func() map[int]string {
			m := map[int]string{}
			for i := range 100 {
				m[i] = fmt.Sprintf("%d,%d", i, i%10)
			}
			return m
		}(), ReadOptions{},
			[]string{"people.csv:2:", `"0,0" is a number written with a decimal comma`, "100 of the column's 100"}, 0, 0},
		{"decimal comma declared categorical", ";", map[int]string{0: "3,5"}, ReadOptions{Schema: Schema{Categorical: []string{"Age"}}},
			nil, Categorical, 0},
		{"text column with numbers", ",", func() map[int]string {
			m := map[int]string{}
			for i := range 100 {
				if i%3 == 0 {
					m[i] = "child"
				}
			}
			return m
		}(), ReadOptions{}, nil, Categorical, 0},
		{"lenient others", ",", map[int]string{7: "abc"}, ReadOptions{Schema: Schema{LenientOthers: true}},
			nil, Categorical, 0},
		{"lenient column", ",", map[int]string{7: "abc"}, ReadOptions{Schema: Schema{Lenient: []string{"Age"}}},
			nil, Categorical, 0},
		{"declared numeric", ",", map[int]string{7: "abc"}, ReadOptions{Schema: Schema{Numeric: []string{"Age"}}},
			[]string{"people.csv:9:", `column 2 ("Age")`, `expected a number, found "abc"`, "--na-values abc"}, 0, 0},
		{"declared numeric, decimal comma", ";", map[int]string{4: "3,5"}, ReadOptions{Schema: Schema{Numeric: []string{"Age"}}},
			[]string{"people.csv:6:", `"Age"`, `expected a number, found "3,5"`, "decimal comma"}, 0, 0},
		{"declared numeric, declared missing", ",", map[int]string{7: "abc"}, ReadOptions{Schema: Schema{Numeric: []string{"Age"}}, NAValues: []string{"abc"}},
			nil, Numeric, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := numericFile(t, tt.delim, 100, tt.odd)
			tab, err := ReadFile(path, tt.opt)
			if tt.want != nil {
				if err == nil {
					t.Fatalf("no error; Age is %v", tab.Col("Age").Kind)
				}
				var ce *ColumnError
				if !errors.As(err, &ce) {
					t.Errorf("error %T, want *ColumnError", err)
				}
				for _, w := range tt.want {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q lacks %q", err, w)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			age := tab.Col("Age")
			if age.Kind != tt.kind {
				t.Fatalf("Age is %v, want %v", age.Kind, tt.kind)
			}
			nan := 0
			for i := range age.Len() {
				if age.IsMissing(i) {
					nan++
				}
			}
			if nan != tt.nan {
				t.Errorf("%d missing ages, want %d", nan, tt.nan)
			}
			if age.Kind == Numeric && !math.IsNaN(age.Num[0]) && age.Num[0] != 20 {
				t.Errorf("first age %v, want 20", age.Num[0])
			}
		})
	}
}

// TestLoadDatasetLenientTarget: a classification target may mix numbers and
// text (UCI annealing's classes 1, 2, 3, 5, U).
func TestLoadDatasetLenientTarget(t *testing.T) {
	var b strings.Builder
	b.WriteString("x,class\n")
	for i := range 50 {
		c := fmt.Sprint(1 + i%3)
		if i == 10 {
			c = "U"
		}
		fmt.Fprintf(&b, "%d,%s\n", i, c)
	}
	path := filepath.Join(t.TempDir(), "anneal.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ds, err := LoadDataset(path, "class", "", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(ds.Classes, " "); got != "1 2 3 U" {
		t.Errorf("classes %q, want 1 2 3 U", got)
	}
}

// TestNAValuesTypedFormats: NAValues make ARFF values and Parquet text
// missing too.
func TestNAValuesTypedFormats(t *testing.T) {
	dir := t.TempDir()
	arff := filepath.Join(dir, "a.arff")
	text := "@relation r\n@attribute age numeric\n@attribute color {red,blue}\n@data\n1,red\nn/a,blue\n3,n/a\n"
	if err := os.WriteFile(arff, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(arff, ReadOptions{}); err == nil || !strings.Contains(err.Error(), `a.arff:6: column 1 ("age"): expected a number, found "n/a"`) {
		t.Errorf("without NAValues: %v", err)
	}
	tab, err := ReadFile(arff, ReadOptions{NAValues: []string{"n/a"}})
	if err != nil {
		t.Fatal(err)
	}
	if !tab.Col("age").IsMissing(1) || tab.Col("age").Num[2] != 3 || !tab.Col("color").IsMissing(2) {
		t.Errorf("age %v, color codes %v", tab.Col("age").Num, tab.Col("color").Codes)
	}

	type row struct {
		Color string `parquet:"color"`
		N     int32  `parquet:"n"`
	}
	pq := filepath.Join(dir, "p.parquet")
	writeParquet(t, pq, []row{{"red", 1}, {"n/a", 2}, {"blue", 3}, {"n/a", 4}})
	tab, err = ReadFile(pq, ReadOptions{NAValues: []string{"n/a"}})
	if err != nil {
		t.Fatal(err)
	}
	c := tab.Col("color")
	if got := fmt.Sprint(c.Levels, c.Codes); got != "[red blue] [0 -1 1 -1]" {
		t.Errorf("color %s, want [red blue] [0 -1 1 -1]", got)
	}
}

// TestChunksColumnRule: OpenChunks applies NAValues and the rule per chunk.
func TestChunksColumnRule(t *testing.T) {
	path := numericFile(t, ",", 100, map[int]string{7: "abc"})
	if _, err := OpenChunks(path, ReadOptions{}); err == nil || !strings.Contains(err.Error(), `people.csv:9: column 2 ("Age"): "abc" is not a number`) {
		t.Errorf("OpenChunks: %v", err)
	}
	c, err := OpenChunks(path, ReadOptions{NAValues: []string{"abc"}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ch, err := c.Next()
	if err != nil {
		t.Fatal(err)
	}
	if age := ch.Col("Age"); age.Kind != Numeric || !age.IsMissing(7) {
		t.Errorf("Age %v, row 7 missing %v", age.Kind, age.IsMissing(7))
	}
}
