// Package report renders a trained model and its behaviour on a data file
// as one self-contained HTML page: inline CSS and SVG, no scripts or fonts
// from the network, viewable offline in any browser.
//
// The page has these sections (element ids in brackets):
//
//   - summary [summary]: the model, its training facts and the data file;
//   - data [data]: every column's type, missing values and range or levels,
//     and the target's distribution;
//   - metrics [metrics]: accuracy, balanced accuracy, macro F1, ROC-AUC and
//     log loss with the confusion matrix and ROC curves (one-vs-rest for
//     several classes), or MSE, RMSE, MAE, R² with predicted against true
//     values for regression;
//   - learning curves [learning-curves]: training and validation loss at
//     every validation check of every restart, as recorded during fit (per
//     epoch, or per training step for fits with eval_every), the kept
//     restart bold, the legend beside the plot;
//   - the tree [tree]: the plain tree as SVG with thresholds in raw units
//     (GRANDE: its globally most weighted trees);
//   - feature importance [importance];
//   - local explanations [explanations] of chosen rows: the decision path
//     of a tree model, or GRANDE's top-weighted trees with their weight
//     shares and the row's path marked.
//
// The page is well-formed XML (XHTML syntax) so that it can be checked
// with any XML parser; a small inline script fills the element
// #gdt-status once the page has rendered (used by the browser test).
package report

import (
	"fmt"
	"html"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/export"
	"github.com/gdt-ml/gdt/interpret"
	"github.com/gdt-ml/gdt/metrics"
	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/safefile"
	"github.com/gdt-ml/gdt/train"
)

// Config says what the report shows.
type Config struct {
	// Rows are the (0-based) rows of the data explained locally (default:
	// row 0).
	Rows []int
	// TopK is the number of GRANDE trees per local explanation (default 3).
	TopK int
	// Model and Data name the model and data files in the page.
	Model, Data string
	// MaxTreeNodes: larger trees are shown as text instead of SVG
	// (default 511).
	MaxTreeNodes int
	// Now is the time stamp shown (default time.Now).
	Now time.Time
}

// FileName is the name of the page Write creates in its directory.
const FileName = "report.html"

// Write builds the report and writes it atomically to dir/report.html,
// creating dir; it returns the page's path.
func Write(dir string, t *model.Trained, tab *data.Table, y []float64, cfg Config) (string, error) {
	page, err := Build(t, tab, y, cfg)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("report: %w", err)
	}
	path := filepath.Join(dir, FileName)
	return path, safefile.WriteBytes(path, page)
}

// Targets reads the model's target column from tab as the model's class
// indices (classification, matched by class name) or values (regression).
// It returns nil when tab has no such column.
func Targets(t *model.Trained, tab *data.Table) ([]float64, error) {
	col := tab.Col(t.Target)
	if t.Target == "" || col == nil {
		return nil, nil
	}
	y := make([]float64, col.Len())
	index := map[string]int{}
	for i, c := range t.Classes {
		index[c] = i
	}
	for i := range y {
		if col.IsMissing(i) {
			return nil, fmt.Errorf("report: row %d: the target %q is missing", i, t.Target)
		}
		if t.Task == data.Regression {
			v, ok := data.ParseFloat(col.String(i))
			if !ok {
				return nil, fmt.Errorf("report: row %d: target %q = %q: expected a number", i, t.Target, col.String(i))
			}
			y[i] = v
			continue
		}
		c, ok := index[col.String(i)]
		if !ok {
			return nil, fmt.Errorf("report: row %d: target %q = %q is not one of the model's classes (%s)", i, t.Target, col.String(i), strings.Join(t.Classes, ", "))
		}
		y[i] = float64(c)
	}
	return y, nil
}

// page accumulates the HTML.
type page struct {
	b     strings.Builder
	svgs  int
	trees int // tree figures with SVG
}

func (p *page) w(format string, args ...any) { fmt.Fprintf(&p.b, format, args...) }
func esc(s string) string                    { return html.EscapeString(s) }

var xmlDecl = regexp.MustCompile(`^\s*<\?xml[^>]*\?>\s*`)
var svgID = regexp.MustCompile(` id="`)

// svg inlines an SVG document, making its element ids unique in the page.
func (p *page) svg(doc string) {
	p.svgs++
	doc = xmlDecl.ReplaceAllString(doc, "")
	doc = svgID.ReplaceAllString(doc, ` id="svg`+strconv.Itoa(p.svgs)+`-`)
	p.w(`<div class="figure">%s</div>`, doc)
}

