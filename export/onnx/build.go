// Package onnx writes trained gdt models as ONNX graphs, hand-encoded with
// google.golang.org/protobuf/encoding/protowire (no ONNX library needed).
//
// # The graph
//
// Inputs are the model's raw columns, one input per column, in the order
// of the model's input schema (gdt show, GET /v1/models): a numeric column
// is a tensor(double) of shape [N, 1] (NaN = missing), a categorical column
// a tensor(string) of shape [N, 1] ("" = missing; a string that is not a
// training level is an unseen level, encoded as the pipeline encodes
// unseen levels).
//
// The preprocessing is exported exactly, without re-implementing the
// quantile transform in ONNX operators:
//
//   - numeric columns enter the trees unchanged; every split on them is
//     written in raw units: "v ≤ c" (BRANCH_LEQ) with c the exact raw cut
//     of the pipeline (preprocess.Pipeline.RawThresholdLess: v goes left iff
//     the pipeline maps v to a value below the model's threshold), stored
//     as a double (TreeEnsemble's nodes_values_as_tensor, ai.onnx.ml
//     opset 3), and a missing value follows the branch the training median
//     takes (nodes_missing_value_tracks_true);
//   - categorical columns go through an ai.onnx.ml LabelEncoder per
//     model-space column (several for one-hot encodings) that maps every
//     training level, "" (missing) and, by default_float, any other string
//     to the exact float32 value the fitted pipeline produces for it, cast
//     to double; splits on them keep the model's own threshold ("x < τ",
//     BRANCH_LT).
//
// So every row routes exactly as in gdt, whatever the encoding or scaling
// protocol. The model-space columns are concatenated into a [N, F] double
// matrix that the tree operators read.
//
// # Trees and heads
//
//   - CART classifiers: ai.onnx.ml TreeEnsembleClassifier (post_transform
//     NONE) whose class weights are the leaves' class probabilities, giving
//     "probabilities" ([N, C] float); "label" ([N] string class names) is
//     the ArgMax of the probabilities mapped by a LabelEncoder, not the
//     operator's own label output, which runtimes special-case for two
//     classes.
//   - Plain trees with logit leaves (GradTree; any interpret tree with a
//     leaf value per class, as SYMPOL's): TreeEnsembleRegressor giving the
//     raw leaf output, then the model's head in standard operators, in
//     double precision and with the same operations as gdt (binary
//     Sigmoid and 1 − p; multiclass ReduceMax, Sub, Exp, ReduceSum, Div
//     with the same float32/float64 roundings), and ArgMax plus a
//     LabelEncoder for "label".
//   - GRANDE: one TreeEnsembleRegressor with E + E·C targets: tree e puts
//     the weight logit of the leaf a row reaches on target e and the leaf's
//     values on targets E + e·C + c. Slice and Reshape split them into
//     W [N, E] and V [N, E, C]; the instance-wise weights are
//     a = exp(W − max W) / Σ exp(W − max W) (ReduceMax, Sub, Exp, ReduceSum,
//     Div in double) and the raw output Σ_e a_e·V_e (Unsqueeze, Mul,
//     ReduceSum over the trees in double), cast to float as gdt does, then
//     the head. With per-tree weights ("estimator" weighting) a is a
//     constant.
//   - Regression: output "variable" ([N, 1] float), the raw output mapped
//     to target units (y·scale + shift, or exp(y) − shift) in double.
//   - Tree policies (SYMPOL, BuildPolicy): the input is the observation
//     ([N, F] float, as the environment returns it); discrete actions go
//     through a TreeEnsembleClassifier whose class weights are the leaf
//     logits, with ArgMax giving the greedy action; continuous actions
//     through a TreeEnsembleRegressor giving the mean action.
//
// The operators' definitions make this exact: evaluated as the ONNX
// operator specifications define them (the Go evaluator in the tests sums
// in index order), the outputs equal gdt's predictions bit for bit, and
// ONNX Runtime 1.30 reproduces them bit for bit too (TestONNXRuntime). A
// runtime that reorders the sums of ReduceSum (GRANDE's weighted sum and
// the softmax denominators) could differ in the last bit of the float
// probabilities, never in routing.
//
// The model declares opsets ai.onnx 13 and ai.onnx.ml 3 (IR version 8).
package onnx

