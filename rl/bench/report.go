package bench

import (
	"fmt"
	"html"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/gdt-ml/gdt/metrics"
	"github.com/gdt-ml/gdt/safefile"
)

// HTML writes the table as an HTML table with its title and note.
func (t *Table) HTML(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "<h3>%s</h3>\n<table>\n<tr>", html.EscapeString(t.Title))
	for _, h := range t.Header {
		fmt.Fprintf(&b, "<th>%s</th>", html.EscapeString(h))
	}
	b.WriteString("</tr>\n")
	for _, r := range t.Rows {
		b.WriteString("<tr>")
		for i, c := range r {
			tag := "td"
			if i == 0 {
				tag = "th"
			}
			fmt.Fprintf(&b, "<%s>%s</%s>", tag, html.EscapeString(c), tag)
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</table>\n")
	if t.Note != "" {
		fmt.Fprintf(&b, "<p class=\"note\">%s</p>\n", html.EscapeString(t.Note))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// palette colours the methods in the curves.
var palette = map[string]string{
	SYMPOL: "#1f77b4", MLP: "#7f7f7f", SDT: "#2ca02c", DSDT: "#98df8a",
	SADT5: "#ff7f0e", SADT8: "#d62728", VIPER5: "#9467bd", VIPER8: "#8c564b",
}

// series is one averaged learning curve.
type series struct {
	method  string
	steps   []float64
	trained []float64
	applied []float64
}

// curves averages the rows' curves per method for one env and group
// (point k averaged over the seeds that have a k-th evaluation).
func curvesOf(rows []Row, envID string, g group) []series {
	by := map[string][]Row{}
	for _, r := range rows {
		if r.Err == "" && r.Env == envID && len(r.Curve) > 0 && (group{r.Algorithm, r.Profile, r.Variant}) == g {
			by[r.Method] = append(by[r.Method], r)
		}
	}
	var out []series
	for _, m := range append(append([]string{}, Methods...), otherMethods(by)...) {
		rs := by[m]
		if len(rs) == 0 {
			continue
		}
		n := 0
		for _, r := range rs {
			n = max(n, len(r.Curve))
		}
		s := series{method: m}
		for k := 0; k < n; k++ {
			var st, tr, ap []float64
			for _, r := range rs {
				if k < len(r.Curve) {
					p := r.Curve[k]
					st = append(st, float64(p.Step))
					tr = append(tr, p.Trained)
					if !math.IsNaN(p.Applied) {
						ap = append(ap, p.Applied)
					}
				}
			}
			s.steps = append(s.steps, metrics.Mean(st))
			s.trained = append(s.trained, metrics.Mean(tr))
			if len(ap) > 0 {
				s.applied = append(s.applied, metrics.Mean(ap))
			} else {
				s.applied = append(s.applied, math.NaN())
			}
		}
		out = append(out, s)
	}
	return out
}

func otherMethods(by map[string][]Row) []string {
	var out []string
	for m := range by {
		if !contains(Methods, m) {
			out = append(out, m)
		}
	}
	return out
}

// writeSVG draws the learning curves of one environment against training
// steps: the validation return of every trained model (SYMPOL, MLP, SDT;
// solid) and of every tree extracted from one at that point (D-SDT, SA-DT;
// dashed). SYMPOL's trained model is its applied model.
func writeSVG(w io.Writer, title string, ss []series) error {
	const W, H, left, right, top, bottom = 580.0, 320.0, 60.0, 150.0, 28.0, 40.0
	xmin, xmax := math.Inf(1), math.Inf(-1)
	ymin, ymax := math.Inf(1), math.Inf(-1)
	for _, s := range ss {
		for i, x := range s.steps {
			xmin, xmax = math.Min(xmin, x), math.Max(xmax, x)
			for _, y := range []float64{s.trained[i], s.applied[i]} {
				if !math.IsNaN(y) && !math.IsInf(y, 0) {
					ymin, ymax = math.Min(ymin, y), math.Max(ymax, y)
				}
			}
		}
	}
	if math.IsInf(xmin, 0) || math.IsInf(ymin, 0) {
		xmin, xmax, ymin, ymax = 0, 1, 0, 1
	}
	if xmax == xmin {
		xmax = xmin + 1
	}
	if ymax == ymin {
		ymin, ymax = ymin-1, ymax+1
	}
	pad := 0.05 * (ymax - ymin)
	ymin, ymax = ymin-pad, ymax+pad
	pw, ph := W-left-right, H-top-bottom
	X := func(x float64) float64 { return left + (x-xmin)/(xmax-xmin)*pw }
	Y := func(y float64) float64 { return top + (ymax-y)/(ymax-ymin)*ph }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif" font-size="11">`+"\n", W, H, W, H)
	fmt.Fprintf(&b, `<text x="%.0f" y="16" font-size="13" font-weight="bold">%s</text>`+"\n", left, html.EscapeString(title))
	fmt.Fprintf(&b, `<rect x="%.0f" y="%.0f" width="%.0f" height="%.0f" fill="none" stroke="#999"/>`+"\n", left, top, pw, ph)
	for k := 0; k <= 4; k++ {
		yv := ymin + float64(k)/4*(ymax-ymin)
		xv := xmin + float64(k)/4*(xmax-xmin)
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#eee"/>`, left, Y(yv), left+pw, Y(yv))
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="end">%s</text>`, left-4, Y(yv)+4, fmtNum(yv))
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n", X(xv), top+ph+14, fmtSteps(xv))
	}
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">environment steps</text>`+"\n", left+pw/2, H-6)
	ly := top + 6
	for _, s := range ss {
		col := palette[s.method]
		if col == "" {
			col = "#17becf"
		}
		line := func(ys []float64, dash string) {
			var pts []string
			for i, y := range ys {
				if math.IsNaN(y) || math.IsInf(y, 0) {
					continue
				}
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", X(s.steps[i]), Y(y)))
			}
			if len(pts) == 0 {
				return
			}
			fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="1.6"%s points="%s"/>`+"\n", col, dash, strings.Join(pts, " "))
			for _, pt := range pts {
				x, y, _ := strings.Cut(pt, ",")
				fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="2" fill="%s"/>`, x, y, col)
			}
			b.WriteString("\n")
		}
		derived := s.method != SYMPOL && s.method != MLP && s.method != SDT
		dash := ""
		if derived {
			// The trained model is the base method's (drawn with it); show
			// the applied tree only.
			dash = ` stroke-dasharray="5,3"`
			line(s.applied, dash)
		} else {
			line(s.trained, "")
		}
		fmt.Fprintf(&b, `<line x1="%.0f" y1="%.1f" x2="%.0f" y2="%.1f" stroke="%s" stroke-width="2"%s/>`, W-right+8, ly, W-right+26, ly, col, dash)
		fmt.Fprintf(&b, `<text x="%.0f" y="%.1f">%s</text>`+"\n", W-right+30, ly+4, html.EscapeString(s.method))
		ly += 15
	}
	fmt.Fprintf(&b, `<text x="%.0f" y="%.1f" fill="#555">solid: trained</text>`+"\n", W-right+8, ly+8)
	fmt.Fprintf(&b, `<text x="%.0f" y="%.1f" fill="#555">dashed: extracted</text>`+"\n", W-right+8, ly+22)
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func fmtSteps(x float64) string {
	switch {
	case x >= 1e6:
		return fmt.Sprintf("%.2gM", x/1e6)
	case x >= 1e3:
		return fmt.Sprintf("%.0fk", x/1e3)
	}
	return fmt.Sprintf("%.0f", x)
}

const pageHead = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>gdt rl bench</title>
<style>
body{font-family:sans-serif;margin:2em;max-width:1200px;color:#222}
table{border-collapse:collapse;margin:0.5em 0}
td,th{border:1px solid #ccc;padding:3px 8px;text-align:right;font-size:13px}
th{background:#f4f4f4}
.note{color:#555;font-size:12px;max-width:900px}
.curves{display:flex;flex-wrap:wrap;gap:12px}
</style></head><body>
<h1>SYMPOL benchmark: gdt vs the thesis</h1>
`

// WriteHTML writes the comparison page: every table of Tables and, per
// group and environment, the learning curves as inline SVG (no external
// resources).
func WriteHTML(w io.Writer, rows []Row) error {
	var b strings.Builder
	b.WriteString(pageHead)
	fmt.Fprintf(&b, "<p>%d result rows. Cells read “ours (thesis)”.</p>\n", len(rows))
	for _, t := range Tables(rows) {
		if err := t.HTML(&b); err != nil {
			return err
		}
	}
	a := aggregateRows(rows)
	for _, g := range a.groups {
		var figs strings.Builder
		for _, e := range a.envs {
			ss := curvesOf(rows, e, g)
			if len(ss) == 0 {
				continue
			}
			if err := writeSVG(&figs, LookupEnv(e).Short+" ("+e+")", ss); err != nil {
				return err
			}
		}
		if figs.Len() == 0 {
			continue
		}
		title := "Learning curves (" + g.suffix()
		if g.variant != "" {
			title += ", " + VariantTitle[g.variant]
		}
		fmt.Fprintf(&b, "<h2>%s)</h2>\n<p class=\"note\">Validation return (greedy, 5 episodes) at every evaluation, mean over seeds: solid = the trained model, dashed = the applied model (the extracted or discretised tree).</p>\n<div class=\"curves\">\n%s</div>\n",
			html.EscapeString(title), figs.String())
	}
	b.WriteString("</body></html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteReport writes dir/index.html (WriteHTML) and dir/tables.md
// (WriteMarkdown), creating dir.
func WriteReport(dir string, rows []Row) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := safefile.Write(filepath.Join(dir, "index.html"), func(w io.Writer) error { return WriteHTML(w, rows) }); err != nil {
		return err
	}
	return safefile.Write(filepath.Join(dir, "tables.md"), func(w io.Writer) error { return WriteMarkdown(w, rows) })
}
