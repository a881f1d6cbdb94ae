package option

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

type cfg struct {
	Depth   int
	Rate    float64
	Seed    int64
	Loss    string
	NoPrune bool
	Workers int
	Both    float64
}

var testList = &List[cfg]{Kind: "test", Options: []Option[cfg]{
	IntOpt("depth", "6", 1, 16, "tree depth", func(c *cfg) any { return &c.Depth }).OldSpelling("max_depth").Word("none", "unlimited"),
	FloatOpt("rate", "0.01", 0, Unbounded, "learning rate", func(c *cfg) any { return &c.Rate }).Open(true, false).LogScale().Also("lr"),
	IntOpt("seed", "42", 0, Unbounded, "seed", func(c *cfg) any { return &c.Seed }),
	ChoiceOpt("loss", "focal", []string{"focal", "mse"}, "loss", func(c *cfg) any { return &c.Loss }).ByTask(map[string]string{"regression": "mse"}),
	BoolOpt("prune", "true", "prune", func(c *cfg) any { return &c.NoPrune }).Inverted(),
	IntOpt("workers", "0", 0, Unbounded, "goroutines", func(c *cfg) any { return &c.Workers }),
	FloatOpt("both", "", 0, 1, "a rate in [0, 1)", func(c *cfg) any { return &c.Both }).Open(false, true),
}}

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		key, value, want, err string
	}{
		{"depth", "7", "7", ""},
		{"depth", "None", "none", ""},
		{"depth", "17", "", "out of range: expected 1…16 | none"},
		{"depth", "0", "", ErrZeroIsDefault.Error()},
		{"depth", "2.5", "", "not an integer"},
		{"rate", "0", "", ErrZeroIsDefault.Error()},
		{"rate", "-1", "", "out of range: expected > 0"},
		{"rate", "NaN", "", "not a number"},
		{"rate", "Inf", "", "out of range"},
		{"workers", "0", "0", ""},
		{"loss", "MSE", "mse", ""},
		{"loss", "hinge", "", "expected one of focal, mse"},
		{"prune", "maybe", "", "expected true or false"},
		{"both", "1", "", "out of range: expected [0, 1)"},
		{"both", "0", "0", ""},
		{"seed", " ", "", "empty value"},
	} {
		s, _ := testList.Lookup(tc.key)
		got, err := s.Check(tc.value)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s=%q: err %v, want %q", tc.key, tc.value, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s=%q: %q, %v; want %q", tc.key, tc.value, got, err, tc.want)
		}
	}
}

func TestParseFormatDefaults(t *testing.T) {
	c, err := testList.Parse(map[string]string{"Max-Depth": "3", "lr": "0.5", "prune": "false", "loss": "mse"})
	if err != nil {
		t.Fatal(err)
	}
	want := cfg{Depth: 3, Rate: 0.5, NoPrune: true, Loss: "mse"}
	if c != want {
		t.Fatalf("Parse: %+v, want %+v", c, want)
	}
	f := testList.Format(c)
	if !reflect.DeepEqual(f, map[string]string{"depth": "3", "rate": "0.5", "prune": "false", "loss": "mse"}) {
		t.Fatalf("Format: %v", f)
	}
	if back, err := testList.Parse(f); err != nil || back != c {
		t.Fatalf("round trip: %+v %v", back, err)
	}
	if d := testList.Defaults(cfg{}, "binary"); d != (cfg{Depth: 6, Rate: 0.01, Seed: 42, Loss: "focal"}) {
		t.Errorf("Defaults binary: %+v", d)
	}
	if d := testList.Defaults(cfg{Depth: 2}, "regression"); d.Loss != "mse" || d.Depth != 2 {
		t.Errorf("Defaults regression: %+v", d)
	}
	if d := testList.Defaults(cfg{}, ""); d.Loss != "" || d.Depth != 6 {
		t.Errorf("Defaults without task fills task defaults: %+v", d)
	}
	if _, err := testList.Parse(map[string]string{"dept": "3"}); err == nil || !strings.Contains(err.Error(), `test: unknown option "dept" (known: depth, rate`) {
		t.Errorf("unknown key: %v", err)
	}
	if _, err := testList.Parse(map[string]string{"depth": "99"}); err == nil || err.Error() != `test: option depth="99": out of range: expected 1…16 | none` {
		t.Errorf("range error: %v", err)
	}
	if c, err := testList.Parse(map[string]string{"depth": "none"}); err != nil || c.Depth != 0 {
		t.Errorf("word: %+v %v", c, err)
	}
	if err := testList.CheckConfig(cfg{Depth: 40}); err == nil {
		t.Error("CheckConfig accepted depth 40")
	}
	if err := testList.CheckFields(cfg{}); err == nil || !errors.Is(err, ErrZeroIsDefault) {
		t.Errorf("CheckFields on zeros: %v", err)
	}
}