// Build renders the report of model t on the raw rows tab with targets y
// (model class indices or regression values, see Targets; nil: no
// metrics).
func Build(t *model.Trained, tab *data.Table, y []float64, cfg Config) ([]byte, error) {
	if t == nil || tab == nil {
		return nil, fmt.Errorf("report: no model or no data")
	}
	n := tab.NumRows()
	if y != nil && len(y) != n {
		return nil, fmt.Errorf("report: %d targets for %d rows", len(y), n)
	}
	if cfg.TopK <= 0 {
		cfg.TopK = 3
	}
	if cfg.MaxTreeNodes <= 0 {
		cfg.MaxTreeNodes = 511
	}
	if cfg.Rows == nil && n > 0 {
		cfg.Rows = []int{0}
	}
	for _, r := range cfg.Rows {
		if r < 0 || r >= n {
			return nil, fmt.Errorf("report: row %d to explain: the data has rows 0…%d", r, n-1)
		}
	}
	if cfg.Now.IsZero() {
		cfg.Now = time.Now()
	}
	X, err := t.Transform(tab)
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	proba, err := t.Learner.PredictProba(X)
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	plain, plainErr := export.Of(t)
	p := &page{}
	title := fmt.Sprintf("gdt report: %s %s model", t.Spec.Kind, t.Task)
	p.w(`<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" lang="en">
<head>
<meta charset="utf-8"/>
<meta name="viewport" content="width=device-width, initial-scale=1"/>
<title>%s</title>
<style>%s</style>
</head>
<body>
<header><h1>%s</h1><p class="sub">%s</p></header>
<nav><a href="#summary">Summary</a> <a href="#data">Data</a> <a href="#metrics">Metrics</a> <a href="#learning-curves">Learning curves</a> <a href="#tree">Tree</a> <a href="#importance">Feature importance</a> <a href="#explanations">Local explanations</a></nav>
<main>
`, esc(title), css, esc(title), esc("generated "+cfg.Now.UTC().Format("2006-01-02 15:04 UTC")+" by gdt report"))
	summarySection(p, t, tab, cfg)
	dataSection(p, t, tab, y)
	metricsSection(p, t, proba, y)
	learningSection(p, t, plain)
	if plainErr != nil {
		p.w(`<section id="tree"><h2>The tree</h2><p class="note">%s</p></section>`, esc(plainErr.Error()))
		p.w(`<section id="importance"><h2>Feature importance</h2><p class="note">not available for %s models</p></section>`, esc(t.Spec.Kind))
		p.w(`<section id="explanations"><h2>Local explanations</h2><p class="note">not available for %s models</p></section>`, esc(t.Spec.Kind))
	} else {
		if err := treeSection(p, plain, cfg); err != nil {
			return nil, err
		}
		if err := importanceSection(p, plain, X); err != nil {
			return nil, err
		}
		if err := explainSection(p, t, plain, tab, X, proba, y, cfg); err != nil {
			return nil, err
		}
	}
	p.w(`</main>
<footer><p>Self-contained page: no network access is needed to view it. Thresholds are in the raw units of the data.</p>
<div id="gdt-status" data-status="static">static page (scripts off)</div></footer>
<script>//<![CDATA[
(function () {
  var s = document.getElementById('gdt-status');
  // centre a tree's scroll box on the tree's root node
  function centreRoot(box) {
    var root = box.querySelector('g.node[id$="-node0"]');
    if (!root) { return; }
    var r = root.getBoundingClientRect(), b = box.getBoundingClientRect();
    box.scrollLeft += (r.left + r.width / 2) - (b.left + box.clientWidth / 2);
  }
  try {
    var boxes = document.querySelectorAll('.full-size');
    for (var k = 0; k < boxes.length; k++) {
      boxes[k].addEventListener('change', function (ev) {
        centreRoot(ev.target.parentNode.querySelector('.tree-scroll'));
      });
    }
    var svgs = document.querySelectorAll('svg'), empty = 0;
    for (var i = 0; i < svgs.length; i++) {
      var r = svgs[i].getBoundingClientRect();
      if (!(r.width > 0) || !(r.height > 0)) { empty++; }
    }
    // every tree's root must be in view horizontally on load
    var roots = document.querySelectorAll('svg g.node[id$="-node0"]'), off = 0;
    for (var j = 0; j < roots.length; j++) {
      var q = roots[j].getBoundingClientRect();
      if (q.left < 0 || q.right > window.innerWidth) { off++; }
    }
    s.setAttribute('data-status', empty > 0 ? 'empty-figures' : off > 0 ? 'root-off-screen' : 'rendered');
    s.textContent = 'report rendered: ' + svgs.length + ' figures, ' + empty + ' empty; ' + roots.length + ' trees, ' + off + ' with the root off-screen at width ' + window.innerWidth;
  } catch (e) {
    s.setAttribute('data-status', 'error');
    s.textContent = 'error: ' + e;
  }
})();
//]]></script>
</body>
</html>
`)
	return []byte(p.b.String()), nil
}

