package hpo

import (
	"testing"

	"github.com/gdt-ml/gdt/datasets"
	"github.com/gdt-ml/gdt/model"
)

func TestThesisBest(t *testing.T) {
	for _, c := range []struct {
		kind   string
		suites []string
		n      int
	}{
		{"gradtree", []string{"gradtree-binary", "gradtree-multiclass"}, 36},
		{"grande", []string{"grande"}, 15},
	} {
		best := ThesisBest(c.kind)
		if len(best) != c.n {
			t.Errorf("%s: %d configurations, want %d", c.kind, len(best), c.n)
		}
		names := map[string]bool{}
		for _, s := range c.suites {
			es, err := datasets.Suite(s)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range es {
				names[e.Dataset] = true
			}
		}
		k, err := model.LookupKind(c.kind)
		if err != nil {
			t.Fatal(err)
		}
		for d, opts := range best {
			if !names[d] {
				t.Errorf("%s: configuration for %q, which no suite has", c.kind, d)
			}
			if _, err := k.New(opts, 42); err != nil {
				t.Errorf("%s on %s: %v", c.kind, d, err)
			}
		}
	}
	// Spot checks against the spec's tables.
	if o := ThesisBest("gradtree")["raisins"]; o["depth"] != "10" || o["lr_leaf"] != "0.100" || o["poly_loss"] != "true" || o["poly_epsilon"] != "5" {
		t.Errorf("raisins: %v", o)
	}
	if o := ThesisBest("grande")["grande/phoneme"]; o["focal_factor"] != "3" || o["cosine_decay_steps"] != "1000" || o["n_estimators"] != "2048" {
		t.Errorf("phoneme: %v", o)
	}
	if len(ThesisBest("cart")) != 0 {
		t.Error("the thesis publishes no CART configurations")
	}
}
