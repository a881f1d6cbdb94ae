package cart

import (
	"encoding/json"
	"testing"

	"github.com/gdt-ml/gdt/data"
)

// class_weight=balanced must survive a save: the trained learner is JSON
// (no NaN markers) and refits to the same tree as explicit weights.
func TestBalancedOptionSavesAndMatchesExplicitWeights(t *testing.T) {
	X := data.NewMatrix(8, 1)
	y := []float64{0, 0, 0, 0, 0, 0, 1, 1}
	for i := range 8 {
		X.Data[i] = float32(i)
	}
	cfg, err := ParseOptions(map[string]string{"class_weight": "balanced"})
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.Balanced || cfg.ClassWeight != nil {
		t.Fatalf("ParseOptions(balanced) = %+v, want Balanced and no explicit weights", cfg)
	}
	got, err := FitClassifier(X, y, 2, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	w, err := BalancedWeights(y, 2)
	if err != nil {
		t.Fatal(err)
	}
	want, err := FitClassifier(X, y, 2, Config{ClassWeight: w}, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(got)
	b, _ := json.Marshal(want)
	if string(a) != string(b) {
		t.Errorf("balanced tree differs from explicit weights:\n%s\n%s", a, b)
	}
	if _, err := json.Marshal(&Learner{Config: cfg, Tree: got}); err != nil {
		t.Errorf("learner with class_weight=balanced does not serialise: %v", err)
	}
	if _, err := FitClassifier(X, y, 2, Config{Balanced: true, ClassWeight: w}, nil); err == nil {
		t.Error("Balanced with explicit ClassWeight: want an error")
	}
}

// Text options reject 0 where Config's zero means a default (sklearn
// rejects max_depth=0 too); "none" is the unlimited depth.
func TestParseOptionsZero(t *testing.T) {
	for _, key := range []string{"depth", "max_depth", "min_samples_split", "min_samples_leaf", "max_features"} {
		if _, err := ParseOptions(map[string]string{key: "0"}); err == nil {
			t.Errorf("%s=0 accepted", key)
		}
	}
	cfg, err := ParseOptions(map[string]string{"max_depth": "None", "min_impurity_decrease": "0"})
	if err != nil || cfg.MaxDepth != 0 {
		t.Errorf("max_depth=None: %+v, %v", cfg, err)
	}
}
