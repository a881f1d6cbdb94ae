package multimodal

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// trainTiny trains a tiny model of the given variant on the synthetic CSV
// in dir and returns it with the data set it was trained on.
func trainTiny(t *testing.T, dir string, image bool, tabular string) (*Trained, *Multimodal) {
	t.Helper()
	ds, err := LoadCSV(filepath.Join(dir, "ham10000.csv"), dir, CSVOptions{LoadOptions: LoadOptions{Size: 8, Workers: 2}})
	if err != nil {
		t.Fatal(err)
	}
	cfg := tinyConfig(image, tabular)
	cfg.PretrainEpochs, cfg.Epochs = 2, 2
	tr, err := TrainDataset(context.Background(), ds, TrainOptions{Config: cfg, ValidFraction: 0.25})
	if err != nil {
		t.Fatal(err)
	}
	return tr, ds
}

func TestPredictCSVRoundTrip(t *testing.T) {
	dir := t.TempDir()
	writeSynthetic(t, dir, 40, 8)
	csvPath := filepath.Join(dir, "ham10000.csv")
	for _, tc := range []struct {
		name    string
		image   bool
		tabular string
		parts   []string
	}{
		{"cnn+grande", true, "grande", []string{"body", "top", "image_head", "tab", "head"}},
		{"cnn+mlp", true, "mlp", []string{"body", "top", "image_head", "tab", "head"}},
		{"cnn", true, "", []string{"body", "top", "image_head"}},
		{"grande", false, "grande", []string{"tab", "head"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mem, ds := trainTiny(t, dir, tc.image, tc.tabular)
			path := filepath.Join(t.TempDir(), "m.json")
			if err := mem.Save(path); err != nil {
				t.Fatal(err)
			}
			if !IsTrainedFile(path) {
				t.Fatal("IsTrainedFile(saved model) = false")
			}
			back, err := LoadTrained(path)
			if err != nil {
				t.Fatal(err)
			}
			if back.ImageColumn != "image_file" || back.Target != "dx" || back.Info == nil || back.Info.Rows != 40 ||
				back.Info.TrainRows+back.Info.ValidRows != 40 {
				t.Errorf("saved facts: image column %q, target %q, info %+v", back.ImageColumn, back.Target, back.Info)
			}
			want, err := mem.Predict(ds.Images, ds.Tab)
			if err != nil {
				t.Fatal(err)
			}
			got, err := back.PredictCSV(context.Background(), csvPath, PredictOptions{Workers: 2, NeedLabels: true})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.Proba.Data, want.Data) {
				t.Errorf("probabilities of the loaded model on the CSV differ from the in-memory model's")
			}
			if got.IDColumn != "image_id" || len(got.IDs) != 40 || got.IDs[0] != "ISIC_0" || got.IDs[39] != "ISIC_39" {
				t.Errorf("ids: column %q, %v", got.IDColumn, got.IDs)
			}
			if got.Lines[0] != 2 || got.Lines[39] != 41 {
				t.Errorf("lines %d…%d, want 2…41", got.Lines[0], got.Lines[39])
			}
			if got.Target != "dx" || !reflect.DeepEqual(got.Y, ds.Y) {
				t.Errorf("labels from column %q differ from the training labels", got.Target)
			}
			// A file written before the image column, target and training
			// facts were saved predicts the same from the default columns.
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var doc map[string]json.RawMessage
			if err := json.Unmarshal(raw, &doc); err != nil {
				t.Fatal(err)
			}
			delete(doc, "image_column")
			delete(doc, "target")
			delete(doc, "info")
			raw, _ = json.Marshal(doc)
			oldPath := filepath.Join(t.TempDir(), "old.json")
			if err := os.WriteFile(oldPath, raw, 0o644); err != nil {
				t.Fatal(err)
			}
			old, err := LoadTrained(oldPath)
			if err != nil {
				t.Fatal(err)
			}
			if old.Info != nil || old.Target != "" {
				t.Fatalf("stripped file still has facts: %+v", old.Info)
			}
			got2, err := old.PredictCSV(context.Background(), csvPath, PredictOptions{NeedLabels: true})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got2.Proba.Data, want.Data) || got2.Target != "dx" || !reflect.DeepEqual(got2.Y, ds.Y) {
				t.Error("a model file without the saved columns predicts differently")
			}
			if d := old.Summary().Describe(); !strings.Contains(d, "parameters:") {
				t.Errorf("Describe without training facts:\n%s", d)
			}
			s, err := got.Score()
			if err != nil {
				t.Fatal(err)
			}
			if s.Rows != 40 || !(s.ROCAUC > 0 && s.ROCAUC <= 1) || !(s.Accuracy >= 0 && s.Accuracy <= 1) || len(s.Confusion) != 3 {
				t.Errorf("scores %+v", s)
			}
			sum := back.Summary()
			var names []string
			total := 0
			for _, p := range sum.Parts {
				names = append(names, p.Name)
				total += p.Params
				if p.Params <= 0 {
					t.Errorf("part %s has %d parameters", p.Name, p.Params)
				}
			}
			if !reflect.DeepEqual(names, tc.parts) || total != sum.Params {
				t.Errorf("parts %v (total %d, Params %d), want %v", names, total, sum.Params, tc.parts)
			}
			text := sum.Describe()
			for _, want := range []string{"multimodal model", "parameters:", "total", "training:"} {
				if !strings.Contains(text, want) {
					t.Errorf("Describe lacks %q:\n%s", want, text)
				}
			}
			if tc.image && !strings.Contains(text, "conv3×3/2") || tc.tabular == "grande" && !strings.Contains(text, "GRANDE, 16 trees of depth 3") {
				t.Errorf("Describe:\n%s", text)
			}
		})
	}
}

