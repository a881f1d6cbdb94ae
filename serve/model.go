package serve

import (
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/export"
	"github.com/gdt-ml/gdt/interpret"
	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/multimodal"
)

// ModelInfo describes a served model (GET /v1/models).
type ModelInfo struct {
	Name    string      `json:"name"`
	Kind    string      `json:"kind"`
	Task    string      `json:"task"`
	Target  string      `json:"target,omitempty"`
	Classes []string    `json:"classes,omitempty"`
	Inputs  []InputInfo `json:"inputs"`
	Nodes   int         `json:"nodes"`
	// NAValues are the missing markers the model was trained with (gdt
	// train --na-values): a feature value with one of these texts is
	// missing, as null is.
	NAValues []string `json:"na_values,omitempty"`
	// Explain is the kind of explanation the model gives: "path" (one
	// tree's decision path), "ensemble" (GRANDE's top-weighted trees) or
	// "" (none).
	Explain  string    `json:"explain,omitempty"`
	Path     string    `json:"path"`
	Modified time.Time `json:"modified"`
	Loaded   time.Time `json:"loaded"`
}

// InputInfo is one raw input feature of a model's schema.
type InputInfo struct {
	Name string `json:"name"`
	// Type is "number" or "category".
	Type string `json:"type"`
	// Levels are the categories seen in training (categorical features).
	Levels []string `json:"levels,omitempty"`
	// Missing says how a missing value (null) is handled.
	Missing string `json:"missing"`
}

// loaded is one loaded model with what requests need, prepared once.
type loaded struct {
	t        *model.Trained
	stamp    fileStamp
	info     ModelInfo
	cols     []inputCol
	colIndex map[string]int // input name → index in cols
	// lock serialises predictions of learners whose PredictProba is not
	// safe for concurrent use (nil for cart, grande and gradtree, which are).
	lock  *sync.Mutex
	known *model.KnownLevels // counts the unseen levels of a request
	// na holds the missing markers gdt predict uses for the model's CSV
	// files: data.DefaultMissing and the model's stored ones
	// (Trained.NAValues); a value with one of these texts is missing
	na    map[string]struct{}
	plain *export.Plain
	opts  *interpret.Options
	view  *interpret.View // single tree: every node's condition and outcome
	conds sync.Map        // GRANDE: [2]int{tree, node} → interpret.Condition
}

type inputCol struct {
	name        string
	categorical bool
	levels      []string
	index       map[string]int32
}

// load reads a model file and prepares it for serving.
func load(name, path string, cfg Config) (m *loaded, err error) {
	defer func() { // a damaged file must not take the server down
		if r := recover(); r != nil {
			m, err = nil, fmt.Errorf("serve: model %s: loading failed: %v", path, r)
		}
	}()
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	if multimodal.IsTrainedFile(path) {
		return nil, fmt.Errorf("serve: %s is a multimodal model file; gdt serve serves tabular models only (use gdt predict for multimodal models)", path)
	}
	t, err := model.Load(path)
	if err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	m = &loaded{t: t, stamp: fileStamp{st.ModTime(), st.Size()}, known: t.KnownLevels()}
	switch t.Spec.Kind {
	case "cart", "grande", "grande-fast", "gradtree":
	default:
		m.lock = new(sync.Mutex)
	}
	m.info = ModelInfo{Name: name, Kind: t.Spec.Kind, Task: t.Task.String(), Target: t.Target, Classes: t.Classes,
		Nodes: t.Learner.NumNodes(), NAValues: t.NAValues, Path: path, Modified: st.ModTime().UTC(), Loaded: time.Now().UTC()}
	markers := data.MergeNAValues(data.DefaultMissing, t.NAValues)
	m.na = make(map[string]struct{}, len(markers))
	for _, v := range markers {
		m.na[v] = struct{}{}
	}
	m.colIndex = make(map[string]int, len(t.Inputs))
	for k, c := range t.Inputs {
		m.colIndex[c.Name] = k
		ic := inputCol{name: c.Name, categorical: c.Kind == "categorical", levels: c.Levels}
		ii := InputInfo{Name: c.Name, Type: "number", Missing: "null: not accepted by this model's preprocessing"}
		for _, pc := range t.Pipeline.Inputs {
			if pc.Name == c.Name && pc.Impute {
				ii.Missing = "null: replaced by the training median " + strconv.FormatFloat(pc.Median, 'g', -1, 64)
			}
		}
		if ic.categorical {
			ic.index = make(map[string]int32, len(c.Levels))
			for i, l := range c.Levels {
				ic.index[l] = int32(i)
			}
			ii.Type, ii.Levels = "category", c.Levels
			ii.Missing = `null or "": the missing category (a category never seen in training is routed as an unseen level)`
		}
		m.cols = append(m.cols, ic)
		m.info.Inputs = append(m.info.Inputs, ii)
	}
	if p, err := export.Of(t); err == nil {
		m.plain, m.opts = p, p.ViewOptions()
		switch {
		case p.Tree != nil:
			v, err := interpret.NewView(p.Tree, m.opts)
			if err != nil {
				return nil, fmt.Errorf("serve: model %s: %w", path, err)
			}
			m.view, m.info.Explain = v, "path"
		case p.Ensemble != nil:
			m.info.Explain = "ensemble"
		}
	}
	return m, nil
}

