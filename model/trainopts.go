package model

// TreeTraining points at the fields of a gradient-trained tree model's
// configuration that GradTree and GRANDE share (the GradTree kernel's
// architecture and the training loop's options). A nil pointer is an
// option the model does not have. Set reads one option into them, so
// both models accept the same keys and spellings for the same settings.
type TreeTraining struct {
	Depth                     *int     // depth, max_depth
	LRIndex, LRValues, LRLeaf *float64 // lr_index, lr_values, lr_leaf (learning_rate_…)
	Split                     *string  // split, split_function (lower-cased)
	BatchSize                 *int     // batch_size
	MaxEpochs                 *int     // epochs, max_epochs
	Patience                  *int     // patience, early_stopping_epochs
	Restarts                  *int     // restarts
	Loss                      *string  // loss (lower-cased)
	FocalGamma                *float64 // focal_gamma
	ClassWeights              *string  // class_weights, class_weight (lower-cased)
	CosineDecaySteps          *float64 // cosine_decay_steps
	Parallel                  *int     // parallel
}

// TreeTrainingNames are the canonical keys TreeTraining.Set accepts, in
// the order option lists show them.
var TreeTrainingNames = []string{"depth", "lr_index", "lr_values", "lr_leaf", "split", "batch_size", "epochs",
	"patience", "restarts", "loss", "focal_gamma", "class_weights", "cosine_decay_steps", "parallel"}

// Set assigns o to the field its key names and reports whether the key is
// one of TreeTraining's (with a non-nil field); a value that does not
// parse is recorded on o as for its typed getters.
func (t TreeTraining) Set(o *Option) bool {
	switch o.Key {
	case "depth", "max_depth":
		return set(t.Depth, o.NonZeroInt)
	case "lr_index", "learning_rate_index":
		return set(t.LRIndex, o.NonZeroFloat)
	case "lr_values", "learning_rate_values":
		return set(t.LRValues, o.NonZeroFloat)
	case "lr_leaf", "learning_rate_leaf":
		return set(t.LRLeaf, o.NonZeroFloat)
	case "split", "split_function":
		return set(t.Split, o.Lower)
	case "batch_size":
		return set(t.BatchSize, o.NonZeroInt)
	case "epochs", "max_epochs":
		return set(t.MaxEpochs, o.NonZeroInt)
	case "patience", "early_stopping_epochs":
		return set(t.Patience, o.NonZeroInt)
	case "restarts":
		return set(t.Restarts, o.NonZeroInt)
	case "loss":
		return set(t.Loss, o.Lower)
	case "focal_gamma":
		return set(t.FocalGamma, o.NonZeroFloat)
	case "class_weights", "class_weight":
		return set(t.ClassWeights, o.Lower)
	case "cosine_decay_steps":
		return set(t.CosineDecaySteps, o.Float)
	case "parallel":
		return set(t.Parallel, o.Int)
	}
	return false
}

// set stores value() in *p and reports true, or reports false when the
// model has no such field (p is nil).
func set[T any](p *T, value func() T) bool {
	if p == nil {
		return false
	}
	*p = value()
	return true
}
