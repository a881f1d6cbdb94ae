package serve

import (
	"testing"
)

// FuzzPredictBody feeds arbitrary request bodies to the predict path: it
// must answer (a prediction or an input error), never panic.
func FuzzPredictBody(f *testing.F) {
	fx := getFixture(f)
	s, err := New(Config{PollInterval: -1, Logf: f.Logf}, "m="+fx.paths["grande"])
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{
		`{"rows": [{"age": 30, "income": 5000, "color": "red", "size": "M"}], "explain": true}`,
		`{"rows": [{"age": "3e2", "income": null, "color": 7, "size": ""}]}`,
		`{"rows": [{"a\u0067e": 1, "income": 1, "color": "x", "size": "S", "z": [{"]": "}"}]}]}`,
		`{"rows": [[1, 2]]}`, `{"rows": {}}`, `[]`, `{"rows": [{"age": tru`,
	} {
		f.Add([]byte(seed))
	}
	m := s.slots["m"].cur.Load()
	f.Fuzz(func(t *testing.T, body []byte) {
		resp, err := s.predict(m, body)
		if err == nil && resp == nil {
			t.Fatal("no answer and no error")
		}
	})
}