const css = `
body{font-family:Helvetica,Arial,sans-serif;margin:0;color:#222;background:#fff;line-height:1.4}
header{background:#23395d;color:#fff;padding:14px 24px}header h1{margin:0;font-size:22px}.sub{margin:4px 0 0;color:#cfd8e6;font-size:13px}
nav{position:sticky;top:0;background:#eef2f7;padding:8px 24px;border-bottom:1px solid #cbd3df;z-index:2}nav a{margin-right:14px;color:#23395d;text-decoration:none;font-size:14px}
main{padding:0 24px 24px;max-width:1200px}section{margin-top:26px;border-top:1px solid #dde3ea;padding-top:6px}h2{font-size:19px;color:#23395d}h3{font-size:15px;margin:16px 0 6px}
table{border-collapse:collapse;font-size:13px;margin:6px 0}th,td{border:1px solid #d4d9e0;padding:3px 8px;text-align:left}th{background:#f3f5f8}td.num{text-align:right;font-variant-numeric:tabular-nums}
.note{color:#666;font-size:13px}.figure{overflow-x:auto;margin:8px 0;max-width:100%}.figures{display:flex;flex-wrap:wrap;gap:14px}
pre{background:#f6f8fa;border:1px solid #e1e4e8;padding:8px;font-size:12px;overflow-x:auto}.kv td:first-child{font-weight:bold;background:#f8f9fb}
.cm td{min-width:44px;text-align:center}footer{padding:12px 24px;color:#666;font-size:12px;border-top:1px solid #dde3ea}
.tree-view{max-width:100%}.tree-view .figure{overflow:visible;margin:4px 0}.tree-scroll{overflow-x:auto;max-width:100%}
.tree-scroll svg{display:block;width:100%;height:auto}.full-size{margin:0 6px 0 0}.full-size+label{font-size:12px;color:#23395d;cursor:pointer}
.full-size:checked~.tree-scroll svg{width:var(--natural);max-width:none!important}.figures>.tree-view{flex:0 1 auto;min-width:0}
`

