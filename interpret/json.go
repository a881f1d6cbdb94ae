package interpret

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/gdt-ml/gdt/data"
	"math"
)

// JSONTree is the JSON rendering of a View: the task, the class names,
// the size and the nested nodes with their raw conditions.
type JSONTree struct {
	Task     string    `json:"task"`
	Outputs  int       `json:"outputs"`
	Classes  []string  `json:"classes,omitempty"`
	Internal int       `json:"internal"`
	Leaves   int       `json:"leaves"`
	Depth    int       `json:"depth"`
	Weighted bool      `json:"weighted,omitempty"`
	Counted  bool      `json:"counted,omitempty"`
	Root     *JSONNode `json:"root"`
	// Descriptions of the columns the tree tests.
	Descriptions map[string]string `json:"descriptions,omitempty"`
}

// JSONNode is one node of a JSONTree. Internal nodes carry the condition
// (Condition.True sends a row to Left), leaves the outcome.
type JSONNode struct {
	ID    int  `json:"id"`
	Depth int  `json:"depth"`
	Count *int `json:"count,omitempty"`

	Condition *Condition `json:"condition,omitempty"`
	Left      *JSONNode  `json:"left,omitempty"`
	Right     *JSONNode  `json:"right,omitempty"`

	Value   []float32 `json:"value,omitempty"`
	Weight  *float32  `json:"weight,omitempty"`
	Outcome *Outcome  `json:"outcome,omitempty"`
}

// JSONTree returns the nested JSON structure of the view.
func (v *View) JSONTree() *JSONTree {
	t := v.Tree
	in, lv := t.Size()
	out := &JSONTree{Task: v.task(), Outputs: t.Outputs, Internal: in, Leaves: lv, Depth: t.Depth(),
		Weighted: t.Weighted, Counted: t.Counted}
	if !v.Options.regression() {
		k := t.Outputs
		if k == 1 {
			k = 2
		}
		for c := 0; c < k; c++ {
			out.Classes = append(out.Classes, v.Options.ClassName(c))
		}
	}
	for _, c := range v.usedColumns() {
		if d := v.Options.description(c); d != "" {
			if out.Descriptions == nil {
				out.Descriptions = map[string]string{}
			}
			out.Descriptions[c] = d
		}
	}
	var build func(i int) *JSONNode
	build = func(i int) *JSONNode {
		n := &t.Nodes[i]
		j := &JSONNode{ID: i, Depth: n.Depth}
		if t.Counted {
			c := n.Count
			j.Count = &c
		}
		if n.IsLeaf() {
			j.Value = n.Value
			if t.Weighted {
				w := n.Weight
				j.Weight = &w
			}
			o := v.Outcomes[i]
			j.Outcome = &o
			return j
		}
		c := v.Conditions[i]
		j.Condition = &c
		j.Left, j.Right = build(n.Left), build(n.Right)
		return j
	}
	out.Root = build(0)
	return out
}

// JSON renders the view as indented JSON (JSONTree). Non-finite leaf
// values or probabilities are an error.
func (v *View) JSON() ([]byte, error) {
	for i := range v.Tree.Nodes {
		for _, x := range v.Tree.Nodes[i].Value {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return nil, fmt.Errorf("interpret: JSON: leaf %d has the non-finite value %v", i, x)
			}
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v.JSONTree()); err != nil {
		return nil, fmt.Errorf("interpret: JSON: %w", err)
	}
	return b.Bytes(), nil
}

// task names the output head the view uses.
func (v *View) task() string {
	switch {
	case v.Options.regression():
		return "regression"
	case v.Options.Task == data.Multiclass || v.Tree.Outputs > 1 && !(v.Options.Probabilities && v.Tree.Outputs == 2):
		return "multiclass"
	}
	return "binary"
}
