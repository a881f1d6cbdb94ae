package interpret

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/gdt-ml/gdt/data"
)

// View is a tree prepared for display: every internal node's condition in
// raw units and every leaf's outcome, computed once for all renderings
// (Text, DOT, SVG, JSON, GoSource).
type View struct {
	// Tree is the tree shown (not copied; do not change it while the view
	// is in use).
	Tree *Tree
	// Options are the display options (a copy; never nil).
	Options *Options
	// Conditions holds the condition of every internal node (zero value
	// at leaves), indexed like Tree.Nodes.
	Conditions []Condition
	// Outcomes holds the head's view of every leaf (zero value at
	// internal nodes).
	Outcomes []Outcome

	onPath []bool // node lies on the path of Options.Highlight
}

// NewView validates t and computes the conditions and leaf outcomes under
// the options o (nil means defaults).
func NewView(t *Tree, o *Options) (*View, error) {
	var opts Options
	if o != nil {
		opts = *o
	}
	features := 0
	if opts.Pipeline != nil {
		if !opts.Pipeline.Fitted() {
			return nil, fmt.Errorf("interpret: NewView: the pipeline is not fitted")
		}
		features = opts.Pipeline.NumFeatures()
	}
	if err := t.Validate(features); err != nil {
		return nil, err
	}
	if opts.Task > data.Regression {
		return nil, fmt.Errorf("interpret: NewView: Options.Task = %v: expected binary, multiclass or regression", opts.Task)
	}
	v := &View{Tree: t, Options: &opts,
		Conditions: make([]Condition, len(t.Nodes)),
		Outcomes:   make([]Outcome, len(t.Nodes)),
		onPath:     make([]bool, len(t.Nodes)),
	}
	for i := range t.Nodes {
		n := &t.Nodes[i]
		if n.IsLeaf() {
			v.Outcomes[i] = opts.Outcome(n.Value)
			continue
		}
		c, err := opts.Condition(n.Feature, n.Threshold)
		if err != nil {
			return nil, fmt.Errorf("interpret: NewView: node %d: %w", i, err)
		}
		v.Conditions[i] = c
	}
	if opts.Highlight != nil {
		for i := range t.Nodes {
			if f := t.Nodes[i].Feature; f >= len(opts.Highlight) {
				return nil, fmt.Errorf("interpret: NewView: Options.Highlight has %d values: node %d tests feature %d", len(opts.Highlight), i, f)
			}
		}
		path, err := t.PathOf(opts.Highlight)
		if err != nil {
			return nil, fmt.Errorf("interpret: NewView: Options.Highlight: %w", err)
		}
		for _, i := range path {
			v.onPath[i] = true
		}
	}
	return v, nil
}

// Formats lists the renderings View.Render writes.
var Formats = []string{"text", "dot", "svg", "json", "go"}

// Render writes the view in format: text (indented rules), dot (Graphviz),
// svg (self-contained), json or go (generated Go source of package
// "model").
func (v *View) Render(format string) ([]byte, error) {
	switch format {
	case "text":
		return []byte(v.Text()), nil
	case "dot":
		return []byte(v.DOT()), nil
	case "svg":
		return v.SVG(), nil
	case "json":
		return v.JSON()
	case "go":
		return v.GoSource("model")
	}
	return nil, fmt.Errorf("interpret: unknown format %q (want one of %s)", format, strings.Join(Formats, ", "))
}

// Leaf returns what a leaf formatter sees for leaf node i.
func (v *View) Leaf(i int) LeafInfo {
	n := &v.Tree.Nodes[i]
	return LeafInfo{Node: i, Outcome: v.Outcomes[i], Value: n.Value, Weight: n.Weight,
		Weighted: v.Tree.Weighted, Count: n.Count, Counted: v.Tree.Counted, Digits: v.Options.digits()}
}

// LeafText is the one-line text of leaf i (Options.FormatLeaf or
// DefaultLeafText).
func (v *View) LeafText(i int) string {
	if v.Options.FormatLeaf != nil {
		return v.Options.FormatLeaf(v.Leaf(i))
	}
	return DefaultLeafText(v.Leaf(i))
}

// unreachedNote marks a branch no raw value goes to (Condition.Unreached).
const unreachedNote = "no raw value goes here"

// edgeLabel is the label of the edge from internal node i to its left
// (k = 0) or right child: Options.EdgeLabels, with unreachedNote on a
// branch no raw value goes to.
func (v *View) edgeLabel(i, k int) string {
	l := v.Options.edgeLabels()[k]
	if u := v.Conditions[i].Unreached; (u == "left" && k == 0) || (u == "right" && k == 1) {
		l += " (" + unreachedNote + ")"
	}
	return l
}

