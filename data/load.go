package data

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// ReadOptions say how ReadFile and LoadDataset read a file.
type ReadOptions struct {
	// CSVOptions apply to delimited text. A zero Delimiter is detected.
	// Header true means the first row holds the column names; see
	// NoHeader for the other cases.
	CSVOptions
	// NoHeader says a delimited text file has no header row. When neither
	// Header nor NoHeader is set, a header is detected: the first row is a
	// header when one of its fields is not a number while the rest of its
	// column is numeric, or (for all-text files) when its values never
	// recur in columns whose values otherwise repeat.
	NoHeader bool
	// Names, when set, name the columns (replacing a header row, if any);
	// there must be exactly one name per column.
	Names []string
	// Schema types the columns. For delimited text it is applied as
	// Records.Table does; for ARFF and Parquet, whose columns are typed
	// already, Categorical turns numeric columns into categorical ones and
	// Numeric requires columns to be (or to parse as) numbers.
	Schema Schema
	// NAValues are more text values that mean "missing", on top of
	// Schema.Missing (or DefaultMissing) for delimited text; in ARFF files
	// (unquoted values, besides '?') and in the text columns of Parquet
	// files they are the only extra markers. Declaring the stray values of
	// a numeric-looking column missing keeps it numeric (see
	// NumericLookingPercent).
	NAValues []string
	// Format is "csv", "arff" or "parquet"; empty chooses by file name
	// (.arff and .parquet/.pq, optionally followed by .gz for ARFF;
	// anything else is delimited text, gzipped or not).
	Format string
}

// schema returns the Schema with NAValues added to its missing markers.
func (opt ReadOptions) schema() Schema {
	s := opt.Schema
	if len(opt.NAValues) == 0 {
		return s
	}
	base := s.Missing
	if base == nil {
		base = DefaultMissing
	}
	s.Missing = append(append([]string(nil), base...), opt.NAValues...)
	return s
}

// fileFormat returns the format of path under opt.
func fileFormat(path string, opt ReadOptions) (string, error) {
	if opt.Format != "" {
		f := strings.ToLower(opt.Format)
		switch f {
		case "csv", "arff", "parquet":
			return f, nil
		}
		return "", fmt.Errorf("%s: unknown format %q (want csv, arff or parquet)", path, opt.Format)
	}
	name := strings.TrimSuffix(strings.ToLower(filepath.Base(path)), ".gz")
	switch filepath.Ext(name) {
	case ".arff":
		return "arff", nil
	case ".parquet", ".pq":
		return "parquet", nil
	}
	return "csv", nil
}

// ReadFile reads a CSV (or other delimited text, possibly gzipped), ARFF or
// Parquet file into a typed table; see ReadOptions.
func ReadFile(path string, opt ReadOptions) (*Table, error) {
	t, _, err := readFileLines(path, opt)
	return t, err
}

// readFileLines reads a table and returns the source line of each row (nil
// when the format has no lines, as Parquet).
func readFileLines(path string, opt ReadOptions) (*Table, []int, error) {
	format, err := fileFormat(path, opt)
	if err != nil {
		return nil, nil, err
	}
	if opt.Header && opt.NoHeader {
		return nil, nil, fmt.Errorf("%s: both Header and NoHeader are set", path)
	}
	var t *Table
	var lines []int
	switch format {
	case "csv":
		rec, err := readCSVDetect(path, opt)
		if err != nil {
			return nil, nil, err
		}
		t, err = rec.Table(opt.schema())
		if err != nil {
			return nil, nil, err
		}
		return t, rec.Lines, nil
	case "arff":
		b, err := readAllFile(path)
		if err != nil {
			return nil, nil, err
		}
		if t, lines, err = parseARFF(b, path, opt.NAValues); err != nil {
			return nil, nil, err
		}
	case "parquet":
		if t, err = ReadParquetFile(path); err != nil {
			return nil, nil, err
		}
		dropMissingLevels(t, opt.NAValues)
	}
	if err := renameColumns(t, path, opt.Names); err != nil {
		return nil, nil, err
	}
	if err := applySchema(t, path, opt.Schema, lines); err != nil {
		return nil, nil, err
	}
	return t, lines, nil
}

