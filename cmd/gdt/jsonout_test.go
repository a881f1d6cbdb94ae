package main

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/datasets"
	"github.com/gdt-ml/gdt/modelfile"
)

// TestJSONFlagEverywhere checks that every command offers --json.
func TestJSONFlagEverywhere(t *testing.T) {
	var cmds [][]string
	for name := range commands {
		if name != "rl" {
			cmds = append(cmds, []string{name})
		}
	}
	for _, sub := range []string{"train", "eval", "show", "bench"} {
		cmds = append(cmds, []string{"rl", sub})
	}
	for _, c := range cmds {
		out, _, _ := gdt(t, append(c, "--help")...)
		if !strings.Contains(out, "-json") {
			t.Errorf("gdt %s --help does not list --json:\n%s", strings.Join(c, " "), out)
		}
	}
}

// decodeOne decodes stdout as exactly one JSON document into v.
func decodeOne(t *testing.T, stdout string, v any) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(stdout))
	if err := dec.Decode(v); err != nil {
		t.Fatalf("stdout is not a JSON document: %v\n%s", err, stdout)
	}
	var extra json.RawMessage
	if err := dec.Decode(&extra); err != io.EOF {
		t.Fatalf("stdout holds more than one JSON document (next: %s, %v)", extra, err)
	}
}

// jsonRun runs gdt with args (which include --json), requires success and
// decodes the single document on stdout.
func jsonRun(t *testing.T, v any, args ...string) {
	t.Helper()
	out, errOut, code := gdt(t, args...)
	if code != 0 {
		t.Fatalf("gdt %s: exit %d: %s", strings.Join(args, " "), code, errOut)
	}
	decodeOne(t, out, v)
}

func TestJSONDemo(t *testing.T) {
	var doc struct {
		Data struct {
			Rows      int      `json:"rows"`
			TrainRows int      `json:"train_rows"`
			Classes   []string `json:"classes"`
		} `json:"data"`
		Models []struct {
			Kind     string  `json:"kind"`
			Accuracy float64 `json:"accuracy"`
			ROCAUC   float64 `json:"roc_auc"`
			Nodes    int     `json:"nodes"`
			Tree     string  `json:"tree"`
		} `json:"models"`
	}
	jsonRun(t, &doc, "demo", "--json")
	if doc.Data.Rows != 1200 || doc.Data.TrainRows != 900 || len(doc.Data.Classes) != 2 {
		t.Fatalf("data: %+v", doc.Data)
	}
	if len(doc.Models) != 2 || doc.Models[0].Kind != "gradtree" || doc.Models[1].Kind != "cart" {
		t.Fatalf("models: %+v", doc.Models)
	}
	for _, m := range doc.Models {
		if m.Accuracy < 0.8 || m.ROCAUC < 0.8 || m.Nodes < 3 || !strings.Contains(m.Tree, "income") {
			t.Errorf("%s: %+v", m.Kind, m)
		}
	}
}

