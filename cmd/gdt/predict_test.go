package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/model"
)

// wholeFilePredictions is what gdt predict wrote before it streamed: the
// file read whole, transformed and predicted at once, written with
// encoding/csv.
func wholeFilePredictions(t *testing.T, modelPath, dataPath string, proba bool) string {
	t.Helper()
	m, err := model.Load(modelPath)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := data.ReadFile(dataPath, data.ReadOptions{CSVOptions: data.CSVOptions{TrimSpace: true}, Schema: m.Schema()})
	if err != nil {
		t.Fatal(err)
	}
	p, err := m.PredictProba(tab)
	if err != nil {
		t.Fatal(err)
	}
	pred := model.Decide(m.Task, p)
	var b bytes.Buffer
	cw := csv.NewWriter(&b)
	head := []string{"prediction"}
	if proba && m.Task != data.Regression {
		for _, c := range m.Classes {
			head = append(head, "p_"+c)
		}
	}
	cw.Write(head)
	rec := make([]string, len(head))
	for i, v := range pred {
		if m.Task == data.Regression {
			rec[0] = strconv.FormatFloat(v, 'g', 8, 64)
		} else {
			rec[0] = m.Classes[int(v)]
		}
		for c := 1; c < len(head); c++ {
			rec[c] = strconv.FormatFloat(float64(p.At(i, c-1)), 'g', 6, 32)
		}
		cw.Write(rec)
	}
	cw.Flush()
	return b.String()
}

// TestPredictStreams checks that gdt predict on a file of several chunks
// writes exactly what predicting the whole file at once gives, for a
// classifier (with quoted class names, unseen levels, missing values) and
// a regressor.
func TestPredictStreams(t *testing.T) {
	dir := t.TempDir()
	train := filepath.Join(dir, "train.csv")
	os.WriteFile(train, []byte(strings.ReplaceAll(strings.ReplaceAll(trainCSV, ",no\n", ",\"no, never\"\n"), ",yes\n", ",\"yes \"\"sure\"\"\"\n")), 0o644)
	var rows strings.Builder
	rows.WriteString("housing,income,age,decision\n")
	housing := []string{"rent", "own", "mortgage", "boat", "?", ""}
	for i := range 150000 { // about 3 MB: several chunks
		fmt.Fprintf(&rows, "%s,%d,%d,x\n", housing[i%len(housing)], 20000+(i*7919)%80000, 20+i%50)
	}
	newCSV := filepath.Join(dir, "new.csv")
	os.WriteFile(newCSV, []byte(rows.String()), 0o644)
	for _, c := range []struct{ target, kind string }{{"decision", "cart"}, {"income", "cart"}, {"decision", "grande"}} {
		modelPath := filepath.Join(dir, c.target+c.kind+".json")
		args := []string{"train", "--data", train, "--target", c.target, "--model", c.kind, "--out", modelPath, "--quiet"}
		if c.kind == "grande" {
			args = append(args, "--set", "n_estimators=8", "--set", "epochs=2")
		}
		if _, errOut, code := gdt(t, args...); code != 0 {
			t.Fatalf("train %s: exit %d: %s", c.kind, code, errOut)
		}
		for _, proba := range []bool{false, true} {
			args := []string{"predict", modelPath, "--data", newCSV}
			if proba {
				args = append(args, "--proba")
			}
			out, errOut, code := gdt(t, args...)
			if code != 0 {
				t.Fatalf("predict: exit %d: %s", code, errOut)
			}
			if want := wholeFilePredictions(t, modelPath, newCSV, proba); out != want {
				t.Errorf("%s %s, proba %v: streamed predictions differ from whole-file ones (%d vs %d bytes)", c.kind, c.target, proba, len(out), len(want))
			}
		}
	}
}

// TestPredictStreamError checks that an error in a late chunk stops gdt
// predict with a message naming the line, and leaves no --out file.
func TestPredictStreamError(t *testing.T) {
	dir := t.TempDir()
	train := filepath.Join(dir, "train.csv")
	os.WriteFile(train, []byte(trainCSV), 0o644)
	modelPath := filepath.Join(dir, "m.json")
	if _, errOut, code := gdt(t, "train", "--data", train, "--target", "decision", "--model", "cart", "--out", modelPath, "--quiet"); code != 0 {
		t.Fatalf("train: exit %d: %s", code, errOut)
	}
	var rows strings.Builder
	rows.WriteString("housing,income,age\n")
	for i := range 150000 {
		income := strconv.Itoa(20000 + i)
		if i == 140000 {
			income = "lots"
		}
		fmt.Fprintf(&rows, "rent,%s,%d\n", income, 20+i%50)
	}
	newCSV := filepath.Join(dir, "new.csv")
	os.WriteFile(newCSV, []byte(rows.String()), 0o644)
	out := filepath.Join(dir, "pred.csv")
	_, errOut, code := gdt(t, "predict", modelPath, "--data", newCSV, "--out", out)
	if code != 1 || !strings.Contains(errOut, "new.csv:140002:") || !strings.Contains(errOut, `"lots"`) {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("--out file left behind after an error: %v", err)
	}
}