func TestWithDefaultsAndDeclaration(t *testing.T) {
	if err := testList.CheckDeclaration(); err != nil {
		t.Fatal(err)
	}
	fast := testList.WithDefaults("test-fast", map[string]string{"depth": "3", "loss": "mse"})
	if d := fast.Defaults(cfg{}, ""); d.Depth != 3 || d.Loss != "mse" {
		t.Errorf("variant defaults: %+v", d)
	}
	if d := testList.Defaults(cfg{}, "binary"); d.Depth != 6 || d.Loss != "focal" {
		t.Errorf("base changed by the variant: %+v", d)
	}
	if s, _ := fast.Lookup("depth"); s.Default != "3" {
		t.Errorf("variant spec default %q", s.Default)
	}
	if u := testList.Unbound(); len(u) != 0 {
		t.Errorf("unbound: %v", u)
	}
	bad := &List[cfg]{Kind: "bad", Options: []Option[cfg]{
		IntOpt("depth", "20", 1, 16, "d", func(c *cfg) any { return &c.Depth }),
	}}
	if err := bad.CheckDeclaration(); err == nil || !strings.Contains(err.Error(), `default "20"`) {
		t.Errorf("default out of range: %v", err)
	}
	if u := bad.Unbound(); !reflect.DeepEqual(u, []string{"Rate", "Seed", "Loss", "NoPrune", "Workers", "Both"}) {
		t.Errorf("unbound: %v", u)
	}
	dup := &List[cfg]{Kind: "dup", Options: []Option[cfg]{
		IntOpt("depth", "", 1, 16, "d", func(c *cfg) any { return &c.Depth }),
		IntOpt("workers", "", 0, 16, "w", func(c *cfg) any { return &c.Workers }).Also("Depth"),
	}}
	if err := dup.CheckDeclaration(); err == nil {
		t.Error("duplicate key accepted")
	}
}

func TestZeroValued(t *testing.T) {
	l := ZeroValued("zv", IntOpt("seed", "142", 0, Unbounded, "seed", func(c *cfg) any { return &c.Seed }))
	if c, err := l.Parse(map[string]string{"seed": "0"}); err != nil || c.Seed != 0 {
		t.Errorf("seed=0: %+v %v", c, err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add("depth", "7")
	f.Add("rate", "1e-3")
	f.Add("prune", "false")
	f.Add("loss", "Focal")
	f.Fuzz(func(t *testing.T, key, value string) {
		c, err := testList.Parse(map[string]string{key: value})
		if err != nil {
			return
		}
		// Whatever parses formats back to the same configuration.
		back, err := testList.Parse(testList.Format(c))
		if err != nil || back != c {
			t.Fatalf("%s=%q: %+v, back %+v, %v", key, value, c, back, err)
		}
	})
}

func TestSubset(t *testing.T) {
	sub := testList.Subset("part", "rate", "seed")
	if got := sub.Keys(); !reflect.DeepEqual(got, []string{"rate", "seed"}) {
		t.Fatalf("keys %v", got)
	}
	if _, err := sub.Parse(map[string]string{"depth": "3"}); err == nil {
		t.Error("subset accepted an option it does not have")
	}
	if c, err := sub.Parse(map[string]string{"lr": "0.5"}); err != nil || c.Rate != 0.5 {
		t.Errorf("alias in the subset: %+v %v", c, err)
	}
}
