// Package data holds gdt's typed column table, the readers that fill it
// (CSV, ARFF, Parquet), and the row splits used by the evaluation protocols.
package data

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Kind is the type of a column.
type Kind uint8

const (
	// Numeric columns hold float64 values; NaN marks a missing value.
	Numeric Kind = iota
	// Categorical columns hold integer codes into Levels; -1 marks a missing value.
	Categorical
)

func (k Kind) String() string {
	switch k {
	case Numeric:
		return "numeric"
	case Categorical:
		return "categorical"
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// Missing is the code of a missing categorical value.
const Missing int32 = -1

// Column is one typed column. Exactly one of Num (numeric) or Codes
// (categorical) is used.
type Column struct {
	Name   string
	Kind   Kind
	Num    []float64 // numeric values, NaN = missing
	Codes  []int32   // categorical codes into Levels, Missing = missing
	Levels []string  // categorical levels, in order of first appearance
}

// Len returns the number of rows of the column.
func (c *Column) Len() int {
	if c.Kind == Numeric {
		return len(c.Num)
	}
	return len(c.Codes)
}

// IsMissing reports whether row i is missing.
func (c *Column) IsMissing(i int) bool {
	if c.Kind == Numeric {
		return math.IsNaN(c.Num[i])
	}
	return c.Codes[i] == Missing
}

// String returns row i as text ("" when missing).
func (c *Column) String(i int) string {
	if c.Kind == Numeric {
		if math.IsNaN(c.Num[i]) {
			return ""
		}
		return strconv.FormatFloat(c.Num[i], 'g', -1, 64)
	}
	if c.Codes[i] == Missing {
		return ""
	}
	return c.Levels[c.Codes[i]]
}

// Level returns the code of level s, or Missing if s is not a level.
func (c *Column) Level(s string) int32 {
	for i, l := range c.Levels {
		if l == s {
			return int32(i)
		}
	}
	return Missing
}

// Subset returns a new column holding rows idx (in that order). Levels are
// shared, not copied.
func (c *Column) Subset(idx []int) *Column {
	out := &Column{Name: c.Name, Kind: c.Kind, Levels: c.Levels}
	if c.Kind == Numeric {
		out.Num = make([]float64, len(idx))
		for i, j := range idx {
			out.Num[i] = c.Num[j]
		}
	} else {
		out.Codes = make([]int32, len(idx))
		for i, j := range idx {
			out.Codes[i] = c.Codes[j]
		}
	}
	return out
}

// NewNumeric returns a numeric column.
func NewNumeric(name string, v []float64) *Column {
	return &Column{Name: name, Kind: Numeric, Num: v}
}

// NewCategorical returns a categorical column from text values; values equal
// to one of missing become Missing. Levels are numbered in order of first
// appearance.
func NewCategorical(name string, values []string, missing ...string) *Column {
	return newCategorical(name, values, newMarkerSet(missing))
}

func newCategorical(name string, values []string, missing markerSet) *Column {
	b := newLevelCoder(name, len(values), missing)
	for i, v := range values {
		b.set(i, v)
	}
	return b.c
}

// levelCoder fills a categorical column value by value: levels are numbered
// in order of first appearance, missing markers become Missing.
type levelCoder struct {
	c       *Column
	index   map[string]int32
	missing markerSet
}

func newLevelCoder(name string, n int, missing markerSet) *levelCoder {
	return &levelCoder{c: &Column{Name: name, Kind: Categorical, Codes: make([]int32, n)}, index: map[string]int32{}, missing: missing}
}

// set codes value v at row i.
func (b *levelCoder) set(i int, v string) {
	if b.missing.has(v) {
		b.c.Codes[i] = Missing
		return
	}
	code, ok := b.index[v]
	if !ok {
		code = int32(len(b.c.Levels))
		b.index[v] = code
		b.c.Levels = append(b.c.Levels, v)
	}
	b.c.Codes[i] = code
}

func isOneOf(s string, set []string) bool {
	for _, m := range set {
		if s == m {
			return true
		}
	}
	return false
}

// Table is a set of equally long named columns.
type Table struct {
	Columns []*Column
}

// NumRows returns the number of rows (0 for a table without columns).
func (t *Table) NumRows() int {
	if len(t.Columns) == 0 {
		return 0
	}
	return t.Columns[0].Len()
}

// NumCols returns the number of columns.
func (t *Table) NumCols() int { return len(t.Columns) }

// Col returns the column called name, or nil.
func (t *Table) Col(name string) *Column {
	for _, c := range t.Columns {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// Index returns the position of column name, or -1.
func (t *Table) Index(name string) int {
	for i, c := range t.Columns {
		if c.Name == name {
			return i
		}
	}
	return -1
}

// Names returns the column names in order.
func (t *Table) Names() []string {
	out := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		out[i] = c.Name
	}
	return out
}

// Subset returns a table with rows idx (in that order).
func (t *Table) Subset(idx []int) *Table {
	out := &Table{Columns: make([]*Column, len(t.Columns))}
	for i, c := range t.Columns {
		out.Columns[i] = c.Subset(idx)
	}
	return out
}

// Validate checks that all columns have the same length and well-formed codes.
func (t *Table) Validate() error {
	n := t.NumRows()
	seen := map[string]bool{}
	for _, c := range t.Columns {
		if seen[c.Name] {
			return fmt.Errorf("data: duplicate column name %q", c.Name)
		}
		seen[c.Name] = true
		if c.Len() != n {
			return fmt.Errorf("data: column %q has %d rows, want %d", c.Name, c.Len(), n)
		}
		if c.Kind == Categorical {
			for i, code := range c.Codes {
				if code < Missing || int(code) >= len(c.Levels) {
					return fmt.Errorf("data: column %q row %d: code %d outside 0..%d", c.Name, i, code, len(c.Levels)-1)
				}
			}
		}
	}
	return nil
}

// Task is the learning task of a dataset.
type Task uint8

const (
	// Binary classification with labels 0 and 1.
	Binary Task = iota
	// Multiclass classification with labels 0..C-1.
	Multiclass
	// Regression with a real-valued target.
	Regression
)

func (t Task) String() string {
	switch t {
	case Binary:
		return "binary"
	case Multiclass:
		return "multiclass"
	case Regression:
		return "regression"
	}
	return fmt.Sprintf("Task(%d)", t)
}

// ParseTask parses "binary", "multiclass" or "regression".
func ParseTask(s string) (Task, error) {
	switch strings.ToLower(s) {
	case "binary":
		return Binary, nil
	case "multiclass":
		return Multiclass, nil
	case "regression":
		return Regression, nil
	}
	return 0, fmt.Errorf("unknown task %q (want binary, multiclass or regression)", s)
}

// Dataset is a feature table with a target: class indices 0..C-1 for
// classification, real values for regression.
type Dataset struct {
	Name    string
	Task    Task
	X       *Table
	Y       []float64
	Classes []string // class names by index (classification only)
}

// NumClasses returns the number of classes (1 for regression).
func (d *Dataset) NumClasses() int {
	if d.Task == Regression {
		return 1
	}
	return len(d.Classes)
}

// Subset returns the dataset restricted to rows idx.
func (d *Dataset) Subset(idx []int) *Dataset {
	y := make([]float64, len(idx))
	for i, j := range idx {
		y[i] = d.Y[j]
	}
	return &Dataset{Name: d.Name, Task: d.Task, X: d.X.Subset(idx), Y: y, Classes: d.Classes}
}

// ClassCounts returns the number of rows per class.
func (d *Dataset) ClassCounts() []int {
	counts := make([]int, d.NumClasses())
	if d.Task == Regression {
		counts[0] = len(d.Y)
		return counts
	}
	for _, y := range d.Y {
		counts[int(y)]++
	}
	return counts
}
