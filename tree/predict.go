package tree

import (
	"fmt"

	"github.com/gdt-ml/gdt/ensemble"
)

// Predict writes the inference outputs y ([B][C]) of the batch x ([B][n])
// into out: hard routing with the selected feature and threshold of every
// node, no dropout. It does not disturb the Forward state of ws and needs
// memory independent of B.
func (k *Kernel) Predict(ws *Workspace, x []float32, B int, out []float32) error {
	if len(out) != B*k.c {
		return fmt.Errorf("tree: Predict: out has %d values: expected batch %d × %d outputs = %d", len(out), B, k.c, B*k.c)
	}
	return k.predict(ws, "Predict", x, B, out, nil, nil)
}

// Route writes the leaf reached by every sample in every tree into leaves
// ([B][E], sample-major, leaf numbers 0…2^d−1 from left to right).
func (k *Kernel) Route(ws *Workspace, x []float32, B int, leaves []int32) error {
	if len(leaves) != B*k.e {
		return fmt.Errorf("tree: Route: leaves has %d values: expected batch %d × %d trees = %d", len(leaves), B, k.e, B*k.e)
	}
	return k.predict(ws, "Route", x, B, nil, leaves, nil)
}

// TreeWeights writes every sample's tree weights a(x) ([B][E], sample-major;
// inference, no dropout) into weights: GRANDE's instance-wise estimator
// weights, the basis of its local explanations (spec §7.4).
func (k *Kernel) TreeWeights(ws *Workspace, x []float32, B int, weights []float32) error {
	if len(weights) != B*k.e {
		return fmt.Errorf("tree: TreeWeights: weights has %d values: expected batch %d × %d trees = %d", len(weights), B, k.e, B*k.e)
	}
	return k.predict(ws, "TreeWeights", x, B, nil, nil, weights)
}

func (k *Kernel) predict(ws *Workspace, what string, x []float32, B int, out []float32, leaves []int32, weights []float32) error {
	if err := k.checkWorkspace(ws); err != nil {
		return err
	}
	if err := k.checkBatch(what, x, B); err != nil {
		return err
	}
	w := k.workers()
	ws.growWorkers(w)
	ws.px, ws.pb, ws.pOut, ws.pLeaves, ws.pWeights = x, B, out, leaves, weights
	// parts hold at most 64 k (tree, sample) values of per-worker scratch
	var parts int
	ws.chunk, parts = k.sampleChunks(B, w, 4096/(k.e*(k.d+2)), min(maxChunk, max(1, 65536/k.e)))
	ws.j.run = ws.fnPred
	execute(&ws.j, parts, w)
	ws.px, ws.pOut, ws.pLeaves, ws.pWeights = nil, nil, nil, nil
	return nil
}

func (ws *Workspace) predictPart(p, w int) {
	k := ws.k
	s := &ws.scratch[w]
	lo, hi := p*ws.chunk, min((p+1)*ws.chunk, ws.pb)
	nb := hi - lo
	s.pleaf = growInt32(s.pleaf, k.e*nb)
	s.pa = growFloat64(s.pa, k.e*nb)
	s.paw = growFloat64(s.paw, k.e*nb)
	bl := block{lo: lo, hi: hi, stride: nb, base: lo, x: ws.px, leaf: s.pleaf, a: s.pa, aw: s.paw}
	k.routeBlock(&bl)
	if ws.pLeaves != nil {
		for e := 0; e < k.e; e++ {
			for b := lo; b < hi; b++ {
				ws.pLeaves[b*k.e+e] = bl.leaf[e*nb+b-lo]
			}
		}
	}
	if ws.pOut == nil && ws.pWeights == nil {
		return
	}
	k.weighBlock(&bl, s)
	if ws.pWeights != nil {
		for e := 0; e < k.e; e++ {
			for b := lo; b < hi; b++ {
				ws.pWeights[b*k.e+e] = float32(bl.a[e*nb+b-lo])
			}
		}
	}
	if ws.pOut != nil {
		k.outputBlock(&bl, s, ws.pOut)
	}
}

// Ensemble returns the trained form of the current parameters: E complete
// trees of depth d stored breadth first (ensemble.NewComplete), every node
// testing the arg-max column of its index logits (lowest index on ties, as
// the kernel) with that column's global feature and threshold; the leaf
// values and weight logits are copied. The weighting is LeafWeights or
// TreeWeights as the kernel's mode, else Mean. It routes every input
// exactly as the kernel does (both descend with ensemble.Child). It does
// not need Prepare.
func (k *Kernel) Ensemble() *ensemble.Ensemble {
	w := ensemble.Mean
	switch k.mode {
	case LeafWeights:
		w = ensemble.LeafWeights
	case EstimatorWeights:
		w = ensemble.TreeWeights
	}
	m := ensemble.NewComplete(k.n, k.c, k.e, k.d, w)
	size := 2*k.ni + 1
	for e := 0; e < k.e; e++ {
		r := e * size
		for i := 0; i < k.ni; i++ {
			row := (e*k.ni + i) * k.ne
			best := argmax(k.params.IndexLogits[row : row+k.ne])
			m.Feature[r+i] = k.feat[e*k.ne+best]
			m.Threshold[r+i] = k.params.Thresholds[row+best]
		}
		copy(m.Value[(r+k.ni)*k.c:(r+size)*k.c], k.params.Leaves[e*k.nl*k.c:(e+1)*k.nl*k.c])
		if w == ensemble.LeafWeights {
			copy(m.LeafWeight[r+k.ni:r+size], k.params.LeafWeights[e*k.nl:(e+1)*k.nl])
		}
	}
	if w == ensemble.TreeWeights {
		copy(m.TreeWeight, k.params.LeafWeights)
	}
	return m
}
