package onnx

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/gdt-ml/gdt/export"
	"github.com/gdt-ml/gdt/interpret"
	"github.com/gdt-ml/gdt/safefile"
)

// Names of the input and outputs of an exported policy.
const (
	// PolicyInput is the observation: a [N, F] float tensor, the raw
	// observation exactly as the environment returns it (cast to double
	// for the tree).
	PolicyInput = "observation"
	// OutputAction is the greedy action: [N] int64 action indices
	// (discrete: the first arg-max of the logits) or the [N, D] float mean
	// action (continuous).
	OutputAction = "action"
	// OutputActionName is the name of the greedy discrete action ([N]
	// string).
	OutputActionName = "action_name"
	// OutputLogits are the leaf logits of a discrete policy ([N, A] float).
	OutputLogits = "logits"
)

// WritePolicy exports a tree policy as ONNX to path (atomically).
func WritePolicy(p *export.Policy, path string) error {
	m, err := BuildPolicy(p)
	if err != nil {
		return err
	}
	return safefile.WriteBytes(path, m.Marshal())
}

// BuildPolicy builds the ONNX model of a tree policy. Its input is
// PolicyInput, the raw observation as the environment returns it; when the
// policy was trained on scaled observations (p.Scaling, e.g. LunarLander's
// fixed scaling of sympol-rl spec §1.5) the graph applies (x − Sub)/Div in
// float32 first, as training did. The tree's
// splits are written as they are ("x < τ", BRANCH_LT, on the input cast
// to double, which is exact); NaN goes right, as in gdt.
//
// Discrete actions: an ai.onnx.ml TreeEnsembleClassifier (post_transform
// NONE) whose class weights are the leaves' logits gives OutputLogits;
// ArgMax (first maximum, as policy.Argmax) gives OutputAction, a
// LabelEncoder OutputActionName, and a softmax in double
// OutputProbabilities. The classifier's own label output is not used:
// runtimes break ties in it differently.
//
// Continuous actions: a TreeEnsembleRegressor with one target per action
// dimension gives OutputAction, the mean action (unclipped, as the greedy
// policy; the environment clips it to its bounds).
func BuildPolicy(p *export.Policy) (*Model, error) {
	if p == nil || p.Tree == nil || len(p.Tree.Nodes) == 0 {
		return nil, fmt.Errorf("onnx: the policy has no tree")
	}
	if p.Features < 1 {
		return nil, fmt.Errorf("onnx: the policy reads %d observation features: expected at least 1", p.Features)
	}
	if err := p.Tree.Validate(p.Features); err != nil {
		return nil, fmt.Errorf("onnx: policy tree: %w", err)
	}
	A := p.Tree.Outputs
	if len(p.ActionNames) != A {
		return nil, fmt.Errorf("onnx: %d action names for %d leaf outputs", len(p.ActionNames), A)
	}
	b := &builder{p: &export.Plain{Kind: "policy", Features: p.Features}, cuts: map[cutKey]split{}}
	b.numeric = make([]bool, p.Features) // model-space splits, kept as they are
	b.g.Inputs = append(b.g.Inputs, ValueInfo{Name: PolicyInput, ElemType: TypeFloat, Shape: []Dim{{Param: "N"}, {Value: int64(p.Features)}}})
	// The tree reads doubles: its thresholds are a double tensor, and
	// runtimes take the threshold type from the input type. The cast is
	// exact, so "x < τ" decides as in float32.
	in := PolicyInput
	if sc := p.Scaling; sc != nil {
		// The observation scaling of training (x − Sub)/Div, in float32 as
		// training computed it, before the cast.
		if err := sc.Check(p.Features); err != nil {
			return nil, fmt.Errorf("onnx: %w", err)
		}
		dims := []int64{1, int64(p.Features)}
		in = b.op("Sub", "", []string{in, b.constant(Float32Tensor("", dims, sc.Sub))}, nil)
		in = b.op("Div", "", []string{in, b.constant(Float32Tensor("", dims, sc.Div))}, nil)
	}
	b.features = b.cast(in, TypeDouble)
	var e ensemble
	err := b.addTree(&e, 0, p.Tree, func(node int, n *interpret.Node) {
		for c, v := range n.Value {
			e.target(0, node, c, v)
		}
	})
	if err != nil {
		return nil, err
	}
	rows := []Dim{{Param: "N"}, {Value: int64(A)}}
	if p.Discrete {
		labels := make([]int64, A)
		for i := range labels {
			labels[i] = int64(i)
		}
		attrs := append(e.nodeAttrs(),
			intsAttr("classlabels_int64s", labels),
			intsAttr("class_treeids", e.tTree),
			intsAttr("class_nodeids", e.tNode),
			intsAttr("class_ids", e.tID),
			floatsAttr("class_weights", e.tWeight))
		b.op("TreeEnsembleClassifier", MLDomain, []string{b.features}, attrs, "gdt_classifier_label", OutputLogits)
		b.op("ArgMax", "", []string{OutputLogits}, []Attr{intAttr("axis", 1), intAttr("keepdims", 0)}, OutputAction)
		b.op("LabelEncoder", MLDomain, []string{OutputAction}, []Attr{intsAttr("keys_int64s", labels), stringsAttr("values_strings", p.ActionNames),
			stringAttr("default_string", "")}, OutputActionName)
		b.cast2(b.softmax(b.cast(OutputLogits, TypeDouble)), OutputProbabilities)
		b.g.Outputs = append(b.g.Outputs,
			ValueInfo{Name: OutputAction, ElemType: TypeInt64, Shape: batch},
			ValueInfo{Name: OutputActionName, ElemType: TypeString, Shape: batch},
			ValueInfo{Name: OutputProbabilities, ElemType: TypeFloat, Shape: rows},
			ValueInfo{Name: OutputLogits, ElemType: TypeFloat, Shape: rows})
	} else {
		attrs := append(e.nodeAttrs(),
			intAttr("n_targets", int64(A)),
			intsAttr("target_treeids", e.tTree),
			intsAttr("target_nodeids", e.tNode),
			intsAttr("target_ids", e.tID),
			floatsAttr("target_weights", e.tWeight),
			stringAttr("aggregate_function", "SUM"))
		b.op("TreeEnsembleRegressor", MLDomain, []string{b.features}, attrs, OutputAction)
		b.g.Outputs = append(b.g.Outputs, ValueInfo{Name: OutputAction, ElemType: TypeFloat, Shape: rows})
	}
	m := &Model{
		IRVersion:       8,
		Opsets:          []Opset{{"", 13}, {MLDomain, 3}},
		ProducerName:    "gdt",
		ProducerVersion: "1",
		Domain:          "org.gdt-ml",
		ModelVersion:    1,
		Doc:             policyDoc(p),
		Graph:           b.g,
	}
	method := p.Method
	if method == "" {
		method = "sympol"
	}
	m.Graph.Name = "gdt_" + method + "_policy"
	js := func(v any) string {
		out, _ := json.Marshal(v)
		return string(out)
	}
	m.Metadata = []KeyValue{{"gdt_kind", method + "-policy"}, {"gdt_env", p.Env}, {"gdt_steps", strconv.Itoa(p.Steps)},
		{"gdt_prune", p.Prune}, {"gdt_features", js(p.FeatureNames)}, {"gdt_actions", js(p.ActionNames)},
		{"gdt_discrete", strconv.FormatBool(p.Discrete)}, {"gdt_tree_nodes", strconv.Itoa(p.Tree.NumNodes())}}
	if p.Low != nil && p.High != nil {
		m.Metadata = append(m.Metadata, KeyValue{"gdt_observation_low", js(finite(p.Low))}, KeyValue{"gdt_observation_high", js(finite(p.High))})
	}
	if !p.Discrete {
		m.Metadata = append(m.Metadata, KeyValue{"gdt_log_std", js(p.LogStd)})
		if p.ActionLow != nil {
			m.Metadata = append(m.Metadata, KeyValue{"gdt_action_low", js(p.ActionLow)}, KeyValue{"gdt_action_high", js(p.ActionHigh)})
		}
	}
	return m, nil
}

