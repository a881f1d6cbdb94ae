package interpret

import "strings"

// Text renders the tree as nested if/else blocks, as in the thesis
// figures:
//
//	if income <= 37950:
//	    → rejected (p = 0.81, n = 40)
//	else:
//	    if housing in {rent, mortgage}:
//	        → approved (p = 0.93, n = 120)
//	    else:
//	        → rejected (p = 0.64, n = 17)
//
// A categorical condition names the side unseen levels go ("or unseen");
// a branch no raw value goes to is marked "(no raw value goes here)" (see
// the package documentation on unseen levels). The leaf reached by
// Options.Highlight is marked "◀ this row". Columns
// with a description (Options.Descriptions) are explained in a legend.
func (v *View) Text() string {
	var b strings.Builder
	v.writeText(&b, 0, 0)
	if v.Options.Descriptions != nil {
		var legend []string
		for _, c := range v.usedColumns() {
			if d := v.Options.description(c); d != "" {
				legend = append(legend, "    "+c+": "+d)
			}
		}
		if len(legend) > 0 {
			b.WriteString("\nwhere\n" + strings.Join(legend, "\n") + "\n")
		}
	}
	return b.String()
}

func (v *View) writeText(b *strings.Builder, i, indent int) {
	pad := strings.Repeat("    ", indent)
	n := &v.Tree.Nodes[i]
	if n.IsLeaf() {
		b.WriteString(pad + "→ " + v.LeafText(i))
		if v.onPath[i] {
			b.WriteString("  ◀ this row")
		}
		b.WriteByte('\n')
		return
	}
	c := &v.Conditions[i]
	note := func(side string) string {
		if c.Unreached == side {
			return "  (" + unreachedNote + ")"
		}
		return ""
	}
	b.WriteString(pad + "if " + c.True + ":" + note("left") + "\n")
	v.writeText(b, n.Left, indent+1)
	b.WriteString(pad + "else:" + note("right") + "\n")
	v.writeText(b, n.Right, indent+1)
}
