package data

import (
	"fmt"
	"io"
	"math"
	"strings"
)

// arffMissing stands for '?' among string values while reading; it cannot
// occur in the text because decodeText rejects NUL bytes.
const arffMissing = "\x00?"

// arffAttr is one declared ARFF attribute.
type arffAttr struct {
	name    string
	kind    string // "numeric", "nominal", "string" or "date"
	levels  []string
	index   map[string]int32 // nominal value -> code
	line    int
	numbers []float64 // numeric values, or nominal codes
	values  []string  // string and date values, before coding
}

// ReadARFFFile reads a Weka ARFF file; see ReadARFF. Gzip-compressed files
// are decompressed on the fly.
func ReadARFFFile(path string) (*Table, error) {
	b, err := readAllFile(path)
	if err != nil {
		return nil, err
	}
	t, _, err := parseARFF(b, path, nil)
	return t, err
}

// ReadARFF reads a Weka ARFF file from r; source names it in error messages.
//
// Supported: @relation, @attribute with numeric, real, integer, nominal
// ({a, b, 'c d'}), string and date types (dates are kept as text), quoted
// names and values (single or double quotes, backslash escapes), % comments,
// keywords in any case, dense @data rows and '?' for missing values. Nominal
// attributes become categorical columns whose Levels are the declared values
// in declared order; string and date attributes become categorical columns
// with levels in order of first appearance; numeric attributes become numeric
// columns. Sparse rows ({0 x, 3 y}), instance weights and relational
// attributes are reported as unsupported. Errors name the source and line.
func ReadARFF(r io.Reader, source string) (*Table, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	t, _, err := parseARFF(b, source, nil)
	return t, err
}

// arffLines splits text into physical lines (LF, CRLF or CR endings).
func arffLines(text string) []string {
	var lines []string
	for len(text) > 0 {
		k := strings.IndexAny(text, "\r\n")
		if k < 0 {
			lines = append(lines, text)
			break
		}
		lines = append(lines, text[:k])
		if text[k] == '\r' && k+1 < len(text) && text[k+1] == '\n' {
			k++
		}
		text = text[k+1:]
	}
	return lines
}

