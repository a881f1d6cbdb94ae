package corrupt

import (
	"bytes"
	"encoding/gob"
	"encoding/json"
	"strings"
	"testing"
)

// TestMutate: every kind of damage is listed for a small document, each
// copy differs from the original, the list is the same for the same seed,
// and field mutations stay valid JSON with the named change.
func TestMutate(t *testing.T) {
	doc := []byte(`{"format":"x","n":3,"flag":true,"name":"abc","w":"AACAPwAAAEA=","a":[1,2,3,4,5],"o":{"k":0.25}}`)
	muts := repeatable(t, doc, func() ([]Mutation, error) { return Mutate(doc, 1) })
	seen := map[string]bool{}
	for _, m := range muts {
		b := m.Bytes()
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

// TestMutateGob: the damage of a gob stream is listed deterministically,
// every copy differs from the original, the mended copies keep a valid
// framing (the damage reaches the decoder) and every kind of damage is
// there, the counts around a map's first key included.
func TestMutateGob(t *testing.T) {
	var buf bytes.Buffer
	type inner struct{ Steps []int }
	v := struct {
		Version int
		Actor   map[string][]float32
		Name    string
		Inner   inner
	}{1, map[string][]float32{"split_values": {1, 2, 3}}, "CartPole-v1", inner{[]int{4, 5}}}
	if err := gob.NewEncoder(&buf).Encode(v); err != nil {
		t.Fatal(err)
	}
	doc := buf.Bytes()
	muts := repeatable(t, doc, func() ([]Mutation, error) { return MutateGob(doc, 3) })
	seen := map[string]bool{}
	for _, m := range muts {
		b := m.Bytes()
		mended := !strings.Contains(m.What, "truncated") && !strings.Contains(m.What, "bit flip")
		if _, err := gobMessages(b); mended && err != nil {
			t.Errorf("%s: framing broken: %v", m.What, err)
		}
		for _, kind := range []string{`length of the string "split_values" set to 2^40`, `count before the string "split_values" set to 2^30`,
			"set to 0xff", "set to 0x00", "a count of 2^40 inserted", "bytes deleted", "bytes duplicated", "type definition",
			"truncated", "bit flip"} {
			if strings.Contains(m.What, kind) {
				seen[kind] = true
			}
		}
	}
	if len(seen) != 10 {
		t.Errorf("kinds of damage seen: %v", seen)
	}
	if _, err := MutateGob([]byte(`{"not": "gob"}`), 1); err == nil {
		t.Error("JSON taken for a gob stream")
	}
}

// repeatable runs mutate twice and checks that it lists the same
// mutations, with the same bytes, both times, and that none returns doc
// unchanged.
func repeatable(t *testing.T, doc []byte, mutate func() ([]Mutation, error)) []Mutation {
	t.Helper()
	muts, err := mutate()
	if err != nil {
		t.Fatal(err)
	}
	again, _ := mutate()
	if len(again) != len(muts) {
		t.Fatalf("%d then %d mutations for the same seed", len(muts), len(again))
	}
	for i, m := range muts {
		b := m.Bytes()
		if bytes.Equal(b, doc) {
			t.Errorf("%s: the copy equals the original", m.What)
		}
		if !bytes.Equal(b, again[i].Bytes()) || m.What != again[i].What {
			t.Errorf("mutation %d differs between two calls with the same seed", i)
		}
	}
	return muts
}
