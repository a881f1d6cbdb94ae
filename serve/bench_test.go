package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/gdt-ml/gdt/model"
)

// BenchmarkPredict measures one predict request through the handler
// (no network) for 1 and 1,000 rows.
func BenchmarkPredict(b *testing.B) {
	f := getFixture(b)
	s, err := New(Config{PollInterval: -1, Logf: b.Logf}, "cart="+f.paths["cart"], "gradtree="+f.paths["gradtree"], "grande="+f.paths["grande"])
	if err != nil {
		b.Fatal(err)
	}
	var thousand []map[string]any
	for len(thousand) < 1000 {
		thousand = append(thousand, rowsJSON(f.ds.X, 0, min(300, 1000-len(thousand)))...)
	}
	for _, kind := range []string{"cart", "gradtree", "grande"} {
		for _, rows := range []int{1, 1000} {
			body, _ := json.Marshal(map[string]any{"rows": thousand[:rows]})
			b.Run(kind+"/"+map[int]string{1: "1row", 1000: "1000rows"}[rows], func(b *testing.B) {
				h := s.Handler()
				for i := 0; i < b.N; i++ {
					req := httptest.NewRequest(http.MethodPost, "/v1/models/"+kind+"/predict", bytes.NewReader(body))
					w := httptest.NewRecorder()
					h.ServeHTTP(w, req)
					if w.Code != 200 {
						b.Fatal(w.Body.String())
					}
				}
			})
		}
	}
}

// BenchmarkPredictGRANDEDefault times one-row requests to a GRANDE of the
// default shape (2048 trees of depth 6, trained for one epoch on the
// fixture's 300 rows): JSON decoding, preprocessing, the trained form's
// predictor and the JSON answer. ns/op is the single-row latency.
//
//	go test -run '^$' -bench PredictGRANDEDefault ./serve
func BenchmarkPredictGRANDEDefault(b *testing.B) {
	f := getFixture(b)
	m, err := model.Train(context.Background(), f.ds, model.Spec{Kind: "grande", Options: map[string]string{"epochs": "1"}, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "grande-default.json")
	if err := m.Save(path); err != nil {
		b.Fatal(err)
	}
	s, err := New(Config{PollInterval: -1, Logf: b.Logf}, "grande="+path)
	if err != nil {
		b.Fatal(err)
	}
	body, _ := json.Marshal(map[string]any{"rows": rowsJSON(f.ds.X, 0, 1)})
	h := s.Handler()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		req := httptest.NewRequest(http.MethodPost, "/v1/models/grande/predict", bytes.NewReader(body))
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != 200 {
			b.Fatal(w.Body.String())
		}
	}
}
