package serve

import (
	"encoding/json"
	"net/http"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/data"
)

// TestStoredNAValues: a model trained with --na-values stores its missing
// markers, and the server reads a feature value with a marker's text (a
// string, or a number as written, spaces trimmed) as missing, exactly as
// null: the predictions, probabilities and explanations of marked rows
// equal those of the same rows with null, with no unseen-level warning.
// A model without stored markers reads text that is not a default marker
// (data.DefaultMissing) as a value: an error for a numeric feature, an
// unseen level for a categorical one.
func TestStoredNAValues(t *testing.T) {
	f := getFixture(t)
	dir := t.TempDir()
	specs := []string{"plain=" + f.paths["gradtree"]}
	for _, kind := range []string{"gradtree", "grande"} {
		m := *f.models[kind]
		m.NAValues = []string{"?", "-999", "n/a"}
		p := filepath.Join(dir, kind+".json")
		if err := m.Save(p); err != nil {
			t.Fatal(err)
		}
		specs = append(specs, kind+"="+p)
	}
	_, hs := newTestServer(t, Config{PollInterval: -1}, specs...)
	marked := `{"rows": [
		{"age": "?", "income": 5000, "color": "red", "size": "M"},
		{"age": 30, "income": -999, "color": "?", "size": " n/a "},
		{"age": " -999 ", "income": "?", "color": "n/a", "size": "M"},
		{"age": 41, "income": "-999", "color": -999, "size": "L"}], "explain": true}`
	null := `{"rows": [
		{"age": null, "income": 5000, "color": "red", "size": "M"},
		{"age": 30, "income": null, "color": null, "size": null},
		{"age": null, "income": null, "color": null, "size": "M"},
		{"age": 41, "income": null, "color": null, "size": "L"}], "explain": true}`
	for _, kind := range []string{"gradtree", "grande"} {
		t.Run(kind, func(t *testing.T) {
			url := hs.URL + "/v1/models/" + kind + "/predict"
			code, got := post(t, hs.Client(), url, marked)
			if code != 200 || len(got.Warnings) != 0 {
				t.Fatalf("marked rows: status %d, error %q, warnings %q", code, got.Error, got.Warnings)
			}
			code, want := post(t, hs.Client(), url, null)
			if code != 200 {
				t.Fatalf("null rows: status %d, error %q", code, want.Error)
			}
			if len(got.Predictions) != 4 || len(got.Explanations) != 4 {
				t.Fatalf("%d predictions, %d explanations", len(got.Predictions), len(got.Explanations))
			}
			if !reflect.DeepEqual(got, want) {
				a, _ := json.Marshal(got)
				b, _ := json.Marshal(want)
				t.Fatalf("rows with markers answer\n%s\nthe same rows with null\n%s", a, b)
			}
		})
	}
	t.Run("schema lists the markers", func(t *testing.T) {
		resp, err := hs.Client().Get(hs.URL + "/v1/models/gradtree")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var info ModelInfo
		if err := json.NewDecoder(resp.Body).Decode(&info); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(info.NAValues, []string{"?", "-999", "n/a"}) {
			t.Fatalf("na_values %q", info.NAValues)
		}
	})
	t.Run("a model without markers", func(t *testing.T) {
		url := hs.URL + "/v1/models/plain/predict"
		code, r := post(t, hs.Client(), url, `{"rows": [{"age": "n/a", "income": 5000, "color": "red", "size": "M"}]}`)
		if code != http.StatusBadRequest || r.Feature != "age" {
			t.Fatalf("numeric \"n/a\": status %d, error %q", code, r.Error)
		}
		code, r = post(t, hs.Client(), url, `{"rows": [{"age": 30, "income": 5000, "color": "n/a", "size": "M"}]}`)
		if code != 200 || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], `unknown category "n/a"`) {
			t.Fatalf("categorical \"n/a\": status %d, error %q, warnings %q", code, r.Error, r.Warnings)
		}
	})
}

