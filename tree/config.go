package tree

import (
	"fmt"
	"math"
)

// MaxDepth is the deepest tree the kernel accepts.
const MaxDepth = 24

// maxTensor bounds the number of elements of one parameter tensor.
const maxTensor = math.MaxInt32

// WeightMode says how the trees of an ensemble are weighted (spec §2.6).
type WeightMode int

const (
	// NoWeights weights every tree by 1/E (no trainable weights); with E = 1
	// the output is the reached leaf's value vector. GradTree and SYMPOL.
	NoWeights WeightMode = iota
	// LeafWeights gives every leaf a weight logit W[e][l]; the reached
	// leaves' logits are soft-maxed across the trees for every sample
	// (GRANDE's instance-wise weighting).
	LeafWeights
	// EstimatorWeights gives every tree one weight logit W[e], soft-maxed
	// across the trees and identical for all samples (GRANDE ablation).
	EstimatorWeights
)

// String returns the name of the weight mode.
func (w WeightMode) String() string {
	switch w {
	case NoWeights:
		return "none"
	case LeafWeights:
		return "leaf"
	case EstimatorWeights:
		return "estimator"
	}
	return fmt.Sprintf("WeightMode(%d)", int(w))
}

// Config describes E trees of one depth on n input features.
type Config struct {
	// Trees is the number of trees E ≥ 1.
	Trees int
	// Depth is the depth d of every tree, 1 ≤ d ≤ MaxDepth.
	Depth int
	// Features is the width n of an input row.
	Features int
	// Outputs is the length C ≥ 1 of a leaf's value vector (1 for binary
	// classification and regression, the number of classes otherwise).
	Outputs int
	// Subsets, if not nil, holds for every tree the n_e distinct input
	// features it sees (Subsets[e][k] = F[e,k]); all rows have the same
	// length. Nil means every tree sees all n features in order.
	Subsets [][]int
	// Split is the soft split function whose slope the backward pass uses.
	Split SplitFunc
	// Weights selects how trees are weighted (ignored in effect for E = 1).
	Weights WeightMode
	// Workers is the number of goroutines a call may use; 0 means
	// GOMAXPROCS at call time. Results do not depend on it.
	Workers int
	// Fast computes the per-node parts of Backward (the entmax-1.5 support,
	// the sums Σ δ·x and the entmax VJP) in float32, sixteen columns at a
	// time with AVX-512 where available (fastnode.go), instead of in
	// float64. The index-logit gradients then equal the float64 formulation
	// up to float32 rounding of the intermediate sums (within 1e−5
	// relative, or 1e−7 of the tensor's largest entry) rather than only of
	// the result; results are still deterministic, the same for any number
	// of workers and on every machine (the scalar code repeats the vector
	// code's order of operations). GRANDE turns it on; GradTree and SYMPOL
	// keep it off, which gives the same bits as before it existed.
	Fast bool
}

// validate checks the configuration and returns n_e.
func (c *Config) validate() (int, error) {
	if c.Trees < 1 {
		return 0, fmt.Errorf("tree: Config.Trees = %d: expected at least 1", c.Trees)
	}
	if c.Depth < 1 || c.Depth > MaxDepth {
		return 0, fmt.Errorf("tree: Config.Depth = %d: expected 1…%d", c.Depth, MaxDepth)
	}
	if c.Features < 1 {
		return 0, fmt.Errorf("tree: Config.Features = %d: expected at least 1", c.Features)
	}
	if c.Outputs < 1 {
		return 0, fmt.Errorf("tree: Config.Outputs = %d: expected at least 1", c.Outputs)
	}
	if !c.Split.valid() {
		return 0, fmt.Errorf("tree: Config.Split = %d: expected Sigmoid, Softsign or Entmoid", int(c.Split))
	}
	if c.Weights < NoWeights || c.Weights > EstimatorWeights {
		return 0, fmt.Errorf("tree: Config.Weights = %d: expected NoWeights, LeafWeights or EstimatorWeights", int(c.Weights))
	}
	if c.Workers < 0 {
		return 0, fmt.Errorf("tree: Config.Workers = %d: expected 0 (GOMAXPROCS) or more", c.Workers)
	}
	ne := c.Features
	if c.Subsets != nil {
		if len(c.Subsets) != c.Trees {
			return 0, fmt.Errorf("tree: Config.Subsets has %d rows: expected one per tree (%d)", len(c.Subsets), c.Trees)
		}
		ne = len(c.Subsets[0])
		if ne < 1 {
			return 0, fmt.Errorf("tree: Config.Subsets[0] is empty: expected at least one feature")
		}
		seen := make([]int, c.Features)
		for e, row := range c.Subsets {
			if len(row) != ne {
				return 0, fmt.Errorf("tree: Config.Subsets[%d] has %d features: expected %d like Subsets[0]", e, len(row), ne)
			}
			for k, f := range row {
				if f < 0 || f >= c.Features {
					return 0, fmt.Errorf("tree: Config.Subsets[%d][%d] = %d: expected a feature index in [0, %d)", e, k, f, c.Features)
				}
				if seen[f] == e+1 {
					return 0, fmt.Errorf("tree: Config.Subsets[%d][%d] = %d: feature listed twice for tree %d", e, k, f, e)
				}
				seen[f] = e + 1
			}
		}
	}
	nodes := (1 << c.Depth) - 1
	if float64(c.Trees)*float64(nodes)*float64(ne) > maxTensor ||
		float64(c.Trees)*float64(nodes+1)*float64(c.Outputs) > maxTensor {
		return 0, fmt.Errorf("tree: Config: %d trees of depth %d on %d features exceed %d parameters per tensor", c.Trees, c.Depth, ne, maxTensor)
	}
	return ne, nil
}
