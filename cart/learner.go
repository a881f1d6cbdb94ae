package cart

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/gdt-ml/gdt/interpret"
	"math"
	"sync"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/ensemble"
	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/option"
	"github.com/gdt-ml/gdt/preprocess"
)

// Learner adapts CART to the model.Learner contract used by the CLI and
// the benchmark harness.
type Learner struct {
	Config Config
	Tree   *Tree

	mu     sync.Mutex          // guards pred
	pred   *ensemble.Predictor // Tree's compiled trained form
	predOf *Tree               // the tree pred was compiled from
}

func init() {
	model.RegisterKind(model.Kind{
		Name: "cart",
		// CART needs no scaling; one-hot categories keep its splits readable.
		DefaultProtocol: "none",
		Help:            "greedy CART tree (scikit-learn compatible)",
		Options:         Options,
		New: func(opts map[string]string, seed int64) (model.Learner, error) {
			cfg, err := ParseOptions(opts)
			if err != nil {
				return nil, err
			}
			if seed < 0 || seed > math.MaxUint32 {
				return nil, fmt.Errorf("cart: seed %d outside 0..%d (it plays sklearn's random_state)", seed, uint32(math.MaxUint32))
			}
			cfg.Seed = uint64(seed)
			return &Learner{Config: cfg}, nil
		},
		Unmarshal: func(b json.RawMessage) (model.Learner, error) {
			var l Learner
			if err := json.Unmarshal(b, &l); err != nil {
				return nil, err
			}
			if l.Tree == nil {
				return nil, fmt.Errorf("cart: no tree in the model section")
			}
			if err := l.Tree.Check(); err != nil {
				return nil, err
			}
			return &l, nil
		},
	})
}

// ParseOptions reads CART options given as text (CLI --set key=value;
// `gdt models cart` lists them).
func ParseOptions(opts map[string]string) (Config, error) { return Options.Parse(opts) }

// Options declares CART's options (scikit-learn's DecisionTreeClassifier
// and DecisionTreeRegressor parameters; the zero Config is sklearn's
// default). Config.ClassWeight (explicit weights per class) and Config.Seed
// (the model seed of model.Spec) are library fields, not options.
var Options = &option.List[Config]{Kind: "cart", Options: []option.Option[Config]{
	option.IntOpt("depth", "none", 1, option.Unbounded, model.MeaningDepth, func(c *Config) any { return &c.MaxDepth }).
		Word("none", "unlimited: grow until the leaves are pure (sklearn max_depth=None)").OldSpelling("max_depth").
		Note("unlimited; bench's cart model, the thesis's CART, uses 10"),
	option.IntOpt("min_samples_split", "2", 2, option.Unbounded, model.MeaningMinSamplesSplit, func(c *Config) any { return &c.MinSamplesSplit }),
	option.IntOpt("min_samples_leaf", "1", 1, option.Unbounded, model.MeaningMinSamplesLeaf, func(c *Config) any { return &c.MinSamplesLeaf }),
	option.FloatOpt("min_weight_fraction_leaf", "0", 0, 0.5, "minimum fraction of the total sample weight on each side of a split",
		func(c *Config) any { return &c.MinWeightFractionLeaf }),
	option.IntOpt("max_features", "all", 1, option.Unbounded, "features drawn at each node (without replacement)",
		func(c *Config) any { return &c.MaxFeatures }).Word("all", "every feature"),
	option.FloatOpt("min_impurity_decrease", "0", 0, option.Unbounded, "weighted impurity decrease a split needs",
		func(c *Config) any { return &c.MinImpurityDecrease }),
	option.Custom(option.Spec{Key: "criterion", Type: option.Choice, Choices: []string{"gini", "entropy", "squared_error"},
		Default: "gini", TaskDefaults: map[string]string{"regression": "squared_error"}, Meaning: model.MeaningCriterion},
		func(c *Config, v string) (err error) {
			c.Criterion, err = ParseCriterion(v)
			return err
		},
		func(c *Config) string {
			if c.Criterion == DefaultCriterion {
				return ""
			}
			return c.Criterion.String()
		}),
	option.Custom(option.Spec{Key: "class_weights", Aliases: []string{"class_weight"}, Type: option.Choice, Choices: []string{"none", "balanced"},
		Default: "none", Meaning: model.MeaningClassWeights},
		func(c *Config, v string) error {
			c.Balanced = v == "balanced"
			return nil
		},
		func(c *Config) string {
			if c.Balanced {
				return "balanced"
			}
			return ""
		}),
}}

