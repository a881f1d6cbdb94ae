package hpo

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/c-bata/goptuna"
	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/option"
	"github.com/gdt-ml/gdt/rl/ppo"
)

// ParamType is the type of one search dimension.
type ParamType int

// Search dimension types.
const (
	Float       ParamType = iota // uniform on [Low, High]
	LogFloat                     // log-uniform on [Low, High]
	Int                          // integer uniform on [Low, High]
	Categorical                  // one of Choices
)

// String names the type.
func (t ParamType) String() string {
	switch t {
	case Float:
		return "float"
	case LogFloat:
		return "log-float"
	case Int:
		return "int"
	case Categorical:
		return "categorical"
	}
	return fmt.Sprintf("ParamType(%d)", int(t))
}

// Param is one dimension of a search space. Name is the model kind's
// option key the sampled value is passed to (as text).
type Param struct {
	Name      string
	Type      ParamType
	Low, High float64  // Float, LogFloat, Int
	Choices   []string // Categorical, as option values
}

// Distribution returns the goptuna distribution of p.
func (p Param) Distribution() interface{} {
	switch p.Type {
	case Float:
		return goptuna.UniformDistribution{Low: p.Low, High: p.High}
	case LogFloat:
		return goptuna.LogUniformDistribution{Low: p.Low, High: p.High}
	case Int:
		return goptuna.IntUniformDistribution{Low: int(p.Low), High: int(p.High)}
	default:
		return goptuna.CategoricalDistribution{Choices: append([]string(nil), p.Choices...)}
	}
}

// Format renders an internal goptuna value of p as the option text.
func (p Param) Format(internal float64) string {
	switch p.Type {
	case Int:
		return strconv.Itoa(int(math.Round(internal)))
	case Categorical:
		i := int(internal)
		if i < 0 || i >= len(p.Choices) {
			return ""
		}
		return p.Choices[i]
	default:
		return strconv.FormatFloat(internal, 'g', -1, 64)
	}
}

// String describes p the way the spec's tables do.
func (p Param) String() string {
	switch p.Type {
	case Float:
		return fmt.Sprintf("%s U(%g, %g)", p.Name, p.Low, p.High)
	case LogFloat:
		return fmt.Sprintf("%s log-U[%g, %g]", p.Name, p.Low, p.High)
	case Int:
		return fmt.Sprintf("%s int [%g, %g]", p.Name, p.Low, p.High)
	default:
		return fmt.Sprintf("%s {%s}", p.Name, strings.Join(p.Choices, ", "))
	}
}

// Space is the search space of one model kind: the tuned dimensions and the
// options held fixed during the search.
type Space struct {
	Name   string // space name, e.g. "grande"
	Kind   string // model kind the options are for
	Source string // where the ranges come from
	Params []Param
	Fixed  map[string]string
}