// predict returns the model-space rows and the class probabilities (or
// regression values) of tab.
func (m *loaded) predict(tab *data.Table) (*data.Matrix, *data.Matrix, error) {
	x, err := m.t.Transform(tab)
	if err != nil {
		return nil, nil, err
	}
	if m.lock != nil {
		m.lock.Lock()
		defer m.lock.Unlock()
	}
	p, err := m.t.Learner.PredictProba(x)
	return x, p, err
}

// Step is one internal node on a decision path.
type Step struct {
	Node int `json:"node"`
	// Feature is the raw feature the node tests and Value the row's value
	// of it (null when missing).
	Feature string `json:"feature"`
	Value   any    `json:"value"`
	// Condition is the condition that holds for the row, in raw units
	// (e.g. "age <= 40.5" or "housing in {own}"); Branch is "left" when
	// the node's split condition holds, else "right".
	Condition string `json:"condition"`
	Branch    string `json:"branch"`
}

// Leaf is the leaf a row reaches, seen through the model's output head.
type Leaf struct {
	Node          int       `json:"node"`
	Label         string    `json:"label"`
	Probability   float64   `json:"probability,omitempty"`
	Probabilities []float64 `json:"probabilities,omitempty"`
	Values        []float64 `json:"values,omitempty"`
}

// Estimator is one tree of GRANDE's local explanation.
type Estimator struct {
	Index int `json:"index"`
	// Share is the tree's instance-wise weight a_e(x): its share of the
	// row's prediction.
	Share float64 `json:"share"`
	Path  []Step  `json:"path"`
	Leaf  Leaf    `json:"leaf"`
	// Weight is the weight logit of the reached leaf.
	Weight float32 `json:"weight_logit"`
}

// Explanation explains one row's prediction.
type Explanation struct {
	// Type is "path" (a single tree) or "ensemble" (GRANDE).
	Type string `json:"type"`
	Path []Step `json:"path,omitempty"`
	Leaf *Leaf  `json:"leaf,omitempty"`
	// Trees is the ensemble size, Estimators the top-weighted trees
	// (largest share first) and Covered their total share.
	Trees      int         `json:"trees,omitempty"`
	Estimators []Estimator `json:"estimators,omitempty"`
	Covered    float64     `json:"covered,omitempty"`
}

