package ensemble

// Tables is how a Predictor weighs and sums the leaves a row reaches, for
// code that must reproduce its outputs bit for bit (generated Go source,
// package interpret). Leaf l (0 … L−1) is the l-th leaf in node order;
// LeafOf maps a node to it (−1 at internal nodes). A row's output c is
//
//   - Exp set (LeafWeights, small logit range): float32(Σ_t Value[l_t·C+c]
//     / Σ_t Exp[l_t]), both sums in float64 in tree order (Value holds
//     exp(w − max)·v);
//   - Logit set (LeafWeights, wide range): the softmax a of the reached
//     leaves' Logit across trees (max, exp(v − max), running sum,
//     division), then float32(Σ_t a_t·Value[l_t·C+c]) over trees with
//     a_t ≠ 0;
//   - Tree set (TreeWeights): float32(Σ_t Tree[t]·Value[l_t·C+c]) over
//     trees with Tree[t] ≠ 0;
//   - otherwise (Mean): float32(Σ_t 1·Value[l_t·C+c] / E).
type Tables struct {
	LeafOf []int32
	Value  []float64
	Exp    []float64
	Logit  []float64
	Tree   []float64
}

// Tables returns the predictor's tables (shared, do not change them).
func (p *Predictor) Tables() Tables {
	return Tables{LeafOf: p.leafID, Value: p.value, Exp: p.expW, Logit: p.logit, Tree: p.treeA}
}
