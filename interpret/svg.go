package interpret

import (
	"encoding/xml"
	"fmt"
	"math"
	"strings"
	"unicode/utf8"
)

// Geometry of the SVG rendering (pixels; 12 px sans-serif text).
const (
	svgCharWidth  = 7.2 // estimated advance of one character
	svgLineHeight = 16.0
	svgPadX       = 10.0
	svgPadY       = 7.0
	svgHGap       = 18.0 // least horizontal gap between boxes of one level
	svgVGap       = 46.0 // vertical gap between levels
	svgMargin     = 12.0
)

// svgBox is a node's box: centre x, top y, width, height.
type svgBox struct {
	x, y, w, h float64
	lines      []string
}

// span is the horizontal extent of a subtree at one level, relative to the
// subtree root's centre.
type span struct{ lo, hi float64 }

// layout computes a tidy layout (Reingold–Tilford style): subtrees are
// built bottom-up with their left/right contours per level, the right
// subtree is pushed just far enough from the left one that no two boxes of
// a level come closer than svgHGap, and every parent is centred over its
// children. All nodes of a depth share one row.
func (v *View) layout() ([]svgBox, float64, float64) {
	t := v.Tree
	boxes := make([]svgBox, len(t.Nodes))
	rowH := make([]float64, t.Depth()+1)
	for i := range t.Nodes {
		lines := v.boxLines(i)
		width := 0
		for _, l := range lines {
			width = max(width, utf8.RuneCountInString(l))
		}
		boxes[i] = svgBox{w: float64(width)*svgCharWidth + 2*svgPadX, h: float64(len(lines))*svgLineHeight + 2*svgPadY, lines: lines}
		d := t.Nodes[i].Depth
		rowH[d] = math.Max(rowH[d], boxes[i].h)
	}
	off := make([]float64, len(t.Nodes)) // offset of a child's centre from its parent's
	var place func(i int) []span
	place = func(i int) []span {
		n := &t.Nodes[i]
		own := span{-boxes[i].w / 2, boxes[i].w / 2}
		if n.IsLeaf() {
			return []span{own}
		}
		L, R := place(n.Left), place(n.Right)
		d := 0.0
		for k := 0; k < min(len(L), len(R)); k++ {
			d = math.Max(d, L[k].hi-R[k].lo+svgHGap)
		}
		off[n.Left], off[n.Right] = -d/2, d/2
		out := make([]span, 1, 1+max(len(L), len(R)))
		out[0] = own
		for k := 0; k < max(len(L), len(R)); k++ {
			s := span{math.Inf(1), math.Inf(-1)}
			if k < len(L) {
				s = span{math.Min(s.lo, L[k].lo-d/2), math.Max(s.hi, L[k].hi-d/2)}
			}
			if k < len(R) {
				s = span{math.Min(s.lo, R[k].lo+d/2), math.Max(s.hi, R[k].hi+d/2)}
			}
			out = append(out, s)
		}
		return out
	}
	contour := place(0)
	left := math.Inf(1)
	right := math.Inf(-1)
	for _, s := range contour {
		left, right = math.Min(left, s.lo), math.Max(right, s.hi)
	}
	rowTop := make([]float64, len(rowH))
	y := svgMargin
	for d, h := range rowH {
		rowTop[d] = y
		y += h + svgVGap
	}
	// Nodes are numbered breadth first, so a parent precedes its children.
	boxes[0].x = svgMargin - left
	for i := range t.Nodes {
		n := &t.Nodes[i]
		boxes[i].y = rowTop[n.Depth]
		if !n.IsLeaf() {
			boxes[n.Left].x = boxes[i].x + off[n.Left]
			boxes[n.Right].x = boxes[i].x + off[n.Right]
		}
	}
	return boxes, right - left + 2*svgMargin, y - svgVGap + svgMargin
}

// SVG renders the tree as a self-contained SVG image (no external tools
// or fonts needed): boxes with the conditions and leaf outcomes, edges
// labelled Options.EdgeLabels, leaves coloured by class, tooltips with the
// model-space split, descriptions and all class probabilities; the path of
// Options.Highlight is drawn bold.
func (v *View) SVG() []byte {
	t := v.Tree
	boxes, width, height := v.layout()
	lo, hi := v.valueRange()
	var b strings.Builder
	f := func(x float64) string { return fmt.Sprintf("%.1f", x) }
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="Helvetica, Arial, sans-serif" font-size="12">`+"\n",
		f(width), f(height), f(width), f(height))
	b.WriteString(`<rect width="100%" height="100%" fill="white"/>` + "\n")
	b.WriteString(`<g class="edges" stroke="#555555" stroke-width="1.2">` + "\n")
	for i := range t.Nodes {
		n := &t.Nodes[i]
		if n.IsLeaf() {
			continue
		}
		p := boxes[i]
		for k, c := range []int{n.Left, n.Right} {
			q := boxes[c]
			x1, y1, x2, y2 := p.x, p.y+p.h, q.x, q.y
			sw := ""
			if v.onPath[i] && v.onPath[c] {
				sw = ` stroke-width="3.5" stroke="#222222"`
			}
			fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s"%s/>`+"\n", f(x1), f(y1), f(x2), f(y2), sw)
			anchor, dx := "end", -6.0
			if k == 1 {
				anchor, dx = "start", 6.0
			}
			fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="%s" stroke="none" fill="#333333" font-size="11">%s</text>`+"\n",
				f((x1+x2)/2+dx), f((y1+y2)/2+4), anchor, xmlText(v.edgeLabel(i, k)))
		}
	}
	b.WriteString("</g>\n")
	b.WriteString(`<g class="nodes">` + "\n")
	for i := range t.Nodes {
		q := boxes[i]
		stroke, sw := "#444444", "1"
		if v.onPath[i] {
			stroke, sw = "#222222", "3"
		}
		kind := "internal"
		if t.Nodes[i].IsLeaf() {
			kind = "leaf"
		}
		fmt.Fprintf(&b, `<g class="node %s" id="node%d"><title>%s</title>`, kind, i, xmlText(v.tooltip(i)))
		fmt.Fprintf(&b, `<rect x="%s" y="%s" width="%s" height="%s" rx="5" fill="%s" stroke="%s" stroke-width="%s"/>`,
			f(q.x-q.w/2), f(q.y), f(q.w), f(q.h), v.fill(i, lo, hi), stroke, sw)
		fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="middle" fill="#111111">`, f(q.x), f(q.y+svgPadY))
		for _, l := range q.lines {
			fmt.Fprintf(&b, `<tspan x="%s" dy="%s">%s</tspan>`, f(q.x), f(svgLineHeight), xmlText(l))
		}
		b.WriteString("</text></g>\n")
	}
	b.WriteString("</g>\n</svg>\n")
	return []byte(b.String())
}

// xmlText escapes s for XML character data and attribute values.
func xmlText(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}
