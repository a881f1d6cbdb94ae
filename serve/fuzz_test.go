package serve

import (
	"bytes"
	"encoding/json"
	"io"
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
		// the fast split of the common body agrees with the decoder
		if rows, explain, ok := splitRequest(body); ok {
			var req PredictRequest
			if err := json.Unmarshal(body, &req); err != nil {
				t.Fatalf("split a body the decoder rejects (%v)", err)
			}
			if explain != req.Explain || len(rows) != len(req.Rows) {
				t.Fatalf("split: explain %v, %d rows; decoder: %v, %d rows", explain, len(rows), req.Explain, len(req.Rows))
			}
			for i := range rows {
				if !bytes.Equal(rows[i], req.Rows[i]) {
					t.Fatalf("row %d: split %s, decoder %s", i, rows[i], req.Rows[i])
				}
			}
		}
		pr, err := s.prepare(m, body)
		if err == nil && pr == nil {
			t.Fatal("no answer and no error")
		}
		if err == nil {
			if err := s.stream(io.Discard, "m", pr); err != nil {
				t.Fatalf("writing the answer: %v", err)
			}
		}
	})
}