// Fit grows the tree on train (valid is not used: CART does not early-stop).
func (l *Learner) Fit(ctx context.Context, p model.Problem, train, valid *model.Data) error {
	cfg := l.Config
	var err error
	if p.Task == data.Regression {
		l.Tree, err = FitRegressor(train.X, train.Y, cfg, nil)
		return err
	}
	l.Tree, err = FitClassifier(train.X, train.Y, p.NumClasses, cfg, nil)
	return err
}

// PredictProba returns class probabilities (regression: the prediction),
// computed by the trained form (Tree.Ensemble). Like scikit-learn it
// rejects NaN and infinite inputs.
func (l *Learner) PredictProba(X *data.Matrix) (*data.Matrix, error) {
	if l.Tree == nil {
		return nil, fmt.Errorf("cart: model is not fitted")
	}
	if err := l.Tree.checkInput(X); err != nil {
		return nil, err
	}
	p, err := l.predictor()
	if err != nil {
		return nil, err
	}
	out := data.NewMatrix(X.Rows, p.Ensemble().Outputs)
	return out, p.Predict(X.Data, X.Rows, out.Data, 1)
}

// predictor returns the compiled trained form of the tree.
func (l *Learner) predictor() (*ensemble.Predictor, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.pred != nil && l.predOf == l.Tree {
		return l.pred, nil
	}
	m, err := l.Tree.Ensemble()
	if err != nil {
		return nil, err
	}
	if l.pred, err = m.Compile(l.Tree.NumFeatures); err != nil {
		return nil, fmt.Errorf("cart: %w", err)
	}
	l.predOf = l.Tree
	return l.pred, nil
}

// NumNodes returns the number of nodes of the tree.
func (l *Learner) NumNodes() int {
	if l.Tree == nil {
		return 0
	}
	return l.Tree.NumNodes()
}

// Describe renders the tree with model-space feature names.
func (l *Learner) Describe(features, classes []string) string {
	return l.Tree.Text(features, classes)
}

// View returns the tree prepared for display (package interpret), read
// from its trained form (Tree.Ensemble) with every split in raw units
// through the fitted pipeline p (nil: model space) and the unseen-level
// rule of package interpret; leaves show their class probabilities
// (classification) or mean target (regression) and training counts.
func (l *Learner) View(p *preprocess.Pipeline, classes []string) (*interpret.View, error) {
	if l.Tree == nil {
		return nil, fmt.Errorf("cart: model is not fitted")
	}
	m, err := l.Tree.Ensemble()
	if err != nil {
		return nil, err
	}
	t, err := interpret.FromEnsemble(m, 0)
	if err != nil {
		return nil, err
	}
	o := &interpret.Options{Task: data.Regression, ClassNames: classes, Pipeline: p}
	if l.Tree.IsClassifier() {
		o.Task, o.Probabilities = data.Multiclass, true
		if l.Tree.NumClasses == 2 {
			o.Task = data.Binary
		}
	}
	return interpret.NewView(t, o)
}

// Render renders the tree (View) as text, dot, svg, json or go.
func (l *Learner) Render(format string, p *preprocess.Pipeline, classes []string) ([]byte, error) {
	v, err := l.View(p, classes)
	if err != nil {
		return nil, err
	}
	return v.Render(format)
}
