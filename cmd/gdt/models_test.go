package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/grande"
	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/rl/ppo"
)

// TestModelsLists checks `gdt models`: every registered kind and sympol
// listed; `gdt models KIND` gives every declared option of the kind with
// its default and range, in text and JSON.
func TestModelsLists(t *testing.T) {
	out, errOut, code := gdt(t, "models")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, k := range append(model.KindNames(), "sympol") {
		if !strings.Contains(out, "\n"+k+" ") {
			t.Errorf("gdt models does not list %s:\n%s", k, out)
		}
	}

	for _, tc := range []struct {
		kind  string
		lines []string // option rows: key, default, range in order
		keys  []string
	}{
		{"grande", []string{"n_estimators  2048  1…1048576", "depth  6  1…16", "dropout  0  [0, 1)",
			"loss  focal; regression: mse  focal | crossentropy | mse", "learning_rate  —  > 0"}, grande.Options.Keys()},
		{"cart", []string{"depth  none  ≥ 1 | none", "criterion  gini; regression: squared_error  gini | entropy | squared_error"}, nil},
		{"sympol", []string{"gamma  —  [0, 1]", "accum_mode  auto  auto | sqrt | mean"}, ppo.Options.Keys()},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			out, errOut, code := gdt(t, "models", tc.kind)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			squeezed := squeeze(out)
			for _, l := range tc.lines {
				if !strings.Contains(squeezed, "\n"+l+" ") {
					t.Errorf("no row %q in\n%s", l, out)
				}
			}
			for _, k := range tc.keys {
				if !strings.Contains(out, "\n"+k+" ") {
					t.Errorf("option %s not listed", k)
				}
			}
			var doc struct {
				Name    string `json:"name"`
				Options []struct {
					Key     string   `json:"key"`
					Type    string   `json:"type"`
					Default string   `json:"default"`
					Range   string   `json:"range"`
					Meaning string   `json:"meaning"`
					Min     *float64 `json:"min"`
				} `json:"options"`
			}
			jsonRun(t, &doc, "models", tc.kind, "--json")
			if doc.Name != tc.kind || len(doc.Options) == 0 {
				t.Fatalf("JSON: %+v", doc)
			}
			for _, o := range doc.Options {
				if o.Key == "" || o.Meaning == "" || o.Range == "" || o.Type == "" {
					t.Errorf("JSON option incomplete: %+v", o)
				}
			}
		})
	}
	if _, errOut, code := gdt(t, "models", "xgboost"); code == 0 || !strings.Contains(errOut, `unknown kind "xgboost"`) {
		t.Errorf("unknown kind: exit %d, %s", code, errOut)
	}
}

// squeeze collapses runs of two or more spaces (column gaps) to two, so
// table rows compare without depending on column widths.
func squeeze(s string) string { return regexp.MustCompile(`  +`).ReplaceAllString(s, "  ") }
