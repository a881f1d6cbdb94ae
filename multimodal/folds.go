package multimodal

import (
	"fmt"
	"math"
	"sort"

	"github.com/gdt-ml/gdt/rng"
)

// StratifiedGroupKFold splits rows into k test folds so that no group
// (e.g. a lesion photographed several times) spans two folds and every
// fold's class distribution is as close as possible to the whole's. It is
// the greedy algorithm of scikit-learn's StratifiedGroupKFold: groups are
// numbered in sorted order, optionally shuffled by an MT19937 stream seeded
// with seed (numpy's RandomState(seed).shuffle), stably sorted by the
// decreasing (population) standard deviation of their class counts, and each
// goes to the fold whose assignment minimises the mean over classes of the
// standard deviation across folds of the class shares (ties: the fold with
// fewer rows, then the lower index). Unlike scikit-learn 1.2, shuffling
// permutes the groups themselves rather than only their count rows, so the
// stratification holds with shuffle as well.
//
// y holds class codes (non-negative integers); groups one key per row.
// Each fold's indices are returned in increasing order. The result depends
// only on the inputs and seed.
func StratifiedGroupKFold(y []float64, groups []string, k int, shuffle bool, seed uint32) ([][]int, error) {
	n := len(y)
	if len(groups) != n {
		return nil, fmt.Errorf("stratified group k-fold: %d labels but %d group keys", n, len(groups))
	}
	if k < 2 {
		return nil, fmt.Errorf("stratified group k-fold: k = %d, expected at least 2", k)
	}
	// Classes in sorted order.
	nClasses := 0
	for i, v := range y {
		if v < 0 || v != math.Trunc(v) || math.IsNaN(v) || v > 1e6 {
			return nil, fmt.Errorf("stratified group k-fold: row %d: label %v is not a class code (expected an integer ≥ 0)", i, v)
		}
		if int(v)+1 > nClasses {
			nClasses = int(v) + 1
		}
	}
	// Groups in sorted order (np.unique).
	keys := make([]string, 0, n)
	seen := map[string]bool{}
	for _, g := range groups {
		if !seen[g] {
			seen[g] = true
			keys = append(keys, g)
		}
	}
	sort.Strings(keys)
	if len(keys) < k {
		return nil, fmt.Errorf("stratified group k-fold: %d groups cannot fill %d folds", len(keys), k)
	}
	gidx := make(map[string]int, len(keys))
	for i, g := range keys {
		gidx[g] = i
	}
	inv := make([]int, n)
	counts := make([]float64, len(keys)*nClasses)
	classTotal := make([]float64, nClasses)
	for i, g := range groups {
		inv[i] = gidx[g]
		counts[inv[i]*nClasses+int(y[i])]++
		classTotal[int(y[i])]++
	}
	order := make([]int, len(keys))
	for i := range order {
		order[i] = i
	}
	if shuffle {
		rng.New(seed).Shuffle(order)
	}
	std := func(v []float64) float64 {
		var m float64
		for _, x := range v {
			m += x
		}
		m /= float64(len(v))
		var s float64
		for _, x := range v {
			s += (x - m) * (x - m)
		}
		return math.Sqrt(s / float64(len(v)))
	}
	gstd := make([]float64, len(keys))
	for g := range keys {
		gstd[g] = std(counts[g*nClasses : (g+1)*nClasses])
	}
	sort.SliceStable(order, func(a, b int) bool { return gstd[order[a]] > gstd[order[b]] })

	perFold := make([]float64, k*nClasses)
	foldOf := make([]int, len(keys))
	col := make([]float64, k)
	for _, g := range order {
		gc := counts[g*nClasses : (g+1)*nClasses]
		best, bestEval, bestSize := -1, math.Inf(1), math.Inf(1)
		for f := 0; f < k; f++ {
			for c := 0; c < nClasses; c++ {
				perFold[f*nClasses+c] += gc[c]
			}
			var eval float64
			used := 0
			for c := 0; c < nClasses; c++ {
				if classTotal[c] == 0 {
					continue
				}
				for j := 0; j < k; j++ {
					col[j] = perFold[j*nClasses+c] / classTotal[c]
				}
				eval += std(col)
				used++
			}
			eval /= float64(used)
			for c := 0; c < nClasses; c++ {
				perFold[f*nClasses+c] -= gc[c]
			}
			var size float64
			for c := 0; c < nClasses; c++ {
				size += perFold[f*nClasses+c]
			}
			close := math.Abs(eval-bestEval) <= 1e-8+1e-5*math.Abs(bestEval)
			if eval < bestEval || (close && size < bestSize) {
				best, bestEval, bestSize = f, eval, size
			}
		}
		for c := 0; c < nClasses; c++ {
			perFold[best*nClasses+c] += gc[c]
		}
		foldOf[g] = best
	}
	out := make([][]int, k)
	for i := 0; i < n; i++ {
		f := foldOf[inv[i]]
		out[f] = append(out[f], i)
	}
	for f, idx := range out {
		if len(idx) == 0 {
			return nil, fmt.Errorf("stratified group k-fold: fold %d is empty", f)
		}
	}
	return out, nil
}

// GroupSplit splits rows (positions into y and groups) into a training and
// a held-out part of about frac of the rows, stratified by class and grouped:
// the held-out part is one fold of StratifiedGroupKFold with k = round(1/frac).
// It is used for the validation split inside a training fold.
func GroupSplit(y []float64, groups []string, frac float64, seed uint32) (train, held []int, err error) {
	if !(frac > 0 && frac <= 0.5) {
		return nil, nil, fmt.Errorf("group split: fraction %g, expected in (0, 0.5]", frac)
	}
	k := int(math.Round(1 / frac))
	folds, err := StratifiedGroupKFold(y, groups, k, true, seed)
	if err != nil {
		return nil, nil, err
	}
	held = folds[0]
	mark := make([]bool, len(y))
	for _, i := range held {
		mark[i] = true
	}
	for i := range y {
		if !mark[i] {
			train = append(train, i)
		}
	}
	return train, held, nil
}