import (
	"encoding/json"
	"fmt"
	gdtensemble "github.com/gdt-ml/gdt/ensemble"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/export"
	"github.com/gdt-ml/gdt/interpret"
	"github.com/gdt-ml/gdt/loss"
	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/safefile"
)

// Output names of the exported graphs.
const (
	OutputLabel         = "label"
	OutputProbabilities = "probabilities"
	OutputVariable      = "variable"
)

// ModelSpaceInput is the input of a model without preprocessing pipeline
// (e.g. a policy tree reading observations): a [N, F] float matrix.
const ModelSpaceInput = "X"

// MLDomain is the domain of the traditional-ML operators.
const MLDomain = "ai.onnx.ml"

// unseenLevel is a level text no training level equals (it is used to ask
// the pipeline how it encodes unseen levels).
const unseenLevel = "\x00gdt:unseen\x00"

// Write exports the trained model t as ONNX to path (atomically).
func Write(t *model.Trained, path string) error {
	m, err := Export(t)
	if err != nil {
		return err
	}
	return safefile.WriteBytes(path, m.Marshal())
}

// Export builds the ONNX model of t.
func Export(t *model.Trained) (*Model, error) {
	p, err := export.Of(t)
	if err != nil {
		return nil, err
	}
	return Build(p, t.Target)
}

// Build builds the ONNX model of a plain model; target names the
// predicted column in the documentation.
func Build(p *export.Plain, target string) (*Model, error) {
	b := &builder{p: p, cuts: map[cutKey]split{}}
	if p.Pipeline != nil && !p.Pipeline.Fitted() {
		return nil, fmt.Errorf("onnx: the model's preprocessing pipeline is not fitted")
	}
	if p.Task != data.Regression && len(p.Classes) == 0 {
		return nil, fmt.Errorf("onnx: a %s model needs class names", p.Task)
	}
	if err := b.inputs(); err != nil {
		return nil, err
	}
	switch {
	case p.Ensemble != nil:
		if err := b.grande(); err != nil {
			return nil, err
		}
	case p.Tree != nil && p.Leaves == export.Probabilities:
		if err := b.classifier(); err != nil {
			return nil, err
		}
	case p.Tree != nil:
		if err := b.singleTree(); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("onnx: the model has neither a tree nor an ensemble")
	}
	m := &Model{
		IRVersion:       8,
		Opsets:          []Opset{{"", 13}, {MLDomain, 3}},
		ProducerName:    "gdt",
		ProducerVersion: "1",
		Domain:          "org.gdt-ml",
		ModelVersion:    1,
		Doc:             b.doc(target),
		Graph:           b.g,
	}
	m.Graph.Name = "gdt_" + p.Kind
	classes, _ := json.Marshal(p.Classes)
	inputs, _ := json.Marshal(p.Inputs)
	m.Metadata = []KeyValue{{"gdt_kind", p.Kind}, {"gdt_task", p.Task.String()}, {"gdt_target", target},
		{"gdt_classes", string(classes)}, {"gdt_inputs", string(inputs)}}
	return m, nil
}

type cutKey struct {
	feature int
	thr     float32
}

// split is how one model-space split is written in the graph.
type split struct {
	mode        string
	value       float64
	missingTrue bool
}

type builder struct {
	p        *export.Plain
	g        Graph
	seq      int
	features string // name of the [N, F] double feature matrix
	numeric  []bool // per model-space feature: comes from a numeric column
	cuts     map[cutKey]split
}

// name returns a fresh intermediate tensor name.
func (b *builder) name(what string) string {
	b.seq++
	return "gdt_" + what + "_" + strconv.Itoa(b.seq)
}

// op appends a node and returns its first output.
func (b *builder) op(opType, domain string, inputs []string, attrs []Attr, outputs ...string) string {
	if len(outputs) == 0 {
		outputs = []string{b.name(strings.ToLower(opType))}
	}
	b.g.Nodes = append(b.g.Nodes, Node{OpType: opType, Domain: domain, Inputs: inputs, Outputs: outputs, Attrs: attrs,
		Name: "gdt_" + opType + "_" + strconv.Itoa(len(b.g.Nodes))})
	return outputs[0]
}

func (b *builder) constant(t Tensor) string {
	if t.Name == "" {
		t.Name = b.name("const")
	}
	b.g.Initializers = append(b.g.Initializers, t)
	return t.Name
}

