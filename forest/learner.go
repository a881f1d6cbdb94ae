package forest

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/gdt-ml/gdt/model"
)

func init() {
	model.RegisterKind(model.Kind{
		Name: "random-forest",
		// Trees need no scaling; one-hot categories as for CART.
		DefaultProtocol: "none",
		Help:            "random forest of CART trees (scikit-learn's RandomForestClassifier/Regressor); options: n_estimators, max_features (sqrt|log2|all|count|fraction), max_depth, min_samples_split, min_samples_leaf, criterion, bootstrap, class_weight=balanced, workers",
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

// ParseOptions reads forest options given as text (CLI --set key=value):
// n_estimators, max_features, max_depth (a depth or none),
// min_samples_split, min_samples_leaf, criterion, bootstrap (true|false),
// class_weight (balanced|none), workers.
func ParseOptions(opts map[string]string) (Config, error) {
	var c Config
	known := []string{"n_estimators", "max_features", "max_depth", "min_samples_split", "min_samples_leaf", "criterion", "bootstrap", "class_weight", "workers"}
	err := model.EachOption("forest", opts, known, func(o *model.Option) error {
		switch o.Key {
		case "n_estimators", "trees":
			if c.Trees = o.Int(); c.Trees < 1 {
				return fmt.Errorf("expected at least 1 tree")
			}
		case "max_features":
			c.MaxFeatures = o.Value
		case "max_depth":
			if o.Lower() != "none" {
				c.MaxDepth = o.NonZeroInt()
			}
		case "min_samples_split":
			c.MinSamplesSplit = o.NonZeroInt()
		case "min_samples_leaf":
			c.MinSamplesLeaf = o.NonZeroInt()
		case "criterion":
			c.Criterion = o.Value
		case "bootstrap":
			c.NoBootstrap = !o.Bool()
		case "class_weight", "class_weights":
			c.ClassWeight = o.Lower()
		case "workers":
			c.Workers = o.Int()
		default:
			return model.ErrUnknownOption
		}
		return nil
	})
	return c, err
}
