package model_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gdt-ml/gdt/datasets"
)

// FuzzLoadModel loads arbitrary bytes as a model file of any kind and
// version as gdt show, predict and serve do (decode, rebuild, render,
// predict): it must give an error or a model predicting finite values of
// the right shape, never a panic. Seeds are the golden files of every
// kind and version (cart, gradtree, grande, random-forest; v1 and v2) and a small mlp.
func FuzzLoadModel(f *testing.F) {
	files, err := filepath.Glob("../modelfile/testdata/v*/*.gdt.json")
	if err != nil || len(files) == 0 {
		f.Fatalf("no golden model files: %v", err)
	}
	files = append(files, tinyMLPFile(f))
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	query := datasets.Demo().Subset([]int{0, 1, 2, 3, 4, 5, 6, 7}).X
	f.Fuzz(func(t *testing.T, b []byte) {
		if _, bad := exercise(b, query); bad != nil {
			t.Fatal(bad)
		}
	})
}
