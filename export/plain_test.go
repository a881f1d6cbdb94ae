package export_test

import (
	"math"
	"testing"

	"github.com/gdt-ml/gdt/cart"
	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/export"
	"github.com/gdt-ml/gdt/export/exporttest"
	"github.com/gdt-ml/gdt/grande"
)

// TestCARTTree checks that the plain tree of a CART model (its trained
// form) routes every row as CART does (left iff float64(x) ≤ t), including
// values on and next to the thresholds.
func TestCARTTree(t *testing.T) {
	for _, task := range []data.Task{data.Binary, data.Multiclass, data.Regression} {
		ds := exporttest.Dataset(task, 300, 4)
		m := exporttest.Train(t, "cart", "", ds)
		ct := m.Learner.(*cart.Learner).Tree
		p, err := export.Of(m)
		if err != nil {
			t.Fatal(err)
		}
		pt := p.Tree
		X, err := m.Transform(ds.X)
		if err != nil {
			t.Fatal(err)
		}
		// rows whose every feature sits on, just below or just above a threshold
		for _, n := range ct.Nodes {
			if n.Feature < 0 {
				continue
			}
			base := append([]float32(nil), X.Row(0)...)
			th := float32(n.Threshold)
			for _, v := range []float32{th, math.Nextafter32(th, -1e30), math.Nextafter32(th, 1e30)} {
				row := append([]float32(nil), base...)
				row[n.Feature] = v
				X.Data = append(X.Data, row...)
				X.Rows++
			}
		}
		for i := 0; i < X.Rows; i++ {
			x := X.Row(i)
			leaf, err := ct.LeafOf(x)
			if err != nil {
				t.Fatal(err)
			}
			l, err := pt.LeafOf(x)
			if err != nil {
				t.Fatal(err)
			}
			got := pt.Nodes[l]
			if got.Origin != leaf {
				t.Fatalf("%s row %d: plain tree reaches CART node %d, CART %d", task, i, got.Origin, leaf)
			}
			for c, v := range ct.Nodes[leaf].Value {
				if got.Value[c] != float32(v) {
					t.Fatalf("%s row %d: leaf value %v, CART %v", task, i, got.Value, ct.Nodes[leaf].Value)
				}
			}
		}
		if pt.Nodes[0].Count != ct.Nodes[0].N || !pt.Counted {
			t.Fatalf("counts not carried over")
		}
	}
}

// TestEnsembleShares checks the instance-wise weights and the plain trees
// of a GRANDE model against the model's own kernel.
func TestEnsembleShares(t *testing.T) {
	ds := exporttest.Dataset(data.Binary, 300, 5)
	m := exporttest.Train(t, "grande", "", ds)
	g := m.Learner.(*grande.Model)
	p, err := export.Of(m)
	if err != nil {
		t.Fatal(err)
	}
	X, err := m.Transform(ds.X)
	if err != nil {
		t.Fatal(err)
	}
	want, err := g.TreeWeights(X)
	if err != nil {
		t.Fatal(err)
	}
	E := p.Ensemble.Trees()
	for i := 0; i < X.Rows; i++ {
		x := X.Row(i)
		a, err := p.Shares(x)
		if err != nil {
			t.Fatal(err)
		}
		for e := range a {
			if math.Abs(a[e]-float64(want[i*E+e])) > 1e-6 {
				t.Fatalf("row %d tree %d: share %v, kernel %v", i, e, a[e], want[i*E+e])
			}
		}
		top, _ := p.TopTrees(x, 3)
		if len(top) != 3 || top[0].Share < top[1].Share || top[1].Share < top[2].Share {
			t.Fatalf("row %d: top trees %+v", i, top)
		}
		for e := 0; e < E; e++ {
			tr, err := p.EnsembleTree(e)
			if err != nil {
				t.Fatal(err)
			}
			l, err := tr.LeafOf(x)
			if err != nil {
				t.Fatal(err)
			}
			if want := p.Ensemble.Leaf(e, x) - int(p.Ensemble.Roots[e]); l != want {
				t.Fatalf("tree %d: leaf %d, trained form %d", e, l, want)
			}
		}
	}
	imp, err := p.FeatureImportance(nil)
	if err != nil || len(imp) == 0 {
		t.Fatalf("importance: %v %v", imp, err)
	}
}

func TestOfUnsupported(t *testing.T) {
	ds := exporttest.Dataset(data.Binary, 50, 1)
	m := exporttest.Train(t, "cart", "", ds)
	m.Learner = nil
	if _, err := export.Of(m); err == nil {
		t.Fatal("a model without learner was accepted")
	}
}