// explainPath explains row i (model space x) of tab by its decision path
// through the single tree of m.
func (m *loaded) explainPath(tab *data.Table, i int, x []float32) (*Explanation, error) {
	t := m.view.Tree
	path, err := t.PathOf(x)
	if err != nil {
		return nil, err
	}
	ex := &Explanation{Type: "path"}
	for k, node := range path[:len(path)-1] {
		c := m.view.Conditions[node]
		ex.Path = append(ex.Path, m.step(tab, i, node, c, t.Nodes[node].Left == path[k+1]))
	}
	leaf := path[len(path)-1]
	l := leafOut(leaf, m.view.Outcomes[leaf])
	ex.Leaf = &l
	return ex, nil
}

func (m *loaded) step(tab *data.Table, i, node int, c interpret.Condition, left bool) Step {
	s := Step{Node: node, Feature: c.Column, Condition: c.False, Branch: "right"}
	if left {
		s.Condition, s.Branch = c.True, "left"
	}
	if col := tab.Col(c.Column); col != nil && !col.IsMissing(i) {
		if col.Kind == data.Numeric {
			s.Value = col.Num[i]
		} else {
			s.Value = col.Levels[col.Codes[i]]
		}
	}
	return s
}

func leafOut(node int, o interpret.Outcome) Leaf {
	return Leaf{Node: node, Label: o.Label, Probability: o.Proba, Probabilities: o.Probs, Values: o.Values}
}

// explainEnsemble reports GRANDE's topK trees by instance-wise weight
// a(x) (computed from the flat trees with the model's operations,
// ensemble.Ensemble.Shares) with their paths.
func (e *explainer) explainEnsemble(tab *data.Table, i int, x []float32) (*Explanation, error) {
	m := e.m
	f := m.plain.Ensemble
	if e.shares == nil {
		e.shares = make([]float64, f.Trees())
	}
	if len(x) != m.plain.Features {
		return nil, fmt.Errorf("a row of %d values for %d features", len(x), m.plain.Features)
	}
	if err := f.Shares(x, e.shares); err != nil {
		return nil, err
	}
	e.top = topTrees(e.shares, e.topK, e.top[:0])
	ex := &Explanation{Type: "ensemble", Trees: f.Trees()}
	for _, t := range e.top {
		share := e.shares[t]
		est := Estimator{Index: t, Share: share}
		r := int(f.Roots[t])
		path := f.Path(t, x)
		for k, n := range path[:len(path)-1] {
			c, err := m.condition(t, n-r, int(f.Feature[n]), f.Threshold[n])
			if err != nil {
				return nil, err
			}
			est.Path = append(est.Path, m.step(tab, i, n-r, c, int(f.Left[n]) == path[k+1]))
		}
		leaf := path[len(path)-1]
		est.Leaf = leafOut(leaf-r, m.opts.Outcome(f.LeafValue(leaf)))
		est.Weight = f.Weight(t, leaf)
		ex.Estimators = append(ex.Estimators, est)
		ex.Covered += share
	}
	return ex, nil
}

// topTrees appends to top the indices of the k largest shares, largest
// first, ties by lower index first (the order of a stable sort, as
// export.Plain.TopTrees), in O(len(a)·k) without sorting every tree.
func topTrees(a []float64, k int, top []int) []int {
	k = min(k, len(a))
	if k <= 0 {
		return top
	}
	for t, v := range a {
		if len(top) == k && !(v > a[top[k-1]]) {
			continue
		}
		j := len(top)
		for j > 0 && v > a[top[j-1]] {
			j--
		}
		if len(top) < k {
			top = append(top, 0)
		}
		copy(top[j+1:], top[j:len(top)-1])
		top[j] = t
	}
	return top
}

// condition returns (and caches) the raw-unit condition of node i of
// ensemble tree e.
func (m *loaded) condition(e, node, feature int, thr float32) (interpret.Condition, error) {
	key := [2]int{e, node}
	if c, ok := m.conds.Load(key); ok {
		return c.(interpret.Condition), nil
	}
	c, err := m.opts.Condition(feature, thr)
	if err != nil {
		return c, err
	}
	m.conds.Store(key, c)
	return c, nil
}
