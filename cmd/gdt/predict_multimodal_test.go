package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/multimodal"
)

// writeMultimodalData writes n 8×8 PNGs under dir/images and a
// HAM10000-style CSV dir/meta.csv (two classes d0, d1; the image, age and
// localization carry the class) and returns the CSV's path.
func writeMultimodalData(t *testing.T, dir string, n int) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, "images"), 0o755); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("image_id,image_file,lesion_id,dx,dx_type,age,sex,localization,dataset\n")
	for i := 0; i < n; i++ {
		c := i % 2
		img := image.NewRGBA(image.Rect(0, 0, 8, 8))
		for p := 0; p < 64; p++ {
			v := uint8(40 + p%7*5)
			if c == 1 && p%8 > 2 && p/8 > 2 {
				v = 220
			}
			img.Set(p%8, p/8, color.RGBA{v, 60, uint8(30 + i), 255})
		}
		id := "ISIC_" + strconv.Itoa(i)
		f, err := os.Create(filepath.Join(dir, "images", id+".png"))
		if err != nil {
			t.Fatal(err)
		}
		if err := png.Encode(f, img); err != nil {
			t.Fatal(err)
		}
		f.Close()
		loc := []string{"back", "face"}[c]
		b.WriteString(id + ",images/" + id + ".png,HAM_" + strconv.Itoa(i/2) + ",d" + strconv.Itoa(c) +
			",histo," + strconv.Itoa(30+10*c+i%5) + ".0," + []string{"male", "female"}[i%2] + "," + loc + ",x\n")
	}
	path := filepath.Join(dir, "meta.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// trainMultimodalCLI trains a tiny multimodal model through gdt train and
// returns the model file and the CSV.
func trainMultimodalCLI(t *testing.T) (model, data, dir string) {
	t.Helper()
	dir = t.TempDir()
	data = writeMultimodalData(t, dir, 24)
	model = filepath.Join(dir, "mm.json")
	_, errOut, code := gdt(t, "train", "--model", "multimodal", "--data", data, "--out", model, "--size", "8", "--valid", "0.25", "--quiet",
		"--set", "channels=4,8", "--set", "image_embed=8", "--set", "trees=8", "--set", "depth=3", "--set", "tree_embed=4",
		"--set", "pretrain_epochs=2", "--set", "epochs=2", "--set", "batch_size=8")
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, errOut)
	}
	return model, data, dir
}

