package model

// The meanings of the option keys that several model kinds declare (package
// option): a key means the same thing in every kind, so its one-line
// meaning is written once, here, and a test checks that every kind
// declaring the key uses it.
const (
	MeaningDepth        = "tree depth: at most this many splits from the root to any leaf"
	MeaningLRIndex      = "Adam learning rate of the split-index logits (which feature a node tests)"
	MeaningLRValues     = "Adam learning rate of the split thresholds"
	MeaningLRLeaf       = "Adam learning rate of the leaf values"
	MeaningSplit        = "soft split function of the straight-through routing"
	MeaningBatchSize    = "rows per optimiser step"
	MeaningEpochs       = "epoch limit of training"
	MeaningPatience     = "early stopping: validation checks without a better validation loss before training stops (the best weights are restored); a check ends every epoch; with eval_every (GRANDE) patience counts eval_every steps (training stops patience·eval_every steps after the best check)"
	MeaningRestarts     = "random restarts; the one with the best validation loss is kept (restart r uses seed + r(r+1)/2)"
	MeaningLoss         = "training loss: crossentropy or focal (focal_gamma) for classification, mse on the standardised target for regression"
	MeaningFocalGamma   = "focal loss's γ"
	MeaningClassWeights = "class weights per sample: none, or balanced (scikit-learn's N/(C·N_c) of the training labels)"
	// MeaningCosineDecaySteps: the GR-paper rule (spec §5.3), the same for
	// every kind.
	MeaningCosineDecaySteps = "cosine decay with restarts (Keras CosineDecayRestarts, t_mul 2) of every learning rate: 0 keeps the rates constant, a value ≤ 1 is a fraction of an epoch (first period max(10, ⌊steps per epoch · c⌋) steps), a larger value a step count"
	MeaningSeed             = "model seed (initialisation, subsets, shuffling)"
	MeaningWorkers          = "goroutines used (0: GOMAXPROCS); results do not depend on it"
	MeaningEstimators       = "number of trees in the ensemble"
	MeaningMinSamplesSplit  = "minimum number of rows a node needs to be split"
	MeaningMinSamplesLeaf   = "minimum number of rows on each side of a split"
	MeaningCriterion        = "impurity measure: gini or entropy (classification), squared_error (regression)"
	MeaningBootstrap        = "draw every tree's rows with replacement (a bootstrap sample)"
	MeaningDropout          = "estimator dropout: the rate at which whole trees are dropped in a training step"
)

// SplitFunctions are the soft split functions of the tree kernel.
var SplitFunctions = []string{"sigmoid", "softsign", "entmoid"}
