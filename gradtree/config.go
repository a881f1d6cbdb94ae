// Package gradtree is the GradTree estimator: one hard, axis-aligned
// decision tree whose split features, thresholds and leaf values are learned
// jointly by gradient descent through straight-through operators (thesis
// chapter "Learning Axis-Aligned Decision Trees with Gradient Descent").
// It trains on package tree's kernel with E = 1, prunes the tree with the
// training rows, and predicts with exactly the plain tree it prints.
package gradtree

import (
	"fmt"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/model"
)

// Config holds GradTree's hyperparameters. Zero values mean the published
// defaults of the GradTree study (spec §8.1, GT-paper column), which depend
// on the task where the paper's binary and multiclass runs differed.
type Config struct {
	Depth    int     // tree depth d (default 10)
	LRIndex  float64 // learning rate of the split-index logits (default 0.05)
	LRValues float64 // learning rate of the split thresholds (default 0.01)
	LRLeaf   float64 // learning rate of the leaves (default 0.005 binary/regression, 0.05 multiclass)
	Split    string  // split function: sigmoid (default), softsign, entmoid
	Init     string  // glorot (default, GT-paper) or normal (N(0, 0.05²))

	BatchSize int // default 128 (capped at ceil(N/2))
	MaxEpochs int // default 10,000
	Patience  int // early-stopping patience in epochs (default 200)
	Restarts  int // random restarts (default 5 binary, 3 multiclass and regression)

	// Loss: "" (default: binary cross-entropy for binary, focal with
	// FocalGamma for multiclass — the GT-paper defaults; MSE on the
	// standardised target for regression), "crossentropy", or "focal".
	Loss        string
	FocalGamma  float64 // focal γ (default 3)
	PolyLoss    bool    // add ε·(1 − p_t) (Poly-1)
	PolyEpsilon float64 // default 2

	ClassWeights string // "" (none; the GT-paper balanced with SMOTE) or "balanced"

	// CosineDecaySteps > 0 applies cosine decay with restarts every that
	// many optimiser steps (spec §5.3); 0 = constant learning rates.
	CosineDecaySteps float64

	NoPrune bool  // keep the unpruned tree (default: prune with the training rows, min 1 sample)
	Seed    int64 // model seed (default 42); restart r uses Seed + r(r+1)/2
	// Parallel is the number of restarts trained at once (0 = all of them:
	// restarts stop after different numbers of epochs, so keeping them all
	// in progress, with train's slots giving the cores between epochs to the
	// runs that improved most recently, keeps every core busy until the
	// last one ends).
	Parallel int
}

// withDefaults fills the zero fields for the task.
func (c Config) withDefaults(task data.Task) Config {
	if c.Depth == 0 {
		c.Depth = 10
	}
	if c.LRIndex == 0 {
		c.LRIndex = 0.05
	}
	if c.LRValues == 0 {
		c.LRValues = 0.01
	}
	if c.LRLeaf == 0 {
		c.LRLeaf = 0.005
		if task == data.Multiclass {
			c.LRLeaf = 0.05
		}
	}
	if c.Split == "" {
		c.Split = "sigmoid"
	}
	if c.Init == "" {
		c.Init = "glorot"
	}
	if c.BatchSize == 0 {
		c.BatchSize = 128
	}
	if c.MaxEpochs == 0 {
		c.MaxEpochs = 10000
	}
	if c.Patience == 0 {
		c.Patience = 200
	}
	if c.Restarts == 0 {
		c.Restarts = 3
		if task == data.Binary {
			c.Restarts = 5
		}
	}
	if c.Loss == "" {
		switch task {
		case data.Multiclass:
			c.Loss = "focal"
		case data.Regression:
			c.Loss = "mse"
		default:
			c.Loss = "crossentropy"
		}
	}
	if c.FocalGamma == 0 {
		c.FocalGamma = 3
	}
	if c.PolyEpsilon == 0 {
		c.PolyEpsilon = 2
	}
	if c.Seed == 0 {
		c.Seed = 42
	}
	return c
}

func (c Config) validate(task data.Task) error {
	bad := func(name string, v any, want string) error {
		return fmt.Errorf("gradtree: %s = %v: expected %s", name, v, want)
	}
	switch {
	case c.Depth < 1 || c.Depth > 16:
		return bad("depth", c.Depth, "1…16")
	case c.LRIndex < 0, c.LRValues < 0, c.LRLeaf < 0:
		return bad("learning rates", []float64{c.LRIndex, c.LRValues, c.LRLeaf}, "values ≥ 0")
	case c.BatchSize < 1:
		return bad("batch_size", c.BatchSize, "at least 1")
	case c.MaxEpochs < 1:
		return bad("epochs", c.MaxEpochs, "at least 1")
	case c.Patience < 1:
		return bad("patience", c.Patience, "at least 1")
	case c.Restarts < 1:
		return bad("restarts", c.Restarts, "at least 1")
	case c.FocalGamma < 0:
		return bad("focal_gamma", c.FocalGamma, "≥ 0")
	case c.Seed < 0:
		return bad("seed", c.Seed, "≥ 0")
	case c.CosineDecaySteps < 0:
		return bad("cosine_decay_steps", c.CosineDecaySteps, "≥ 0")
	}
	switch c.Init {
	case "glorot", "normal":
	default:
		return bad("init", c.Init, "glorot or normal")
	}
	switch c.ClassWeights {
	case "", "none", "balanced":
	default:
		return bad("class_weights", c.ClassWeights, "none or balanced")
	}
	switch c.Loss {
	case "crossentropy", "focal":
		if task == data.Regression {
			return bad("loss", c.Loss, "mse for regression")
		}
	case "mse":
		if task != data.Regression {
			return bad("loss", c.Loss, "crossentropy or focal for classification")
		}
	default:
		return bad("loss", c.Loss, "crossentropy, focal or mse")
	}
	return nil
}

// optionNames lists the keys ParseOptions accepts: the shared training
// options (model.TreeTrainingNames) and GradTree's own.
var optionNames = append(append([]string{}, model.TreeTrainingNames...), "init", "poly_loss", "poly_epsilon", "prune")

// ParseOptions reads GradTree options given as text (CLI --set key=value).
func ParseOptions(opts map[string]string) (Config, error) {
	var c Config
	shared := model.TreeTraining{Depth: &c.Depth, LRIndex: &c.LRIndex, LRValues: &c.LRValues, LRLeaf: &c.LRLeaf,
		Split: &c.Split, BatchSize: &c.BatchSize, MaxEpochs: &c.MaxEpochs, Patience: &c.Patience, Restarts: &c.Restarts,
		Loss: &c.Loss, FocalGamma: &c.FocalGamma, ClassWeights: &c.ClassWeights, CosineDecaySteps: &c.CosineDecaySteps,
		Parallel: &c.Parallel}
	err := model.EachOption("gradtree", opts, optionNames, func(o *model.Option) error {
		if shared.Set(o) {
			return nil
		}
		switch o.Key {
		case "init", "initializer":
			c.Init = o.Lower()
		case "poly_loss":
			c.PolyLoss = o.Bool()
		case "poly_epsilon":
			c.PolyEpsilon = o.NonZeroFloat()
		case "prune":
			c.NoPrune = !o.Bool()
		default:
			return model.ErrUnknownOption
		}
		return nil
	})
	return c, err
}
