package interpret

import (
	"strconv"
	"strings"
)

// DOT renders the tree in the Graphviz language: one box per node (the
// condition, or the leaf's class, probability, weight and count), edges
// labelled Options.EdgeLabels, leaves filled with their class colour.
// Render it with e.g. `dot -Tsvg tree.dot > tree.svg`.
func (v *View) DOT() string {
	var b strings.Builder
	lo, hi := v.valueRange()
	b.WriteString("digraph tree {\n")
	b.WriteString("\tnode [shape=box, style=\"rounded,filled\", fillcolor=\"#f7f7f7\", fontname=\"Helvetica\"];\n")
	b.WriteString("\tedge [fontname=\"Helvetica\"];\n")
	for i := range v.Tree.Nodes {
		attrs := "label=" + dotQuote(strings.Join(v.boxLines(i), "\n")) + ", tooltip=" + dotQuote(v.tooltip(i))
		if v.Tree.Nodes[i].IsLeaf() {
			attrs += ", fillcolor=\"" + v.fill(i, lo, hi) + "\""
		}
		if v.onPath[i] {
			attrs += ", penwidth=3"
		}
		b.WriteString("\tn" + strconv.Itoa(i) + " [" + attrs + "];\n")
	}
	for i := range v.Tree.Nodes {
		n := &v.Tree.Nodes[i]
		if n.IsLeaf() {
			continue
		}
		for k, c := range []int{n.Left, n.Right} {
			attrs := "label=" + dotQuote(v.edgeLabel(i, k))
			if v.onPath[c] && v.onPath[i] {
				attrs += ", penwidth=3"
			}
			b.WriteString("\tn" + strconv.Itoa(i) + " -> n" + strconv.Itoa(c) + " [" + attrs + "];\n")
		}
	}
	b.WriteString("}\n")
	return b.String()
}

// dotQuote quotes s as a DOT string; newlines become centred line breaks.
func dotQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\r", "")
	return `"` + r.Replace(s) + `"`
}