// readCSVDetect reads delimited text, detecting the header when asked to.
func readCSVDetect(path string, opt ReadOptions) (*Records, error) {
	copt := opt.CSVOptions
	detect := !opt.Header && !opt.NoHeader
	copt.Header = opt.Header
	rec, err := ReadCSVFile(path, copt)
	if err != nil {
		return nil, err
	}
	if detect && detectHeader(rec, opt.schema().Missing) {
		rec.Header = headerNames(rec.Rows[0])
		rec.Rows = rec.Rows[1:]
		rec.Lines = rec.Lines[1:]
	}
	if opt.Names != nil {
		if len(opt.Names) != rec.NumCols() {
			return nil, fmt.Errorf("%s: %d names given for %d columns", path, len(opt.Names), rec.NumCols())
		}
		if err := uniqueNames(path, opt.Names); err != nil {
			return nil, err
		}
		rec.Header = opt.Names
	}
	return rec, nil
}

// isNumberText reports whether s is a number, possibly written with a
// decimal comma or grouped digits (which the column rule then reports).
func isNumberText(s string) bool {
	_, ok := ParseFloat(s)
	return ok || commaNumber(strings.TrimSpace(s)) != notComma
}

// detectHeader reports whether the first row of records read without a
// header looks like a header: one of its fields is not a number (nor a
// missing marker) while every other field of its column is a number; or, when
// no column settles it that way, none of its values recurs further down its
// column although some of those columns repeat values. missing nil means
// DefaultMissing. At least two rows are needed.
func detectHeader(rec *Records, missing []string) bool {
	if missing == nil {
		missing = DefaultMissing
	}
	if rec.Header != nil || len(rec.Rows) < 2 {
		return false
	}
	first := rec.Rows[0]
	rows := rec.Rows[1:]
	if len(rows) > 1000 {
		rows = rows[:1000]
	}
	textCols := 0
	for j, f := range first {
		f = strings.TrimSpace(f)
		if isOneOf(f, missing) {
			continue
		}
		if isNumberText(f) {
			continue
		}
		allNum, any := true, false
		for _, r := range rows {
			v := strings.TrimSpace(r[j])
			if isOneOf(v, missing) {
				continue
			}
			any = true
			if !isNumberText(v) {
				allNum = false
				break
			}
		}
		if allNum && any {
			return true
		}
		if !allNum {
			textCols++
		}
	}
	if textCols == 0 {
		return false
	}
	// All-text columns: the first value never recurs below it, while the
	// column repeats values (so absence means something).
	repeats := false
	for j, f := range first {
		f = strings.TrimSpace(f)
		seen := make(map[string]bool, len(rows))
		for _, r := range rows {
			v := strings.TrimSpace(r[j])
			if v == f {
				return false
			}
			if seen[v] {
				repeats = true
			}
			seen[v] = true
		}
	}
	return repeats
}

func uniqueNames(path string, names []string) error {
	seen := make(map[string]int, len(names))
	for j, n := range names {
		if k, dup := seen[n]; dup {
			return fmt.Errorf("%s: column name %q given twice (columns %d and %d)", path, n, k+1, j+1)
		}
		seen[n] = j
	}
	return nil
}

// renameColumns applies ReadOptions.Names to a typed table.
func renameColumns(t *Table, path string, names []string) error {
	if names == nil {
		return nil
	}
	if len(names) != t.NumCols() {
		return fmt.Errorf("%s: %d names given for %d columns", path, len(names), t.NumCols())
	}
	if err := uniqueNames(path, names); err != nil {
		return err
	}
	for j, c := range t.Columns {
		c.Name = names[j]
	}
	return nil
}

