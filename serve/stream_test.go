package serve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/export/exporttest"
	"github.com/gdt-ml/gdt/model"
)

// builtAnswer is the answer as the server built it before streaming: the
// whole PredictResponse in memory, encoded at once. The streamed answer
// must equal it byte for byte.
func builtAnswer(t *testing.T, s *Server, name string, pr *prediction) []byte {
	t.Helper()
	m, tm, p := pr.m, pr.m.t, pr.p
	resp := &PredictResponse{Model: name, Kind: m.info.Kind, Task: m.info.Task, Warnings: pr.warnings, Predictions: make([]any, p.Rows)}
	if tm.Task != data.Regression {
		resp.Classes = tm.Classes
		resp.Probabilities = make([][]Float32, p.Rows)
		for i := range resp.Probabilities {
			for _, v := range p.Row(i) {
				resp.Probabilities[i] = append(resp.Probabilities[i], Float32(v))
			}
		}
	}
	for i, v := range model.Decide(tm.Task, p) {
		if tm.Task == data.Regression {
			resp.Predictions[i] = Float32(v)
		} else {
			resp.Predictions[i] = tm.Classes[int(v)]
		}
	}
	if pr.explain {
		// every row on its own, through the export package's top-tree
		// order (a stable sort), not the server's selection
		for i := 0; i < p.Rows; i++ {
			ex, err := (&explainer{m: m, topK: s.cfg.TopK}).explain(pr.tab, i, pr.x.Row(i))
			if err != nil {
				t.Fatal(err)
			}
			if m.plain.Ensemble != nil {
				top, err := m.plain.TopTrees(pr.x.Row(i), s.cfg.TopK)
				if err != nil {
					t.Fatal(err)
				}
				for k, ts := range top {
					if ex.Estimators[k].Index != ts.Index || ex.Estimators[k].Share != ts.Share {
						t.Fatalf("row %d: tree %d of the explanation is %d (share %v), export.TopTrees says %d (%v)",
							i, k, ex.Estimators[k].Index, ex.Estimators[k].Share, ts.Index, ts.Share)
					}
				}
			}
			resp.Explanations = append(resp.Explanations, ex)
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(resp); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestStreamMatchesBuiltAnswer checks that the streamed answer is byte for
// byte the answer built in memory, for every kind, with and without
// explanations and warnings, for classification and regression, over
// more rows than one chunk of explanations.
func TestStreamMatchesBuiltAnswer(t *testing.T) {
	f := getFixture(t)
	dir := t.TempDir()
	reg := exporttest.Dataset(data.Regression, 300, 2)
	regPath, _ := exporttest.Save(t, dir, "cart", "", reg)
	regTree, _ := exporttest.Save(t, dir, "gradtree", "", reg)
	s, err := New(Config{PollInterval: -1, Logf: t.Logf}, "cart="+f.paths["cart"], "gradtree="+f.paths["gradtree"],
		"grande="+f.paths["grande"], "reg="+regPath, "regtree="+regTree)
	if err != nil {
		t.Fatal(err)
	}
	var rows []map[string]any
	for len(rows) < chunkRows+77 {
		rows = append(rows, rowsJSON(f.ds.X, 0, 300)...)
	}
	rows = rows[:chunkRows+77]
	rows[5]["color"] = `purple <&> "x"`
	regRows := rowsJSON(reg.X, 0, 40)
	for _, c := range []struct {
		name    string
		rows    []map[string]any
		explain bool
	}{
		{"cart", rows, true}, {"gradtree", rows, true}, {"grande", rows, true}, {"grande", rows[:3], false},
		{"reg", regRows, true}, {"regtree", regRows, false},
	} {
		body, err := json.Marshal(map[string]any{"rows": c.rows, "explain": c.explain})
		if err != nil {
			t.Fatal(err)
		}
		m := s.slots[c.name].cur.Load()
		pr, err := s.prepare(m, body)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var got bytes.Buffer
		if err := s.stream(&got, c.name, pr); err != nil {
			t.Fatal(err)
		}
		want := builtAnswer(t, s, c.name, pr)
		if !bytes.Equal(got.Bytes(), want) {
			i := 0
			for i < min(got.Len(), len(want)) && got.Bytes()[i] == want[i] {
				i++
			}
			t.Fatalf("%s (explain %v): streamed answer differs from the built one at byte %d of %d/%d:\n got …%s\nwant …%s", c.name, c.explain,
				i, got.Len(), len(want), got.Bytes()[max(0, i-60):min(got.Len(), i+60)], want[max(0, i-60):min(len(want), i+60)])
		}
	}
}

func TestTopTrees(t *testing.T) {
	for _, c := range []struct {
		a    []float64
		k    int
		want []int
	}{
		{[]float64{0.1, 0.5, 0.2, 0.5, 0.9}, 3, []int{4, 1, 3}},
		{[]float64{0.3, 0.3, 0.3}, 2, []int{0, 1}},
		{[]float64{0.1, 0.2}, 5, []int{1, 0}},
		{[]float64{0.4}, 0, nil},
		{[]float64{1, 2, 3, 4, 5, 6}, 3, []int{5, 4, 3}},
		{[]float64{6, 5, 4, 3, 2, 1}, 3, []int{0, 1, 2}},
	} {
		got := topTrees(c.a, c.k, nil)
		if fmt.Sprint(got) != fmt.Sprint(c.want) && !(len(got) == 0 && len(c.want) == 0) {
			t.Errorf("topTrees(%v, %d) = %v, want %v", c.a, c.k, got, c.want)
		}
	}
}
