package data

import (
	"fmt"
	"strings"
)

// NumericLookingPercent is the one rule for columns of delimited text whose
// kind is not declared (Schema.Categorical, Schema.Numeric):
//
//   - every non-missing field parses as a number: the column is numeric;
//   - at least NumericLookingPercent % of the non-missing fields are
//     numbers, counting numbers written with a decimal comma or thousands
//     separators ("3,5", "1.234,5", "1,234.5") as numbers: the column is
//     numeric-looking, and its other fields are an error (*ColumnError)
//     naming the file, line, column and value, and how many such fields
//     there are — unless the column is declared categorical or those
//     values declared missing (ReadOptions.NAValues); a column of numbers
//     written with commas is always such an error, since gdt reads only
//     '.' as the decimal point;
//   - otherwise the column is categorical.
//
// Before this rule one stray field ("abc" in an age column) silently made
// a numeric column categorical with a level per distinct number.
// Schema.Lenient and Schema.LenientOthers keep that older rule for the
// columns they name (LoadDataset's target) or for all undeclared columns
// (the columns of a file given to a model that the model does not use).
const NumericLookingPercent = 90

// commaStyle says how a field that is not a plain number writes one with a
// comma or grouped digits.
type commaStyle uint8

const (
	notComma     commaStyle = iota
	decimalComma            // "3,5", "1.234,5", "1.234.567"
	thousandsSep            // "1,234.5", "12,345,678"
	eitherComma             // "1,234": a decimal comma or a thousands separator
)

// describe names the style in an error message.
func (s commaStyle) describe() string {
	switch s {
	case decimalComma:
		return "a decimal comma"
	case thousandsSep:
		return "a thousands separator"
	}
	return "a comma (a decimal comma or a thousands separator)"
}

// commaNumber classifies s (trimmed, not a plain number).
func commaNumber(s string) commaStyle {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	// groups splits digits separated by sep into runs; ok is false for any
	// other byte or an empty run.
	groups := func(s string, sep byte) ([]int, bool) {
		var g []int
		n := 0
		for i := 0; i < len(s); i++ {
			switch c := s[i]; {
			case '0' <= c && c <= '9':
				n++
			case c == sep:
				if n == 0 {
					return nil, false
				}
				g, n = append(g, n), 0
			default:
				return nil, false
			}
		}
		if n == 0 {
			return nil, false
		}
		return append(g, n), true
	}
	// thousands reports whether the runs are 1–3 digits, then 3-digit groups.
	thousands := func(g []int) bool {
		if len(g) < 2 || g[0] > 3 {
			return false
		}
		for _, k := range g[1:] {
			if k != 3 {
				return false
			}
		}
		return true
	}
	intPart, frac, hasComma := strings.Cut(s, ",")
	if hasComma {
		// "3,5", "1.234,5" (decimal comma), "1,234.5", "12,345" (thousands).
		if g, ok := groups(frac, '.'); ok && len(g) == 1 {
			// one comma, digits after it
			if gi, ok := groups(intPart, '.'); ok && (len(gi) == 1 || thousands(gi)) {
				if len(gi) == 1 && len(intPart) <= 3 && len(frac) == 3 {
					return eitherComma // "1,234"
				}
				return decimalComma
			}
		}
		if g, ok := groups(s, ','); ok {
			// only digits and commas: "12,345,678"
			if thousands(g) {
				return thousandsSep
			}
			return notComma
		}
		if whole, dec, ok := strings.Cut(s, "."); ok {
			// "1,234.5"
			if g, ok := groups(whole, ','); ok && thousands(g) {
				if d, ok := groups(dec, '.'); ok && len(d) == 1 {
					return thousandsSep
				}
			}
		}
		return notComma
	}
	// "1.234.567": dots as thousands separators (a plain "1.234" parses).
	if g, ok := groups(s, '.'); ok && len(g) > 2 && thousands(g) {
		return decimalComma
	}
	return notComma
}

// maxShownValues bounds the distinct offending values a ColumnError lists.
const maxShownValues = 5

// ColumnError reports a column whose fields are not all numbers although
// its type says (Declared) or its other fields suggest (see
// NumericLookingPercent) that it holds numbers.
type ColumnError struct {
	Source   string // file name
	Line     int    // source line of the first offending field (0: unknown)
	Row      int    // 0-based row of the first offending field
	Column   int    // 1-based column number
	Name     string // column name
	Value    string // the first offending field
	Declared bool   // the column was declared numeric (Schema.Numeric)
	// Count is the number of offending fields (not numbers, not missing),
	// Commas how many of them are numbers written with a decimal comma or
	// grouped digits, Numbers the fields that are numbers and NonMissing
	// all non-missing fields of the column. They are not set when
	// Declared: such an error stops at the first offending field.
	Count, Commas, Numbers, NonMissing int
	// Values are the first few distinct offending values.
	Values []string
	// Comma is set when Value is a number written with a decimal comma or
	// grouped digits.
	Comma commaStyle
}

