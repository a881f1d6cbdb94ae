package bench

import (
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/datasets"
)

// TestWriteMarkdownSummaryLines checks the per-model lines under the table:
// means over the datasets a model ran on, of the per-dataset means over
// successful trials (failed trials are left out of both).
func TestWriteMarkdownSummaryLines(t *testing.T) {
	s := &Suite{Name: "t", Entries: []datasets.SuiteEntry{{Dataset: "d1"}, {Dataset: "d2"}}}
	rs := []Result{
		{Dataset: "d1", Model: "a", Trial: 0, F1Macro: 0.8, FitSeconds: 2, NNodes: 7},
		{Dataset: "d1", Model: "a", Trial: 1, F1Macro: 0.6, FitSeconds: 4, NNodes: 9},
		{Dataset: "d2", Model: "a", Trial: 0, F1Macro: 0.5, FitSeconds: 9, NNodes: 3},
		{Dataset: "d1", Model: "b", Trial: 0, F1Macro: 0.9, FitSeconds: 1.5, NNodes: 1},
		{Dataset: "d1", Model: "b", Trial: 1, Err: "boom", FitSeconds: 100, NNodes: 100},
		{Dataset: "d2", Model: "b", Trial: 0, F1Macro: 0.4, FitSeconds: 0.5, NNodes: 3},
	}
	var b strings.Builder
	if err := WriteMarkdown(&b, s, []string{"a", "b"}, rs); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"| d1 | 0.700 ± 0.100 | 0.900 ± 0.000 |",
		// a: (8 + 3) / 2 and (3 + 9) / 2; b: (1 + 3) / 2 and (1.5 + 0.5) / 2.
		"Mean model size (nodes): a 5.5; b 2.0;",
		"Mean fit seconds per trial (wall time as recorded): a 6.0; b 1.0;",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
