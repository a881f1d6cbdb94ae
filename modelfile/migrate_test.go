package modelfile

import (
	"encoding/json"
	"strings"
	"testing"
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
