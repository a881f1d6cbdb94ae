package preprocess

import (
	"fmt"
	"math"
	"runtime"
	"sync"

	"github.com/gdt-ml/gdt/data"
)

// Transform encodes and scales rows X (validation, test, inference) with
// the fitted state. Columns are matched by name; extra columns are ignored.
// No target is involved: leave-one-out columns get the training category
// means.
func (p *Pipeline) Transform(X *data.Table) (*data.Matrix, error) {
	n := 0
	if X != nil {
		n = X.NumRows()
	}
	m := data.NewMatrix(n, len(p.Outputs))
	if err := p.TransformInto(m, X, 0); err != nil {
		return nil, err
	}
	return m, nil
}

// minParallelRows is the smallest table TransformInto splits over cores.
const minParallelRows = 4096

// TransformInto is Transform writing into dst, which must be
// X.NumRows() × NumFeatures(). firstRow numbers the rows in error messages
// (row i of X is called row firstRow+i), for callers that transform a file
// in chunks. The values are exactly Transform's: every categorical level's
// encoded and scaled outputs are computed once with the fitted encoder and
// copied to the rows holding it; numeric values are scaled one by one (the
// quantile transform remembers recent values). Rows are split over
// GOMAXPROCS goroutines; the result does not depend on their number.
func (p *Pipeline) TransformInto(dst *data.Matrix, X *data.Table, firstRow int) error {
	if !p.Fitted() {
		return fmt.Errorf("preprocess: transform: the pipeline is not fitted")
	}
	if err := checkTable(X, "transform", firstRow); err != nil {
		return err
	}
	if p.Quantile != nil && p.Quantile.NumFeatures() != len(p.Outputs) || p.Standard != nil && len(p.Standard.Mean) != len(p.Outputs) {
		return fmt.Errorf("preprocess: transform: the fitted scaling has the wrong number of columns (damaged model file?)")
	}
	n, f := X.NumRows(), len(p.Outputs)
	if dst == nil || dst.Rows != n || dst.Cols != f || len(dst.Data) != n*f {
		return fmt.Errorf("preprocess: transform: the output matrix must be %d×%d", n, f)
	}
	plans, err := p.plan(X)
	if err != nil {
		return err
	}
	workers := min(runtime.GOMAXPROCS(0), n/minParallelRows)
	if workers <= 1 {
		p.transformRows(dst.Data, plans, 0, n)
		return nil
	}
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := w*n/workers, (w+1)*n/workers
		wg.Go(func() { p.transformRows(dst.Data, plans, lo, hi) })
	}
	wg.Wait()
	return nil
}

// inputPlan is how one raw column of a table becomes its output columns.
type inputPlan struct {
	first, width int
	// Numeric columns.
	num    []float64
	impute bool
	median float64
	// Categorical columns: the outputs of table row codeRow[code+1]
	// (code = data.Missing → codeRow[0]) are table[r*width : (r+1)*width].
	codes   []int32
	codeRow []int32
	table   []float32
}

// plan matches the pipeline's inputs with the columns of X and computes
// every categorical category's outputs.
func (p *Pipeline) plan(X *data.Table) ([]inputPlan, error) {
	plans := make([]inputPlan, len(p.Inputs))
	for i := range p.Inputs {
		ic := &p.Inputs[i]
		c, err := p.inputColumn(X, ic)
		if err != nil {
			return nil, err
		}
		if ic.First < 0 || ic.Width < 1 || ic.First+ic.Width > len(p.Outputs) {
			return nil, fmt.Errorf("preprocess: column %q: outputs %d…%d outside the pipeline's %d (damaged model file?)", ic.Name, ic.First, ic.First+ic.Width-1, len(p.Outputs))
		}
		pl := &plans[i]
		pl.first, pl.width = ic.First, ic.Width
		if ic.Kind == data.Numeric {
			if ic.Width != 1 {
				return nil, fmt.Errorf("preprocess: numeric column %q has %d outputs, want 1 (damaged model file?)", ic.Name, ic.Width)
			}
			pl.num, pl.impute, pl.median = c.Num, ic.Impute, ic.Median
			continue
		}
		if err := p.planCategorical(ic, c, pl); err != nil {
			return nil, err
		}
	}
	return plans, nil
}