// boxLines are the lines shown in node i's box (DOT, SVG).
func (v *View) boxLines(i int) []string {
	n := &v.Tree.Nodes[i]
	var lines []string
	if !n.IsLeaf() {
		lines = append(lines, v.Conditions[i].True)
	} else if v.Options.FormatLeaf != nil {
		return strings.Split(v.Options.FormatLeaf(v.Leaf(i)), "\n")
	} else {
		out := v.Outcomes[i]
		lines = append(lines, out.Label)
		if out.Class >= 0 {
			lines = append(lines, "p = "+strconv.FormatFloat(out.Proba, 'f', 2, 64))
		}
		if v.Tree.Weighted {
			lines = append(lines, "w = "+formatSig(float64(n.Weight), 3))
		}
	}
	if v.Tree.Counted {
		lines = append(lines, "n = "+strconv.Itoa(n.Count))
	}
	return lines
}

// tooltip is a longer description of node i (SVG title, DOT tooltip).
func (v *View) tooltip(i int) string {
	n := &v.Tree.Nodes[i]
	if !n.IsLeaf() {
		c := v.Conditions[i]
		txt := fmt.Sprintf("node %d: %s (model space: %s < %s)", i, c.True, c.Name, strconv.FormatFloat(float64(c.Threshold), 'g', -1, 32))
		if d := v.Options.description(c.Column); d != "" {
			txt += "; " + c.Column + ": " + d
		}
		return txt
	}
	out := v.Outcomes[i]
	txt := fmt.Sprintf("leaf %d: %s", i, v.LeafText(i))
	if len(out.Probs) > 0 {
		parts := make([]string, len(out.Probs))
		for c, p := range out.Probs {
			parts[c] = v.Options.ClassName(c) + " " + strconv.FormatFloat(p, 'f', 3, 64)
		}
		txt += "; probabilities: " + strings.Join(parts, ", ")
	}
	return txt
}

// palette holds one colour per class (ColorBrewer "Set2", then "Dark2").
var palette = []string{"#66c2a5", "#fc8d62", "#8da0cb", "#e78ac3", "#a6d854", "#ffd92f", "#e5c494", "#b3b3b3",
	"#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d", "#666666"}

// fill returns the fill colour of node i: light grey for internal nodes,
// the class colour for classification leaves (paler for less certain
// leaves) and a blue whose strength follows the value for regression.
func (v *View) fill(i int, lo, hi float64) string {
	n := &v.Tree.Nodes[i]
	if !n.IsLeaf() {
		return "#f7f7f7"
	}
	out := v.Outcomes[i]
	if out.Class >= 0 {
		k := float64(len(out.Probs))
		a := 1.0
		if k > 1 {
			a = 0.25 + 0.75*(out.Proba-1/k)/(1-1/k)
		}
		return blend(palette[out.Class%len(palette)], a)
	}
	a := 0.6
	if hi > lo && len(out.Values) > 0 {
		a = 0.2 + 0.8*(out.Values[0]-lo)/(hi-lo)
	}
	return blend("#4393c3", a)
}

// valueRange returns the smallest and largest first regression value over
// the leaves.
func (v *View) valueRange() (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for i, out := range v.Outcomes {
		if v.Tree.Nodes[i].IsLeaf() && len(out.Values) > 0 {
			lo, hi = math.Min(lo, out.Values[0]), math.Max(hi, out.Values[0])
		}
	}
	return lo, hi
}

// blend mixes the colour c ("#rrggbb") with white: a = 1 gives c, a = 0
// white.
func blend(c string, a float64) string {
	a = math.Max(0, math.Min(1, a))
	rgb, _ := strconv.ParseUint(c[1:], 16, 32)
	ch := func(shift uint) int {
		x := float64((rgb >> shift) & 0xff)
		return int(math.Round(255 - a*(255-x)))
	}
	return fmt.Sprintf("#%02x%02x%02x", ch(16), ch(8), ch(0))
}

// usedColumns lists the raw columns (feature names without a pipeline)
// the tree tests, in breadth-first order of first use.
func (v *View) usedColumns() []string {
	var cols []string
	seen := map[string]bool{}
	for i := range v.Tree.Nodes {
		if v.Tree.Nodes[i].IsLeaf() {
			continue
		}
		c := v.Conditions[i].Column
		if !seen[c] {
			seen[c] = true
			cols = append(cols, c)
		}
	}
	return cols
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
