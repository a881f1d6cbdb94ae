package serve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/export/exporttest"
	"github.com/gdt-ml/gdt/model"
)

// rowsJSON renders rows lo…hi−1 of tab as request rows (NaN and missing
// categories as null).
func rowsJSON(tab *data.Table, lo, hi int) []map[string]any {
	out := make([]map[string]any, 0, hi-lo)
	for i := lo; i < hi; i++ {
		r := map[string]any{}
		for _, c := range tab.Columns {
			switch {
			case c.IsMissing(i):
				r[c.Name] = nil
			case c.Kind == data.Numeric:
				r[c.Name] = c.Num[i]
			default:
				r[c.Name] = c.Levels[c.Codes[i]]
			}
		}
		out = append(out, r)
	}
	return out
}

type result struct {
	Predictions   []any          `json:"predictions"`
	Probabilities [][]float32    `json:"probabilities"`
	Classes       []string       `json:"classes"`
	Explanations  []*Explanation `json:"explanations"`
	Warnings      []string       `json:"warnings"`
	Error         string         `json:"error"`
	Row           *int           `json:"row"`
	Feature       string         `json:"feature"`
}

func post(t testing.TB, client *http.Client, url string, body any) (int, *result) {
	t.Helper()
	var b []byte
	switch v := body.(type) {
	case string:
		b = []byte(v)
	default:
		var err error
		if b, err = json.Marshal(v); err != nil {
			t.Fatal(err)
		}
	}
	resp, err := client.Post(url, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r result
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		t.Fatalf("decoding the answer (status %d): %v", resp.StatusCode, err)
	}
	return resp.StatusCode, &r
}

// fixture trains and saves one model of every kind.
type fixture struct {
	ds     *data.Dataset
	paths  map[string]string
	models map[string]*model.Trained
}

var (
	fixOnce sync.Once
	fix     fixture
)

func getFixture(t testing.TB) fixture {
	fixOnce.Do(func() {
		dir, err := osMkdirTemp()
		if err != nil {
			t.Fatal(err)
		}
		fix = fixture{ds: exporttest.Dataset(data.Binary, 300, 1), paths: map[string]string{}, models: map[string]*model.Trained{}}
		for _, kind := range []string{"cart", "gradtree", "grande"} {
			fix.paths[kind], fix.models[kind] = exporttest.Save(t, dir, kind, "", fix.ds)
		}
	})
	if fix.ds == nil {
		t.Fatal("fixture failed")
	}
	return fix
}

func newTestServer(t testing.TB, cfg Config, specs ...string) (*Server, *httptest.Server) {
	t.Helper()
	if cfg.Logf == nil {
		cfg.Logf = t.Logf
	}
	s, err := New(cfg, specs...)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s.Handler())
	t.Cleanup(hs.Close)
	return s, hs
}