func intAttr(name string, v int64) Attr { return Attr{Name: name, Type: AttrInt, I: v} }
func intsAttr(name string, v []int64) Attr {
	return Attr{Name: name, Type: AttrInts, Ints: v}
}
func stringAttr(name, v string) Attr { return Attr{Name: name, Type: AttrString, S: []byte(v)} }
func stringsAttr(name string, v []string) Attr {
	s := make([][]byte, len(v))
	for i, x := range v {
		s[i] = []byte(x)
	}
	return Attr{Name: name, Type: AttrStrings, Strings: s}
}
func floatsAttr(name string, v []float32) Attr { return Attr{Name: name, Type: AttrFloats, Floats: v} }

func (b *builder) cast(x string, to int32) string {
	return b.op("Cast", "", []string{x}, []Attr{intAttr("to", int64(to))})
}

var batch = []Dim{{Param: "N"}}

// inputs declares the raw inputs and builds the [N, F] double matrix of
// model-space columns (numeric columns raw, categorical ones encoded).
func (b *builder) inputs() error {
	p := b.p
	pipe := p.Pipeline
	if pipe == nil {
		// model space: one float input [N, F], the model's own thresholds
		if p.Features < 1 {
			return fmt.Errorf("onnx: a model without pipeline needs its number of features")
		}
		// The trees read doubles (their thresholds are a double tensor,
		// and runtimes take the threshold type from the input type); the
		// cast is exact, so "x < τ" decides as in float32.
		b.numeric = make([]bool, p.Features)
		b.g.Inputs = append(b.g.Inputs, ValueInfo{Name: ModelSpaceInput, ElemType: TypeFloat, Shape: []Dim{{Param: "N"}, {Value: int64(p.Features)}}})
		b.features = b.cast(ModelSpaceInput, TypeDouble)
		return nil
	}
	if len(p.Inputs) == 0 {
		return fmt.Errorf("onnx: the model has no input columns")
	}
	seen := map[string]bool{}
	for _, c := range p.Inputs {
		if seen[c.Name] || strings.HasPrefix(c.Name, "gdt_") {
			return fmt.Errorf("onnx: input column %q: names must be unique and not start with gdt_", c.Name)
		}
		seen[c.Name] = true
		vi := ValueInfo{Name: c.Name, ElemType: TypeDouble, Shape: []Dim{{Param: "N"}, {Value: 1}}}
		if c.Categorical {
			vi.ElemType = TypeString
		}
		b.g.Inputs = append(b.g.Inputs, vi)
	}
	enc, err := encodedLevels(p)
	if err != nil {
		return err
	}
	F := pipe.NumFeatures()
	b.numeric = make([]bool, F)
	cols := make([]string, F)
	for j := 0; j < F; j++ {
		src := pipe.Source(j)
		in := inputIndex(p, src.Column)
		if in < 0 {
			return fmt.Errorf("onnx: model-space feature %d (%s) comes from column %q, which is not a model input", j, src.Name, src.Column)
		}
		c := p.Inputs[in]
		if !c.Categorical {
			b.numeric[j] = true
			cols[j] = c.Name
			continue
		}
		v := enc[j]
		keys := append(append([]string(nil), c.Levels...), "")
		for _, l := range c.Levels {
			if l == "" {
				return fmt.Errorf("onnx: column %q has an empty level, which the export reserves for missing values", c.Name)
			}
		}
		le := b.op("LabelEncoder", MLDomain, []string{c.Name}, []Attr{
			stringsAttr("keys_strings", keys),
			floatsAttr("values_floats", v[:len(keys)]),
			{Name: "default_float", Type: AttrFloat, F: v[len(keys)]},
		})
		cols[j] = b.cast(le, TypeDouble)
	}
	if F == 1 {
		b.features = cols[0]
		return nil
	}
	b.features = b.op("Concat", "", cols, []Attr{intAttr("axis", 1)}, "gdt_features")
	return nil
}

func inputIndex(p *export.Plain, name string) int {
	for i, c := range p.Inputs {
		if c.Name == name {
			return i
		}
	}
	return -1
}

