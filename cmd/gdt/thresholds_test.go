package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/datasets"
)

// significant counts the significant decimal digits of a plain decimal
// ("280" and "0.28" have 2).
func significant(s string) int {
	s = strings.TrimLeft(strings.ReplaceAll(strings.TrimPrefix(s, "-"), ".", ""), "0")
	return len(strings.TrimRight(s, "0"))
}

// Issue 21 item 5: thresholds read as the data does. A GradTree trained
// on ilpd used to show cuts such as "A/G <= 1.000262" and
// "Age <= 29.9999" (the quantile transform's fit noise); now every cut is
// a short decimal between two neighbouring training values, with no more
// significant digits than the column's values, and the text, the JSON's
// exact raw cut and the generated Go code state the same numbers.
func TestShowThresholdsReadAsData(t *testing.T) {
	if testing.Short() {
		t.Skip("reads benchmark data")
	}
	root, err := datasets.Root("")
	if err != nil {
		t.Skipf("benchmark data not found (%v)", err)
	}
	ds, err := datasets.Load(root, "grande/ilpd")
	if err != nil {
		t.Fatal(err)
	}
	digits := map[string]int{}
	for _, c := range ds.X.Columns {
		if c.Kind != data.Numeric {
			continue
		}
		var vals []float64
		for _, v := range c.Num {
			if !math.IsNaN(v) {
				vals = append(vals, v)
				digits[c.Name] = max(digits[c.Name], significant(strconv.FormatFloat(v, 'f', -1, 64)))
			}
		}
		// A missing value is imputed with the training median, which
		// then counts as a training value.
		slices.Sort(vals)
		med := vals[len(vals)/2]
		if len(vals)%2 == 0 {
			med = (vals[len(vals)/2-1] + med) / 2
		}
		digits[c.Name] = max(digits[c.Name], significant(strconv.FormatFloat(med, 'f', -1, 64)))
	}

	dir := t.TempDir()
	model := filepath.Join(dir, "ilpd.json")
	if _, errOut, code := gdt(t, "train", "--dataset", "grande/ilpd", "--model", "gradtree", "--set", "restarts=1", "--out", model); code != 0 {
		t.Fatalf("train: exit %d: %s", code, errOut)
	}
	text, errOut, code := gdt(t, "show", model)
	if code != 0 {
		t.Fatalf("show: exit %d: %s", code, errOut)
	}
	var cuts []string // "column <= cut", in the text's order
	for _, m := range regexp.MustCompile(`(?m)^\s*if (.+) <= (\S+):$`).FindAllStringSubmatch(text, -1) {
		col, cut := m[1], m[2]
		d, ok := digits[col]
		if !ok {
			t.Errorf("cut %s on %q: not a numeric column of ilpd", cut, col)
			continue
		}
		if significant(cut) > d {
			t.Errorf("%s <= %s: %d significant digits; %s's values have at most %d", col, cut, significant(cut), col, d)
		}
		cuts = append(cuts, col+" <= "+cut)
	}
	if len(cuts) < 3 {
		t.Fatalf("only %d numeric cuts in the tree:\n%s", len(cuts), text)
	}

	// The generated Go code compares the raw value with the same number.
	src, errOut, code := gdt(t, "show", model, "--format", "go")
	if code != 0 {
		t.Fatalf("show --format go: exit %d: %s", code, errOut)
	}
	goCut := regexp.MustCompile(`(?m)^\s*// (.+ <= \S+)\n\s*if x\.\w+ <= (\S+?)(?:\.0)? `)
	var goCuts []string
	for _, m := range goCut.FindAllStringSubmatch(src, -1) {
		goCuts = append(goCuts, m[1])
		if _, num, _ := strings.Cut(m[1], " <= "); num != m[2] {
			t.Errorf("generated Go: the comment says %q, the code compares with %s", m[1], m[2])
		}
	}
	slices.Sort(goCuts)
	textSorted := slices.Sorted(slices.Values(cuts))
	if !slices.Equal(goCuts, textSorted) {
		t.Errorf("generated Go's cuts %q differ from the text's %q", goCuts, textSorted)
	}

	// The JSON's exact raw cut is the number shown.
	js, errOut, code := gdt(t, "show", model, "--format", "json")
	if code != 0 {
		t.Fatalf("show --format json: exit %d: %s", code, errOut)
	}
	var jsonCuts []string
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if raw, ok := v["raw"].(map[string]any); ok && raw["Numeric"] == true {
				thr, _ := raw["Threshold"].(float64)
				jsonCuts = append(jsonCuts, raw["Column"].(string)+" <= "+strconv.FormatFloat(thr, 'f', -1, 64))
				if v["true"] != raw["Column"].(string)+" <= "+strconv.FormatFloat(thr, 'f', -1, 64) {
					t.Errorf("JSON: condition %q, exact raw cut %v", v["true"], thr)
				}
			}
			for _, c := range v {
				walk(c)
			}
		case []any:
			for _, c := range v {
				walk(c)
			}
		}
	}
	var doc any
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatalf("show --format json: %v", err)
	}
	walk(doc)
	slices.Sort(jsonCuts)
	if !slices.Equal(jsonCuts, textSorted) {
		t.Errorf("the JSON's exact cuts %q differ from the text's %q", jsonCuts, textSorted)
	}
}