func TestPredictEqualsModel(t *testing.T) {
	f := getFixture(t)
	var specs []string
	for kind, p := range f.paths {
		specs = append(specs, kind+"="+p)
	}
	_, hs := newTestServer(t, Config{PollInterval: -1}, specs...)
	rows := rowsJSON(f.ds.X, 0, 120)
	want := f.ds.X.Subset(seq(120))
	for _, kind := range []string{"cart", "gradtree", "grande"} {
		t.Run(kind, func(t *testing.T) {
			m := f.models[kind]
			p, err := m.PredictProba(want)
			if err != nil {
				t.Fatal(err)
			}
			pred := model.Decide(m.Task, p)
			code, r := post(t, hs.Client(), hs.URL+"/v1/models/"+kind+"/predict", map[string]any{"rows": rows, "explain": true})
			if code != 200 {
				t.Fatalf("status %d: %s", code, r.Error)
			}
			if len(r.Predictions) != 120 || len(r.Probabilities) != 120 || len(r.Explanations) != 120 {
				t.Fatalf("got %d predictions, %d probabilities, %d explanations", len(r.Predictions), len(r.Probabilities), len(r.Explanations))
			}
			for i := range r.Predictions {
				if r.Predictions[i] != m.Classes[int(pred[i])] {
					t.Fatalf("row %d: predicted %v, model.Predict %s", i, r.Predictions[i], m.Classes[int(pred[i])])
				}
				for c, v := range r.Probabilities[i] {
					if v != p.At(i, c) {
						t.Fatalf("row %d class %d: probability %v, model %v", i, c, v, p.At(i, c))
					}
				}
				ex := r.Explanations[i]
				switch kind {
				case "grande":
					if ex.Type != "ensemble" || len(ex.Estimators) != 3 || ex.Trees != 12 || !(ex.Covered > 0 && ex.Covered <= 1+1e-12) {
						t.Fatalf("row %d: explanation %+v", i, ex)
					}
					if len(ex.Estimators[0].Path) != 3 || ex.Estimators[0].Share < ex.Estimators[1].Share {
						t.Fatalf("row %d: estimators %+v", i, ex.Estimators)
					}
				default:
					if ex.Type != "path" || ex.Leaf == nil || ex.Leaf.Label != r.Predictions[i] {
						t.Fatalf("row %d: explanation %+v leaf %+v, prediction %v", i, ex, ex.Leaf, r.Predictions[i])
					}
					for _, s := range ex.Path {
						if s.Condition == "" || (s.Branch != "left" && s.Branch != "right") || !strings.Contains(s.Condition, s.Feature) {
							t.Fatalf("row %d: step %+v", i, s)
						}
					}
				}
			}
			if kind == "gradtree" {
				b, _ := json.MarshalIndent(r.Explanations[0], "", "  ")
				t.Logf("explanation of row 0:\n%s", b)
			}
		})
	}
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

func TestModelsAndHealth(t *testing.T) {
	f := getFixture(t)
	_, hs := newTestServer(t, Config{PollInterval: -1}, f.paths["grande"], "tree="+f.paths["gradtree"])
	resp, err := hs.Client().Get(hs.URL + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	var list struct{ Models []ModelInfo }
	json.NewDecoder(resp.Body).Decode(&list)
	resp.Body.Close()
	if len(list.Models) != 2 || list.Models[0].Name != "grande-binary" || list.Models[1].Name != "tree" {
		t.Fatalf("models: %+v", list.Models)
	}
	m := list.Models[1]
	if m.Kind != "gradtree" || m.Task != "binary" || len(m.Classes) != 2 || len(m.Inputs) != 4 ||
		m.Inputs[2].Name != "color" || m.Inputs[2].Type != "category" || len(m.Inputs[2].Levels) != 4 || m.Explain != "path" {
		t.Fatalf("model info: %+v", m)
	}
	resp, err = hs.Client().Get(hs.URL + "/healthz")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("healthz: %v %v", err, resp)
	}
	resp.Body.Close()
}

func TestBadInput(t *testing.T) {
	f := getFixture(t)
	_, hs := newTestServer(t, Config{PollInterval: -1, MaxBodyBytes: 4096, MaxRows: 20, MaxExplainRows: 10}, "m="+f.paths["gradtree"])
	good := `{"age": 30, "income": 5000, "color": "red", "size": "M"}`
	cases := []struct {
		name, body string
		status     int
		row        int // −1: no row
		feature    string
		msg        string
	}{
		{"missing feature", `{"rows": [` + good + `, {"age": 30, "income": 5000, "size": "M"}]}`, 400, 1, "color", `row 1: missing feature "color"`},
		{"string for number", `{"rows": [{"age": "old", "income": 5000, "color": "red", "size": "M"}]}`, 400, 0, "age", `expected a number (or a numeric string, or null), got the string "old"`},
		{"bool for number", `{"rows": [{"age": true, "income": 5000, "color": "red", "size": "M"}]}`, 400, 0, "age", "got a boolean (true)"},
		{"infinite number", `{"rows": [{"age": 1e999, "income": 5000, "color": "red", "size": "M"}]}`, 400, 0, "age", "expected a finite number"},
		{"object for category", `{"rows": [` + good + `,` + good + `, {"age": 3, "income": 5000, "color": {"r": 1}, "size": "M"}]}`, 400, 2, "color", "expected a category (a string) or null, got an object"},
		{"row not an object", `{"rows": [[30, 5000, "red", "M"]]}`, 400, 0, "", "row 0 is an array: expected a JSON object"},
		{"no rows", `{"rows": []}`, 400, -1, "", `"rows" is missing or empty`},
		{"rows not an array", `{"rows": {"age": 3}}`, 400, -1, "", `"rows" at line 1`},
		{"unknown field", `{"rows": [` + good + `], "explian": true}`, 400, -1, "", `unknown field "explian"`},
		{"invalid JSON", "{\"rows\": [\n{\"age\": 30,,}]}", 400, -1, "", "line 2, column"},
		{"empty body", ``, 400, -1, "", "request body is empty"},
		{"too many rows", `{"rows": [` + strings.TrimSuffix(strings.Repeat(good+",", 21), ",") + `]}`, 413, -1, "", "at most 20 per request (gdt serve --max-rows raises the limit)"},
		{"too many explained rows", `{"rows": [` + strings.TrimSuffix(strings.Repeat(good+",", 11), ",") + `], "explain": true}`, 413, -1, "", `11 rows with "explain": true: at most 10 per request (gdt serve --max-explain-rows raises the limit`},
		{"body too large", `{"rows": [` + strings.TrimSuffix(strings.Repeat(good+",", 80), ",") + `]}`, 413, -1, "", "exceeds 4096 bytes: send fewer rows per request (gdt serve --max-body raises the limit)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, r := post(t, hs.Client(), hs.URL+"/v1/models/m/predict", c.body)
			if code != c.status || !strings.Contains(r.Error, c.msg) || r.Feature != c.feature || (r.Row == nil) != (c.row < 0) || (r.Row != nil && *r.Row != c.row) {
				row := -1
				if r.Row != nil {
					row = *r.Row
				}
				t.Fatalf("status %d, error %q (row %d, feature %q); want %d, %q (row %d, feature %q)", code, r.Error, row, r.Feature, c.status, c.msg, c.row, c.feature)
			}
		})
	}
	t.Run("unknown model", func(t *testing.T) {
		code, r := post(t, hs.Client(), hs.URL+"/v1/models/nope/predict", `{"rows": [`+good+`]}`)
		if code != 404 || !strings.Contains(r.Error, `no model "nope" (served: m)`) {
			t.Fatalf("%d %q", code, r.Error)
		}
	})
	t.Run("wrong method", func(t *testing.T) {
		resp, err := hs.Client().Get(hs.URL + "/v1/models/m/predict")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed {
			t.Fatalf("GET predict: %d", resp.StatusCode)
		}
	})
	t.Run("unknown category is an unseen level", func(t *testing.T) {
		rows := `{"rows": [{"age": 30, "income": "5000", "color": "purple", "size": "M"}, {"age": 30, "income": 5000, "color": null, "size": "M"}, {"age": 30, "income": null, "color": "", "size": "M", "extra": [1]}]}`
		code, r := post(t, hs.Client(), hs.URL+"/v1/models/m/predict", rows)
		if code != 200 || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], `row 0, feature "color": unknown category "purple" routed as an unseen level`) {
			t.Fatalf("%d %q %v", code, r.Error, r.Warnings)
		}
		m := f.models["gradtree"]
		// what the model (and gdt predict) gives for the same rows: an
		// unseen level, a missing value, and missing values in both columns
		unseen := append(append([]string(nil), exporttest.Colors...), "purple")
		tab := &data.Table{Columns: []*data.Column{data.NewNumeric("age", []float64{30, 30, 30}), data.NewNumeric("income", []float64{5000, 5000, math.NaN()}),
			{Name: "color", Kind: data.Categorical, Codes: []int32{int32(len(unseen) - 1), -1, -1}, Levels: unseen}, {Name: "size", Kind: data.Categorical, Codes: []int32{1, 1, 1}, Levels: exporttest.Sizes}}}
		p, err := m.PredictProba(tab)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 3; i++ {
			for c := range r.Probabilities[i] {
				if r.Probabilities[i][c] != p.At(i, c) {
					t.Fatalf("row %d: served %v, model %v", i, r.Probabilities[i], p.Data)
				}
			}
		}
	})
}

