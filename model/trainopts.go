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
		return setInt(t.Depth, o)
	case "lr_index", "learning_rate_index":
		return setFloat(t.LRIndex, o)
	case "lr_values", "learning_rate_values":
		return setFloat(t.LRValues, o)
	case "lr_leaf", "learning_rate_leaf":
		return setFloat(t.LRLeaf, o)
	case "split", "split_function":
		return setLower(t.Split, o)
	case "batch_size":
		return setInt(t.BatchSize, o)
	case "epochs", "max_epochs":
		return setInt(t.MaxEpochs, o)
	case "patience", "early_stopping_epochs":
		return setInt(t.Patience, o)
	case "restarts":
		return setInt(t.Restarts, o)
	case "loss":
		return setLower(t.Loss, o)
	case "focal_gamma":
		return setFloat(t.FocalGamma, o)
	case "class_weights", "class_weight":
		return setLower(t.ClassWeights, o)
	case "cosine_decay_steps":
		return setFloat(t.CosineDecaySteps, o)
	case "parallel":
		return setInt(t.Parallel, o)
	}
	return false
}

func setInt(p *int, o *Option) bool {
	if p == nil {
		return false
	}
	*p = o.Int()
	return true
}

func setFloat(p *float64, o *Option) bool {
	if p == nil {
		return false
	}
	*p = o.Float()
	return true
}

func setLower(p *string, o *Option) bool {
	if p == nil {
		return false
	}
	*p = o.Lower()
	return true
}