// parseARFF parses ARFF text and also returns the line of each row.
// Unquoted values that are '?' or one of na are missing.
func parseARFF(b []byte, source string, na []string) (*Table, []int, error) {
	text, err := decodeText(b, source)
	if err != nil {
		return nil, nil, err
	}
	lines := arffLines(text)
	var attrs []*arffAttr
	byName := map[string]int{}
	dataLine := 0
	li := 0
	for ; li < len(lines); li++ {
		ln := li + 1
		l := strings.TrimSpace(stripARFFComment(lines[li]))
		if l == "" {
			continue
		}
		if l[0] != '@' {
			return nil, nil, fmt.Errorf("%s:%d: expected @relation, @attribute or @data, found %q", source, ln, clipText(l))
		}
		kw, rest := splitKeyword(l)
		switch strings.ToLower(kw) {
		case "@relation":
			// The relation name is not needed.
		case "@attribute":
			a, err := parseARFFAttribute(rest, source, ln)
			if err != nil {
				return nil, nil, err
			}
			if prev, dup := byName[a.name]; dup {
				return nil, nil, fmt.Errorf("%s:%d: attribute %q already declared on line %d", source, ln, a.name, attrs[prev].line)
			}
			byName[a.name] = len(attrs)
			attrs = append(attrs, a)
		case "@data":
			dataLine = ln
		case "@end":
			return nil, nil, fmt.Errorf("%s:%d: relational attributes (@end) are not supported", source, ln)
		default:
			return nil, nil, fmt.Errorf("%s:%d: unknown keyword %q (want @relation, @attribute or @data)", source, ln, kw)
		}
		if dataLine > 0 {
			li++
			break
		}
	}
	if dataLine == 0 {
		if len(attrs) == 0 && li == len(lines) && strings.TrimSpace(text) == "" {
			return nil, nil, fmt.Errorf("%s: empty file", source)
		}
		return nil, nil, fmt.Errorf("%s: no @data line", source)
	}
	if len(attrs) == 0 {
		return nil, nil, fmt.Errorf("%s:%d: @data before any @attribute", source, dataLine)
	}
	var rowLines []int
	vals := make([]arffValue, 0, len(attrs))
	for ; li < len(lines); li++ {
		ln := li + 1
		l := strings.TrimSpace(lines[li])
		if l == "" || l[0] == '%' {
			continue
		}
		if l[0] == '{' {
			return nil, nil, fmt.Errorf("%s:%d: sparse ARFF not supported (row starts with '{')", source, ln)
		}
		vals, err = splitARFFRow(l, vals[:0], source, ln)
		if err != nil {
			return nil, nil, err
		}
		if len(vals) != len(attrs) {
			return nil, nil, fmt.Errorf("%s:%d: row has %d values, expected %d (one per @attribute)", source, ln, len(vals), len(attrs))
		}
		for j, v := range vals {
			a := attrs[j]
			if !v.quoted && (v.s == "?" || isOneOf(v.s, na)) {
				switch a.kind {
				case "numeric":
					a.numbers = append(a.numbers, math.NaN())
				case "nominal":
					a.numbers = append(a.numbers, -1)
				default:
					a.values = append(a.values, arffMissing)
				}
				continue
			}
			switch a.kind {
			case "numeric":
				f, ok := ParseFloat(v.s)
				if !ok || v.s == "" {
					return nil, nil, &ColumnError{Source: source, Line: ln, Row: len(rowLines), Column: j + 1, Name: a.name, Value: v.s, Declared: true, Comma: commaNumber(v.s)}
				}
				a.numbers = append(a.numbers, f)
			case "nominal":
				code, ok := a.index[v.s]
				if !ok {
					return nil, nil, fmt.Errorf("%s:%d: column %d (%q): value %q is not one of the declared values {%s}", source, ln, j+1, a.name, clipText(v.s), clipText(strings.Join(a.levels, ",")))
				}
				a.numbers = append(a.numbers, float64(code))
			default:
				a.values = append(a.values, v.s)
			}
		}
		rowLines = append(rowLines, ln)
	}
	if len(rowLines) == 0 {
		return nil, nil, fmt.Errorf("%s:%d: no data rows after @data", source, dataLine)
	}
	t := &Table{Columns: make([]*Column, len(attrs))}
	for j, a := range attrs {
		switch a.kind {
		case "numeric":
			t.Columns[j] = NewNumeric(a.name, a.numbers)
		case "nominal":
			codes := make([]int32, len(a.numbers))
			for i, c := range a.numbers {
				codes[i] = int32(c)
			}
			t.Columns[j] = &Column{Name: a.name, Kind: Categorical, Codes: codes, Levels: a.levels}
		default:
			t.Columns[j] = NewCategorical(a.name, a.values, arffMissing)
		}
	}
	return t, rowLines, nil
}

// clipText shortens s for an error message.
func clipText(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

// stripARFFComment removes a % comment that is outside quotes.
func stripARFFComment(l string) string {
	var q byte
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case q != 0 && c == '\\':
			i++
		case q != 0 && c == q:
			q = 0
		case q == 0 && (c == '\'' || c == '"'):
			q = c
		case q == 0 && c == '%':
			return l[:i]
		}
	}
	return l
}

// splitKeyword splits "@kw rest".
func splitKeyword(l string) (kw, rest string) {
	i := strings.IndexAny(l, " \t")
	if i < 0 {
		return l, ""
	}
	return l[:i], strings.TrimSpace(l[i+1:])
}

// unquoteARFF reads a possibly quoted token at the start of s and returns it
// and the rest. Unquoted tokens end at a blank or at one of stops.
func unquoteARFF(s, stops string) (tok, rest string, quoted bool, err error) {
	if s == "" {
		return "", "", false, nil
	}
	q := s[0]
	if q != '\'' && q != '"' {
		i := strings.IndexAny(s, " \t"+stops)
		if i < 0 {
			return s, "", false, nil
		}
		return s[:i], s[i:], false, nil
	}
	var sb strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			i++
			switch s[i] {
			case 'n':
				sb.WriteByte('\n')
			case 't':
				sb.WriteByte('\t')
			case 'r':
				sb.WriteByte('\r')
			default:
				sb.WriteByte(s[i])
			}
		case c == q:
			return sb.String(), s[i+1:], true, nil
		default:
			sb.WriteByte(c)
		}
	}
	return "", "", true, fmt.Errorf("unterminated quote %c", q)
}