// dropMissingLevels makes the categorical values of t that are one of na
// missing, removing them from the levels.
func dropMissingLevels(t *Table, na []string) {
	if len(na) == 0 {
		return
	}
	for _, c := range t.Columns {
		if c.Kind != Categorical {
			continue
		}
		remap := make([]int32, len(c.Levels))
		var levels []string
		for k, l := range c.Levels {
			if isOneOf(l, na) {
				remap[k] = Missing
				continue
			}
			remap[k] = int32(len(levels))
			levels = append(levels, l)
		}
		if len(levels) == len(c.Levels) {
			continue
		}
		for i, code := range c.Codes {
			if code != Missing {
				c.Codes[i] = remap[code]
			}
		}
		c.Levels = levels
	}
}

// applySchema retypes the columns of a typed (ARFF or Parquet) table.
func applySchema(t *Table, path string, s Schema, lines []int) error {
	for _, lists := range [][]string{s.Categorical, s.Numeric} {
		for _, n := range lists {
			if t.Index(n) < 0 {
				return fmt.Errorf("%s: no column named %q (columns: %s)", path, n, strings.Join(t.Names(), ", "))
			}
		}
	}
	for j, c := range t.Columns {
		switch {
		case isOneOf(c.Name, s.Categorical) && c.Kind == Numeric:
			vals := make([]string, c.Len())
			for i := range vals {
				vals[i] = c.String(i)
			}
			t.Columns[j] = NewCategorical(c.Name, vals, "")
		case isOneOf(c.Name, s.Numeric) && c.Kind == Categorical:
			num := make([]float64, c.Len())
			for i, code := range c.Codes {
				if code == Missing {
					num[i] = math.NaN()
					continue
				}
				f, ok := ParseFloat(c.Levels[code])
				if !ok {
					return declaredError(path, lines, i, j, c.Name, c.Levels[code])
				}
				num[i] = f
			}
			t.Columns[j] = NewNumeric(c.Name, num)
		}
	}
	return nil
}

// rowPos names row i of a file: "file:line" when lines are known, else
// "file: row i+1".
func rowPos(path string, lines []int, i int) string {
	if lines != nil && i < len(lines) {
		return fmt.Sprintf("%s:%d", path, lines[i])
	}
	return fmt.Sprintf("%s: row %d", path, i+1)
}

// LoadDataset reads a file (see ReadFile) and splits off the target column.
//
// task is "binary", "multiclass", "regression" or "" to infer it: a numeric
// target with more than 20 distinct values, or with non-integer values, is
// regression; a target with two classes is binary; anything else is
// multiclass. Class labels are encoded 0..C-1 in sorted order (numerically
// when every label is a number, else lexicographically); Classes holds their
// text. A row whose target is missing is an error naming its line. The
// target column is typed by the older rule (see Schema.Lenient), so class
// labels may mix numbers and text.
func LoadDataset(path, target, task string, opt ReadOptions) (*Dataset, error) {
	opt.Schema.Lenient = append(slices.Clip(opt.Schema.Lenient), target)
	t, lines, err := readFileLines(path, opt)
	if err != nil {
		return nil, err
	}
	j := t.Index(target)
	if j < 0 {
		return nil, fmt.Errorf("%s: no target column %q (columns: %s)", path, target, strings.Join(t.Names(), ", "))
	}
	y := t.Columns[j]
	if t.NumCols() < 2 {
		return nil, fmt.Errorf("%s: the target %q is the only column; no features left", path, target)
	}
	for i := 0; i < y.Len(); i++ {
		if y.IsMissing(i) {
			return nil, fmt.Errorf("%s: target %q is missing", rowPos(path, lines, i), target)
		}
	}
	var tk Task
	if task == "" {
		tk = inferTask(y)
	} else if tk, err = ParseTask(task); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	d := &Dataset{Name: datasetName(path), Task: tk, X: &Table{}}
	for k, c := range t.Columns {
		if k != j {
			d.X.Columns = append(d.X.Columns, c)
		}
	}
	if tk == Regression {
		d.Y = make([]float64, y.Len())
		for i := range d.Y {
			if y.Kind == Numeric {
				d.Y[i] = y.Num[i]
				continue
			}
			v, ok := ParseFloat(y.String(i))
			if !ok {
				return nil, fmt.Errorf("%s: target %q: regression needs a number, found %q", rowPos(path, lines, i), target, y.String(i))
			}
			d.Y[i] = v
		}
		return d, nil
	}
	d.Y, d.Classes = encodeLabels(y)
	switch {
	case len(d.Classes) < 2:
		return nil, fmt.Errorf("%s: target %q has only one class (%s); classification needs at least two", path, target, strings.Join(d.Classes, ", "))
	case tk == Binary && len(d.Classes) != 2:
		return nil, fmt.Errorf("%s: task binary, but target %q has %d classes (%s)", path, target, len(d.Classes), clipText(strings.Join(d.Classes, ", ")))
	}
	return d, nil
}

