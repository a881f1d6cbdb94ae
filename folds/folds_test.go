package folds

import (
	"sort"
	"testing"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/datasets"
)

// TestFoldsPartition checks that every protocol's folds partition the rows
// (or the pool) into disjoint training, validation and test parts, and
// that the test parts of a cross-validation cover the rows once.
func TestFoldsPartition(t *testing.T) {
	ds := datasets.Demo()
	n := len(ds.Y)
	pool := make([]int, 0, n/2)
	for i := 0; i < n; i += 2 {
		pool = append(pool, i)
	}
	cvPool, err := CV{K: 3, ValidFraction: 0.1, Seed: 7}.FoldsOf(ds, pool)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		folds func() ([]Fold, error)
		rows  []int
		cover bool
	}{
		{"gradtree", func() ([]Fold, error) { return GradTree{}.Folds(ds, 3) }, nil, false},
		{"cv", func() ([]Fold, error) { return CV{K: 5, ValidFraction: 0.1, Seed: 42}.Folds(ds, 0) }, nil, true},
		{"cv-pool", func() ([]Fold, error) { return cvPool, nil }, pool, true},
		{"holdout", func() ([]Fold, error) { return Holdout{TestFraction: 0.25, ValidFraction: 0.1, Seed: 3}.Folds(ds, 2) }, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, err := tc.folds()
			if err != nil {
				t.Fatal(err)
			}
			rows := tc.rows
			if rows == nil {
				for i := 0; i < n; i++ {
					rows = append(rows, i)
				}
			}
			tested := map[int]int{}
			for _, f := range fs {
				all := append(append(append([]int(nil), f.Train...), f.Valid...), f.Test...)
				sort.Ints(all)
				want := append([]int(nil), rows...)
				sort.Ints(want)
				if len(all) != len(want) {
					t.Fatalf("fold %d covers %d rows, want %d", f.Trial, len(all), len(want))
				}
				for i := range all {
					if all[i] != want[i] {
						t.Fatalf("fold %d: row %d is %d, want %d (parts overlap or leave the pool)", f.Trial, i, all[i], want[i])
					}
				}
				if len(f.Valid) == 0 || len(f.Test) == 0 {
					t.Fatalf("fold %d has an empty part", f.Trial)
				}
				for _, r := range f.Test {
					tested[r]++
				}
			}
			if tc.cover {
				for _, r := range rows {
					if tested[r] != 1 {
						t.Fatalf("row %d tested %d times", r, tested[r])
					}
				}
			}
		})
	}
	// Folds is FoldsOf over all rows, capped at trials.
	all, _ := CV{K: 4, Seed: 1}.FoldsOf(ds, nil)
	two, _ := CV{K: 4, Seed: 1}.Folds(ds, 2)
	if len(two) != 2 || two[1].Test[0] != all[1].Test[0] {
		t.Fatal("Folds(2) is not the first two of FoldsOf")
	}
	if _, err := (CV{K: 1}).Folds(ds, 0); err == nil {
		t.Error("K = 1 accepted")
	}
	reg := &data.Dataset{Name: "reg", Task: data.Regression, X: ds.X, Y: ds.X.Col("income").Num}
	if fs, err := (CV{K: 3, ValidFraction: 0.1, Seed: 2}).Folds(reg, 0); err != nil || len(fs) != 3 || len(fs[0].Valid) == 0 {
		t.Fatalf("regression CV: %v", err)
	}
}