func fmtNum(v float64) string {
	switch {
	case math.IsNaN(v):
		return "–"
	case v == math.Trunc(v) && math.Abs(v) < 1e15:
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', 5, 64)
}

func summarySection(p *page, t *model.Trained, tab *data.Table, cfg Config) {
	p.w(`<section id="summary"><h2>Summary</h2><table class="kv">`)
	row := func(k, v string) { p.w(`<tr><td>%s</td><td>%s</td></tr>`, esc(k), esc(v)) }
	if cfg.Model != "" {
		row("model file", cfg.Model)
	}
	row("learner", t.Spec.Kind)
	row("task", t.Task.String())
	if t.Target != "" {
		row("target", t.Target)
	}
	if len(t.Classes) > 0 {
		row("classes", strings.Join(t.Classes, ", "))
	}
	row("preprocessing", t.Spec.Protocol)
	row("model size", fmt.Sprintf("%d nodes", t.Learner.NumNodes()))
	if len(t.Spec.Options) > 0 {
		var kv []string
		for _, k := range model.OptionKeys(t.Spec.Options) {
			kv = append(kv, k+"="+t.Spec.Options[k])
		}
		row("options", strings.Join(kv, ", "))
	}
	keys := make([]string, 0, len(t.Info))
	for k := range t.Info {
		if k != "options" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := fmt.Sprint(t.Info[k])
		if f, ok := t.Info[k].(float64); ok {
			v = fmtNum(f)
		}
		row(strings.ReplaceAll(k, "_", " "), v)
	}
	if cfg.Data != "" {
		row("data file", cfg.Data)
	}
	row("data rows", strconv.Itoa(tab.NumRows()))
	p.w(`</table></section>`)
}

func dataSection(p *page, t *model.Trained, tab *data.Table, y []float64) {
	n := tab.NumRows()
	p.w(`<section id="data"><h2>Data</h2><p>%d rows; the model reads %d columns.</p>`, n, len(t.Inputs))
	p.w(`<table><tr><th>column</th><th>type</th><th>missing</th><th>min</th><th>median</th><th>mean</th><th>max</th><th>levels (most frequent)</th></tr>`)
	for _, in := range t.Inputs {
		c := tab.Col(in.Name)
		if c == nil {
			continue
		}
		miss := 0
		for i := 0; i < n; i++ {
			if c.IsMissing(i) {
				miss++
			}
		}
		if c.Kind == data.Numeric {
			var v []float64
			for _, x := range c.Num {
				if !math.IsNaN(x) {
					v = append(v, x)
				}
			}
			sort.Float64s(v)
			mn, md, mx, mean := math.NaN(), math.NaN(), math.NaN(), math.NaN()
			if len(v) > 0 {
				mn, mx, mean = v[0], v[len(v)-1], metrics.Mean(v)
				md = v[len(v)/2]
				if len(v)%2 == 0 {
					md = (v[len(v)/2-1] + v[len(v)/2]) / 2
				}
			}
			p.w(`<tr><td>%s</td><td>numeric</td><td class="num">%d</td><td class="num">%s</td><td class="num">%s</td><td class="num">%s</td><td class="num">%s</td><td></td></tr>`,
				esc(in.Name), miss, fmtNum(mn), fmtNum(md), fmtNum(mean), fmtNum(mx))
			continue
		}
		counts := make([]int, len(c.Levels))
		for _, code := range c.Codes {
			if code >= 0 {
				counts[code]++
			}
		}
		order := make([]int, len(counts))
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(a, b int) bool { return counts[order[a]] > counts[order[b]] })
		var top []string
		for _, k := range order[:min(4, len(order))] {
			top = append(top, fmt.Sprintf("%s (%d)", c.Levels[k], counts[k]))
		}
		if len(order) > 4 {
			top = append(top, "…")
		}
		p.w(`<tr><td>%s</td><td>categorical, %d levels</td><td class="num">%d</td><td></td><td></td><td></td><td></td><td>%s</td></tr>`,
			esc(in.Name), len(c.Levels), miss, esc(strings.Join(top, ", ")))
	}
	p.w(`</table>`)
	switch {
	case y == nil:
		p.w(`<p class="note">The data has no target column %q: no metrics.</p>`, esc(t.Target))
	case t.Task == data.Regression:
		s := append([]float64(nil), y...)
		sort.Float64s(s)
		p.w(`<h3>Target %s</h3><p>min %s, median %s, mean %s, max %s</p>`, esc(t.Target), fmtNum(s[0]), fmtNum(s[len(s)/2]), fmtNum(metrics.Mean(s)), fmtNum(s[len(s)-1]))
	default:
		counts := make([]int, len(t.Classes))
		for _, v := range y {
			counts[int(v)]++
		}
		var bars []bar
		for c, k := range counts {
			bars = append(bars, bar{label: t.Classes[c], value: float64(k), note: fmt.Sprintf("%d rows (%.1f %%)", k, 100*float64(k)/float64(len(y)))})
		}
		p.w(`<h3>Target %s</h3>`, esc(t.Target))
		p.svg(barChart("class distribution", bars, colour))
	}
	p.w(`</section>`)
}