// Param returns the dimension called name.
func (s *Space) Param(name string) (Param, bool) {
	for _, p := range s.Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// Without returns a copy of s in which the given options are fixed to the
// given values (removed from the tuned dimensions when present).
func (s *Space) Without(fixed map[string]string) *Space {
	out := &Space{Name: s.Name, Kind: s.Kind, Source: s.Source, Fixed: map[string]string{}}
	for k, v := range s.Fixed {
		out.Fixed[k] = v
	}
	for k, v := range fixed {
		out.Fixed[k] = v
	}
	for _, p := range s.Params {
		if _, ok := fixed[p.Name]; !ok {
			out.Params = append(out.Params, p)
		}
	}
	return out
}

// Distributions returns the goptuna search space (for relative samplers).
func (s *Space) Distributions() map[string]interface{} {
	out := make(map[string]interface{}, len(s.Params))
	for _, p := range s.Params {
		out[p.Name] = p.Distribution()
	}
	return out
}

// Options merges the fixed options with sampled values given in goptuna's
// internal representation (as stored in a trial).
func (s *Space) Options(internal map[string]float64) map[string]string {
	out := make(map[string]string, len(s.Fixed)+len(s.Params))
	for k, v := range s.Fixed {
		out[k] = v
	}
	for _, p := range s.Params {
		if v, ok := internal[p.Name]; ok {
			out[p.Name] = p.Format(v)
		}
	}
	return out
}

// Suggest asks trial for a value of every dimension and returns the options
// for the model kind (fixed ones included).
func (s *Space) Suggest(trial goptuna.Trial) (map[string]string, error) {
	internal := make(map[string]float64, len(s.Params))
	for _, p := range s.Params {
		var v float64
		switch p.Type {
		case Float:
			x, err := trial.SuggestFloat(p.Name, p.Low, p.High)
			if err != nil {
				return nil, fmt.Errorf("suggest %s: %w", p.Name, err)
			}
			v = x
		case LogFloat:
			x, err := trial.SuggestLogFloat(p.Name, p.Low, p.High)
			if err != nil {
				return nil, fmt.Errorf("suggest %s: %w", p.Name, err)
			}
			v = x
		case Int:
			x, err := trial.SuggestInt(p.Name, int(p.Low), int(p.High))
			if err != nil {
				return nil, fmt.Errorf("suggest %s: %w", p.Name, err)
			}
			v = float64(x)
		case Categorical:
			c, err := trial.SuggestCategorical(p.Name, p.Choices)
			if err != nil {
				return nil, fmt.Errorf("suggest %s: %w", p.Name, err)
			}
			for i, ch := range p.Choices {
				if ch == c {
					v = float64(i)
				}
			}
		}
		internal[p.Name] = v
	}
	return s.Options(internal), nil
}

func cat(name string, choices ...string) Param {
	return Param{Name: name, Type: Categorical, Choices: choices}
}

// spaces are the declared search spaces by name.
var spaces = map[string]*Space{
	// GradTree (spec §8.1): the thesis's space is not in the repository;
	// this is the grid its best configurations come from (depth 7…10,
	// learning rates from {0.005, 0.01, 0.05, 0.1, 0.2, 0.25}, loss
	// crossentropy or focal γ = 3, PolyLoss on/off with ε ∈ {2, 5}); split
	// function sigmoid, GlorotUniform, patience 200 and 3 restarts fixed.
	"gradtree": {
		Name: "gradtree", Kind: "gradtree",
		Source: "spec §8.1 (grid of the thesis's best GradTree configurations; 3 restarts, patience 200)",
		Params: []Param{
			{Name: "depth", Type: Int, Low: 7, High: 10},
			cat("lr_index", "0.005", "0.01", "0.05", "0.1", "0.2", "0.25"),
			cat("lr_values", "0.005", "0.01", "0.05", "0.1", "0.2", "0.25"),
			cat("lr_leaf", "0.005", "0.01", "0.05", "0.1", "0.2", "0.25"),
			cat("loss", "crossentropy", "focal"),
			cat("poly_loss", "false", "true"),
			cat("poly_epsilon", "2", "5"),
		},
		Fixed: map[string]string{"split": "sigmoid", "init": "glorot", "patience": "200", "restarts": "3", "focal_gamma": "3"},
	},
	// GradTree's pip package (GT-pkg define_trial_parameters, spec §8.1),
	// without its temperature (not an option of gdt's GradTree).
	"gradtree-pkg": {
		Name: "gradtree-pkg", Kind: "gradtree",
		Source: "spec §8.1 (GT-pkg define_trial_parameters; temperature omitted)",
		Params: []Param{
			{Name: "depth", Type: Int, Low: 3, High: 10},
			{Name: "lr_index", Type: Float, Low: 1e-4, High: 0.25},
			{Name: "lr_values", Type: Float, Low: 1e-4, High: 0.25},
			{Name: "lr_leaf", Type: Float, Low: 1e-4, High: 0.25},
			cat("cosine_decay_steps", "0", "100", "1000"),
			cat("loss", "crossentropy", "focal"),
		},
		Fixed: map[string]string{},
	},
	// GRANDE (spec §8.2, GR-paper column: Optuna, 250 trials). The
	// published best configurations also contain cosine_decay_steps 0.1,
	// so the grid includes it; focal_factor 0 = cross-entropy, 3 = focal γ 3.
	"grande": {
		Name: "grande", Kind: "grande",
		Source: "spec §8.2 (GR-paper published HPO space, 11 hyperparameters)",
		Params: []Param{
			cat("depth", "4", "6"),
			cat("n_estimators", "512", "1024", "2048"),
			{Name: "lr_weights", Type: LogFloat, Low: 1e-4, High: 0.1},
			{Name: "lr_index", Type: LogFloat, Low: 0.005, High: 0.2},
			{Name: "lr_values", Type: LogFloat, Low: 0.005, High: 0.2},
			{Name: "lr_leaf", Type: LogFloat, Low: 0.005, High: 0.2},
			cat("cosine_decay_steps", "0", "0.1", "100", "1000"),
			cat("focal_factor", "0", "3"),
			cat("dropout", "0", "0.25", "0.5"),
			{Name: "selected_variables", Type: Float, Low: 0.5, High: 1.0},
			{Name: "data_subset_fraction", Type: Float, Low: 0.8, High: 1.0},
		},
		Fixed: map[string]string{},
	},
	// grande-fast: the reduced grid over grande-fast's defaults (its tree
	// count, batch size and early stopping stay fixed, so that a trial
	// keeps its time class).
	"grande-fast": {
		Name: "grande-fast", Kind: "grande-fast",
		Source: "the thesis's reduced grid (spec §8.2) over grande-fast's defaults",
		Params: grandeReducedGrid(),
		Fixed:  map[string]string{},
	},
	// GRANDE's "reduced grid" variant (spec §8.2): one shared learning
	// rate, focal factor, cosine decay steps and dropout.
	"grande-reduced": {
		Name: "grande-reduced", Kind: "grande",
		Source: "spec §8.2 (thesis's reduced grid: shared learning rate, focal factor, cosine decay steps, dropout)",
		Params: grandeReducedGrid(),
		Fixed:  map[string]string{},
	},
	// CART: the thesis tuned CART by random search (spec §9.1) but does not
	// give the space; this is the usual scikit-learn space.
	"cart": {
		Name: "cart", Kind: "cart",
		Source: "not in the thesis (spec §9.1 gives only 'random search, 300 trials'); scikit-learn's usual DecisionTreeClassifier space",
		Params: []Param{
			{Name: "depth", Type: Int, Low: 1, High: 20},
			{Name: "min_samples_split", Type: Int, Low: 2, High: 20},
			{Name: "min_samples_leaf", Type: Int, Low: 1, High: 10},
			cat("criterion", "gini", "entropy"),
		},
		Fixed: map[string]string{},
	},
	// Random forest: not tuned in the thesis; the usual scikit-learn space.
	"random-forest": {
		Name: "random-forest", Kind: "random-forest",
		Source: "not in the thesis; scikit-learn's usual RandomForestClassifier space",
		Params: []Param{
			{Name: "n_estimators", Type: Int, Low: 50, High: 500},
			{Name: "depth", Type: Int, Low: 2, High: 30},
			{Name: "min_samples_split", Type: Int, Low: 2, High: 20},
			{Name: "min_samples_leaf", Type: Int, Low: 1, High: 10},
			cat("criterion", "gini", "entropy"),
			cat("max_features", "sqrt", "log2", "all"),
			cat("bootstrap", "true", "false"),
		},
		Fixed: map[string]string{},
	},
	// SYMPOL (sympol-rl spec §7.2, thesis grid; n_update_epochs as the
	// code draws it, [1, 10]). Option names are ppo's --set keys. The
	// grid's learning_rate_actor_weights is left out: it tunes the
	// estimator weights of a one-tree ensemble, which have no effect
	// (spec §1.1), and gdt's trainer has no such parameter. Fixed as in
	// the thesis: max_grad_norm None (= 1000), AdamW, depth 7, minibatch
	// 64; SWA is a no-op in the reference (spec §1.6) and not modelled.
	"sympol": {
		Name: "sympol", Kind: "sympol",
		Source: "sympol-rl spec §7.2 (optuna TPE, 60 trials; n_update_epochs [1, 10] as the code; learning_rate_actor_weights omitted: no effect, §1.1)",
		Params: []Param{
			{Name: "learning_rate_actor_split_values", Type: LogFloat, Low: 1e-4, High: 0.05},
			{Name: "learning_rate_actor_split_idx_array", Type: LogFloat, Low: 1e-4, High: 0.1},
			{Name: "learning_rate_actor_leaf_array", Type: LogFloat, Low: 1e-4, High: 0.05},
			{Name: "learning_rate_actor_log_std", Type: LogFloat, Low: 1e-4, High: 0.1},
			{Name: "learning_rate_critic", Type: LogFloat, Low: 1e-4, High: 0.01},
			{Name: "n_update_epochs", Type: Int, Low: 1, High: 10},
			cat("reduce_lr", "true", "false"),
			cat("n_steps", "128", "512"),
			{Name: "n_envs", Type: Int, Low: 4, High: 16},
			cat("norm_adv", "true", "false"),
			cat("ent_coef", "0.0", "0.1", "0.2", "0.5"),
			cat("gae_lambda", "0.8", "0.9", "0.95", "0.99"),
			cat("gamma", "0.9", "0.95", "0.99", "0.999"),
			cat("vf_coef", "0.25", "0.5", "0.75"),
		},
		Fixed: map[string]string{"max_grad_norm": "1000", "adamW": "true", "depth": "7", "minibatch_size": "64"},
	},
}

// SpaceNames lists the declared search spaces.
func SpaceNames() []string {
	out := make([]string, 0, len(spaces))
	for n := range spaces {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// LookupSpace returns a copy of the search space called name (by default a
// model kind's name is its space's name).
func LookupSpace(name string) (*Space, error) {
	s, ok := spaces[name]
	if !ok {
		return nil, fmt.Errorf("hpo: no search space %q (known: %s)", name, strings.Join(SpaceNames(), ", "))
	}
	if err := s.Check(); err != nil {
		return nil, err
	}
	return s.Without(nil), nil
}

func parseFloat(s string) (float64, error) { return strconv.ParseFloat(s, 64) }

// Declared returns the option declaration of a space's kind: a model
// kind's (model.Kind.Options) or, for policy kinds, PPO's.
func Declared(kind string) (option.Declared, error) {
	if IsRLKind(kind) {
		return ppo.Options, nil
	}
	k, err := model.LookupKind(kind)
	if err != nil {
		return nil, err
	}
	return k.Options, nil
}

// Check verifies s against its kind's declared options: every tuned and
// fixed key is a declared canonical key, every numeric range lies inside
// the declared range (with the declared type), and every choice and fixed
// value is allowed.
func (s *Space) Check() error {
	decl, err := Declared(s.Kind)
	if err != nil {
		return fmt.Errorf("hpo: space %s: %w", s.Name, err)
	}
	spec := func(key string) (option.Spec, error) {
		sp, ok := decl.Lookup(key)
		switch {
		case !ok:
			return sp, fmt.Errorf("hpo: space %s: %s declares no option %q", s.Name, s.Kind, key)
		case sp.Key != key:
			return sp, fmt.Errorf("hpo: space %s: option %q is spelled %q", s.Name, key, sp.Key)
		}
		return sp, nil
	}
	check := func(sp option.Spec, v string) error {
		if _, err := sp.Check(v); err != nil {
			return fmt.Errorf("hpo: space %s: %s=%s: %w", s.Name, sp.Key, v, err)
		}
		return nil
	}
	for _, p := range s.Params {
		sp, err := spec(p.Name)
		if err != nil {
			return err
		}
		switch p.Type {
		case Categorical:
			for _, c := range p.Choices {
				if err := check(sp, c); err != nil {
					return err
				}
			}
			continue
		case Int:
			if sp.Type != option.Int {
				return fmt.Errorf("hpo: space %s: %s is searched as an integer but declared %s", s.Name, p.Name, sp.Type)
			}
		default:
			if sp.Type != option.Float {
				return fmt.Errorf("hpo: space %s: %s is searched as a number but declared %s", s.Name, p.Name, sp.Type)
			}
		}
		for _, v := range []float64{p.Low, p.High} {
			if err := check(sp, strconv.FormatFloat(v, 'g', -1, 64)); err != nil {
				return err
			}
		}
	}
	for k, v := range s.Fixed {
		sp, err := spec(k)
		if err != nil {
			return err
		}
		if err := check(sp, v); err != nil {
			return err
		}
	}
	return nil
}

// grandeReducedGrid is the thesis's reduced GRANDE grid (spec §8.2): one
// shared learning rate, the focal factor, cosine decay steps and dropout.
func grandeReducedGrid() []Param {
	return []Param{
		{Name: "learning_rate", Type: LogFloat, Low: 0.005, High: 0.2},
		cat("focal_factor", "0", "3"),
		cat("cosine_decay_steps", "0", "0.1", "100", "1000"),
		cat("dropout", "0", "0.25", "0.5"),
	}
}
