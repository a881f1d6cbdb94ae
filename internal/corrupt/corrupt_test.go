package corrupt

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestMutate: every kind of damage is listed for a small document, each
// copy differs from the original, the list is the same for the same seed,
// and field mutations stay valid JSON with the named change.
func TestMutate(t *testing.T) {
	doc := []byte(`{"format":"x","n":3,"flag":true,"name":"abc","w":"AACAPwAAAEA=","a":[1,2,3,4,5],"o":{"k":0.25}}`)
	muts, err := Mutate(doc, 1)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := Mutate(doc, 1)
	if len(again) != len(muts) {
		t.Fatalf("%d then %d mutations for the same seed", len(muts), len(again))
	}
	seen := map[string]bool{}
	for i, m := range muts {
		b := m.Bytes()
		if bytes.Equal(b, doc) {
			t.Errorf("%s: the copy equals the original", m.What)
		}
		if !bytes.Equal(b, again[i].Bytes()) || m.What != again[i].What {
			t.Errorf("mutation %d differs between two calls with the same seed", i)
		}
		for _, kind := range []string{"number 3 → -1", "number 3 → 0.5", "number 3 → 1e+300", "flipped", "emptied", "bloated",
			"element 0 set to NaN", "compact array shortened", "compact array lengthened", "array emptied", "array shortened",
			"array lengthened", "field deleted", "truncated", "bit flip"} {
			if strings.Contains(m.What, kind) {
				seen[kind] = true
			}
		}
		if m.What == "n: number 3 → -1" {
			var v struct{ N float64 }
			if json.Unmarshal(b, &v) != nil || v.N != -1 {
				t.Errorf("%s gave %s", m.What, b)
			}
		}
		if strings.HasPrefix(m.What, "format") {
			t.Errorf("%s: the format field is kept", m.What)
		}
	}
	if len(seen) != 15 {
		t.Errorf("kinds of damage seen: %v", seen)
	}
}
