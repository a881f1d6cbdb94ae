package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestExplain(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "loans.csv")
	os.WriteFile(csv, []byte(trainCSV), 0o644)
	ens := filepath.Join(dir, "ens.json")
	if _, errOut, code := gdt(t, "train", "--data", csv, "--target", "decision", "--model", "grande",
		"--set", "n_estimators=16", "--set", "depth=3", "--set", "epochs=5", "--out", ens); code != 0 {
		t.Fatalf("train grande: exit %d: %s", code, errOut)
	}
	out, errOut, code := gdt(t, "explain", ens, "--data", csv, "--row", "1", "--top-k", "2", "--importance")
	if code != 0 {
		t.Fatalf("explain: exit %d: %s", code, errOut)
	}
	for _, want := range []string{"row 1 of", "prediction ", "The top 2 of 16 estimators", "#1 estimator", "◀ this row", "global feature importance"} {
		if !strings.Contains(out, want) {
			t.Errorf("explain output lacks %q:\n%s", want, out)
		}
	}
	out, errOut, code = gdt(t, "explain", ens, "--data", csv, "--row", "0", "--json")
	if code != 0 {
		t.Fatalf("explain --json: exit %d: %s", code, errOut)
	}
	var doc struct {
		Prediction  string `json:"prediction"`
		Explanation struct {
			Trees      int `json:"trees"`
			Estimators []struct {
				Share float64 `json:"share"`
			} `json:"estimators"`
		} `json:"explanation"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("explain --json output is not JSON: %v\n%s", err, out)
	}
	if doc.Explanation.Trees != 16 || len(doc.Explanation.Estimators) != 3 || doc.Prediction == "" {
		t.Errorf("explain --json: %+v", doc)
	}
	// Errors name what is wrong.
	if _, errOut, code := gdt(t, "explain", ens, "--data", csv, "--row", "999"); code != 2 || !strings.Contains(errOut, "--row 999") {
		t.Errorf("bad row: exit %d, %q", code, errOut)
	}
	tree := filepath.Join(dir, "cart.json")
	if _, errOut, code := gdt(t, "train", "--data", csv, "--target", "decision", "--model", "cart", "--out", tree); code != 0 {
		t.Fatalf("train cart: %s", errOut)
	}
	if _, errOut, code := gdt(t, "explain", tree, "--data", csv); code != 1 || !strings.Contains(errOut, "gdt show") {
		t.Errorf("explain on cart: exit %d, %q", code, errOut)
	}
}