func metricsSection(p *page, t *model.Trained, proba *data.Matrix, y []float64) {
	p.w(`<section id="metrics"><h2>Metrics</h2>`)
	if y == nil || len(y) == 0 {
		p.w(`<p class="note">not available: the data has no target column</p></section>`)
		return
	}
	p.w(`<p class="note">Measured on the rows of the data file. If they were used for training, these are training scores.</p>`)
	pred := model.Decide(t.Task, proba)
	metric := func(name string, v float64) {
		p.w(`<tr><td>%s</td><td class="num">%s</td></tr>`, esc(name), strconv.FormatFloat(v, 'f', 4, 64))
	}
	if t.Task == data.Regression {
		var mae float64
		for i := range y {
			mae += math.Abs(pred[i] - y[i])
		}
		mae /= float64(len(y))
		mse := metrics.MSE(y, pred)
		p.w(`<table class="kv">`)
		metric("MSE", mse)
		metric("RMSE", math.Sqrt(mse))
		metric("MAE", mae)
		metric("R²", metrics.R2(y, pred))
		p.w(`</table>`)
		c := &chart{title: "predicted against true values", xLabel: "true " + t.Target, yLabel: "predicted", diagonal: true}
		step := max(1, len(y)/2000)
		var xs, ys []float64
		for i := 0; i < len(y); i += step {
			xs, ys = append(xs, y[i]), append(ys, pred[i])
		}
		c.series = []series{{name: "rows", x: xs, y: ys, points: true}}
		c.xMin, c.xMax = minMax(append(append([]float64(nil), xs...), ys...))
		c.yMin, c.yMax, c.fixed = c.xMin, c.xMax, true
		p.svg(c.svg())
		p.w(`</section>`)
		return
	}
	C := len(t.Classes)
	p.w(`<table class="kv">`)
	metric("accuracy", metrics.Accuracy(y, pred))
	metric("balanced accuracy", metrics.BalancedAccuracy(y, pred, C))
	metric("macro F1", metrics.F1Macro(y, pred, C))
	if t.Task == data.Binary {
		score := make([]float32, proba.Rows)
		for i := range score {
			score[i] = proba.At(i, 1)
		}
		if auc, err := metrics.ROCAUC(y, score); err == nil {
			metric("ROC-AUC", auc)
		}
	} else if auc, err := metrics.ROCAUCOvR(y, proba.Data, C); err == nil {
		metric("ROC-AUC (one-vs-rest, macro)", auc)
	}
	if ll, err := metrics.LogLoss(y, proba.Data, C); err == nil {
		metric("log loss", ll)
	}
	p.w(`</table>`)
	if cm, err := metrics.ConfusionMatrix(y, pred, C); err == nil {
		p.w(`<h3>Confusion matrix</h3><table class="cm"><tr><th>true \ predicted</th>`)
		for _, c := range t.Classes {
			p.w(`<th>%s</th>`, esc(c))
		}
		p.w(`</tr>`)
		for i, row := range cm {
			total := 0
			for _, v := range row {
				total += v
			}
			p.w(`<tr><th>%s</th>`, esc(t.Classes[i]))
			for j, v := range row {
				share := 0.0
				if total > 0 {
					share = float64(v) / float64(total)
				}
				bg := "rgba(214,39,40,%.2f)"
				if i == j {
					bg = "rgba(44,160,44,%.2f)"
				}
				p.w(`<td style="background:`+bg+`" title="%.1f %% of true %s">%d</td>`, 0.1+0.8*share, 100*share, esc(t.Classes[i]), v)
			}
			p.w(`</tr>`)
		}
		p.w(`</table>`)
	}
	c := &chart{title: "ROC curve", xLabel: "false positive rate", yLabel: "true positive rate", diagonal: true, fixed: true, xMax: 1, yMax: 1, width: 420, height: 380}
	classes := []int{1}
	if t.Task == data.Multiclass {
		classes = make([]int, C)
		for k := range classes {
			classes[k] = k
		}
	}
	for _, k := range classes {
		yk := make([]float64, len(y))
		score := make([]float32, proba.Rows)
		for i := range yk {
			if int(y[i]) == k {
				yk[i] = 1
			}
			score[i] = proba.At(i, k)
		}
		fpr, tpr, _, err := metrics.ROCCurve(yk, score)
		if err != nil {
			continue
		}
		auc, _ := metrics.ROCAUC(yk, score)
		name := fmt.Sprintf("%s (AUC %.3f)", t.Classes[k], auc)
		if t.Task == data.Binary {
			name = fmt.Sprintf("AUC %.3f", auc)
		}
		c.series = append(c.series, series{name: name, x: fpr, y: tpr, colour: colour(k)})
	}
	if len(c.series) > 0 {
		p.w(`<h3>ROC curve</h3>`)
		p.svg(c.svg())
	} else {
		p.w(`<p class="note">ROC curve: not defined (the data holds a single class).</p>`)
	}
	p.w(`</section>`)
}

func minMax(v []float64) (float64, float64) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range v {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	if !(hi > lo) {
		return lo - 1, hi + 1
	}
	pad := 0.03 * (hi - lo)
	return lo - pad, hi + pad
}

