package data

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// KeyedCSV reads a CSV file with a header row record by record and gives
// fields by column name, with errors that name the file, line and column.
// The result files of `gdt bench` and `gdt rl bench` are read with it.
type KeyedCSV struct {
	cr   *csv.Reader
	name string
	col  map[string]int
	rec  []string
	line int
}

// NewKeyedCSV reads the header of r. name is the file name used in errors;
// kind describes the expected file ("gdt bench results file"); every column
// in required must be present. An empty input gives a reader whose Next
// reports false.
func NewKeyedCSV(r io.Reader, name, kind string, required ...string) (*KeyedCSV, error) {
	k := &KeyedCSV{cr: csv.NewReader(r), name: name, col: map[string]int{}, line: 1}
	k.cr.FieldsPerRecord = -1
	head, err := k.cr.Read()
	if errors.Is(err, io.EOF) {
		k.cr = nil
		return k, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	for i, h := range head {
		k.col[strings.TrimSpace(h)] = i
	}
	for _, need := range required {
		if _, ok := k.col[need]; !ok {
			return nil, fmt.Errorf("%s:1: not a %s (no %q column)", name, kind, need)
		}
	}
	return k, nil
}

// Next reads the next record; it reports false at the end of the input.
func (k *KeyedCSV) Next() (bool, error) {
	if k.cr == nil {
		return false, nil
	}
	rec, err := k.cr.Read()
	if errors.Is(err, io.EOF) {
		return false, nil
	}
	k.line++
	if err != nil {
		return false, fmt.Errorf("%s: %w", k.name, err)
	}
	k.rec = rec
	return true, nil
}

// Line is the line number of the current record (the header is line 1).
func (k *KeyedCSV) Line() int { return k.line }

// Get returns the current record's field in column name, trimmed ("" when
// the column or the field is absent).
func (k *KeyedCSV) Get(name string) string {
	if i, ok := k.col[name]; ok && i < len(k.rec) {
		return strings.TrimSpace(k.rec[i])
	}
	return ""
}

// Errorf returns an error naming the file, the current line and column.
func (k *KeyedCSV) Errorf(column, format string, args ...any) error {
	return fmt.Errorf("%s:%d: column %s: %s", k.name, k.line, column, fmt.Sprintf(format, args...))
}

// Float parses column name as a number; an empty field gives empty.
func (k *KeyedCSV) Float(name string, empty float64) (float64, error) {
	s := k.Get(name)
	if s == "" {
		return empty, nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, k.Errorf(name, "expected a number, found %q", s)
	}
	return v, nil
}

// Int parses column name as an integer; an empty field gives 0.
func (k *KeyedCSV) Int(name string) (int, error) {
	s := k.Get(name)
	if s == "" {
		return 0, nil
	}
	v, err := strconv.Atoi(s)
	if err != nil {
		if f, ferr := strconv.ParseFloat(s, 64); ferr == nil && f == float64(int(f)) {
			return int(f), nil
		}
		return 0, k.Errorf(name, "expected an integer, found %q", s)
	}
	return v, nil
}
