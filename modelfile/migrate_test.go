package modelfile

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/ensemble"
)

// TestMigrationsCoverVersions guards the versioning policy: every version
// below Version has a migration to the next one.
func TestMigrationsCoverVersions(t *testing.T) {
	if len(migrations) != Version-1 {
		t.Fatalf("Version is %d but there are %d migrations: a version bump needs a migration from the previous version (see the package documentation)", Version, len(migrations))
	}
}

// TestUpgrade checks the migration chain on a made-up history: version 1
// named the task "problem", version 2 renamed it to "task", version 3
// requires a "target".
func TestUpgrade(t *testing.T) {
	steps := []migration{
		func(doc map[string]json.RawMessage) error {
			doc["task"] = doc["problem"]
			delete(doc, "problem")
			return nil
		},
		func(doc map[string]json.RawMessage) error {
			if _, ok := doc["target"]; !ok {
				doc["target"] = json.RawMessage(`"y"`)
			}
			return nil
		},
	}
	in := `{"format":"gdt-model","version":1,"kind":"cart","problem":"binary","model":{}}`
	b, err := upgrade([]byte(in), 1, 3, steps)
	if err != nil {
		t.Fatal(err)
	}
	var f File
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	if f.Version != 3 || f.Task != "binary" || f.Target != "y" || f.Kind != "cart" {
		t.Fatalf("upgraded to %+v", f)
	}
	// Starting at version 2 applies only the second step.
	b, err = upgrade([]byte(`{"version":2,"task":"regression"}`), 2, 3, steps)
	if err != nil || !strings.Contains(string(b), `"target":"y"`) || !strings.Contains(string(b), `"version":3`) {
		t.Fatalf("from 2: %s %v", b, err)
	}
	if _, err := upgrade([]byte(in), 1, 4, steps); err == nil || !strings.Contains(err.Error(), "no migration from version 3 to 4") {
		t.Fatalf("missing step: %v", err)
	}
}

// TestMigrateV1 upgrades hand-written version-1 sections: a GRANDE flat
// ensemble with one weight per tree, a GradTree plain tree, a GradTree
// without a tree (no_prune) and a CART model (unchanged).
func TestMigrateV1(t *testing.T) {
	for _, tc := range []struct {
		name, kind, model string
		check             func(t *testing.T, sec map[string]json.RawMessage)
	}{
		{"grande tree weights", "grande", `{"Features":3,"Flat":{"Trees":2,"Depth":1,"Outputs":1,"Weighting":"estimator","Feature":[2,0],"Threshold":[0.5,-1],"Leaves":[1,2,3,4],"Weights":[0.25,-0.25]}}`,
			func(t *testing.T, sec map[string]json.RawMessage) {
				m := decodeEnsemble(t, sec)
				if m.Weighting != ensemble.TreeWeights || m.Trees() != 2 || m.CompleteDepth() != 1 || m.TreeWeight[1] != -0.25 {
					t.Fatalf("ensemble %+v", m)
				}
				if got := m.LeafValue(m.Leaf(1, []float32{-2, 0, 0})); got[0] != 3 {
					t.Fatalf("tree 1 routes x0 = −2 to value %v, want 3", got)
				}
				if _, ok := sec["Flat"]; ok {
					t.Fatal("Flat kept")
				}
			}},
		{"gradtree tree", "gradtree", `{"Features":2,"Tree":{"nodes":[{"feature":1,"threshold":0.5,"left":1,"right":2,"count":9},{"feature":-1,"left":-1,"right":-1,"value":[-1],"count":4},{"feature":-1,"left":-1,"right":-1,"value":[2],"count":5}],"outputs":1,"counted":true}}`,
			func(t *testing.T, sec map[string]json.RawMessage) {
				m := decodeEnsemble(t, sec)
				if m.Weighting != ensemble.Mean || m.Nodes() != 3 || m.Count[2] != 5 || m.LeafValue(m.Leaf(0, []float32{0, 0.7}))[0] != 2 {
					t.Fatalf("ensemble %+v", m)
				}
			}},
		{"gradtree no_prune", "gradtree", `{"Features":2,"Params":{}}`,
			func(t *testing.T, sec map[string]json.RawMessage) {
				if _, ok := sec["Ensemble"]; ok {
					t.Fatal("an ensemble was made up")
				}
			}},
		{"cart", "cart", `{"Tree":{"Nodes":[]}}`,
			func(t *testing.T, sec map[string]json.RawMessage) {
				if string(sec["Tree"]) != `{"Nodes":[]}` {
					t.Fatalf("cart section changed: %s", sec["Tree"])
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := map[string]json.RawMessage{"kind": json.RawMessage(`"` + tc.kind + `"`), "model": json.RawMessage(tc.model)}
			if err := migrateV1(doc); err != nil {
				t.Fatal(err)
			}
			var sec map[string]json.RawMessage
			if err := json.Unmarshal(doc["model"], &sec); err != nil {
				t.Fatal(err)
			}
			tc.check(t, sec)
		})
	}
	bad := map[string]json.RawMessage{"kind": json.RawMessage(`"grande"`), "model": json.RawMessage(`{"Features":3,"Flat":{"Trees":2,"Depth":1,"Outputs":1,"Weighting":"leaf","Feature":[2],"Threshold":[0.5,-1],"Leaves":[1,2,3,4],"Weights":[0,0,0,0]}}`)}
	if err := migrateV1(bad); err == nil || !strings.Contains(err.Error(), "do not fit") {
		t.Fatalf("a truncated flat ensemble: %v", err)
	}
}

func decodeEnsemble(t *testing.T, sec map[string]json.RawMessage) *ensemble.Ensemble {
	t.Helper()
	var m ensemble.Ensemble
	if err := json.Unmarshal(sec["Ensemble"], &m); err != nil {
		t.Fatal(err)
	}
	if err := m.Validate(0); err != nil {
		t.Fatal(err)
	}
	return &m
}