// parseARFFAttribute parses the part of an @attribute line after the keyword.
func parseARFFAttribute(rest, source string, ln int) (*arffAttr, error) {
	name, rest, _, err := unquoteARFF(rest, "{")
	if err != nil {
		return nil, fmt.Errorf("%s:%d: @attribute name: %v", source, ln, err)
	}
	if name == "" {
		return nil, fmt.Errorf("%s:%d: @attribute without a name", source, ln)
	}
	rest = strings.TrimSpace(rest)
	a := &arffAttr{name: name, line: ln}
	if strings.HasPrefix(rest, "{") {
		end := strings.LastIndexByte(rest, '}')
		if end < 0 {
			return nil, fmt.Errorf("%s:%d: attribute %q: nominal value list has no closing '}'", source, ln, name)
		}
		if tail := strings.TrimSpace(rest[end+1:]); tail != "" {
			return nil, fmt.Errorf("%s:%d: attribute %q: unexpected %q after the nominal value list", source, ln, name, clipText(tail))
		}
		vals, err := splitARFFRow(rest[1:end], nil, source, ln)
		if err != nil {
			return nil, err
		}
		a.kind = "nominal"
		a.index = make(map[string]int32, len(vals))
		for _, v := range vals {
			if v.s == "" && !v.quoted {
				if len(vals) == 1 {
					break // "{}" declares no values
				}
				return nil, fmt.Errorf("%s:%d: attribute %q: empty nominal value", source, ln, name)
			}
			if _, dup := a.index[v.s]; dup {
				return nil, fmt.Errorf("%s:%d: attribute %q: nominal value %q declared twice", source, ln, name, v.s)
			}
			a.index[v.s] = int32(len(a.levels))
			a.levels = append(a.levels, v.s)
		}
		return a, nil
	}
	typ, _ := splitKeyword(rest)
	switch strings.ToLower(typ) {
	case "numeric", "real", "integer":
		a.kind = "numeric"
	case "string":
		a.kind = "string"
	case "date":
		a.kind = "date"
	case "relational":
		return nil, fmt.Errorf("%s:%d: attribute %q: relational attributes are not supported", source, ln, name)
	case "":
		return nil, fmt.Errorf("%s:%d: attribute %q has no type", source, ln, name)
	default:
		return nil, fmt.Errorf("%s:%d: attribute %q: unknown type %q (want numeric, real, integer, string, date or {values})", source, ln, name, clipText(typ))
	}
	return a, nil
}

// arffValue is one field of a data row or nominal list.
type arffValue struct {
	s      string
	quoted bool
}

// splitARFFRow splits a comma-separated data row (or nominal value list),
// unquoting quoted values and trimming blanks around the others.
func splitARFFRow(l string, dst []arffValue, source string, ln int) ([]arffValue, error) {
	l = stripARFFComment(l)
	for {
		l = strings.TrimLeft(l, " \t")
		if strings.HasPrefix(l, "{") {
			return nil, fmt.Errorf("%s:%d: column %d: instance weights ({...}) are not supported", source, ln, len(dst)+1)
		}
		var v arffValue
		if l != "" && (l[0] == '\'' || l[0] == '"') {
			tok, rest, _, err := unquoteARFF(l, "")
			if err != nil {
				return nil, fmt.Errorf("%s:%d: column %d: %v", source, ln, len(dst)+1, err)
			}
			v = arffValue{tok, true}
			rest = strings.TrimLeft(rest, " \t")
			if rest != "" && rest[0] != ',' {
				return nil, fmt.Errorf("%s:%d: column %d: unexpected %q after quoted value", source, ln, len(dst)+1, clipText(rest))
			}
			l = rest
		} else {
			i := strings.IndexByte(l, ',')
			if i < 0 {
				i = len(l)
			}
			v = arffValue{strings.TrimRight(l[:i], " \t"), false}
			l = l[i:]
		}
		dst = append(dst, v)
		if l == "" {
			return dst, nil
		}
		l = l[1:] // the comma
	}
}