// encodedLevels returns, for every model-space feature of a categorical
// column with L levels, the L + 2 float32 values the pipeline gives its
// levels, a missing value and an unseen level.
func encodedLevels(p *export.Plain) (map[int][]float32, error) {
	rows := 0
	for _, c := range p.Inputs {
		if c.Categorical {
			rows = max(rows, len(c.Levels)+2)
		}
	}
	out := map[int][]float32{}
	if rows == 0 {
		return out, nil
	}
	tab := &data.Table{}
	for _, c := range p.Inputs {
		if !c.Categorical {
			tab.Columns = append(tab.Columns, data.NewNumeric(c.Name, make([]float64, rows)))
			continue
		}
		L := len(c.Levels)
		col := &data.Column{Name: c.Name, Kind: data.Categorical, Codes: make([]int32, rows),
			Levels: append(append([]string(nil), c.Levels...), unseenLevel)}
		for k := range col.Codes {
			switch {
			case k < L:
				col.Codes[k] = int32(k)
			case k == L+1:
				col.Codes[k] = int32(L)
			default:
				col.Codes[k] = data.Missing
			}
		}
		tab.Columns = append(tab.Columns, col)
	}
	m, err := p.Pipeline.Transform(tab)
	if err != nil {
		return nil, fmt.Errorf("onnx: encoding the categorical levels: %w", err)
	}
	for j := 0; j < m.Cols; j++ {
		src := p.Pipeline.Source(j)
		in := inputIndex(p, src.Column)
		if in < 0 || !p.Inputs[in].Categorical {
			continue
		}
		L := len(p.Inputs[in].Levels)
		v := make([]float32, L+2)
		for k := range v {
			v[k] = m.At(k, j)
			if math.IsNaN(float64(v[k])) || math.IsInf(float64(v[k]), 0) {
				return nil, fmt.Errorf("onnx: column %q encodes to %v", src.Column, v[k])
			}
		}
		out[j] = v
	}
	return out, nil
}

// cut returns how the model's split "x[j] < τ" is written: in raw units
// for numeric columns, in model space for encoded categorical ones.
func (b *builder) cut(j int, thr float32) (split, error) {
	if j < 0 || j >= len(b.numeric) {
		return split{}, fmt.Errorf("onnx: a node tests feature %d of %d", j, len(b.numeric))
	}
	k := cutKey{j, thr}
	if s, ok := b.cuts[k]; ok {
		return s, nil
	}
	s := split{mode: "BRANCH_LT", value: float64(thr)}
	if b.numeric[j] {
		rs, err := b.p.Pipeline.RawThresholdLess(j, thr)
		if err != nil {
			return split{}, fmt.Errorf("onnx: raw threshold of feature %d: %w", j, err)
		}
		if !rs.Numeric {
			return split{}, fmt.Errorf("onnx: feature %d: the pipeline describes a numeric column's split as categorical", j)
		}
		s = split{mode: "BRANCH_LEQ", value: rs.Threshold, missingTrue: rs.MissingLeft}
	}
	b.cuts[k] = s
	return s, nil
}

// ensemble collects the attributes of a TreeEnsemble operator.
type ensemble struct {
	treeIDs, nodeIDs, featureIDs, trueIDs, falseIDs, missing []int64
	modes                                                    []string
	values                                                   []float64
	tTree, tNode, tID                                        []int64
	tWeight                                                  []float32
}

func (e *ensemble) leaf(tree, node int) {
	e.treeIDs = append(e.treeIDs, int64(tree))
	e.nodeIDs = append(e.nodeIDs, int64(node))
	e.featureIDs = append(e.featureIDs, 0)
	e.trueIDs = append(e.trueIDs, 0)
	e.falseIDs = append(e.falseIDs, 0)
	e.missing = append(e.missing, 0)
	e.modes = append(e.modes, "LEAF")
	e.values = append(e.values, 0)
}

func (e *ensemble) branch(tree, node, feature int, s split, left, right int) {
	e.treeIDs = append(e.treeIDs, int64(tree))
	e.nodeIDs = append(e.nodeIDs, int64(node))
	e.featureIDs = append(e.featureIDs, int64(feature))
	e.trueIDs = append(e.trueIDs, int64(left))
	e.falseIDs = append(e.falseIDs, int64(right))
	m := int64(0)
	if s.missingTrue {
		m = 1
	}
	e.missing = append(e.missing, m)
	e.modes = append(e.modes, s.mode)
	e.values = append(e.values, s.value)
}

func (e *ensemble) target(tree, node, id int, w float32) {
	e.tTree = append(e.tTree, int64(tree))
	e.tNode = append(e.tNode, int64(node))
	e.tID = append(e.tID, int64(id))
	e.tWeight = append(e.tWeight, w)
}