// TestUnknownCategoriesCounted: past the per-row warnings a response says
// how many unknown categories the request held (model.KnownLevels counts
// them, as for gdt predict).
func TestUnknownCategoriesCounted(t *testing.T) {
	f := getFixture(t)
	_, hs := newTestServer(t, Config{PollInterval: -1}, "m="+f.paths["gradtree"])
	var rows []string
	for i := range 60 { // two unknown categories a row
		rows = append(rows, fmt.Sprintf(`{"age":30,"income":5,"color":"c%d","size":"s%d"}`, i, i))
	}
	code, r := post(t, hs.Client(), hs.URL+"/v1/models/m/predict", `{"rows": [`+strings.Join(rows, ",")+`]}`)
	if code != 200 || len(r.Warnings) != maxWarnings+1 || r.Warnings[maxWarnings] != "… 120 unknown categories in all" {
		t.Fatalf("%d %q: %d warnings %q", code, r.Error, len(r.Warnings), r.Warnings[max(0, len(r.Warnings)-2):])
	}
}

// TestReloadUnderLoad swaps the model file repeatedly while clients
// predict: every request must succeed, and after the last swap the server
// must answer with the new model.
func TestReloadUnderLoad(t *testing.T) {
	f := getFixture(t)
	dir := t.TempDir()
	path := dir + "/live.json"
	a, b := f.models["cart"], f.models["gradtree"]
	if err := a.Save(path); err != nil {
		t.Fatal(err)
	}
	s, hs := newTestServer(t, Config{PollInterval: -1}, path)
	rows := map[string]any{"rows": rowsJSON(f.ds.X, 0, 50), "explain": true}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	var fails []string
	count := 0
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				code, r := post(t, hs.Client(), hs.URL+"/v1/models/live/predict", rows)
				mu.Lock()
				count++
				if code != 200 || len(r.Predictions) != 50 {
					fails = append(fails, fmt.Sprintf("%d %s", code, r.Error))
				}
				mu.Unlock()
			}
		}()
	}
	reloads := 0
	for i := 0; i < 10; i++ {
		m := b
		if i%2 == 1 {
			m = a
		}
		time.Sleep(20 * time.Millisecond)
		if err := m.Save(path); err != nil {
			t.Fatal(err)
		}
		// a changed size or modification time triggers the reload
		names, err := s.Reload(i%3 == 0)
		if err != nil {
			t.Fatal(err)
		}
		reloads += len(names)
	}
	time.Sleep(20 * time.Millisecond)
	close(stop)
	wg.Wait()
	if len(fails) > 0 {
		t.Fatalf("%d of %d requests failed during reloads, e.g. %s", len(fails), count, fails[0])
	}
	if reloads < 5 {
		t.Fatalf("only %d reloads of 10 file changes", reloads)
	}
	if got := s.Model("live").Spec.Kind; got != "cart" {
		t.Fatalf("after the last swap the server runs %s, want cart", got)
	}
	t.Logf("%d requests, %d reloads, no errors", count, reloads)
	// a broken file keeps the old model
	if err := writeFile(path, []byte(`{"format": "gdt-model", "version": 1, "kind": "cart"`)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Reload(false); err == nil || s.Model("live").Spec.Kind != "cart" {
		t.Fatalf("broken file: err %v, model %s", err, s.Model("live").Spec.Kind)
	}
}

