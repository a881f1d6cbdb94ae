package gradtree_test

import (
	"context"
	"testing"

	"github.com/gdt-ml/gdt/bench"
	"github.com/gdt-ml/gdt/datasets"
	"github.com/gdt-ml/gdt/gradtree"
)

// TestNoInformationLoss is the thesis's "no information loss" promise,
// checked on every benchmark dataset: after training and pruning, the dense
// model (the kernel evaluating the written-back parameters) and the plain
// tree the user reads and the trained form that predicts (package ensemble)
// give exactly the same raw outputs on every row —
// training, validation and test. Trainings are short (a few epochs) to keep
// the test fast; the property does not depend on how long training ran.
func TestNoInformationLoss(t *testing.T) {
	root, err := datasets.Root("")
	if err != nil {
		t.Skipf("benchmark data not found (%v); set GDT_DATA to run this test", err)
	}
	names := datasets.Names("")
	if testing.Short() {
		names = names[:6]
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			ds, err := datasets.Load(root, name)
			if err != nil {
				t.Fatal(err)
			}
			folds, err := bench.GradTreeProtocol{}.Folds(ds, 1)
			if err != nil {
				t.Fatal(err)
			}
			prep, err := bench.GradTreeProtocol{}.Prepare(ds, folds[0])
			if err != nil {
				t.Fatal(err)
			}
			m := gradtree.New(gradtree.Config{Depth: 8, MaxEpochs: 3, Restarts: 1, Patience: 5})
			if err := m.Fit(context.Background(), prep.Problem, prep.Train, prep.Valid); err != nil {
				t.Fatal(err)
			}
			pt, err := m.PlainTree()
			if err != nil {
				t.Fatal(err)
			}
			k, err := m.Kernel()
			if err != nil {
				t.Fatal(err)
			}
			mismatches, rows := 0, 0
			for _, part := range []*bench.Data{prep.Train, prep.Valid, prep.Test} {
				C := m.Outputs
				raw := make([]float32, part.X.Rows*C)
				if err := k.Predict(k.NewWorkspace(), part.X.Data, part.X.Rows, raw); err != nil {
					t.Fatal(err)
				}
				pred, err := m.Raw(part.X)
				if err != nil {
					t.Fatal(err)
				}
				for i := 0; i < part.X.Rows; i++ {
					l, err := pt.LeafOf(part.X.Row(i))
					if err != nil {
						t.Fatal(err)
					}
					v := pt.Nodes[l].Value
					for c := 0; c < C; c++ {
						if v[c] != raw[i*C+c] || pred[i*C+c] != raw[i*C+c] {
							mismatches++
							break
						}
					}
					rows++
				}
			}
			if mismatches > 0 {
				t.Fatalf("%d of %d rows: the plain tree, the trained form and the dense model disagree", mismatches, rows)
			}
			// The pruned tree is no larger than the full tree.
			full := 1<<(m.Config.Depth+1) - 1
			if pt.NumNodes() > full || pt.NumNodes() < 1 {
				t.Fatalf("pruned tree has %d nodes (full tree %d)", pt.NumNodes(), full)
			}
		})
	}
}