// addTree adds the nodes of a plain tree; leafTargets writes a leaf's
// targets.
func (b *builder) addTree(e *ensemble, id int, t *interpret.Tree, leafTargets func(node int, n *interpret.Node)) error {
	for i := range t.Nodes {
		n := &t.Nodes[i]
		if n.IsLeaf() {
			e.leaf(id, i)
			leafTargets(i, n)
			continue
		}
		s, err := b.cut(n.Feature, n.Threshold)
		if err != nil {
			return err
		}
		e.branch(id, i, n.Feature, s, n.Left, n.Right)
	}
	return nil
}

// nodeAttrs are the node attributes shared by both TreeEnsemble operators.
func (e *ensemble) nodeAttrs() []Attr {
	return []Attr{
		intsAttr("nodes_treeids", e.treeIDs),
		intsAttr("nodes_nodeids", e.nodeIDs),
		intsAttr("nodes_featureids", e.featureIDs),
		stringsAttr("nodes_modes", e.modes),
		{Name: "nodes_values_as_tensor", Type: AttrTensor, T: ptr(Float64Tensor("", []int64{int64(len(e.values))}, e.values))},
		intsAttr("nodes_truenodeids", e.trueIDs),
		intsAttr("nodes_falsenodeids", e.falseIDs),
		intsAttr("nodes_missing_value_tracks_true", e.missing),
		stringAttr("post_transform", "NONE"),
	}
}

func ptr[T any](v T) *T { return &v }

// regressor appends a TreeEnsembleRegressor with n targets and returns
// its [N, n] float output.
func (b *builder) regressor(e *ensemble, n int) string {
	attrs := append(e.nodeAttrs(),
		intAttr("n_targets", int64(n)),
		intsAttr("target_treeids", e.tTree),
		intsAttr("target_nodeids", e.tNode),
		intsAttr("target_ids", e.tID),
		floatsAttr("target_weights", e.tWeight),
		stringAttr("aggregate_function", "SUM"))
	return b.op("TreeEnsembleRegressor", MLDomain, []string{b.features}, attrs)
}

// classifier exports a tree whose leaves hold class probabilities.
func (b *builder) classifier() error {
	t := b.p.Tree
	var e ensemble
	err := b.addTree(&e, 0, t, func(node int, n *interpret.Node) {
		for c, v := range n.Value {
			e.target(0, node, c, v)
		}
	})
	if err != nil {
		return err
	}
	if t.Outputs != len(b.p.Classes) {
		return fmt.Errorf("onnx: the tree has %d leaf values for %d classes", t.Outputs, len(b.p.Classes))
	}
	attrs := append(e.nodeAttrs(),
		stringsAttr("classlabels_strings", b.p.Classes),
		intsAttr("class_treeids", e.tTree),
		intsAttr("class_nodeids", e.tNode),
		intsAttr("class_ids", e.tID),
		floatsAttr("class_weights", e.tWeight))
	// The label is taken from the probabilities as for the other models
	// (ArgMax, first maximum): runtimes special-case the classifier's own
	// label for two classes (ONNX Runtime does not take the arg-max there).
	b.op("TreeEnsembleClassifier", MLDomain, []string{b.features}, attrs, "gdt_tree_label", OutputProbabilities)
	b.labels()
	return nil
}

func (b *builder) classOutputs() {
	b.g.Outputs = append(b.g.Outputs,
		ValueInfo{Name: OutputLabel, ElemType: TypeString, Shape: batch},
		ValueInfo{Name: OutputProbabilities, ElemType: TypeFloat, Shape: []Dim{{Param: "N"}, {Value: int64(len(b.p.Classes))}}})
}

// singleTree exports a tree whose leaves hold logits or regression values.
func (b *builder) singleTree() error {
	t := b.p.Tree
	var e ensemble
	err := b.addTree(&e, 0, t, func(node int, n *interpret.Node) {
		for c, v := range n.Value {
			e.target(0, node, c, v)
		}
	})
	if err != nil {
		return err
	}
	raw := b.regressor(&e, t.Outputs)
	return b.head(raw, t.Outputs)
}

