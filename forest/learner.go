package forest

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/option"
)

func init() {
	model.RegisterKind(model.Kind{
		Name: "random-forest",
		// Trees need no scaling; one-hot categories as for CART.
		DefaultProtocol: "none",
		Help:            "random forest of CART trees (scikit-learn's RandomForestClassifier/Regressor)",
		Options:         Options,
		New: func(opts map[string]string, seed int64) (model.Learner, error) {
			c, err := ParseOptions(opts)
			if err != nil {
				return nil, err
			}
			if seed < 0 || seed > math.MaxUint32 {
				return nil, fmt.Errorf("forest: seed %d outside 0..%d (it plays sklearn's random_state)", seed, uint32(math.MaxUint32))
			}
			c.Seed = seed
			return New(c), nil
		},
		Unmarshal: func(b json.RawMessage) (model.Learner, error) {
			var f Forest
			if err := json.Unmarshal(b, &f); err != nil {
				return nil, fmt.Errorf("forest: %w", err)
			}
			if len(f.Trees) == 0 {
				return nil, fmt.Errorf("forest: no trees in the model section")
			}
			for i, t := range f.Trees {
				if t == nil {
					return nil, fmt.Errorf("forest: tree %d is empty", i)
				}
				if err := t.Check(); err != nil {
					return nil, fmt.Errorf("forest: tree %d: %w", i, err)
				}
				if t.NumFeatures != f.Features || t.NumClasses != f.Classes {
					return nil, fmt.Errorf("forest: tree %d has %d features and %d classes: expected %d and %d", i, t.NumFeatures, t.NumClasses, f.Features, f.Classes)
				}
			}
			return &f, nil
		},
	})
}

// ParseOptions reads forest options given as text (CLI --set key=value;
// `gdt models random-forest` lists them).
func ParseOptions(opts map[string]string) (Config, error) { return Options.Parse(opts) }

// Options declares the random forest's options (scikit-learn's
// RandomForestClassifier and RandomForestRegressor parameters; the zero
// Config is sklearn's default). Config.Seed is the model seed of
// model.Spec, not an option.
var Options = &option.List[Config]{Kind: "random-forest", Options: []option.Option[Config]{
	option.IntOpt("n_estimators", "100", 1, 1<<20, model.MeaningEstimators, func(c *Config) any { return &c.Trees }).Also("trees"),
	option.Custom(option.Spec{Key: "max_features", Type: option.Text, Default: "sqrt", TaskDefaults: map[string]string{"regression": "all"},
		RangeNote: "sqrt | log2 | all | a count ≥ 1 | a fraction in (0, 1]", Meaning: "features tried at each node"},
		func(c *Config, v string) error {
			if _, err := (Config{MaxFeatures: v}).maxFeatures(math.MaxInt32, false); err != nil {
				return errors.New("expected sqrt, log2, all, a count ≥ 1 or a fraction in (0, 1]")
			}
			c.MaxFeatures = strings.ToLower(v)
			return nil
		},
		func(c *Config) string { return c.MaxFeatures }),
	option.IntOpt("depth", "none", 1, option.Unbounded, model.MeaningDepth, func(c *Config) any { return &c.MaxDepth }).
		Word("none", "unlimited: grow every tree until its leaves are pure (sklearn max_depth=None)").OldSpelling("max_depth"),
	option.IntOpt("min_samples_split", "2", 2, option.Unbounded, model.MeaningMinSamplesSplit, func(c *Config) any { return &c.MinSamplesSplit }),
	option.IntOpt("min_samples_leaf", "1", 1, option.Unbounded, model.MeaningMinSamplesLeaf, func(c *Config) any { return &c.MinSamplesLeaf }),
	option.ChoiceOpt("criterion", "gini", []string{"gini", "entropy", "squared_error"}, model.MeaningCriterion,
		func(c *Config) any { return &c.Criterion }).ByTask(map[string]string{"regression": "squared_error"}),
	option.BoolOpt("bootstrap", "true", model.MeaningBootstrap+"; false: every tree on all rows",
		func(c *Config) any { return &c.NoBootstrap }).Inverted(),
	option.ChoiceOpt("class_weights", "none", []string{"none", "balanced"}, model.MeaningClassWeights,
		func(c *Config) any { return &c.ClassWeight }).Also("class_weight").Note("balanced: weights of the whole training set, times every tree's bootstrap weights"),
	option.IntOpt("workers", "0", 0, option.Unbounded, model.MeaningWorkers, func(c *Config) any { return &c.Workers }),
}}