// inferTask guesses the task from the target column.
func inferTask(y *Column) Task {
	if y.Kind == Numeric {
		distinct := map[float64]bool{}
		integral := true
		for _, v := range y.Num {
			distinct[v] = true
			if v != math.Trunc(v) {
				integral = false
			}
		}
		if len(distinct) > 20 || (!integral && len(distinct) > 2) {
			return Regression
		}
		if len(distinct) == 2 {
			return Binary
		}
		return Multiclass
	}
	used := map[int32]bool{}
	for _, c := range y.Codes {
		used[c] = true
	}
	if len(used) == 2 {
		return Binary
	}
	return Multiclass
}

// encodeLabels maps the (non-missing) labels of y to 0..C-1 in sorted order.
func encodeLabels(y *Column) ([]float64, []string) {
	n := y.Len()
	if y.Kind == Numeric {
		vals := append([]float64(nil), y.Num...)
		sort.Float64s(vals)
		var uniq []float64
		for i, v := range vals {
			if i == 0 || v != vals[i-1] {
				uniq = append(uniq, v)
			}
		}
		classes := make([]string, len(uniq))
		for k, v := range uniq {
			classes[k] = strconv.FormatFloat(v, 'g', -1, 64)
		}
		out := make([]float64, n)
		for i, v := range y.Num {
			out[i] = float64(sort.SearchFloat64s(uniq, v))
		}
		return out, classes
	}
	// Categorical: order the levels that occur.
	used := make([]bool, len(y.Levels))
	for _, c := range y.Codes {
		used[c] = true
	}
	var levels []int32
	for c, u := range used {
		if u {
			levels = append(levels, int32(c))
		}
	}
	nums := make([]float64, len(y.Levels))
	allNum := true
	for _, c := range levels {
		f, ok := ParseFloat(y.Levels[c])
		if !ok || math.IsNaN(f) {
			allNum = false
			break
		}
		nums[c] = f
	}
	sort.SliceStable(levels, func(a, b int) bool {
		la, lb := levels[a], levels[b]
		if allNum && nums[la] != nums[lb] {
			return nums[la] < nums[lb]
		}
		return y.Levels[la] < y.Levels[lb]
	})
	index := make([]float64, len(y.Levels))
	classes := make([]string, len(levels))
	for k, c := range levels {
		index[c] = float64(k)
		classes[k] = y.Levels[c]
	}
	out := make([]float64, n)
	for i, c := range y.Codes {
		out[i] = index[c]
	}
	return out, classes
}

// datasetName is the file name without directory and extensions (.gz and
// the format extension).
func datasetName(path string) string {
	name := strings.TrimSuffix(filepath.Base(path), ".gz")
	return strings.TrimSuffix(name, filepath.Ext(name))
}