// grande exports GRANDE's ensemble with its instance-wise softmax weights.
func (b *builder) grande() error {
	f := b.p.Ensemble
	E, C, d := f.Trees(), f.Outputs, f.CompleteDepth()
	if d < 1 {
		return fmt.Errorf("onnx: the ensemble's trees are not complete trees stored breadth first")
	}
	ni, nl := 1<<d-1, 1<<d
	leafWeights := f.Weighting == gdtensemble.LeafWeights
	off := 0
	if leafWeights {
		off = E
	}
	var e ensemble
	for t := 0; t < E; t++ {
		r := int(f.Roots[t])
		for i := 0; i < ni; i++ {
			j := int(f.Feature[r+i])
			s, err := b.cut(j, f.Threshold[r+i])
			if err != nil {
				return fmt.Errorf("%w (tree %d node %d)", err, t, i)
			}
			e.branch(t, i, j, s, 2*i+1, 2*i+2)
		}
		for l := 0; l < nl; l++ {
			e.leaf(t, ni+l)
			if leafWeights {
				e.target(t, ni+l, t, f.LeafWeight[r+ni+l])
			}
			for c := 0; c < C; c++ {
				e.target(t, ni+l, off+t*C+c, f.Value[(r+ni+l)*C+c])
			}
		}
	}
	y := b.regressor(&e, off+E*C)
	one := b.constant(Int64Tensor("", []int64{1}, []int64{1}))
	var a string // [N, E] or [1, E] double weights
	if leafWeights {
		w := b.op("Slice", "", []string{y, b.constant(Int64Tensor("", []int64{1}, []int64{0})), b.constant(Int64Tensor("", []int64{1}, []int64{int64(E)})), one}, nil)
		a = b.softmax(b.cast(w, TypeDouble))
	} else {
		// the constant shares of the trees (independent of the row), as
		// gdt computes them
		av := make([]float64, E)
		if err := f.Shares(make([]float32, f.Features), av); err != nil {
			return err
		}
		a = b.constant(Float64Tensor("", []int64{1, int64(E)}, av))
	}
	v := y
	if leafWeights {
		v = b.op("Slice", "", []string{y, b.constant(Int64Tensor("", []int64{1}, []int64{int64(E)})), b.constant(Int64Tensor("", []int64{1}, []int64{int64(E + E*C)})), one}, nil)
	}
	v3 := b.op("Reshape", "", []string{b.cast(v, TypeDouble), b.constant(Int64Tensor("", []int64{3}, []int64{-1, int64(E), int64(C)}))}, nil)
	a3 := b.op("Unsqueeze", "", []string{a, b.constant(Int64Tensor("", []int64{1}, []int64{2}))}, nil)
	prod := b.op("Mul", "", []string{a3, v3}, nil)
	sum := b.op("ReduceSum", "", []string{prod, one}, []Attr{intAttr("keepdims", 0)})
	return b.head(b.cast(sum, TypeFloat), C)
}

// softmax returns exp(x − max x) / Σ exp(x − max x) over axis 1 of a
// double [N, K] tensor, with gdt's operations.
func (b *builder) softmax(x string) string {
	mx := b.op("ReduceMax", "", []string{x}, []Attr{intsAttr("axes", []int64{1}), intAttr("keepdims", 1)})
	ex := b.op("Exp", "", []string{b.op("Sub", "", []string{x, mx}, nil)}, nil)
	s := b.op("ReduceSum", "", []string{ex, b.constant(Int64Tensor("", []int64{1}, []int64{1}))}, []Attr{intAttr("keepdims", 1)})
	return b.op("Div", "", []string{ex, s}, nil)
}

