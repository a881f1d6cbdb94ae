package data

import (
	"fmt"
	"unicode/utf8"
)

// Bounds on a stored list of missing markers (CheckNAValues).
const (
	MaxNAValues   = 1000 // markers
	MaxNAValueLen = 1000 // bytes per marker
)

// CheckNAValues checks a list of missing markers read from a file (such
// as the training markers a model file stores): at most MaxNAValues of
// them, each valid UTF-8 of at most MaxNAValueLen bytes, none repeated.
// The error names the entry at fault as na_values[i].
func CheckNAValues(vals []string) error {
	if len(vals) > MaxNAValues {
		return fmt.Errorf("na_values: %d values: expected at most %d", len(vals), MaxNAValues)
	}
	seen := make(map[string]bool, len(vals))
	for i, v := range vals {
		if len(v) > MaxNAValueLen {
			return fmt.Errorf("na_values[%d]: %d bytes: expected at most %d", i, len(v), MaxNAValueLen)
		}
		if !utf8.ValidString(v) {
			return fmt.Errorf("na_values[%d] = %q: expected valid UTF-8 text", i, v)
		}
		if seen[v] {
			return fmt.Errorf("na_values[%d] = %q is repeated: expected distinct values", i, v)
		}
		seen[v] = true
	}
	return nil
}

// MergeNAValues returns the markers of a followed by those of b not
// already listed (a itself when b is empty).
func MergeNAValues(a, b []string) []string {
	if len(b) == 0 {
		return a
	}
	out := append([]string(nil), a...)
	seen := make(map[string]bool, len(a)+len(b))
	for _, v := range a {
		seen[v] = true
	}
	for _, v := range b {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}