// TestStoredNAValuesNotUnseen: a marker is not counted as an unseen level
// (model.KnownLevels, which past 100 warnings gives the request's count),
// while a level never seen in training still is.
func TestStoredNAValuesNotUnseen(t *testing.T) {
	f := getFixture(t)
	m := *f.models["gradtree"]
	m.NAValues = []string{"?", "n/a"}
	p := filepath.Join(t.TempDir(), "m.json")
	if err := m.Save(p); err != nil {
		t.Fatal(err)
	}
	l, err := load("m", p, Config{})
	if err != nil {
		t.Fatal(err)
	}
	var rows []json.RawMessage
	for range 150 {
		rows = append(rows, json.RawMessage(`{"age": 30, "income": 5, "color": "?", "size": "n/a"}`))
	}
	rows = append(rows, json.RawMessage(`{"age": 30, "income": 5, "color": "purple", "size": " ? "}`))
	tab, warnings, err := l.table(rows)
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], `row 150, feature "color": unknown category "purple"`) {
		t.Fatalf("%d warnings, the first %q: want one (purple)", len(warnings), warnings[:min(3, len(warnings))])
	}
	u := l.known.Count(tab)
	if u.Rows() != 1 || len(u) != 1 || u[0].Column != "color" || len(u[0].Levels) != 1 || u[0].Levels[0].Level != "purple" {
		t.Fatalf("unseen levels %+v: want only purple in one row", u)
	}
	for _, name := range []string{"color", "size"} {
		c := tab.Col(name)
		for i := range 150 {
			if !c.IsMissing(i) {
				t.Fatalf("row %d, %s: code %d, want missing", i, name, c.Codes[i])
			}
		}
	}
}

// TestDefaultMissingMarkers: a model trained without --na-values reads
// every default missing marker of gdt predict (data.DefaultMissing: "?",
// "NA", the text "null", …), as a string with spaces around it, as missing
// in numeric and categorical features, for predict and explain: the
// answers equal those of the same rows with null, with no unseen-level
// warning, and model.KnownLevels counts no unseen level.
func TestDefaultMissingMarkers(t *testing.T) {
	f := getFixture(t)
	var specs []string
	for _, kind := range []string{"gradtree", "grande"} {
		specs = append(specs, kind+"="+f.paths[kind])
	}
	_, hs := newTestServer(t, Config{PollInterval: -1}, specs...)
	var marked, null []string
	var rows []json.RawMessage
	for _, mk := range data.DefaultMissing {
		q := strconv.Quote(" " + mk + " ")
		marked = append(marked, `{"age": `+q+`, "income": 5000, "color": `+q+`, "size": "M"}`,
			`{"age": 30, "income": `+q+`, "color": "red", "size": `+q+`}`)
		null = append(null, `{"age": null, "income": 5000, "color": null, "size": "M"}`,
			`{"age": 30, "income": null, "color": "red", "size": null}`)
		rows = append(rows, json.RawMessage(marked[len(marked)-2]), json.RawMessage(marked[len(marked)-1]))
	}
	body := func(rows []string) string {
		return `{"rows": [` + strings.Join(rows, ",") + `], "explain": true}`
	}
	for _, kind := range []string{"gradtree", "grande"} {
		t.Run(kind, func(t *testing.T) {
			url := hs.URL + "/v1/models/" + kind + "/predict"
			code, got := post(t, hs.Client(), url, body(marked))
			if code != 200 || len(got.Warnings) != 0 {
				t.Fatalf("marked rows: status %d, error %q, warnings %q", code, got.Error, got.Warnings)
			}
			code, want := post(t, hs.Client(), url, body(null))
			if code != 200 {
				t.Fatalf("null rows: status %d, error %q", code, want.Error)
			}
			if n := 2 * len(data.DefaultMissing); len(got.Predictions) != n || len(got.Explanations) != n {
				t.Fatalf("%d predictions, %d explanations for %d rows", len(got.Predictions), len(got.Explanations), n)
			}
			if !reflect.DeepEqual(got, want) {
				a, _ := json.Marshal(got)
				b, _ := json.Marshal(want)
				t.Fatalf("rows with default markers answer\n%s\nthe same rows with null\n%s", a, b)
			}
		})
	}
	l, err := load("m", f.paths["gradtree"], Config{})
	if err != nil {
		t.Fatal(err)
	}
	tab, warnings, err := l.table(rows)
	if err != nil || len(warnings) != 0 {
		t.Fatalf("error %v, warnings %q", err, warnings)
	}
	if u := l.known.Count(tab); len(u) != 0 {
		t.Fatalf("unseen levels %+v: want none", u)
	}
}