// head maps the raw float output [N, C] through the task's output (as
// model.Head) and declares the graph outputs.
func (b *builder) head(raw string, C int) error {
	p := b.p
	switch p.Task {
	case data.Regression:
		y := raw
		if !p.Identity {
			z := b.cast(raw, TypeDouble)
			switch p.Target.Mode {
			case loss.Log:
				// loss.Standardizer's log mode: exp(y) − 1e−7
				shift := b.constant(Float64Tensor("", nil, []float64{1e-7}))
				z = b.op("Sub", "", []string{b.op("Exp", "", []string{z}, nil), shift}, nil)
			default:
				scale := b.constant(Float64Tensor("", nil, []float64{p.Target.Scale}))
				shift := b.constant(Float64Tensor("", nil, []float64{p.Target.Shift}))
				z = b.op("Add", "", []string{b.op("Mul", "", []string{z, scale}, nil), shift}, nil)
			}
			y = b.cast(z, TypeFloat)
		}
		b.op("Identity", "", []string{y}, nil, OutputVariable)
		b.g.Outputs = append(b.g.Outputs, ValueInfo{Name: OutputVariable, ElemType: TypeFloat, Shape: []Dim{{Param: "N"}, {Value: int64(C)}}})
		return nil
	case data.Binary:
		if C != 1 {
			return fmt.Errorf("onnx: a binary model with %d logits per leaf: expected 1", C)
		}
		pr := b.op("Sigmoid", "", []string{b.cast(raw, TypeDouble)}, nil)
		q := b.op("Sub", "", []string{b.constant(Float64Tensor("", nil, []float64{1})), pr}, nil)
		both := b.op("Concat", "", []string{q, pr}, []Attr{intAttr("axis", 1)})
		b.cast2(both, OutputProbabilities)
	default:
		if C != len(p.Classes) {
			return fmt.Errorf("onnx: %d logits per leaf for %d classes", C, len(p.Classes))
		}
		mx := b.op("ReduceMax", "", []string{raw}, []Attr{intsAttr("axes", []int64{1}), intAttr("keepdims", 1)})
		ex := b.op("Exp", "", []string{b.cast(b.op("Sub", "", []string{raw, mx}, nil), TypeDouble)}, nil)
		s := b.op("ReduceSum", "", []string{ex, b.constant(Int64Tensor("", []int64{1}, []int64{1}))}, []Attr{intAttr("keepdims", 1)})
		ef := b.cast(b.cast(ex, TypeFloat), TypeDouble)
		b.cast2(b.op("Div", "", []string{ef, s}, nil), OutputProbabilities)
	}
	b.labels()
	return nil
}

// labels adds the label output: the class name of the first most probable
// class (model.Decide's choice; for two classes p(class 1) > 0.5).
func (b *builder) labels() {
	p := b.p
	idx := b.op("ArgMax", "", []string{OutputProbabilities}, []Attr{intAttr("axis", 1), intAttr("keepdims", 0)})
	keys := make([]int64, len(p.Classes))
	for i := range keys {
		keys[i] = int64(i)
	}
	b.op("LabelEncoder", MLDomain, []string{idx}, []Attr{intsAttr("keys_int64s", keys), stringsAttr("values_strings", p.Classes),
		stringAttr("default_string", "")}, OutputLabel)
	b.classOutputs()
}

// cast2 casts a double tensor to float under the given output name.
func (b *builder) cast2(x, out string) {
	b.op("Cast", "", []string{x}, []Attr{intAttr("to", int64(TypeFloat))}, out)
}

// doc describes the graph's inputs and outputs.
func (b *builder) doc(target string) string {
	p := b.p
	var s strings.Builder
	fmt.Fprintf(&s, "gdt %s model (%s", p.Kind, p.Task)
	if target != "" {
		fmt.Fprintf(&s, ", target %s", target)
	}
	if p.Pipeline == nil {
		fmt.Fprintf(&s, ").\nInput: X, a [N, %d] float matrix of model-space features; splits are the model's own (x < τ).\n", p.Features)
		if p.Task == data.Regression {
			s.WriteString("Output: variable, the prediction.")
		} else {
			fmt.Fprintf(&s, "Outputs: label [N] string (one of %s), probabilities [N, %d] float in that class order.", strings.Join(p.Classes, ", "), len(p.Classes))
		}
		return s.String()
	}
	s.WriteString(").\nInputs, one [N, 1] tensor per raw column:\n")
	for _, c := range p.Inputs {
		if c.Categorical {
			lv := append([]string(nil), c.Levels...)
			sort.Strings(lv)
			fmt.Fprintf(&s, "  %s: string; levels %s; \"\" = missing; other strings are unseen levels\n", c.Name, strings.Join(lv, ", "))
		} else {
			fmt.Fprintf(&s, "  %s: double; NaN = missing (follows the training median)\n", c.Name)
		}
	}
	if p.Task == data.Regression {
		s.WriteString("Output: variable [N, 1] float, the prediction in target units.\n")
	} else {
		fmt.Fprintf(&s, "Outputs: label [N] string (one of %s), probabilities [N, %d] float in that class order.\n", strings.Join(p.Classes, ", "), len(p.Classes))
	}
	s.WriteString("Numeric splits are in raw units, categorical columns are encoded with the model's fitted pipeline; routing is exact.")
	return s.String()
}
