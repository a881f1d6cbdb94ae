package bench

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMerge(t *testing.T) {
	r := func(ds, m string, trial int, f1 float64) Result {
		return Result{Dataset: ds, Model: m, Trial: trial, F1Macro: f1}
	}
	tests := []struct {
		name       string
		old, fresh []Result
		want       []Result
	}{
		{"empty", nil, nil, []Result{}},
		{"only old", []Result{r("a", "cart", 0, 1)}, nil, []Result{r("a", "cart", 0, 1)}},
		{"only fresh", nil, []Result{r("a", "cart", 0, 1)}, []Result{r("a", "cart", 0, 1)}},
		{"replace in place, append new, keep others",
			[]Result{r("a", "cart", 0, 1), r("b", "cart", 0, 2), r("c", "cart", 0, 3)},
			[]Result{r("d", "cart", 0, 9), r("b", "cart", 0, 5)},
			[]Result{r("a", "cart", 0, 1), r("b", "cart", 0, 5), r("c", "cart", 0, 3), r("d", "cart", 0, 9)}},
		{"model and trial are part of the key",
			[]Result{r("a", "cart", 0, 1), r("a", "cart", 1, 2)},
			[]Result{r("a", "gradtree", 0, 7)},
			[]Result{r("a", "cart", 0, 1), r("a", "cart", 1, 2), r("a", "gradtree", 0, 7)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Merge(tc.old, tc.fresh)); diff != "" {
				t.Fatalf("Merge (-want +got):\n%s", diff)
			}
		})
	}
}

// TestOnResult checks that every newly computed result is reported once and
// that results read back (Done) are not reported again.
func TestOnResult(t *testing.T) {
	root := dataRoot(t)
	opt := Options{Suite: "gradtree-multiclass", Models: []string{"cart", "cart-d3"}, Trials: 2,
		Datasets: []string{"iris", "zoo"}, Root: root, Workers: 2}
	var got []Result
	opt.OnResult = func(r Result) { got = append(got, r) }
	all, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(all) || len(all) != 8 {
		t.Fatalf("reported %d results, run returned %d, want 8 each", len(got), len(all))
	}
	seen := map[string]bool{}
	for _, r := range got {
		k := resultKey(r.Dataset, r.Model, r.Trial)
		if seen[k] {
			t.Fatalf("result %s/%s/%d reported twice", r.Dataset, r.Model, r.Trial)
		}
		seen[k] = true
	}
	// Resume with half of the rows done: only the other half is reported.
	opt.Done = all[:4]
	got = nil
	if _, err := Run(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	if len(got) != 4 {
		t.Fatalf("resumed run reported %d results, want 4", len(got))
	}
	for _, r := range got {
		for _, d := range opt.Done {
			if resultKey(r.Dataset, r.Model, r.Trial) == resultKey(d.Dataset, d.Model, d.Trial) {
				t.Fatalf("done result %s/%s/%d was recomputed", r.Dataset, r.Model, r.Trial)
			}
		}
	}
}

// TestCancelKeepsFinishedModels checks that a run cancelled between two
// models of one job still returns the row of the model that finished (the
// CLI's final write would otherwise drop a row it had checkpointed).
func TestCancelKeepsFinishedModels(t *testing.T) {
	root := dataRoot(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opt := Options{Suite: "gradtree-multiclass", Models: []string{"cart", "cart-d3"}, Trials: 1,
		Datasets: []string{"iris"}, Root: root, Workers: 1}
	var reported []Result
	opt.OnResult = func(r Result) {
		reported = append(reported, r)
		cancel()
	}
	got, err := Run(ctx, opt)
	if err == nil {
		t.Fatal("Run after cancellation: no error")
	}
	if len(reported) != 1 {
		t.Fatalf("reported %d results, want 1 (the run was cancelled after the first)", len(reported))
	}
	if len(got) != 1 || got[0].Model != "cart" || got[0].Err != "" {
		t.Fatalf("Run returned %+v, want the finished cart row", got)
	}
	if diff := cmp.Diff(reported[0], got[0]); diff != "" {
		t.Fatalf("returned row differs from the reported one (-reported +returned):\n%s", diff)
	}
}
