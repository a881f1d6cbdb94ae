package bench

import (
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/model"
)

func TestWithOptions(t *testing.T) {
	for _, tc := range []struct {
		model   string
		set     map[string]string
		want    string // derived name
		wantErr string // substring of the error
		opts    map[string]string
	}{
		{model: "cart", set: nil, want: "cart"},
		{model: "cart", set: map[string]string{"max-depth": "3"}, want: "cart[depth=3]",
			opts: map[string]string{"depth": "3"}},
		{model: "grande-estimator-weights", set: map[string]string{"n_estimators": "8", "depth": "2"},
			want: "grande-estimator-weights[depth=2,n_estimators=8]",
			opts: map[string]string{"estimator_weights": "estimator", "n_estimators": "8", "depth": "2"}},
		{model: "grande", set: map[string]string{"depht": "2"}, wantErr: "grande"},
		{model: "grande", set: map[string]string{"depth": "20"}, wantErr: `depth="20": out of range: expected 1…16`},
		{model: "no-such-model", set: map[string]string{"depth": "2"}, wantErr: "no-such-model"},
	} {
		got, err := WithOptions(tc.model, tc.set)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("WithOptions(%s, %v) error = %v, want one naming %q", tc.model, tc.set, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("WithOptions(%s, %v) = %q, %v; want %q", tc.model, tc.set, got, err, tc.want)
			continue
		}
		m, err := Lookup(got)
		if err != nil {
			t.Fatalf("derived model not registered: %v", err)
		}
		for k, v := range tc.opts {
			if m.Options[k] != v {
				t.Errorf("%s: option %s = %q, want %q (all: %v)", got, k, m.Options[k], v, m.Options)
			}
		}
		if got != tc.model && m.Thesis != "" {
			t.Errorf("%s carries the thesis column %q; a changed configuration must not", got, m.Thesis)
		}
	}
}

// TestModelOptionsDeclared checks that every benchmark model that is a
// learner kind trains with options its kind declares, in their canonical
// spelling and inside their ranges.
func TestModelOptionsDeclared(t *testing.T) {
	for _, m := range Models() {
		if m.Kind == "" {
			continue
		}
		k, err := model.LookupKind(m.Kind)
		if err != nil {
			t.Fatal(err)
		}
		if err := k.Options.Check(m.Options); err != nil {
			t.Errorf("model %s: %v", m.Name, err)
		}
		for key := range m.Options {
			if s, _ := k.Options.Lookup(key); s.Key != key {
				t.Errorf("model %s: option %q is spelled %q", m.Name, key, s.Key)
			}
		}
	}
}