func TestPredictCSVErrors(t *testing.T) {
	dir := t.TempDir()
	writeSynthetic(t, dir, 40, 8)
	m, _ := trainTiny(t, dir, true, "grande")
	orig, err := os.ReadFile(filepath.Join(dir, "ham10000.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(orig)), "\n")
	// edit returns the CSV with field col of data row r (0-based) set to v
	// (col < 0 drops column -col-1 everywhere).
	edit := func(r, col int, v string) string {
		out := make([]string, len(lines))
		for i, l := range lines {
			f := strings.Split(l, ",")
			switch {
			case col < 0:
				f = append(f[:-col-1:-col-1], f[-col:]...)
			case i == r+1:
				f[col] = v
			}
			out[i] = strings.Join(f, ",")
		}
		return strings.Join(out, "\n") + "\n"
	}
	// Columns: image_id,image_file,lesion_id,dx,label,dx_type,age,sex,localization,dataset
	if err := os.WriteFile(filepath.Join(dir, "images", "broken.png"), []byte("not a png"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		csv  string
		opt  PredictOptions
		want []string // substrings of the error; nil: no error
	}{
		{"missing image", edit(3, 1, "images/gone.png"), PredictOptions{}, []string{"p.csv:5: column image_file", filepath.Join(dir, "images", "gone.png"), "does not exist"}},
		{"not a png", edit(0, 1, "images/broken.png"), PredictOptions{}, []string{"p.csv:2", "broken.png", "decoding image"}},
		{"missing column", edit(0, -7, ""), PredictOptions{}, []string{`p.csv:1: no column "age"`}},
		{"text in numeric column", edit(6, 6, "old"), PredictOptions{}, []string{`p.csv:8: column 7 ("age"): expected a number`, `"old"`, "--na-values old"}},
		{"declared missing", edit(6, 6, "old"), PredictOptions{NAValues: []string{"old"}}, nil},
		{"default marker", edit(6, 6, "NA"), PredictOptions{}, nil},
		{"unknown category", edit(2, 8, "moon"), PredictOptions{}, nil},
		{"missing value", edit(2, 6, ""), PredictOptions{}, nil},
		{"labels ignored", edit(9, 3, "zzz"), PredictOptions{}, nil},
		{"label not a class", edit(9, 3, "zzz"), PredictOptions{NeedLabels: true}, []string{`p.csv:11: column dx: label "zzz" is not a class`}},
		{"named image column absent", string(orig), PredictOptions{ImageColumn: "picture"}, []string{`no column "picture"`}},
		{"empty image reference", edit(1, 1, ""), PredictOptions{}, []string{"p.csv:3: column image_file: empty image reference"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, "p.csv")
			if err := os.WriteFile(p, []byte(tc.csv), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := m.PredictCSV(context.Background(), p, tc.opt)
			if tc.want == nil {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				if got.Proba.Rows != 40 {
					t.Errorf("%d rows", got.Proba.Rows)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
	// Without dx the label falls back to the label column, whose values
	// (0, 1, 2) are not class names: an error naming line and column.
	p := filepath.Join(dir, "nolab.csv")
	os.WriteFile(p, []byte(edit(0, -4, "")), 0o644)
	if _, err := m.PredictCSV(context.Background(), p, PredictOptions{NeedLabels: true}); err == nil || !strings.Contains(err.Error(), "nolab.csv:2: column label") {
		t.Errorf("label column fallback: %v", err)
	}
	os.WriteFile(p, []byte(strings.Replace(string(orig), "lesion_id,dx,label,", "lesion_id,diag,code,", 1)), 0o644)
	if _, err := m.PredictCSV(context.Background(), p, PredictOptions{NeedLabels: true}); err == nil || !strings.Contains(err.Error(), "nolab.csv:1: no label column") {
		t.Errorf("no label column: %v", err)
	}
}

func TestIsTrainedFile(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, content string
		want          bool
	}{
		{"mm.json", `{"version":1,"kind":"multimodal","classes":["a"]}`, true},
		{"mm2.json", " \n{\"version\": 1, \"info\": {\"x\": [1, 2]}, \"kind\": \"multimodal\"}", true},
		{"cart.json", `{"format":"gdt-model","version":1,"kind":"cart"}`, false},
		{"other.json", `{"kind":"cart"}`, false},
		{"data.csv", "a,b\n1,2\n", false},
		{"empty.json", "", false},
		{"broken.json", `{"version":`, false},
	} {
		p := filepath.Join(dir, tc.name)
		if err := os.WriteFile(p, []byte(tc.content), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := IsTrainedFile(p); got != tc.want {
			t.Errorf("%s: IsTrainedFile = %v, want %v", tc.name, got, tc.want)
		}
	}
	if IsTrainedFile(filepath.Join(dir, "absent.json")) || IsTrainedFile(dir) {
		t.Error("a missing file or a folder is not a model file")
	}
}