func learningSection(p *page, t *model.Trained, plain *export.Plain) {
	p.w(`<section id="learning-curves"><h2>Learning curves</h2>`)
	if t.Spec.Kind == "cart" {
		p.w(`<p class="note">not applicable: CART is grown greedily, without epochs.</p></section>`)
		return
	}
	if plain == nil || len(plain.Runs) == 0 {
		p.w(`<p class="note">not recorded: this model file holds no per-epoch losses.</p></section>`)
		return
	}
	c, about := learningChart(plain.Runs, plain.BestRun)
	p.w(`<p>%s</p>`, esc(about))
	p.svg(c.svg())
	bySteps := c.xLabel != "epoch"
	p.w(`<table><tr><th>restart</th><th>epochs</th>`)
	if bySteps {
		p.w(`<th>validation checks</th><th>best check: step</th><th>(in epoch)</th>`)
	} else {
		p.w(`<th>best epoch</th>`)
	}
	p.w(`<th>best validation loss</th><th>stopped early</th><th>seconds</th></tr>`)
	for r, run := range plain.Runs {
		name := strconv.Itoa(r + 1)
		if r == plain.BestRun {
			name += " (kept)"
		}
		p.w(`<tr><td>%s</td><td class="num">%d</td>`, name, run.Epochs)
		if bySteps {
			p.w(`<td class="num">%d</td><td class="num">%d</td><td class="num">%d</td>`, len(run.History), run.BestStep, run.BestEpoch)
		} else {
			p.w(`<td class="num">%d</td>`, run.BestEpoch)
		}
		p.w(`<td class="num">%s</td><td>%v</td><td class="num">%.2f</td></tr>`, fmtNum(run.BestLoss), run.Stopped, run.Seconds)
	}
	p.w(`</table></section>`)
}

// learningChart draws the recorded validation checks of every restart:
// the kept restart bold, the others faint in the same colours (training
// solid, validation dashed), the kept restart's best check marked. The x
// axis is what train.Epoch records: the epoch, or — for fits that check
// the validation loss every so many steps (train.Config.EvalEvery, e.g.
// grande-fast) — the training step of the check. It returns the chart and
// a sentence saying what it plots.
func learningChart(runs []train.RunReport, kept int) (*chart, string) {
	every := 0 // steps between checks; 0: checks at epoch ends
	for _, run := range runs {
		if len(run.History) > 0 && run.History[0].Step > 0 {
			every = run.History[0].Step
			break
		}
	}
	c := &chart{title: "loss per epoch", xLabel: "epoch", yLabel: "loss", width: 640, height: 360}
	about := "Mean training loss and validation loss after every epoch of every restart. "
	if every > 0 {
		c.title = "loss at each validation check"
		c.xLabel = fmt.Sprintf("training step (minibatches across epochs; validation checked every %d steps)", every)
		about = fmt.Sprintf("This fit checks the validation loss every %d training steps (eval_every), not at epoch ends: "+
			"each point is one check, at its training step, with the mean training loss of the steps since the previous check. ", every)
	}
	if len(runs) > 1 {
		about += fmt.Sprintf("The kept restart (%d of %d, the lowest best validation loss) is drawn bold, the others faint; ", kept+1, len(runs))
	} else {
		about += "The kept run is drawn bold; "
	}
	if every > 0 {
		about += "the marker is its best check (lowest validation loss)."
	} else {
		about += "the marker is its best epoch (lowest validation loss)."
	}
	curve := func(run train.RunReport) (xs, tr, va []float64) {
		for e, h := range run.History {
			x := float64(e + 1)
			if every > 0 {
				x = float64(h.Step)
			}
			xs, tr, va = append(xs, x), append(tr, h.TrainLoss), append(va, h.ValidLoss)
		}
		return
	}
	trainCol, validCol := colour(0), colour(1)
	if kept >= 0 && kept < len(runs) {
		run := runs[kept]
		xs, tr, va := curve(run)
		c.series = append(c.series,
			series{name: fmt.Sprintf("training, restart %d (kept)", kept+1), x: xs, y: tr, colour: trainCol, width: 2.4},
			series{name: fmt.Sprintf("validation, restart %d (kept)", kept+1), x: xs, y: va, colour: validCol, width: 2.4, dashed: true})
		for e, h := range run.History {
			best := e+1 == run.BestEpoch
			name := fmt.Sprintf("best epoch %d", run.BestEpoch)
			if every > 0 {
				best = h.Step == run.BestStep
				name = fmt.Sprintf("best check: step %d", run.BestStep)
			}
			if best && run.BestEpoch > 0 {
				c.series = append(c.series, series{name: name, x: xs[e : e+1], y: va[e : e+1], colour: "#000000", points: true, radius: 4.5, opacity: 1})
				break
			}
		}
	}
	namedFaint := false
	for r, run := range runs {
		if r == kept {
			continue
		}
		xs, tr, va := curve(run)
		nt, nv := "", ""
		if !namedFaint {
			nt, nv, namedFaint = "training, other restarts", "validation, other restarts", true
		}
		c.series = append(c.series,
			series{name: nt, x: xs, y: tr, colour: trainCol, width: 1, opacity: 0.25},
			series{name: nv, x: xs, y: va, colour: validCol, width: 1, opacity: 0.25, dashed: true})
	}
	return c, about
}