// convertHint says how numbers written with commas are read.
const convertHint = "gdt reads only '.' as the decimal point and no digit grouping: convert the file (e.g. 3,5 -> 3.5, 1,234.5 -> 1234.5)"

func (e *ColumnError) Error() string {
	var b strings.Builder
	if e.Line > 0 {
		fmt.Fprintf(&b, "%s:%d: ", e.Source, e.Line)
	} else {
		fmt.Fprintf(&b, "%s: row %d: ", e.Source, e.Row+1)
	}
	fmt.Fprintf(&b, "column %d (%q): ", e.Column, e.Name)
	switch {
	case e.Declared && e.Comma != notComma:
		fmt.Fprintf(&b, "expected a number, found %q, a number written with %s; %s", e.Value, e.Comma.describe(), convertHint)
	case e.Declared:
		fmt.Fprintf(&b, "expected a number, found %q (declare such values missing with --na-values %s)", e.Value, shellQuote(e.Value))
	case e.Comma != notComma:
		fmt.Fprintf(&b, "%q is a number written with %s (%d of the column's %d non-missing values are written with commas or grouped digits, %d %s plain numbers",
			e.Value, e.Comma.describe(), e.Commas, e.NonMissing, e.Numbers, plural(e.Numbers, "is", "are"))
		if other := e.Count - e.Commas; other > 0 {
			fmt.Fprintf(&b, ", %d %s", other, plural(other, "is not a number", "are not numbers"))
		}
		fmt.Fprintf(&b, "); %s, or declare the column categorical (--categorical %s)", convertHint, shellQuote(e.Name))
	default:
		fmt.Fprintf(&b, "%q is not a number, but %d of the column's %d non-missing values are (%d %s not: %s); declare the column categorical (--categorical %s) or these values missing (--na-values %s)",
			e.Value, e.Numbers, e.NonMissing, e.Count, plural(e.Count, "value is", "values are"), quoteValues(e.Values, e.Count), shellQuote(e.Name), shellQuote(strings.Join(e.Values, ",")))
	}
	return b.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// quoteValues lists the distinct values, saying when there are more.
func quoteValues(vals []string, count int) string {
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = fmt.Sprintf("%q", clipText(v))
	}
	s := strings.Join(q, ", ")
	if len(vals) == maxShownValues && count > len(vals) {
		s += ", …"
	}
	return s
}

// shellQuote quotes s for a shell command line when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '-' || r == '_' || r == '.' || r == ',' || r == '/' || r == ':' || r == '+' ||
			'0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// columnCensus counts the fields of one column while it is typed.
type columnCensus struct {
	numbers, other int
	comma          int        // other fields that are numbers written with commas
	firstRow       int        // row of the field to name (a comma number if any)
	first          string     // its value
	firstStyle     commaStyle // its comma style
	values         []string   // distinct other values (at most maxShownValues)
}

// otherField records a field at row i that is neither a number nor missing.
func (c *columnCensus) otherField(i int, v string) {
	style := commaNumber(v)
	if c.other == 0 || style != notComma && (c.comma == 0 || c.firstStyle == eitherComma && style != eitherComma) {
		// name the first such field, or the first comma number (an
		// unambiguous one says more)
		c.firstRow, c.first, c.firstStyle = i, v, style
	}
	if style != notComma {
		c.comma++
	}
	c.other++
	if len(c.values) < maxShownValues && !isOneOf(v, c.values) {
		c.values = append(c.values, v)
	}
}

// hopeless reports whether the column can no longer be numeric-looking
// with rest fields still to come.
func (c *columnCensus) hopeless(rest int) bool {
	good := c.numbers + c.comma + rest
	bad := c.other - c.comma
	return 100*good < NumericLookingPercent*(good+bad)
}

// numericLooking applies NumericLookingPercent to the counted column.
func (c *columnCensus) numericLooking() bool {
	nonMissing := c.numbers + c.other
	return nonMissing > 0 && 100*(c.numbers+c.comma) >= NumericLookingPercent*nonMissing
}

// error returns the ColumnError of a numeric-looking column j of the
// records of source.
func (c *columnCensus) error(source string, lines []int, j int, name string) *ColumnError {
	e := &ColumnError{Source: source, Row: c.firstRow, Column: j + 1, Name: name, Value: c.first, Comma: c.firstStyle,
		Count: c.other, Commas: c.comma, Numbers: c.numbers, NonMissing: c.numbers + c.other, Values: c.values}
	if lines != nil && c.firstRow < len(lines) {
		e.Line = lines[c.firstRow]
	}
	return e
}

// declaredError reports field v at row i of column j, declared numeric.
func declaredError(source string, lines []int, i, j int, name, v string) *ColumnError {
	e := &ColumnError{Source: source, Row: i, Column: j + 1, Name: name, Value: v, Declared: true, Comma: commaNumber(v)}
	if lines != nil && i < len(lines) {
		e.Line = lines[i]
	}
	return e
}
