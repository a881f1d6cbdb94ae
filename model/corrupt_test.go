package model_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	_ "github.com/gdt-ml/gdt/cart" // the kinds whose files are corrupted
	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/datasets"
	_ "github.com/gdt-ml/gdt/forest"
	_ "github.com/gdt-ml/gdt/gradtree"
	_ "github.com/gdt-ml/gdt/grande"
	"github.com/gdt-ml/gdt/internal/corrupt"
	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/modelfile"
	_ "github.com/gdt-ml/gdt/multimodal" // kind mlp
)

// exercise loads a (possibly corrupted) model file as gdt show, predict
// and serve do: decode, rebuild, render, predict the query rows. It returns
// the load error, or an error when the loaded model predicts a non-finite
// value or the wrong number of columns; a panic is re-raised to the caller.
func exercise(b []byte, query *data.Table) (loadErr, badModel error) {
	f, err := modelfile.Read(strings.NewReader(string(b)), "corrupt.gdt.json")
	if err != nil {
		return err, nil
	}
	tr, err := model.FromFile(f, "corrupt.gdt.json")
	if err != nil {
		return err, nil
	}
	_ = tr.Describe()
	for _, format := range []string{"text", "json", "dot"} {
		_, _ = tr.Render(format)
	}
	p, err := tr.PredictProba(query)
	if err != nil {
		return nil, nil // a query the model cannot take is a clear error too
	}
	want := len(tr.Classes)
	if tr.Task == data.Regression {
		want = 1
	}
	if p.Cols != want || p.Rows != query.NumRows() {
		return nil, fmt.Errorf("predicted %d×%d: expected %d rows × %d columns (classes %q)", p.Rows, p.Cols, query.NumRows(), want, tr.Classes)
	}
	for i, v := range p.Data {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return nil, fmt.Errorf("prediction %d is %v", i, v)
		}
	}
	pred := model.Decide(tr.Task, p)
	for _, v := range pred {
		if tr.Task != data.Regression && (v < 0 || int(v) >= len(tr.Classes)) {
			return nil, fmt.Errorf("predicted class %v of %d", v, len(tr.Classes))
		}
	}
	return nil, nil
}

// tinyMLPFile trains a small mlp (kind mlp, package multimodal) on the
// demo data and saves it; it returns the file's path.
func tinyMLPFile(t testing.TB) string {
	ds := datasets.Demo()
	tr, err := model.Train(context.Background(), ds, model.Spec{Kind: "mlp", Seed: 1,
		Options: map[string]string{"mlp_hidden": "6,4", "epochs": "2"}})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "mlp.gdt.json")
	if err := tr.Save(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCorruptModelFiles mutates the golden model files of every kind and
// version (cart, gradtree, grande, random-forest; versions 1 and 2) and a
// freshly trained mlp field
// by field (see corrupt) and checks that loading gives an
// error or a model that predicts finite values of the right shape — never
// a panic.
func TestCorruptModelFiles(t *testing.T) {
	debug.SetMaxStack(64 << 20)
	query := datasets.Demo().X
	files, err := filepath.Glob("../modelfile/testdata/v*/*.gdt.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden model files: %v", err)
	}
	files = append(files, tinyMLPFile(t))
	total, rejected, panics, bad := 0, 0, 0, 0
	for fi, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if le, bm := exercise(b, query); le != nil || bm != nil {
			t.Fatalf("%s: the uncorrupted file fails: %v %v", path, le, bm)
		}
		cs, err := corrupt.Mutate(b, uint64(fi))
		if err != nil {
			t.Fatal(err)
		}
		// Every corruption with GDT_CORRUPT_ALL=1 (≈10,000 files, a minute
		// or more); by default every 24th (every 60th with -short), so
		// go test ./... stays quick.
		stride := 24
		if testing.Short() {
			stride = 60
		}
		if os.Getenv("GDT_CORRUPT_ALL") != "" {
			stride = 1
		}
		for ci, c := range cs {
			if ci%stride != fi%stride {
				continue
			}
			total++
			if os.Getenv("GDT_CORRUPT_TRACE") != "" {
				fmt.Fprintln(os.Stderr, path, c.What)
			}
			func() {
				defer func() {
					if r := recover(); r != nil {
						panics++
						t.Errorf("%s: %s: panic: %v", path, c.What, r)
					}
				}()
				le, bm := exercise(c.Bytes(), query)
				if le != nil {
					rejected++
				}
				if bm != nil {
					bad++
					t.Errorf("%s: %s: loaded, but %v", path, c.What, bm)
				}
			}()
		}
	}
	t.Logf("%d corrupted files over %d originals: %d rejected with an error, %d panics, %d loaded with bad predictions", total, len(files), rejected, panics, bad)
}
