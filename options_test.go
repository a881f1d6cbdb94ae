package gdt

import (
	"errors"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/cart"
	"github.com/gdt-ml/gdt/gradtree"
	"github.com/gdt-ml/gdt/grande"
	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/multimodal"
	"github.com/gdt-ml/gdt/option"
	"github.com/gdt-ml/gdt/rl/ppo"
)

// declaration is one kind's option declaration under test.
type declaration struct {
	name     string
	list     option.Declared
	outRange map[string]string // invalid values the declaration must refuse
}

// libraryFields are configuration fields that are deliberately not
// options, by kind.
var libraryFields = map[string][]string{
	// explicit per-class weights, and the model seed of model.Spec
	"cart":          {"ClassWeight", "Seed"},
	"random-forest": {"Seed"},
	// Augment's Flip comes with max_shift/max_rotate; DefaultAugment is
	// the default
	"multimodal": {"Augment"},
	// the tabular MLP has no image branch and no GRANDE backbone
	"mlp": {"Augment", "Image", "Tabular", "Channels", "StemStride", "ImageEmbed", "Trees", "Depth", "TreeEmbed", "TreeFeatures",
		"TreeDropout", "LRTree", "LRTreeWeights", "PretrainEpochs", "PretrainPatience", "NoAugment", "FineTuneAll"},
}

// declarations returns every registered model kind's declaration (new
// kinds are checked without being listed here), multimodal's and PPO's.
func declarations() []declaration {
	invalid := map[string]map[string]string{
		"gradtree":      {"depth": "17", "restarts": "0", "split": "relu", "lr_index": "-1"},
		"grande":        {"n_estimators": "0", "dropout": "1", "data_subset_fraction": "1.5", "estimator_weights": "tree"},
		"grande-fast":   {"n_estimators": "0", "eval_every": "-1", "intercept": "always"},
		"cart":          {"depth": "-2", "min_samples_split": "1", "min_weight_fraction_leaf": "0.6", "criterion": "mse"},
		"random-forest": {"n_estimators": "0", "max_features": "2.5", "bootstrap": "maybe"},
		"multimodal":    {"tabular": "xgb", "batch_size": "1", "head_dropout": "1", "channels": "8,-1"},
		"ppo":           {"gamma": "1.5", "method": "dqn", "n_envs": "0", "accum_mode": "sum"},
	}
	var out []declaration
	for _, n := range model.KindNames() {
		k, _ := model.LookupKind(n)
		out = append(out, declaration{n, k.Options, invalid[n]})
	}
	return append(out, declaration{"multimodal", multimodal.Options, invalid["multimodal"]}, declaration{"ppo", ppo.Options, invalid["ppo"]})
}

// TestDeclarationsComplete checks every kind's declaration: unique keys,
// a meaning for every option, defaults inside their ranges, and every
// configuration field written by an option (so nothing a kind reads goes
// undeclared).
func TestDeclarationsComplete(t *testing.T) {
	for _, d := range declarations() {
		t.Run(d.name, func(t *testing.T) {
			if err := d.list.CheckDeclaration(); err != nil {
				t.Error(err)
			}
			if u := d.list.Unbound(libraryFields[d.name]...); len(u) > 0 {
				t.Errorf("configuration fields without a declared option: %v", u)
			}
		})
	}
	for _, n := range []string{"cart", "gradtree", "grande", "random-forest", "mlp"} {
		if _, err := model.LookupKind(n); err != nil {
			t.Errorf("kind %s is not registered: %v", n, err)
		}
	}
}

// TestSetRejectsOutOfRange checks that an out-of-range or invalid --set
// value is an error naming the key, the value and the allowed range.
func TestSetRejectsOutOfRange(t *testing.T) {
	for _, d := range declarations() {
		for key, value := range d.outRange {
			t.Run(d.name+"/"+key, func(t *testing.T) {
				err := d.list.Check(map[string]string{key: value})
				if err == nil {
					t.Fatalf("%s=%s accepted", key, value)
				}
				spec, _ := d.list.Lookup(key)
				msg := err.Error()
				if !strings.Contains(msg, key+"=") || !strings.Contains(msg, value) {
					t.Errorf("error %q does not name %s=%s", msg, key, value)
				}
				if r := spec.Range(); spec.Type != option.Text && !strings.Contains(msg, r) && !strings.Contains(msg, strings.Join(spec.Choices, ", ")) {
					t.Errorf("error %q does not give the range %q", msg, r)
				}
			})
		}
	}
}

// TestZeroIsDefaultRefused checks that 0 for an option whose zero field
// means a non-zero default is refused instead of silently meaning it.
func TestZeroIsDefaultRefused(t *testing.T) {
	for _, c := range []struct {
		list option.Declared
		key  string
	}{{gradtree.Options, "seed"}, {grande.Options, "n_estimators"}, {cart.Options, "min_samples_leaf"}, {multimodal.Options, "head_dropout"}} {
		if err := c.list.Check(map[string]string{c.key: "0"}); !errors.Is(err, option.ErrZeroIsDefault) {
			t.Errorf("%s=0: %v, want ErrZeroIsDefault", c.key, err)
		}
	}
	// PPO's zero values are values (a preset fills every field).
	if err := ppo.Options.Check(map[string]string{"seed": "0", "weight_decay": "0"}); err != nil {
		t.Errorf("ppo seed=0: %v", err)
	}
}

// TestOneKeyOneMeaning checks that a key several kinds declare has the
// same type and the same meaning in all of them (allowing a suffix that
// names the part of a model it applies to).
func TestOneKeyOneMeaning(t *testing.T) {
	type seen struct {
		kind string
		spec option.Spec
	}
	first := map[string]seen{}
	for _, d := range declarations() {
		if d.name == "ppo" {
			continue // the reference code's names; its depth is checked below
		}
		for _, s := range d.list.Specs() {
			p, ok := first[s.Key]
			if !ok {
				first[s.Key] = seen{d.name, s}
				continue
			}
			if s.Type != p.spec.Type && !sharedMeaningExempt[s.Key] {
				t.Errorf("%s is %s in %s but %s in %s", s.Key, s.Type, d.name, p.spec.Type, p.kind)
			}
			if !strings.HasPrefix(s.Meaning, p.spec.Meaning) && !strings.HasPrefix(p.spec.Meaning, s.Meaning) &&
				!sharedMeaningExempt[s.Key] {
				t.Errorf("%s means %q in %s but %q in %s", s.Key, s.Meaning, d.name, p.spec.Meaning, p.kind)
			}
		}
	}
	if d, _ := ppo.Options.Lookup("depth"); !strings.Contains(d.Meaning, "at most this many splits from the root to any leaf") {
		t.Errorf("ppo depth means %q", d.Meaning)
	}
}

// sharedMeaningExempt are keys whose one-line meaning carries a kind's
// specifics while the quantity is the same.
var sharedMeaningExempt = map[string]bool{
	"seed":          true, // the model seed; what it seeds differs with the model
	"workers":       true, // goroutines, results independent of it
	"parallel":      true, // restarts trained at once
	"max_features":  true, // features tried per node: CART a count, the forest also sqrt/log2/fractions
	"class_weights": false,
}
