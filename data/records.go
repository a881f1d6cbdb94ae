package data

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Records are the raw text fields of a delimited file, before typing. Each
// row remembers the 1-based line it started on, so later errors can point at
// the source.
type Records struct {
	Source string     // file name (or "<stdin>") used in error messages
	Header []string   // column names; nil when the file has none
	Rows   [][]string // fields of each data row
	Lines  []int      // 1-based source line of each row
}

// NumCols returns the number of fields per row (all rows have the same
// number; readers reject ragged rows).
func (r *Records) NumCols() int {
	if r.Header != nil {
		return len(r.Header)
	}
	if len(r.Rows) > 0 {
		return len(r.Rows[0])
	}
	return 0
}

// Names returns the header, or "col1", "col2", … when there is none.
func (r *Records) Names() []string {
	if r.Header != nil {
		return r.Header
	}
	n := r.NumCols()
	out := make([]string, n)
	for i := range out {
		out[i] = "col" + strconv.Itoa(i+1)
	}
	return out
}

// Append adds the rows of o (which must have the same number of columns),
// as when a dataset is split over several files.
func (r *Records) Append(o *Records) error {
	if r.NumCols() != o.NumCols() && len(o.Rows) > 0 && len(r.Rows) > 0 {
		return fmt.Errorf("%s: %d columns, but %s has %d", o.Source, o.NumCols(), r.Source, r.NumCols())
	}
	r.Rows = append(r.Rows, o.Rows...)
	r.Lines = append(r.Lines, o.Lines...)
	if r.Source != o.Source {
		r.Source = r.Source + "+" + o.Source
	}
	return nil
}

// Column returns the fields of column j.
func (r *Records) Column(j int) []string {
	out := make([]string, len(r.Rows))
	for i, row := range r.Rows {
		out[i] = row[j]
	}
	return out
}

// Schema says how text fields become typed columns.
type Schema struct {
	// Categorical names columns that are categorical whatever their text.
	Categorical []string
	// Numeric names columns that must parse as numbers; any other text
	// (not a missing marker) is an error naming the line and column.
	Numeric []string
	// Missing lists the text values that mean "missing" (compared after
	// trimming spaces), e.g. "", "?", "NA", "NaN"; nil means
	// DefaultMissing.
	Missing []string
	// Other columns are typed by the rule of NumericLookingPercent:
	// numeric when every non-missing field parses as a number, an error
	// when most do (*ColumnError), categorical otherwise.
	//
	// Lenient names columns typed by the older rule instead: a column
	// with any field that is not a number is categorical. LoadDataset
	// reads the target so (class labels such as 1, 2, 3, 5, U).
	Lenient []string
	// LenientOthers types every column that Categorical and Numeric do
	// not name by the older rule, as for the columns of a file given to
	// a model that the model does not use.
	LenientOthers bool
}

// DefaultMissing is the set of missing markers used when a Schema gives none.
var DefaultMissing = []string{"", "?", "NA", "N/A", "NaN", "nan", "null", "NULL"}

// ParseFloat parses a numeric field as pandas would: surrounding spaces are
// ignored; "inf"/"nan" forms are accepted by strconv.
func ParseFloat(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if v, ok := parseDecimal(s); ok {
		return v, true
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		// strconv reports out-of-range values with ±Inf and an error; keep them.
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return v, true
		}
		return 0, false
	}
	return v, true
}

// exactPow10 holds the powers of ten that float64 represents exactly.
var exactPow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseDecimal parses the common plain decimals ([+-]digits[.digits], at
// most 2⁵³ without the point, at most 22 digits after it) without strconv;
// ok is false for anything else. The result is strconv.ParseFloat's: an
// integer m ≤ 2⁵³ and 10^k (k ≤ 22) are exact float64 values, so m/10^k is
// one correctly rounded division, which is the correctly rounded value of
// the decimal (strconv's own fast path).
func parseDecimal(s string) (float64, bool) {
	i := 0
	neg := false
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		i = 1
	}
	var mant uint64
	digits, frac := 0, 0
	dot, any := false, false
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case '0' <= c && c <= '9':
			any = true
			if dot {
				frac++
			}
			if mant == 0 && c == '0' {
				continue
			}
			if digits++; digits > 16 {
				return 0, false
			}
			mant = mant*10 + uint64(c-'0')
		case c == '.' && !dot:
			dot = true
		default:
			return 0, false
		}
	}
	if !any || mant > 1<<53 || frac >= len(exactPow10) {
		return 0, false
	}
	f := float64(mant)
	if frac > 0 {
		f /= exactPow10[frac]
	}
	if neg {
		f = -f
	}
	return f, true
}

// Table types the records with schema s.
func (r *Records) Table(s Schema) (*Table, error) {
	missing := s.Missing
	if missing == nil {
		missing = DefaultMissing
	}
	names := r.Names()
	for _, lists := range [][]string{s.Categorical, s.Numeric} {
		for _, n := range lists {
			if !isOneOf(n, names) {
				return nil, fmt.Errorf("%s: no column named %q (columns: %s)", r.Source, n, strings.Join(names, ", "))
			}
		}
	}
	miss := newMarkerSet(missing)
	t := &Table{Columns: make([]*Column, len(names))}
	categorical := func(j int, name string) *Column {
		b := newLevelCoder(name, len(r.Rows), miss)
		for i, row := range r.Rows {
			b.set(i, trimSpace(row[j]))
		}
		return b.c
	}
	for j, name := range names {
		if isOneOf(name, s.Categorical) {
			t.Columns[j] = categorical(j, name)
			continue
		}
		mustNumeric := isOneOf(name, s.Numeric)
		lenient := !mustNumeric && (s.LenientOthers || isOneOf(name, s.Lenient))
		num := make([]float64, len(r.Rows))
		var census columnCensus
		for i, row := range r.Rows {
			v := trimSpace(row[j])
			if miss.has(v) {
				num[i] = math.NaN()
				continue
			}
			f, ok := parseDecimal(v)
			if !ok {
				f, ok = ParseFloat(v)
			}
			if ok {
				num[i] = f
				census.numbers++
				continue
			}
			if mustNumeric {
				return nil, declaredError(r.Source, r.Lines, i, j, name, v)
			}
			census.otherField(i, v)
			if lenient || census.hopeless(len(r.Rows)-i-1) {
				break
			}
		}
		switch {
		case census.other == 0:
			t.Columns[j] = NewNumeric(name, num)
		case !lenient && census.numericLooking():
			return nil, census.error(r.Source, r.Lines, j, name)
		default:
			t.Columns[j] = categorical(j, name)
		}
	}
	return t, nil
}

// trimSpace is strings.TrimSpace, answering at once for the usual field
// that starts and ends with a printable ASCII byte.
func trimSpace(s string) string {
	if n := len(s); n > 0 && ' ' < s[0] && s[0] < 0x80 && ' ' < s[n-1] && s[n-1] < 0x80 {
		return s
	}
	return strings.TrimSpace(s)
}

// markerSet is a set of missing-value markers with a quick rejection by
// length.
type markerSet struct {
	lengths uint64 // bit k: a marker of length k (k < 63); bit 63: a longer one
	set     []string
}

func newMarkerSet(markers []string) markerSet {
	m := markerSet{set: markers}
	for _, s := range markers {
		m.lengths |= 1 << min(len(s), 63)
	}
	return m
}

func (m markerSet) has(s string) bool {
	return m.lengths&(1<<min(len(s), 63)) != 0 && isOneOf(s, m.set)
}