func TestScanObject(t *testing.T) {
	cases := []struct {
		in   string
		want string
	}{
		{`{}`, ``},
		{`{"a":1}`, `"a"=1;`},
		{" {\n \"a\" :\t\"x,}\" , \"b\\\"c\": [1, {\"d\": \"]}\"}], \"e\": null,\"f\":-1.5e3 } ", `"a"="x,}";"b\"c"=[1, {"d": "]}"}];"e"=null;"f"=-1.5e3;`},
		{`{"a\u0067e": true, "x": {"y": {"z": "}"}}}`, `"a\u0067e"=true;"x"={"y": {"z": "}"}};`},
	}
	for _, c := range cases {
		var b strings.Builder
		scanObject([]byte(strings.TrimSpace(c.in)), func(key []byte, escaped bool, val []byte) {
			b.WriteString(string(key) + "=" + string(val) + ";")
		})
		if b.String() != c.want {
			t.Errorf("%s: got %s, want %s", c.in, b.String(), c.want)
		}
	}
	// an escaped key still names its feature
	f := getFixture(t)
	_, hs := newTestServer(t, Config{PollInterval: -1}, "m="+f.paths["cart"])
	code, r := post(t, hs.Client(), hs.URL+"/v1/models/m/predict", `{"rows": [{"a\u0067e": 30, "income": 5000, "color": "r\u0065d", "size": "M", "note": {"x": "}"}}]}`)
	if code != 200 || len(r.Warnings) != 0 {
		t.Fatalf("%d %s %v", code, r.Error, r.Warnings)
	}
}