func TestJSONTrainPredictShowEval(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "loans.csv")
	os.WriteFile(data, []byte(trainCSV), 0o644)
	modelPath := filepath.Join(dir, "m.json")

	var tr struct {
		ModelFile string   `json:"model_file"`
		Kind      string   `json:"kind"`
		Task      string   `json:"task"`
		Target    string   `json:"target"`
		Classes   []string `json:"classes"`
		Rows      int      `json:"rows"`
		Nodes     int      `json:"nodes"`
		Inputs    []struct {
			Name, Kind string
		} `json:"inputs"`
		Options map[string]string `json:"options"`
	}
	jsonRun(t, &tr, "train", "--data", data, "--target", "decision", "--model", "cart", "--set", "depth=2", "--out", modelPath, "--json")
	if tr.ModelFile != modelPath || tr.Kind != "cart" || tr.Task != "binary" || tr.Target != "decision" || tr.Rows != 12 ||
		len(tr.Classes) != 2 || len(tr.Inputs) != 3 || tr.Options["depth"] != "2" || tr.Nodes < 3 {
		t.Fatalf("train: %+v", tr)
	}

	newCSV := filepath.Join(dir, "new.csv")
	os.WriteFile(newCSV, []byte("housing,income,age\nboat,85000,50\nrent,20000,22\n"), 0o644)
	var pr struct {
		Kind        string      `json:"kind"`
		Rows        int         `json:"rows"`
		Classes     []string    `json:"classes"`
		Predictions []string    `json:"predictions"`
		Proba       [][]float64 `json:"proba"`
	}
	jsonRun(t, &pr, "predict", modelPath, "--data", newCSV, "--proba", "--json")
	if pr.Rows != 2 || len(pr.Predictions) != 2 || pr.Predictions[0] != "yes" || pr.Predictions[1] != "no" || len(pr.Proba) != 2 {
		t.Fatalf("predict: %+v", pr)
	}
	for _, row := range pr.Proba {
		if len(row) != 2 || math.Abs(row[0]+row[1]-1) > 1e-6 {
			t.Fatalf("probability row %v", row)
		}
	}
	// With --out the predictions go to the file and stdout gets a summary.
	outFile := filepath.Join(dir, "pred.json")
	var sum struct {
		Out  string `json:"out"`
		Rows int    `json:"rows"`
	}
	jsonRun(t, &sum, "predict", modelPath, "--data", newCSV, "--out", outFile, "--json")
	b, err := os.ReadFile(outFile)
	if err != nil || sum.Out != outFile || sum.Rows != 2 {
		t.Fatalf("predict --out: %+v %v", sum, err)
	}
	pr.Proba = nil
	decodeOne(t, string(b), &pr)
	if len(pr.Predictions) != 2 || pr.Proba != nil {
		t.Fatalf("predictions file: %s", b)
	}

	var sh struct {
		Kind          string          `json:"kind"`
		FormatVersion int             `json:"format_version"`
		Target        string          `json:"target"`
		Nodes         int             `json:"nodes"`
		Rendering     json.RawMessage `json:"rendering"`
	}
	jsonRun(t, &sh, "show", modelPath, "--json")
	var text string
	if sh.Kind != "cart" || sh.FormatVersion != modelfile.Version || sh.Target != "decision" || json.Unmarshal(sh.Rendering, &text) != nil || !strings.Contains(text, "income <=") {
		t.Fatalf("show: %+v", sh)
	}
	// --format json and params embed the rendering as JSON, not as a string.
	jsonRun(t, &sh, "show", modelPath, "--format", "params", "--json")
	if !bytes.HasPrefix(bytes.TrimSpace(sh.Rendering), []byte("{")) {
		t.Fatalf("show --format params: rendering %s", sh.Rendering)
	}
	// --out receives the rendering; stdout names the file.
	dot := filepath.Join(dir, "tree.txt")
	var named struct {
		RenderingFile string `json:"rendering_file"`
	}
	jsonRun(t, &named, "show", modelPath, "--out", dot, "--json")
	if b, err := os.ReadFile(dot); err != nil || named.RenderingFile != dot || !strings.Contains(string(b), "income <=") {
		t.Fatalf("show --out --json: %+v %v", named, err)
	}

	var ev struct {
		Task   string `json:"task"`
		Models []struct {
			Model   string `json:"model"`
			Metrics map[string]struct {
				Mean, Std *float64
			} `json:"metrics"`
			Folds []json.RawMessage `json:"folds"`
		} `json:"models"`
	}
	jsonRun(t, &ev, "eval", "--data", data, "--target", "decision", "--models", "cart-d3,cart", "--folds", "3", "--json")
	if ev.Task != "binary" || len(ev.Models) != 2 || ev.Models[0].Model != "cart-d3" || len(ev.Models[0].Folds) != 3 {
		t.Fatalf("eval: %+v", ev)
	}
	if f1 := ev.Models[0].Metrics["f1_macro"]; f1.Mean == nil || *f1.Mean <= 0 {
		t.Fatalf("eval metrics: %+v", ev.Models[0].Metrics)
	}

	// Errors: message on stderr, non-zero exit, on stdout one object with
	// an "error" field.
	for _, args := range [][]string{
		{"predict", filepath.Join(dir, "absent.json"), "--data", newCSV, "--json"},
		{"show", filepath.Join(dir, "absent.json"), "--json"},
		{"train", "--data", data, "--target", "nope", "--out", modelPath, "--json"},
		{"eval", "--data", data, "--models", "no-such-model", "--json"},
	} {
		out, errOut, code := gdt(t, args...)
		var doc struct {
			Error string `json:"error"`
			Exit  int    `json:"exit_code"`
		}
		if code == 0 || errOut == "" || json.Unmarshal([]byte(out), &doc) != nil || doc.Error == "" || doc.Exit != code {
			t.Errorf("gdt %s: exit %d, stdout %q, stderr %q", strings.Join(args, " "), code, out, errOut)
		}
	}
}

func TestJSONBenchAndDatasets(t *testing.T) {
	var list struct {
		Models []struct {
			Name string `json:"name"`
		} `json:"models"`
	}
	jsonRun(t, &list, "bench", "--list-models", "--json")
	found := false
	for _, m := range list.Models {
		found = found || m.Name == "cart"
	}
	if !found {
		t.Fatalf("bench --list-models --json lacks cart: %+v", list)
	}

	if _, err := datasets.Root(""); err != nil {
		t.Skipf("benchmark data not found (%v); set GDT_DATA to run the bench and datasets --json tests", err)
	}
	var b struct {
		Suite string `json:"suite"`
		Cells []struct {
			Dataset string   `json:"dataset"`
			Model   string   `json:"model"`
			Trials  int      `json:"trials"`
			Thesis  *float64 `json:"thesis"`
			F1Macro struct {
				Mean float64 `json:"mean"`
			} `json:"f1_macro"`
		} `json:"cells"`
		Results []map[string]any `json:"results"`
		Failed  int              `json:"failed"`
	}
	jsonRun(t, &b, "bench", "gradtree-binary", "--models", "cart", "--trials", "2", "--datasets", "titanic", "--quiet", "--json")
	if b.Suite != "gradtree-binary" || len(b.Cells) != 1 || b.Cells[0].Trials != 2 || b.Cells[0].Thesis == nil ||
		b.Cells[0].F1Macro.Mean < 0.5 || len(b.Results) != 2 || b.Failed != 0 {
		t.Fatalf("bench --json: %+v", b)
	}

	var ds struct {
		Suites   []string `json:"suites"`
		Datasets []struct {
			Name string `json:"name"`
			Rows int    `json:"rows"`
		} `json:"datasets"`
	}
	jsonRun(t, &ds, "datasets", "--suite", "pad-ufes-tabular", "--json")
	if len(ds.Suites) == 0 || len(ds.Datasets) == 0 || ds.Datasets[0].Rows == 0 {
		t.Fatalf("datasets --json: %+v", ds)
	}
}