func TestMultimodalPredictEvalShow(t *testing.T) {
	model, data, dir := trainMultimodalCLI(t)
	lib, err := multimodal.LoadTrained(model)
	if err != nil {
		t.Fatal(err)
	}
	want, err := lib.PredictCSV(context.Background(), data, multimodal.PredictOptions{NeedLabels: true})
	if err != nil {
		t.Fatal(err)
	}
	outCSV := filepath.Join(dir, "preds.csv")
	for _, tc := range []struct {
		name  string
		args  []string
		check func(t *testing.T, stdout, stderr string)
	}{
		{"predict csv", []string{"predict", model, "--data", data}, func(t *testing.T, stdout, _ string) {
			rows, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(rows[0], ",") != "image_id,prediction,p_d0,p_d1" || len(rows) != 25 {
				t.Fatalf("header %v, %d rows", rows[0], len(rows))
			}
			for i, r := range rows[1:] {
				if r[0] != "ISIC_"+strconv.Itoa(i) || r[1] != lib.Classes[want.Pred[i]] {
					t.Errorf("row %d: %v, want id ISIC_%d and class %s", i, r, i, lib.Classes[want.Pred[i]])
				}
				for k := 0; k < 2; k++ {
					if r[2+k] != strconv.FormatFloat(float64(want.Proba.At(i, k)), 'g', 6, 32) {
						t.Errorf("row %d p_%d = %s, want %v", i, k, r[2+k], want.Proba.At(i, k))
					}
				}
			}
		}},
		{"predict to file", []string{"predict", "--data", data, "--images", dir, "--id", "lesion_id", "--out", outCSV, model}, func(t *testing.T, stdout, stderr string) {
			b, err := os.ReadFile(outCSV)
			if err != nil {
				t.Fatal(err)
			}
			if stdout != "" || !strings.Contains(stderr, "wrote 24 predictions") || !strings.HasPrefix(string(b), "lesion_id,prediction,p_d0,p_d1\nHAM_0,") {
				t.Errorf("stdout %q stderr %q file %.60q", stdout, stderr, b)
			}
		}},
		{"predict json", []string{"predict", model, "--data", data, "--json"}, func(t *testing.T, stdout, _ string) {
			var doc struct {
				Kind        string      `json:"kind"`
				Rows        int         `json:"rows"`
				Classes     []string    `json:"classes"`
				IDColumn    string      `json:"id_column"`
				IDs         []string    `json:"ids"`
				Predictions []string    `json:"predictions"`
				Proba       [][]float64 `json:"proba"`
			}
			if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
				t.Fatalf("%v\n%s", err, stdout)
			}
			if doc.Kind != "multimodal" || doc.Rows != 24 || len(doc.IDs) != 24 || doc.IDColumn != "image_id" || len(doc.Proba) != 24 ||
				len(doc.Proba[0]) != 2 || doc.Predictions[5] != lib.Classes[want.Pred[5]] || float32(doc.Proba[5][1]) != want.Proba.At(5, 1) {
				t.Errorf("document %+v", doc)
			}
		}},
		{"eval text", []string{"eval", model, "--data", data}, func(t *testing.T, stdout, _ string) {
			for _, w := range []string{"24 rows, 2 classes (target dx)", "| macro ROC-AUC (one-vs-rest) |", "| balanced accuracy |", "| macro F1 |", "| d1 | 12 |", "confusion matrix"} {
				if !strings.Contains(stdout, w) {
					t.Errorf("eval output lacks %q:\n%s", w, stdout)
				}
			}
		}},
		{"eval json", []string{"eval", "--json", model, "--data", data}, func(t *testing.T, stdout, _ string) {
			var doc struct {
				Rows      int                `json:"rows"`
				Metrics   map[string]float64 `json:"metrics"`
				Confusion [][]int            `json:"confusion"`
				PerClass  []map[string]any   `json:"per_class"`
			}
			if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
				t.Fatalf("%v\n%s", err, stdout)
			}
			s, err := want.Score()
			if err != nil {
				t.Fatal(err)
			}
			if doc.Rows != 24 || doc.Metrics["roc_auc"] != s.ROCAUC || doc.Metrics["accuracy"] != s.Accuracy ||
				doc.Metrics["balanced_accuracy"] != s.BalancedAccuracy || doc.Metrics["f1_macro"] != s.F1Macro || len(doc.Confusion) != 2 || len(doc.PerClass) != 2 {
				t.Errorf("document %+v, want scores %+v", doc, s)
			}
		}},
		{"show text", []string{"show", model}, func(t *testing.T, stdout, _ string) {
			for _, w := range []string{"multimodal model: image + tabular (grande), 2 classes (d0, d1)", "image encoder (input 3×8×8",
				"conv3×3/2 4", "GRANDE, 8 trees of depth 3", "fusion: concat(image 8, tabular 4)", "parameters:", "total", "pretrain", "training: 24 rows of meta"} {
				if !strings.Contains(stdout, w) {
					t.Errorf("show output lacks %q:\n%s", w, stdout)
				}
			}
		}},
		{"show json", []string{"show", model, "--json", "--format", "json"}, func(t *testing.T, stdout, _ string) {
			var doc struct {
				Kind       string `json:"kind"`
				Parameters int    `json:"parameters"`
				Rendering  struct {
					Parts   []multimodal.PartSummary `json:"parts"`
					Params  int                      `json:"parameters"`
					Encoder struct{ Input string }   `json:"encoder"`
				} `json:"rendering"`
			}
			if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
				t.Fatalf("%v\n%s", err, stdout)
			}
			if doc.Kind != "multimodal" || doc.Parameters <= 0 || doc.Rendering.Params != doc.Parameters || len(doc.Rendering.Parts) != 5 || doc.Rendering.Encoder.Input != "3×8×8" {
				t.Errorf("document %+v", doc)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := gdt(t, tc.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			tc.check(t, stdout, stderr)
		})
	}
}

func TestMultimodalPredictErrors(t *testing.T) {
	model, data, dir := trainMultimodalCLI(t)
	orig, err := os.ReadFile(data)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	noImage := write("noimage.csv", strings.Replace(string(orig), "images/ISIC_3.png", "images/ISIC_missing.png", 1))
	noAge := write("noage.csv", strings.Replace(string(orig), ",age,", ",years,", 1))
	newLoc := write("newloc.csv", strings.Replace(string(orig), ",back,", ",moon,", 1))
	for _, tc := range []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"missing image", []string{"predict", model, "--data", noImage}, 1, []string{"noimage.csv:5: column image_file", filepath.Join(dir, "images", "ISIC_missing.png"), "does not exist"}},
		{"missing column", []string{"eval", model, "--data", noAge}, 1, []string{`noage.csv:1: no column "age"`}},
		{"no data", []string{"predict", model}, 2, []string{"--data is required"}},
		{"wrong images folder", []string{"predict", model, "--data", data, "--proba", "--images", filepath.Join(dir, "nowhere")}, 1,
			[]string{"meta.csv:2: column image_file: image file " + filepath.Join(dir, "nowhere", "images", "ISIC_0.png"), "and 23 more rows with image errors"}},
		{"bad format", []string{"show", model, "--format", "dot"}, 2, []string{"multimodal models render as text or json"}},
		{"unknown category", []string{"predict", model, "--data", newLoc}, 0, nil},
		{"explain takes tabular models", []string{"explain", model, "--data", data, "--row", "0"}, 1, []string{"a multimodal model file; gdt explain supports tabular models only"}},
		{"export takes tabular models", []string{"export", model, "--format", "onnx", "--out", filepath.Join(dir, "m.onnx")}, 1, []string{"a multimodal model file; gdt export supports tabular models only"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := gdt(t, tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %s", code, tc.code, stderr)
			}
			if code != 0 && stdout != "" {
				t.Errorf("stdout not empty on error: %q", stdout)
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr %q lacks %q", stderr, w)
				}
			}
		})
	}
	// A tabular model file still goes through the tabular path.
	if multimodalModelArg([]string{"--data", data, "x.json"}) != "" || multimodalModelArg([]string{"--json", model}) != model {
		t.Error("multimodalModelArg")
	}
}