// planCategorical fills the category table of categorical input ic: the
// fitted encoder encodes one row per training category, one for an unseen
// level and one for a missing value, and the outputs are scaled, so every
// row of c gets exactly the values that encoding and scaling it would give.
func (p *Pipeline) planCategorical(ic *InputColumn, c *data.Column, pl *inputPlan) error {
	enc := ic.Encoder()
	if enc == nil {
		return fmt.Errorf("preprocess: column %q: the pipeline has no fitted encoder", ic.Name)
	}
	k := enc.(interface{ categories() *Categories }).categories()
	L := len(k.Levels)
	known := make(map[string]int32, L)
	for j, l := range k.Levels {
		if _, dup := known[l]; !dup {
			known[l] = int32(j)
		}
	}
	unseen := "\x00unseen"
	for {
		if _, ok := known[unseen]; !ok {
			break
		}
		unseen += "\x00"
	}
	probe := &data.Column{Name: c.Name, Kind: data.Categorical, Levels: append(k.Levels[:L:L], unseen), Codes: make([]int32, L+2)}
	for j := range L + 1 {
		probe.Codes[j] = int32(j)
	}
	probe.Codes[L+1] = data.Missing
	w := ic.Width
	enc64 := make([][]float64, w)
	for kk := range enc64 {
		enc64[kk] = make([]float64, L+2)
	}
	if err := enc.Encode(probe, nil, enc64); err != nil {
		return err
	}
	pl.table = make([]float32, (L+2)*w)
	for r := range L + 2 {
		for kk := range w {
			pl.table[r*w+kk] = float32(p.scaleValue(ic.First+kk, enc64[kk][r]))
		}
	}
	pl.codes = c.Codes
	pl.codeRow = make([]int32, len(c.Levels)+1)
	pl.codeRow[0] = int32(L + 1)
	for code, l := range c.Levels {
		r, ok := known[l]
		if !ok {
			r = int32(L)
		}
		pl.codeRow[code+1] = r
	}
	return nil
}

// categories returns the category set every categorical encoder embeds.
func (k *Categories) categories() *Categories { return k }

// forwardCacheBits is log₂ of the number of slots of a forwardCache.
const forwardCacheBits = 10

// forwardCache remembers the scaled value of recent raw values of one
// numeric column, direct-mapped on the value's bits: the quantile
// transform's two binary searches and Φ⁻¹ are then paid once per distinct
// value (most numeric columns repeat values).
type forwardCache struct {
	keys [1 << forwardCacheBits]uint64
	vals [1 << forwardCacheBits]float32
}

// emptyKey marks an unused slot: a NaN, which is never looked up.
const emptyKey = 0x7ff8_dead_beef_0001

func newForwardCache() *forwardCache {
	c := new(forwardCache)
	for i := range c.keys {
		c.keys[i] = emptyKey
	}
	return c
}

// transformRows writes rows lo…hi−1 of the plans' columns into dst.
func (p *Pipeline) transformRows(dst []float32, plans []inputPlan, lo, hi int) {
	f := len(p.Outputs)
	var cache *forwardCache
	for pi := range plans {
		pl := &plans[pi]
		if pl.codes != nil {
			w := pl.width
			if w == 1 {
				for i := lo; i < hi; i++ {
					dst[i*f+pl.first] = pl.table[pl.codeRow[pl.codes[i]+1]]
				}
				continue
			}
			for i := lo; i < hi; i++ {
				r := int(pl.codeRow[pl.codes[i]+1]) * w
				copy(dst[i*f+pl.first:i*f+pl.first+w], pl.table[r:r+w])
			}
			continue
		}
		j := pl.first
		cuts := p.cutsOf(j)
		switch {
		case p.Quantile != nil:
			if cache == nil {
				cache = newForwardCache()
			} else {
				for s := range cache.keys {
					cache.keys[s] = emptyKey
				}
			}
			for i := lo; i < hi; i++ {
				v := pl.num[i]
				if pl.impute && math.IsNaN(v) {
					v = pl.median
				}
				if math.IsNaN(v) {
					dst[i*f+j] = float32(p.Quantile.Forward(j, v))
					continue
				}
				bits := math.Float64bits(v)
				s := (bits * 0x9e3779b97f4a7c15) >> (64 - forwardCacheBits)
				if cache.keys[s] != bits {
					cache.keys[s] = bits
					cache.vals[s] = snapValue(cuts, v, float32(p.Quantile.Forward(j, v)))
				}
				dst[i*f+j] = cache.vals[s]
			}
		default:
			for i := lo; i < hi; i++ {
				v := pl.num[i]
				if pl.impute && math.IsNaN(v) {
					v = pl.median
				}
				dst[i*f+j] = snapValue(cuts, v, float32(p.scaleValue(j, v)))
			}
		}
	}
}
