package modelfile

import (
	"encoding/json"
	"fmt"

	"github.com/gdt-ml/gdt/ensemble"
)

// Version 2 stores every GRANDE and GradTree model's trained form (package
// ensemble) in its "model" section, under "Ensemble":
//
//   - GRANDE: "Flat" (per tree 2^d−1 internal nodes, 2^d leaves, leaf
//     weights or tree weights "estimator") becomes "Ensemble" (complete
//     trees stored breadth first, weighting "leaf" or "tree").
//   - GradTree: "Tree" (the pruned plain tree) becomes "Ensemble" (the same
//     nodes in the same order, weighting "mean"). A version-1 file trained
//     with no_prune has no "Tree"; its trained form is read from its
//     parameters when loaded.
//
// CART and random-forest sections are unchanged: their own node arrays
// (float64 class probabilities, as scikit-learn's) are the source their
// trained form is built from when loaded.
func migrateV1(doc map[string]json.RawMessage) error {
	var kind string
	if err := json.Unmarshal(doc["kind"], &kind); err != nil {
		return fmt.Errorf("kind: %w", err)
	}
	if kind != "grande" && kind != "gradtree" {
		return nil
	}
	var sec map[string]json.RawMessage
	if err := json.Unmarshal(doc["model"], &sec); err != nil {
		return fmt.Errorf("%s model: %w", kind, err)
	}
	var features int
	if err := json.Unmarshal(sec["Features"], &features); err != nil {
		return fmt.Errorf("%s model: Features: %w", kind, err)
	}
	var m *ensemble.Ensemble
	var err error
	switch kind {
	case "grande":
		m, err = v1Flat(sec["Flat"], features)
		delete(sec, "Flat")
	default:
		if raw, ok := sec["Tree"]; ok && string(raw) != "null" {
			m, err = v1Tree(raw, features)
		}
		delete(sec, "Tree")
	}
	if err != nil {
		return fmt.Errorf("%s model: %w", kind, err)
	}
	if m != nil {
		if sec["Ensemble"], err = json.Marshal(m); err != nil {
			return err
		}
	}
	doc["model"], err = json.Marshal(sec)
	return err
}

// v1Flat converts GRANDE's version-1 "Flat" section.
func v1Flat(raw json.RawMessage, features int) (*ensemble.Ensemble, error) {
	var f struct {
		Trees, Depth, Outputs int
		Weighting             string
		Feature               Int32s
		Threshold             Float32s
		Leaves                Float32s
		Weights               Float32s
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		return nil, fmt.Errorf("Flat: %w", err)
	}
	if f.Trees < 1 || f.Depth < 1 || f.Depth > 20 || f.Outputs < 1 {
		return nil, fmt.Errorf("Flat: %d trees of depth %d with %d outputs", f.Trees, f.Depth, f.Outputs)
	}
	ni, nl, C := 1<<f.Depth-1, 1<<f.Depth, f.Outputs
	w, wl := ensemble.LeafWeights, f.Trees*nl
	if f.Weighting == "estimator" {
		w, wl = ensemble.TreeWeights, f.Trees
	}
	if f.Trees > len(f.Feature) || f.Outputs > len(f.Leaves) || len(f.Feature) != f.Trees*ni || len(f.Threshold) != f.Trees*ni || len(f.Leaves) != f.Trees*nl*C || len(f.Weights) != wl {
		return nil, fmt.Errorf("Flat: arrays of %d features, %d thresholds, %d leaf values, %d weights do not fit %d trees of depth %d", len(f.Feature), len(f.Threshold), len(f.Leaves), len(f.Weights), f.Trees, f.Depth)
	}
	m := ensemble.NewComplete(features, C, f.Trees, f.Depth, w)
	for e := 0; e < f.Trees; e++ {
		r := int(m.Roots[e])
		copy(m.Feature[r:r+ni], f.Feature[e*ni:(e+1)*ni])
		copy(m.Threshold[r:r+ni], f.Threshold[e*ni:(e+1)*ni])
		copy(m.Value[(r+ni)*C:(r+ni+nl)*C], f.Leaves[e*nl*C:(e+1)*nl*C])
		if w == ensemble.LeafWeights {
			copy(m.LeafWeight[r+ni:r+ni+nl], f.Weights[e*nl:(e+1)*nl])
		}
	}
	if w == ensemble.TreeWeights {
		copy(m.TreeWeight, f.Weights)
	}
	return m, nil
}

// v1Tree converts GradTree's version-1 "Tree" (a plain tree, nodes breadth
// first, children after their parent).
func v1Tree(raw json.RawMessage, features int) (*ensemble.Ensemble, error) {
	var t struct {
		Nodes []struct {
			Feature   int       `json:"feature"`
			Threshold float32   `json:"threshold"`
			Left      int       `json:"left"`
			Right     int       `json:"right"`
			Value     []float32 `json:"value"`
			Count     int64     `json:"count"`
		} `json:"nodes"`
		Outputs int  `json:"outputs"`
		Counted bool `json:"counted"`
	}
	if err := json.Unmarshal(raw, &t); err != nil {
		return nil, fmt.Errorf("Tree: %w", err)
	}
	N, C := len(t.Nodes), t.Outputs
	if N == 0 || C < 1 {
		return nil, fmt.Errorf("Tree: %d nodes with %d outputs", N, C)
	}
	for i, nd := range t.Nodes { // before allocating N·C values
		if nd.Feature < 0 && len(nd.Value) != C {
			return nil, fmt.Errorf("Tree: leaf %d has %d values: expected %d", i, len(nd.Value), C)
		}
	}
	m := &ensemble.Ensemble{Features: features, Outputs: C, Weighting: ensemble.Mean, Roots: ensemble.Int32s{0},
		Feature: make(Int32s, N), Threshold: make(Float32s, N), Left: make(Int32s, N), Right: make(Int32s, N), Value: make(Float32s, N*C)}
	if t.Counted {
		m.Count = make([]int64, N)
	}
	for i, nd := range t.Nodes {
		m.Feature[i], m.Threshold[i], m.Left[i], m.Right[i] = int32(nd.Feature), nd.Threshold, int32(nd.Left), int32(nd.Right)
		if nd.Feature < 0 {
			if len(nd.Value) != C {
				return nil, fmt.Errorf("Tree: leaf %d has %d values: expected %d", i, len(nd.Value), C)
			}
			copy(m.Value[i*C:], nd.Value)
		}
		if t.Counted {
			m.Count[i] = nd.Count
		}
	}
	return m, nil
}
