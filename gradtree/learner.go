package gradtree

import (
	"encoding/json"
	"fmt"

	"github.com/gdt-ml/gdt/ensemble"
	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/train"
)

func init() {
	model.RegisterKind(model.Kind{
		Name:            "gradtree",
		Help:            "GradTree: one hard axis-aligned tree learned by gradient descent (thesis defaults)",
		Options:         Options,
		UsesValidation:  true,
		DefaultProtocol: "gt-paper",
		New: func(opts map[string]string, seed int64) (model.Learner, error) {
			c, err := ParseOptions(opts)
			if err != nil {
				return nil, err
			}
			if seed < 0 {
				return nil, fmt.Errorf("gradtree: seed %d: expected ≥ 0", seed)
			}
			if c.Seed == 0 {
				c.Seed = seed
			}
			return New(c), nil
		},
		Unmarshal: func(b json.RawMessage) (model.Learner, error) {
			var m Model
			if err := json.Unmarshal(b, &m); err != nil {
				return nil, err
			}
			if err := m.ensureKernel(); err != nil {
				return nil, err
			}
			if _, err := m.predictor(); err != nil {
				return nil, err
			}
			return &m, nil
		},
	})
}

// SetProgress installs a per-epoch progress callback (model.ProgressSetter).
func (m *Model) SetProgress(f func(train.Progress)) { m.Progress = f }

// TrainedForm returns the tree the model predicts with (model.Snappable):
// the pruned tree, or with NoPrune the full tree.
func (m *Model) TrainedForm() (*ensemble.Ensemble, error) {
	p, err := m.predictor()
	if err != nil {
		return nil, err
	}
	return p.Ensemble(), nil
}