// finite renders bounds for JSON: ±Inf as null.
func finite(x []float32) []*float64 {
	out := make([]*float64, len(x))
	for i, v := range x {
		f := float64(v)
		if f-f == 0 { // finite
			out[i] = &f
		}
	}
	return out
}

// policyDoc describes the exported policy.
func policyDoc(p *export.Policy) string {
	var s strings.Builder
	method := p.Method
	if method == "" {
		method = "tree"
	}
	fmt.Fprintf(&s, "gdt %s policy for %s", method, p.Env)
	if p.Steps > 0 {
		fmt.Fprintf(&s, " after %d environment steps", p.Steps)
	}
	fmt.Fprintf(&s, "; %d-node tree (pruning: %s).\n", p.Tree.NumNodes(), p.Prune)
	scaled := "no scaling"
	if p.Scaling != nil {
		scaled = "the graph applies the training's fixed scaling (x − sub)/div itself"
	}
	fmt.Fprintf(&s, "Input: %s, a [N, %d] float tensor: the raw observation exactly as the environment returns it (%s), components: %s.\n",
		PolicyInput, p.Features, scaled, strings.Join(p.FeatureNames, ", "))
	if p.Prune == export.PruneVisited && p.Visits != nil {
		fmt.Fprintf(&s, "The tree was pruned with the observations the greedy policy met, %s: it takes the trained policy's greedy action on every one of them", p.Visits)
		if !p.Visits.Complete() {
			s.WriteString(" and may act differently on others")
		}
		s.WriteString(".\n")
	}
	if p.Prune != export.PruneNone && (p.Low != nil || p.High != nil) {
		s.WriteString("The tree was pruned with the observation-space bounds: it acts exactly as the trained policy on every observation within them")
		if p.Prune == export.PruneFull && p.Discrete {
			s.WriteString(" (same greedy action; a leaf merged with a sibling of the same greedy action keeps the left leaf's logits)")
		}
		s.WriteString(".\n")
	}
	if p.Discrete {
		fmt.Fprintf(&s, "Outputs: %s [N] int64, the greedy action (first arg-max of the logits); %s [N] string (%s); %s [N, %d] float, the softmax of the logits; %s [N, %d] float, the leaf logits.",
			OutputAction, OutputActionName, strings.Join(p.ActionNames, ", "), OutputProbabilities, len(p.ActionNames), OutputLogits, len(p.ActionNames))
	} else {
		fmt.Fprintf(&s, "Output: %s [N, %d] float, the greedy (mean) action (%s), unclipped", OutputAction, len(p.ActionNames), strings.Join(p.ActionNames, ", "))
		if p.ActionLow != nil {
			fmt.Fprintf(&s, "; the environment clips it to [%v, %v]", p.ActionLow, p.ActionHigh)
		}
		fmt.Fprintf(&s, ". The stochastic training policy adds Gaussian noise with log standard deviations %v.", p.LogStd)
	}
	return s.String()
}
