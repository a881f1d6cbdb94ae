package grande

import (
	"encoding/json"
	"fmt"

	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/train"
)

func init() {
	model.RegisterKind(model.Kind{
		Name:            "grande",
		Help:            "GRANDE: an ensemble of hard axis-aligned trees learned by gradient descent with instance-wise leaf weights (published defaults: 2048 trees of depth 6, focal loss)",
		Options:         Options,
		UsesValidation:  true,
		DefaultProtocol: "gr-paper",
		New: func(opts map[string]string, seed int64) (model.Learner, error) {
			c, err := ParseOptions(opts)
			if err != nil {
				return nil, err
			}
			if seed < 0 {
				return nil, fmt.Errorf("grande: seed %d: expected ≥ 0", seed)
			}
			if c.Seed == 0 {
				c.Seed = seed
			}
			return New(c), nil
		},
		Unmarshal: func(b json.RawMessage) (model.Learner, error) {
			var m Model
			if err := json.Unmarshal(b, &m); err != nil {
				return nil, fmt.Errorf("grande: %w", err)
			}
			if _, err := m.check(); err != nil {
				return nil, err
			}
			for _, t := range m.TopTrees {
				if t.Tree == nil {
					return nil, fmt.Errorf("grande: model: top tree %d is empty", t.Index)
				}
				if err := t.Tree.Validate(m.Features); err != nil {
					return nil, fmt.Errorf("grande: model: top tree %d: %w", t.Index, err)
				}
			}
			return &m, nil
		},
	})
}

// SetProgress installs a per-epoch progress callback (model.ProgressSetter).
func (m *Model) SetProgress(f func(train.Progress)) { m.Progress = f }
