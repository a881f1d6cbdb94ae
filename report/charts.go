package report

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"
)

// palette colours series and classes.
var palette = []string{"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"}

func colour(i int) string { return palette[i%len(palette)] }

// series is one line of a chart.
type series struct {
	name   string
	x, y   []float64
	colour string
	dashed bool
	width  float64
	points bool    // draw markers instead of a line
	radius float64 // marker radius (default 2.2)
	// opacity of the line or markers (0: opaque; markers default to 0.55)
	opacity float64
}

// chart describes an x/y chart rendered as inline SVG. width and height
// are those of the plot with its axes; a legend of the named series is
// drawn to the right of it, outside the data area, widening the SVG.
type chart struct {
	title, xLabel, yLabel string
	width, height         float64
	xMin, xMax            float64
	yMin, yMax            float64
	fixed                 bool // use the given ranges instead of the data's
	diagonal              bool // draw y = x
	series                []series
}

// Legend geometry: the legend column starts legendGap to the right of the
// plot rectangle; a character of its 11 px text is taken as legendChar wide.
const (
	legendGap   = 14.0
	legendChar  = 6.4
	legendEntry = 16.0
)

func num(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// niceTicks returns about n round tick values covering [lo, hi].
func niceTicks(lo, hi float64, n int) []float64 {
	if !(hi > lo) {
		return []float64{lo}
	}
	raw := (hi - lo) / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	var out []float64
	for v := math.Ceil(lo/step) * step; v <= hi+step*1e-9; v += step {
		out = append(out, v)
	}
	return out
}

func tickText(v float64) string {
	if v == 0 {
		return "0"
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// svg renders the chart.
func (c *chart) svg() string {
	if c.width == 0 {
		c.width, c.height = 520, 320
	}
	const left, right, top, bottom = 64.0, 16.0, 28.0, 44.0
	if !c.fixed {
		c.xMin, c.xMax, c.yMin, c.yMax = math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
		for _, s := range c.series {
			for i := range s.x {
				if math.IsNaN(s.y[i]) || math.IsInf(s.y[i], 0) {
					continue
				}
				c.xMin, c.xMax = math.Min(c.xMin, s.x[i]), math.Max(c.xMax, s.x[i])
				c.yMin, c.yMax = math.Min(c.yMin, s.y[i]), math.Max(c.yMax, s.y[i])
			}
		}
		if math.IsInf(c.xMin, 0) {
			c.xMin, c.xMax, c.yMin, c.yMax = 0, 1, 0, 1
		}
		if c.xMax == c.xMin {
			c.xMax = c.xMin + 1
		}
		if c.yMax == c.yMin {
			c.yMin, c.yMax = c.yMin-0.5, c.yMax+0.5
		}
		pad := 0.05 * (c.yMax - c.yMin)
		c.yMin, c.yMax = c.yMin-pad, c.yMax+pad
	}
	pw, ph := c.width-left-right, c.height-top-bottom
	legendW, named := 0.0, 0
	for _, s := range c.series {
		if s.name != "" {
			legendW = math.Max(legendW, 26+legendChar*float64(len([]rune(s.name))))
			named++
		}
	}
	total, totalH := c.width, math.Max(c.height, top+4+legendEntry*float64(named)+8)
	if legendW > 0 {
		total = left + pw + legendGap + legendW + right
	}
	px := func(x float64) float64 { return left + (x-c.xMin)/(c.xMax-c.xMin)*pw }
	py := func(y float64) float64 { return top + ph - (y-c.yMin)/(c.yMax-c.yMin)*ph }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="%s" height="%s" viewBox="0 0 %s %s" font-family="Helvetica, Arial, sans-serif" font-size="11">`,
		num(total), num(totalH), num(total), num(totalH))
	fmt.Fprintf(&b, `<title>%s</title>`, html.EscapeString(c.title))
	fmt.Fprintf(&b, `<rect class="plot" x="%s" y="%s" width="%s" height="%s" fill="#fcfcfc" stroke="#999999"/>`, num(left), num(top), num(pw), num(ph))
	for _, t := range niceTicks(c.xMin, c.xMax, 6) {
		x := px(t)
		fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#e4e4e4"/>`, num(x), num(top), num(x), num(top+ph))
		fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="middle">%s</text>`, num(x), num(top+ph+14), tickText(t))
	}
	for _, t := range niceTicks(c.yMin, c.yMax, 5) {
		y := py(t)
		fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#e4e4e4"/>`, num(left), num(y), num(left+pw), num(y))
		fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="end">%s</text>`, num(left-4), num(y+4), tickText(t))
	}
	if c.diagonal {
		lo, hi := math.Max(c.xMin, c.yMin), math.Min(c.xMax, c.yMax)
		fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#aaaaaa" stroke-dasharray="4 3"/>`, num(px(lo)), num(py(lo)), num(px(hi)), num(py(hi)))
	}
	// Faint series (opacity below 1) are drawn first, under the others.
	order := make([]int, 0, len(c.series))
	for pass := 0; pass < 2; pass++ {
		for i, s := range c.series {
			if faint := s.opacity > 0 && s.opacity < 1; faint == (pass == 0) {
				order = append(order, i)
			}
		}
	}
	for _, i := range order {
		s := c.series[i]
		col := s.colour
		if col == "" {
			col = colour(i)
		}
		w := s.width
		if w == 0 {
			w = 1.6
		}
		if s.points {
			r := s.radius
			if r == 0 {
				r = 2.2
			}
			fmt.Fprintf(&b, `<g fill="%s" fill-opacity="%s">`, col, opacity(s.opacity, 0.55))
			for k := range s.x {
				if !math.IsNaN(s.y[k]) {
					fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="%s"/>`, num(px(s.x[k])), num(py(s.y[k])), num(r))
				}
			}
			b.WriteString(`</g>`)
			continue
		}
		var pts []string
		for k := range s.x {
			if !math.IsNaN(s.y[k]) && !math.IsInf(s.y[k], 0) {
				pts = append(pts, num(px(s.x[k]))+","+num(py(s.y[k])))
			}
		}
		fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="%s"%s%s points="%s"><title>%s</title></polyline>`,
			col, num(w), dashAttr(s.dashed), strokeOpacity(s.opacity), strings.Join(pts, " "), html.EscapeString(s.name))
	}
	// The legend: a column right of the plot rectangle, never over the data.
	if legendW > 0 {
		lx, ly := left+pw+legendGap, top+4
		b.WriteString(`<g class="legend">`)
		for i, s := range c.series {
			if s.name == "" {
				continue
			}
			col := s.colour
			if col == "" {
				col = colour(i)
			}
			if s.points {
				r := math.Min(math.Max(s.radius, 2.2), 5)
				fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="%s" fill="%s" fill-opacity="%s"/>`, num(lx+9), num(ly+4), num(r), col, opacity(s.opacity, 0.55))
			} else {
				w := math.Min(math.Max(s.width, 1.6), 3)
				fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="%s"%s%s/>`,
					num(lx), num(ly+4), num(lx+18), num(ly+4), col, num(w), dashAttr(s.dashed), strokeOpacity(s.opacity))
			}
			fmt.Fprintf(&b, `<text x="%s" y="%s">%s</text>`, num(lx+24), num(ly+8), html.EscapeString(s.name))
			ly += legendEntry
		}
		b.WriteString(`</g>`)
	}
	fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="middle" font-size="12">%s</text>`, num(left+pw/2), num(c.height-8), html.EscapeString(c.xLabel))
	fmt.Fprintf(&b, `<text x="14" y="%s" text-anchor="middle" font-size="12" transform="rotate(-90 14 %s)">%s</text>`, num(top+ph/2), num(top+ph/2), html.EscapeString(c.yLabel))
	fmt.Fprintf(&b, `<text x="%s" y="16" text-anchor="middle" font-size="13" font-weight="bold">%s</text>`, num(left+pw/2), html.EscapeString(c.title))
	b.WriteString(`</svg>`)
	return b.String()
}

func dashAttr(dashed bool) string {
	if dashed {
		return ` stroke-dasharray="5 3"`
	}
	return ""
}

// opacity returns o, or def when o is 0 (unset).
func opacity(o, def float64) string {
	if o == 0 {
		o = def
	}
	return strconv.FormatFloat(o, 'f', -1, 64)
}

func strokeOpacity(o float64) string {
	if o == 0 || o >= 1 {
		return ""
	}
	return ` stroke-opacity="` + opacity(o, 1) + `"`
}

// bar is one bar of a horizontal bar chart.
type bar struct {
	label, note string
	value       float64
}

// barChart renders horizontal bars scaled to the largest value.
func barChart(title string, bars []bar, colourOf func(int) string) string {
	const rowH, labelW, barW = 20.0, 170.0, 300.0
	width := labelW + barW + 150
	height := 30 + rowH*float64(len(bars)) + 8
	mx := 0.0
	for _, b := range bars {
		mx = math.Max(mx, b.value)
	}
	if mx <= 0 {
		mx = 1
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="%s" height="%s" viewBox="0 0 %s %s" font-family="Helvetica, Arial, sans-serif" font-size="11">`,
		num(width), num(height), num(width), num(height))
	fmt.Fprintf(&b, `<title>%s</title><text x="4" y="16" font-size="13" font-weight="bold">%s</text>`, html.EscapeString(title), html.EscapeString(title))
	for i, br := range bars {
		y := 26 + rowH*float64(i)
		w := math.Max(1, br.value/mx*barW)
		col := colour(0)
		if colourOf != nil {
			col = colourOf(i)
		}
		label := br.label
		if len([]rune(label)) > 26 {
			label = string([]rune(label)[:25]) + "…"
		}
		fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="end">%s</text>`, num(labelW-6), num(y+13), html.EscapeString(label))
		fmt.Fprintf(&b, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s"><title>%s: %s</title></rect>`, num(labelW), num(y+3), num(w), num(rowH-6), col, html.EscapeString(br.label), html.EscapeString(br.note))
		fmt.Fprintf(&b, `<text x="%s" y="%s">%s</text>`, num(labelW+w+4), num(y+13), html.EscapeString(br.note))
	}
	b.WriteString(`</svg>`)
	return b.String()
}
