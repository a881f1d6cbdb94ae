package multimodal

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/train"
)

func init() {
	model.RegisterKind(model.Kind{
		Name: "mlp",
		Help: "multilayer perceptron for tabular classification (the tabular-only variant of the multimodal network: " +
			"dense 128 → 64 with ReLU, dropout 0.2, linear head; AdamW 1e-3, weight decay 1e-4, batch 64, " +
			"cross-entropy with balanced class weights, early stopping with patience 20, best weights restored)",
		Options:         TabularOptions,
		UsesValidation:  true,
		DefaultProtocol: "standard",
		New: func(opts map[string]string, seed int64) (model.Learner, error) {
			return NewTabularLearner("mlp", opts, seed)
		},
		Unmarshal: func(b json.RawMessage) (model.Learner, error) {
			l := &TabularLearner{}
			if err := json.Unmarshal(b, &l.Model); err != nil {
				return nil, fmt.Errorf("mlp: %w", err)
			}
			return l, nil
		},
	})
}

// TabularOptions are the options of the tabular-only learner (kind mlp):
// the MLP's part of Options.
var TabularOptions = Options.Subset("mlp", "mlp_hidden", "head_dropout", "lr", "weight_decay", "batch_size", "epochs", "patience",
	"class_weights", "seed", "workers")

// TabularLearner adapts a tabular-only Model (backbone "mlp" or "grande")
// to the model.Learner contract of the harness and the CLI.
type TabularLearner struct {
	Model Model
}

// NewTabularLearner returns an untrained tabular learner with the given
// backbone and text options; seed is used unless the options set one.
func NewTabularLearner(backbone string, opts map[string]string, seed int64) (*TabularLearner, error) {
	decl := TabularOptions
	if backbone != "mlp" {
		decl = Options
	}
	var cfg Config
	if err := decl.Apply(&cfg, opts); err != nil {
		return nil, err
	}
	if cfg.Image {
		return nil, fmt.Errorf("%s: option image: a tabular learner has no image branch", backbone)
	}
	cfg.Tabular = backbone
	if seed < 0 {
		return nil, fmt.Errorf("%s: seed %d: expected ≥ 0", backbone, seed)
	}
	if cfg.Seed == 0 {
		cfg.Seed = seed
	}
	if err := cfg.Defaults().Validate(); err != nil {
		return nil, err
	}
	return &TabularLearner{Model: Model{Config: cfg}}, nil
}

// Fit trains on the model-space rows with early stopping on valid.
func (l *TabularLearner) Fit(ctx context.Context, p model.Problem, tr, va *model.Data) error {
	name := l.Model.Config.Tabular
	if p.Task == data.Regression {
		return fmt.Errorf("%s: regression is not supported (classification only)", name)
	}
	if err := model.CheckSplits(name, tr, va); err != nil {
		return err
	}
	classes := p.NumClasses
	if p.Task == data.Binary {
		classes = 2
	}
	return l.Model.Fit(ctx, &Inputs{Tab: tr.X, Y: tr.Y}, &Inputs{Tab: va.X, Y: va.Y}, classes)
}

// PredictProba returns one row of class probabilities per input row.
func (l *TabularLearner) PredictProba(X *data.Matrix) (*data.Matrix, error) {
	return l.Model.PredictProba(&Inputs{Tab: X})
}

// NumNodes returns 0: the learner has no tree nodes.
func (l *TabularLearner) NumNodes() int { return 0 }

// SetProgress reports every epoch as a train.Progress (model.ProgressSetter).
func (l *TabularLearner) SetProgress(f func(train.Progress)) {
	if f == nil {
		l.Model.Progress = nil
		return
	}
	l.Model.Progress = func(p Progress) {
		f(train.Progress{Restarts: 1, Epoch: p.Epoch, TrainLoss: p.TrainLoss, ValidLoss: p.ValidLoss, BestLoss: p.BestLoss})
	}
}

// MarshalJSON saves the fitted network.
func (l *TabularLearner) MarshalJSON() ([]byte, error) { return json.Marshal(&l.Model) }
