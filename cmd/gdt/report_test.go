package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestReportLayout (issue 21, item 6): gdt report draws every tree to fit
// the page width, so its root is in view on load, and plots the learning
// curve of a fit that validates every few steps against its training
// steps, with the legend beside the plot. package report tests the layout
// in detail and in a browser.
func TestReportLayout(t *testing.T) {
	dir, csv, model := trainLoans(t, "grande-fast", "n_estimators=6", "depth=3", "epochs=4", "eval_every=2", "batch_size=4", "restarts=2")
	out := filepath.Join(dir, "rep")
	if _, errOut, code := gdt(t, "report", model, "--data", csv, "--out", out); code != 0 {
		t.Fatalf("report: exit %d: %s", code, errOut)
	}
	b, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	trees := regexp.MustCompile(`<div class="tree-scroll"><div class="figure"><svg[^>]*>`).FindAllString(page, -1)
	if len(trees) == 0 {
		t.Fatal("no tree drawings")
	}
	for _, tag := range trees {
		if !strings.Contains(tag, ` width="100%"`) || !strings.Contains(tag, "viewBox=") || !strings.Contains(tag, "max-width:") {
			t.Errorf("a tree is not fitted to the page width: %s", tag)
		}
	}
	for _, want := range []string{"loss at each validation check", "validation checked every 2 steps", "best check: step ", `<g class="legend">`, "(kept)", `stroke-opacity="0.25"`} {
		if !strings.Contains(page, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
}
