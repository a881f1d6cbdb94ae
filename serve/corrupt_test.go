package serve

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"
)

// TestCorruptModelFile replaces a served model file by damaged ones that
// decode as JSON (the crashes of issue 20: an input's First = 100000, the
// classes shorter than the outputs, a pipeline input removed, an empty
// quantile reference list): every reload fails with an error naming the
// problem and the old model keeps answering; a server started on such a
// file is an error, not a panic.
func TestCorruptModelFile(t *testing.T) {
	f := getFixture(t)
	dir := t.TempDir()
	path := dir + "/live.json"
	if err := f.models["gradtree"].Save(path); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, hs := newTestServer(t, Config{PollInterval: -1}, path)
	rows := map[string]any{"rows": rowsJSON(f.ds.X, 0, 5)}
	for _, tc := range []struct {
		name, want string
		edit       func(doc map[string]any)
	}{
		{"input First 100000", "First = 100000", func(d map[string]any) {
			d["pipeline"].(map[string]any)["Inputs"].([]any)[1].(map[string]any)["First"] = 100000
		}},
		{"one class", "classes: 1 names", func(d map[string]any) { d["classes"] = d["classes"].([]any)[:1] }},
		{"pipeline input removed", "pipeline", func(d map[string]any) {
			p := d["pipeline"].(map[string]any)
			p["Inputs"] = p["Inputs"].([]any)[1:]
		}},
		{"empty quantile references", "References is empty", func(d map[string]any) {
			d["pipeline"].(map[string]any)["Quantile"].(map[string]any)["References"] = []any{}
		}},
		{"regression on a classifier", "expected 1 column", func(d map[string]any) { d["task"] = "regression"; delete(d, "classes") }},
	} {
		var doc map[string]any
		if err := json.Unmarshal(good, &doc); err != nil {
			t.Fatal(err)
		}
		tc.edit(doc)
		b, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		if err := writeFile(path, b); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Reload(true); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: reload error %v, want one containing %q", tc.name, err, tc.want)
		}
		if code, r := post(t, hs.Client(), hs.URL+"/v1/models/live/predict", rows); code != 200 || len(r.Predictions) != 5 {
			t.Errorf("%s: after the failed reload the old model answers %d %s", tc.name, code, r.Error)
		}
		if _, err := New(Config{PollInterval: -1}, path); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: a server started on the damaged file: %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}

// TestContentType checks that a predict request with a non-JSON
// Content-Type gets 415, and that JSON types and a missing header pass.
func TestContentType(t *testing.T) {
	f := getFixture(t)
	_, hs := newTestServer(t, Config{PollInterval: -1}, "m="+f.paths["cart"])
	body, err := json.Marshal(map[string]any{"rows": rowsJSON(f.ds.X, 0, 2)})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		ct   string
		want int
	}{{"application/json", 200}, {"application/json; charset=utf-8", 200}, {"application/vnd.api+json", 200}, {"", 200},
		{"text/csv", 415}, {"application/x-www-form-urlencoded", 415}, {"garbage;;", 415}} {
		req, err := http.NewRequest("POST", hs.URL+"/v1/models/m/predict", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if tc.ct != "" {
			req.Header.Set("Content-Type", tc.ct)
		}
		resp, err := hs.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("Content-Type %q: status %d, want %d", tc.ct, resp.StatusCode, tc.want)
		}
	}
}