// treeFigure writes a tree view under its heading (HTML) as SVG fitted to
// the page width, or as text when it is large. See fitTree.
func treeFigure(p *page, v *interpret.View, maxNodes int, heading string) {
	if v.Tree.NumNodes() > maxNodes {
		p.w(`<div class="tree-view">%s<p class="note">The tree has %d nodes; shown as text (the SVG is drawn up to %d nodes).</p><pre>%s</pre></div>`, heading, v.Tree.NumNodes(), maxNodes, esc(v.Text()))
		return
	}
	doc, width := fitTree(string(v.SVG()))
	p.trees++
	p.w(`<div class="tree-view" style="flex-basis:%spx">%s`, num(width), heading)
	if width > fitWidth {
		p.w(`<input type="checkbox" class="full-size" id="tree-full-%d"/><label for="tree-full-%d">show at full size (scroll sideways; opens on the root)</label>`, p.trees, p.trees)
	}
	p.w(`<div class="tree-scroll">`)
	p.svg(doc)
	p.w(`</div></div>`)
}

// fitWidth is about the narrowest content width of the page at a 1280 px
// window (main is at most 1200 px wide less its padding): wider trees are
// scaled down to fit and get a full-size switch.
const fitWidth = 1150

var svgSize = regexp.MustCompile(`<svg([^>]*?) width="([0-9.]+)" height="([0-9.]+)"`)

// fitTree makes a tree SVG scale to the width of its container, never
// beyond its natural width (style max-width): the whole tree, its root
// included, is in view on load whatever its width, with the aspect ratio
// of its viewBox. It returns the SVG and its natural width.
func fitTree(doc string) (string, float64) {
	m := svgSize.FindStringSubmatchIndex(doc)
	if m == nil {
		return doc, 0
	}
	w, _ := strconv.ParseFloat(doc[m[4]:m[5]], 64)
	return doc[:m[0]] + `<svg` + doc[m[2]:m[3]] + ` width="100%" style="max-width:` + doc[m[4]:m[5]] + `px;--natural:` + doc[m[4]:m[5]] + `px"` + doc[m[1]:], w
}

func treeSection(p *page, plain *export.Plain, cfg Config) error {
	p.w(`<section id="tree"><h2>The tree</h2>`)
	opts := plain.ViewOptions()
	if plain.Tree != nil {
		v, err := interpret.NewView(plain.Tree, opts)
		if err != nil {
			return fmt.Errorf("report: %w", err)
		}
		in, lv := v.Tree.Size()
		p.w(`<p>%d internal nodes, %d leaves, depth %d. A row goes to the “True” branch when the condition holds; thresholds are in raw units.</p>`, in, lv, v.Tree.Depth())
		treeFigure(p, v, cfg.MaxTreeNodes, "")
		p.w(`</section>`)
		return nil
	}
	f := plain.Ensemble
	p.w(`<p>GRANDE ensemble of %d trees of depth %d (%s weighting). Below: the trees with the largest mean instance-wise weight over the training rows, pruned with the training rows.</p>`, f.Trees(), f.CompleteDepth(), esc(string(f.Weighting)))
	if len(plain.Global) == 0 {
		p.w(`<p class="note">The model file holds no globally ranked trees.</p>`)
	}
	for _, g := range plain.Global {
		v, err := interpret.NewView(g.Tree, opts)
		if err != nil {
			return fmt.Errorf("report: tree %d: %w", g.Index, err)
		}
		treeFigure(p, v, cfg.MaxTreeNodes, fmt.Sprintf(`<h3>Tree %d: mean weight %.1f %%</h3>`, g.Index, 100*g.MeanWeight))
	}
	p.w(`</section>`)
	return nil
}

