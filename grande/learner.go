package grande

import (
	"encoding/json"
	"fmt"

	"github.com/gdt-ml/gdt/ensemble"
	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/option"
	"github.com/gdt-ml/gdt/train"
)

func init() {
	registerKind("grande", "GRANDE: an ensemble of hard axis-aligned trees learned by gradient descent with instance-wise leaf weights (published defaults: 2048 trees of depth 6, focal loss)", Options)
	registerKind("grande-fast", "GRANDE with defaults chosen for time to quality on CPUs: "+FastSummary+" (README.md \"grande-fast\")", FastOptions)
}

// FastOptions declares the grande-fast kind: GRANDE (the same estimator
// and kernel, every option of grande) with other defaults, chosen for time
// to quality on CPUs. README.md ("grande-fast") says what it sets and why.
var FastOptions = Options.WithDefaults("grande-fast", map[string]string{
	"n_estimators": "256", "feature_coverage": "50", "depth": "5", "batch_size": "256",
	"lr_weights": "0.01", "lr_index": "0.02", "lr_values": "0.02", "lr_leaf": "0.02",
	"eval_every": "20", "patience": "10"})

// FastSummary says in words what FastOptions changes.
const FastSummary = "256 trees of depth 5 (more on wide data: every feature in ≥ 50 trees' subsets), batch 256 with twice the learning rates, validation every 20 steps (at least every epoch), stop 200 steps after the best"

// Fast is grande-fast's configuration with every task-independent default
// filled in (what its kind trains without options).
var Fast = FastOptions.Defaults(Config{}, "")

// registerKind registers a GRANDE kind with the options list. A kind
// other than grande fills its own defaults when it is created (grande
// leaves zero fields to Fit, which fills the published defaults).
func registerKind(name, help string, list *option.List[Config]) {
	model.RegisterKind(model.Kind{
		Name:            name,
		Help:            help,
		Options:         list,
		UsesValidation:  true,
		DefaultProtocol: "gr-paper",
		New: func(opts map[string]string, seed int64) (model.Learner, error) {
			c, err := list.Parse(opts)
			if err != nil {
				return nil, err
			}
			if seed < 0 {
				return nil, fmt.Errorf("%s: seed %d: expected ≥ 0", name, seed)
			}
			if c.Seed == 0 {
				c.Seed = seed
			}
			if list != Options {
				c = list.Defaults(c, "")
			}
			return New(c), nil
		},
		Unmarshal: func(b json.RawMessage) (model.Learner, error) {
			var m Model
			if err := json.Unmarshal(b, &m); err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			if _, err := m.check(); err != nil {
				return nil, err
			}
			for _, t := range m.TopTrees {
				if t.Tree == nil {
					return nil, fmt.Errorf("%s: model: top tree %d is empty", name, t.Index)
				}
				if err := t.Tree.Validate(m.Features); err != nil {
					return nil, fmt.Errorf("%s: model: top tree %d: %w", name, t.Index, err)
				}
			}
			return &m, nil
		},
	})
}

// SetProgress installs a per-epoch progress callback (model.ProgressSetter).
func (m *Model) SetProgress(f func(train.Progress)) { m.Progress = f }

// TrainedForm returns the ensemble the model predicts with
// (model.Snappable).
func (m *Model) TrainedForm() (*ensemble.Ensemble, error) {
	if m.Ensemble == nil {
		return nil, fmt.Errorf("grande: the model is not fitted")
	}
	return m.Ensemble, nil
}
