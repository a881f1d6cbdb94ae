package model

import (
	"errors"
	"strings"
	"testing"
)

func TestTreeTrainingSet(t *testing.T) {
	type cfg struct {
		depth, batch, epochs, patience, restarts, parallel int
		lrI, lrV, lrL, gamma, cosine                       float64
		split, loss, cw                                    string
	}
	bind := func(c *cfg) TreeTraining {
		return TreeTraining{Depth: &c.depth, LRIndex: &c.lrI, LRValues: &c.lrV, LRLeaf: &c.lrL, Split: &c.split,
			BatchSize: &c.batch, MaxEpochs: &c.epochs, Patience: &c.patience, Restarts: &c.restarts, Loss: &c.loss,
			FocalGamma: &c.gamma, ClassWeights: &c.cw, CosineDecaySteps: &c.cosine, Parallel: &c.parallel}
	}
	for _, tc := range []struct {
		key, value string
		want       cfg
	}{
		{"depth", "7", cfg{depth: 7}},
		{"max_depth", "3", cfg{depth: 3}},
		{"learning_rate_index", "0.5", cfg{lrI: 0.5}},
		{"lr_values", "0.25", cfg{lrV: 0.25}},
		{"lr_leaf", "2", cfg{lrL: 2}},
		{"split_function", "SoftSign", cfg{split: "softsign"}},
		{"batch_size", "64", cfg{batch: 64}},
		{"max_epochs", "9", cfg{epochs: 9}},
		{"early_stopping_epochs", "25", cfg{patience: 25}},
		{"restarts", "3", cfg{restarts: 3}},
		{"loss", "Focal", cfg{loss: "focal"}},
		{"focal_gamma", "2", cfg{gamma: 2}},
		{"class_weight", "Balanced", cfg{cw: "balanced"}},
		{"cosine_decay_steps", "0.1", cfg{cosine: 0.1}},
		{"parallel", "4", cfg{parallel: 4}},
	} {
		var c cfg
		o := &Option{Key: tc.key, Value: tc.value}
		if !bind(&c).Set(o) {
			t.Errorf("Set(%s) = false, want true", tc.key)
		}
		if o.err != nil {
			t.Errorf("Set(%s=%s): %v", tc.key, tc.value, o.err)
		}
		if c != tc.want {
			t.Errorf("Set(%s=%s) gives %+v, want %+v", tc.key, tc.value, c, tc.want)
		}
	}
	// keys that are not shared, and shared keys a model does not have
	var c cfg
	if bind(&c).Set(&Option{Key: "n_estimators", Value: "8"}) {
		t.Error("Set(n_estimators) = true, want false")
	}
	if (TreeTraining{}).Set(&Option{Key: "depth", Value: "3"}) {
		t.Error("Set(depth) with a nil field = true, want false")
	}
	// a value that does not parse is recorded on the option
	o := &Option{Key: "depth", Value: "deep"}
	if !bind(&c).Set(o) || o.err == nil {
		t.Errorf("Set(depth=deep): err %v, want a parse error", o.err)
	}
}

func TestTreeTrainingNamesAccepted(t *testing.T) {
	var i int
	var f float64
	var s string
	all := TreeTraining{&i, &f, &f, &f, &s, &i, &i, &i, &i, &s, &f, &s, &f, &i}
	for _, k := range TreeTrainingNames {
		v := "1"
		if k == "split" || k == "loss" || k == "class_weights" {
			v = "x"
		}
		if !all.Set(&Option{Key: k, Value: v}) {
			t.Errorf("TreeTrainingNames lists %q but Set does not accept it", k)
		}
	}
}

// TestZeroMeansDefaultRejected: a shared option whose zero field means
// "the default" rejects an explicit 0 (it would silently train with the
// default), while options where 0 is a value of its own accept it.
func TestZeroMeansDefaultRejected(t *testing.T) {
	var i int
	var f float64
	var s string
	all := TreeTraining{&i, &f, &f, &f, &s, &i, &i, &i, &i, &s, &f, &s, &f, &i}
	for _, tc := range []struct {
		key, value string
		wantErr    bool
	}{
		{"depth", "0", true}, {"lr_index", "0", true}, {"lr_values", "0.0", true}, {"lr_leaf", "-0", true},
		{"batch_size", "0", true}, {"epochs", "0", true}, {"patience", "0", true}, {"restarts", "0", true},
		{"focal_gamma", "0", true},
		{"depth", "-1", false}, // parsed; the estimator's range check reports it
		{"cosine_decay_steps", "0", false}, {"parallel", "0", false},
	} {
		o := &Option{Key: tc.key, Value: tc.value}
		if !all.Set(o) {
			t.Fatalf("Set(%s) = false", tc.key)
		}
		if got := errors.Is(o.err, ErrZeroIsDefault); got != tc.wantErr {
			t.Errorf("Set(%s=%s): err %v, want ErrZeroIsDefault: %v", tc.key, tc.value, o.err, tc.wantErr)
		}
	}
}

func TestEachOptionEmptyValue(t *testing.T) {
	called := false
	err := EachOption("k", map[string]string{"loss": " "}, nil, func(*Option) error { called = true; return nil })
	if err == nil || !strings.Contains(err.Error(), "loss") || !strings.Contains(err.Error(), "empty value") {
		t.Errorf("EachOption(loss=\" \") = %v, want an error naming loss and the empty value", err)
	}
	if called {
		t.Error("the callback saw an empty value")
	}
}