func importanceSection(p *page, plain *export.Plain, X *data.Matrix) error {
	p.w(`<section id="importance"><h2>Feature importance</h2>`)
	imp, err := plain.FeatureImportance(X)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if len(imp) == 0 {
		p.w(`<p class="note">The model tests no feature (a single leaf).</p></section>`)
		return nil
	}
	p.w(`<p>Usage: how often a training row's path tests the column on average (GRANDE: weighted by the trees' mean weights); splits: the number of nodes testing it.</p>`)
	var bars []bar
	for _, im := range imp {
		bars = append(bars, bar{label: im.Column, value: im.Usage, note: fmt.Sprintf("usage %.3f, %d splits", im.Usage, im.Splits)})
	}
	p.svg(barChart("feature usage", bars, nil))
	p.w(`</section>`)
	return nil
}

func rowValues(tab *data.Table, t *model.Trained, r int) string {
	var kv []string
	for _, in := range t.Inputs {
		c := tab.Col(in.Name)
		if c == nil {
			continue
		}
		v := c.String(r)
		if c.IsMissing(r) {
			v = "missing"
		}
		kv = append(kv, in.Name+" = "+v)
	}
	return strings.Join(kv, ", ")
}

func predictionText(t *model.Trained, proba *data.Matrix, r int) string {
	row := proba.Row(r)
	if t.Task == data.Regression {
		return "predicted " + t.Target + " = " + fmtNum(float64(row[0]))
	}
	pred := model.Decide(t.Task, &data.Matrix{Rows: 1, Cols: proba.Cols, Data: row})
	c := int(pred[0])
	return fmt.Sprintf("predicted %s (p = %.3f)", t.Classes[c], row[c])
}

func explainSection(p *page, t *model.Trained, plain *export.Plain, tab *data.Table, X *data.Matrix, proba *data.Matrix, y []float64, cfg Config) error {
	p.w(`<section id="explanations"><h2>Local explanations</h2>`)
	if len(cfg.Rows) == 0 {
		p.w(`<p class="note">No rows chosen (gdt report --rows 0,5).</p></section>`)
		return nil
	}
	for _, r := range cfg.Rows {
		x := X.Row(r)
		p.w(`<h3>Row %d: %s</h3><p class="note">%s`, r, esc(predictionText(t, proba, r)), esc(rowValues(tab, t, r)))
		if y != nil {
			truth := fmtNum(y[r])
			if t.Task != data.Regression {
				truth = t.Classes[int(y[r])]
			}
			p.w(`; true %s = %s`, esc(t.Target), esc(truth))
		}
		p.w(`</p>`)
		opts := plain.ViewOptions()
		opts.Highlight = x
		if plain.Tree != nil {
			v, err := interpret.NewView(plain.Tree, opts)
			if err != nil {
				return fmt.Errorf("report: %w", err)
			}
			path, err := v.Tree.PathOf(x)
			if err != nil {
				return fmt.Errorf("report: %w", err)
			}
			var steps []string
			for k, node := range path[:len(path)-1] {
				c := v.Conditions[node]
				if v.Tree.Nodes[node].Left == path[k+1] {
					steps = append(steps, c.True)
				} else {
					steps = append(steps, c.False)
				}
			}
			p.w(`<p>Decision path: %s → %s</p>`, esc(strings.Join(steps, " → ")), esc(v.LeafText(path[len(path)-1])))
			treeFigure(p, v, cfg.MaxTreeNodes, "")
			continue
		}
		ex, err := interpret.ExplainEnsemble(plain.Ensemble, x, interpret.ExplainConfig{TopK: cfg.TopK, TrainX: X.Data, Rows: X.Rows})
		if err != nil {
			return fmt.Errorf("report: %w", err)
		}
		p.w(`<p>The %d trees with the largest instance-wise weight carry %.1f %% of this row's prediction (trees pruned with the rows of the data file; the row's path is bold).</p>`, len(ex.Estimators), 100*ex.Covered)
		p.w(`<div class="figures">`)
		for _, est := range ex.Estimators {
			v, err := interpret.NewView(est.Tree, opts)
			if err != nil {
				return fmt.Errorf("report: %w", err)
			}
			treeFigure(p, v, cfg.MaxTreeNodes, fmt.Sprintf(`<h3>Tree %d: weight %.1f %%, this row: %s</h3>`, est.Index, 100*est.Share, esc(v.LeafText(est.Leaf))))
		}
		p.w(`</div>`)
		if txt, err := ex.Text(plain.ViewOptions()); err == nil {
			p.w(`<details><summary>as text</summary><pre>%s</pre></details>`, esc(txt))
		}
	}
	p.w(`</section>`)
	return nil
}
