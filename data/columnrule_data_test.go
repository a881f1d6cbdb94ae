package data

import (
	"errors"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"testing"
)

// columnRuleStops lists the columns of the benchmark files that the
// numeric-looking rule (NumericLookingPercent) stops when they are read
// as a user would (gdt train --data FILE --target T). Each must be
// declared categorical in manifest.json, which the registry reads: its
// types cover it, and with that declaration the file types as before.
var columnRuleStops = map[string][]string{
	// Dependents: 0, 1, 2 and "3+" (51 of 599 non-missing values).
	"loan-house/loan-train.csv": {"Dependents"},
}

// targetColumn names the target of entry e among the columns of r:
// manifest targets are column names, or "column N (…)" for files without
// a header.
func targetColumn(r *Records, e manifestEntry) string {
	names := r.Names()
	if slices.Contains(names, e.Target) {
		return e.Target
	}
	if m := regexp.MustCompile(`^column (\d+)`).FindStringSubmatch(e.Target); m != nil {
		if k, err := strconv.Atoi(m[1]); err == nil && k >= 1 && k <= len(names) {
			return names[k-1]
		}
	}
	return ""
}

// checkColumnRule types the records of a benchmark file with the column
// rule as LoadDataset does (the target typed leniently), declaring
// categorical only the columns columnRuleStops lists, and checks that the
// table equals the one of the rule before (every column of the old kind,
// with the same values).
func checkColumnRule(t *testing.T, rel string, r *Records, e manifestEntry) {
	t.Helper()
	target := targetColumn(r, e)
	if target == "" && rel != "loan-house/loan-test.csv" { // the unlabelled test rows
		t.Errorf("%s: cannot find the target %q among the columns", rel, e.Target)
		return
	}
	old, err := r.Table(Schema{LenientOthers: true})
	if err != nil {
		t.Errorf("%s: the old rule: %v", rel, err)
		return
	}
	s := Schema{Lenient: []string{target}}
	var stopped []string
	for {
		tab, err := r.Table(s)
		if err == nil {
			if msg := sameTable(old, tab); msg != "" {
				t.Errorf("%s: typed differently from before: %s", rel, msg)
			}
			break
		}
		var ce *ColumnError
		if !errors.As(err, &ce) || slices.Contains(stopped, ce.Name) {
			t.Errorf("%s: %v", rel, err)
			return
		}
		stopped = append(stopped, ce.Name)
		if !slices.Contains(e.Categorical, ce.Name) {
			t.Errorf("%s: the manifest does not declare column %q categorical: %v", rel, ce.Name, err)
		}
		s.Categorical = append(s.Categorical, ce.Name)
	}
	if want := columnRuleStops[rel]; !slices.Equal(stopped, want) {
		t.Errorf("%s: the column rule stops columns %q, want %q", rel, stopped, want)
	}
}

// sameTable compares two tables bit for bit ("" when equal).
func sameTable(a, b *Table) string {
	if a.NumCols() != b.NumCols() {
		return strconv.Itoa(a.NumCols()) + " vs " + strconv.Itoa(b.NumCols()) + " columns"
	}
	for j, ca := range a.Columns {
		cb := b.Columns[j]
		switch {
		case ca.Name != cb.Name || ca.Kind != cb.Kind:
			return "column " + ca.Name + " " + ca.Kind.String() + " vs " + cb.Name + " " + cb.Kind.String()
		case !slices.Equal(ca.Levels, cb.Levels) || !slices.Equal(ca.Codes, cb.Codes):
			return "column " + ca.Name + ": levels or codes differ"
		case !slices.EqualFunc(ca.Num, cb.Num, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) }):
			return "column " + ca.Name + ": values differ"
		}
	}
	return ""
}

// TestColumnRuleOnOtherBenchmarkFiles does for the GRANDE, PAD-UFES-20 and
// HAM10000 files what TestReadCSVGradTreeFiles does for GradTree's.
func TestColumnRuleOnOtherBenchmarkFiles(t *testing.T) {
	dir := sharedDataDir(t)
	m := readManifest(t, dir)
	shared := filepath.Dir(dir)
	entries := append(append(m.Grande, m.PAD), m.Multimodal...)
	n := 0
	for _, e := range entries {
		for _, f := range e.Files {
			if filepath.Ext(f.Path) != ".csv" && filepath.Ext(f.Path) != ".gz" {
				continue
			}
			r, err := ReadCSVFile(filepath.Join(shared, f.Path), CSVOptions{Header: true})
			if err != nil {
				t.Errorf("%s: %v", f.Path, err)
				continue
			}
			checkColumnRule(t, f.Path, r, e)
			n++
		}
	}
	if n != 17 {
		t.Errorf("%d files checked, want 17 (15 GRANDE, PAD-UFES-20, HAM10000)", n)
	}
}
