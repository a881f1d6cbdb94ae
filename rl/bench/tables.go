package bench

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/gdt-ml/gdt/metrics"
	"github.com/gdt-ml/gdt/rl/env"
	_ "github.com/gdt-ml/gdt/rl/env/all" // the study's environments, for their specs
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Table is one rendered results table.
type Table struct {
	Title  string
	Note   string
	Header []string
	Rows   [][]string
}

// Markdown writes the table as a GitHub-flavoured markdown table with its
// title as a heading and its note below.
func (t *Table) Markdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "### %s\n\n", t.Title)
	b.WriteString("| " + strings.Join(t.Header, " | ") + " |\n")
	b.WriteString("|" + strings.Repeat("---|", len(t.Header)) + "\n")
	for _, r := range t.Rows {
		b.WriteString("| " + strings.Join(r, " | ") + " |\n")
	}
	if t.Note != "" {
		fmt.Fprintf(&b, "\n%s\n", t.Note)
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteMarkdown renders every table of the rows.
func WriteMarkdown(w io.Writer, rows []Row) error {
	for _, t := range Tables(rows) {
		if err := t.Markdown(w); err != nil {
			return err
		}
	}
	return nil
}

// cell pools the results of one (group, method, env) over seeds.
type cell struct {
	val, test []float64 // episodes pooled over seeds
	testMeans []float64 // per seed
	nodes     []float64
	secs      []float64
	// delivered and final hold per seed the mean test return of the
	// delivered policy (Row.Delivered) and of the final one; hasBest
	// reports whether any seed delivered a best-validation policy.
	delivered, final []float64
	hasBest          bool
	// diverged counts the trainings that diverged with no restart left
	// (Row.DivergedStep): they have no final policy, so they add nothing
	// to test, val and nodes, and NaN to final.
	diverged int
}

func (c *cell) meanTest() float64 { return metrics.Mean(c.test) }

// group is one family of comparable runs.
type group struct{ algorithm, profile, variant string }

type aggregate struct {
	cells  map[group]map[string]map[string]*cell // group → method → env
	envs   []string                              // env IDs in table order
	groups []group
}

func aggregateRows(rows []Row) *aggregate {
	a := &aggregate{cells: map[group]map[string]map[string]*cell{}}
	seenEnv := map[string]bool{}
	for _, r := range rows {
		if r.Err != "" {
			continue
		}
		g := group{r.Algorithm, r.Profile, r.Variant}
		if a.cells[g] == nil {
			a.cells[g] = map[string]map[string]*cell{}
			a.groups = append(a.groups, g)
		}
		if a.cells[g][r.Method] == nil {
			a.cells[g][r.Method] = map[string]*cell{}
		}
		c := a.cells[g][r.Method][r.Env]
		if c == nil {
			c = &cell{}
			a.cells[g][r.Method][r.Env] = c
		}
		c.val = append(c.val, r.ValEpisodes...)
		c.test = append(c.test, r.TestEpisodes...)
		if len(r.TestEpisodes) == 0 && !math.IsNaN(r.TestReturn) {
			c.test = append(c.test, r.TestReturn)
		}
		if len(r.ValEpisodes) == 0 && !math.IsNaN(r.ValReturn) {
			c.val = append(c.val, r.ValReturn)
		}
		c.testMeans = append(c.testMeans, r.TestReturn)
		d, best := r.Delivered()
		c.delivered = append(c.delivered, d)
		c.final = append(c.final, r.TestReturn)
		c.hasBest = c.hasBest || best
		if r.DivergedStep != 0 {
			c.diverged++
		} else {
			c.nodes = append(c.nodes, float64(r.TreeNodes))
		}
		c.secs = append(c.secs, r.Seconds)
		seenEnv[r.Env] = true
	}
	for _, e := range Envs {
		if seenEnv[e.ID] {
			a.envs = append(a.envs, e.ID)
			delete(seenEnv, e.ID)
		}
	}
	var rest []string
	for id := range seenEnv {
		rest = append(rest, id)
	}
	sort.Strings(rest)
	a.envs = append(a.envs, rest...)
	sort.SliceStable(a.groups, func(i, j int) bool {
		x, y := a.groups[i], a.groups[j]
		if x.algorithm != y.algorithm {
			return x.algorithm > y.algorithm // ppo before a2c
		}
		if x.profile != y.profile {
			return x.profile < y.profile
		}
		return variantRank(x.variant) < variantRank(y.variant)
	})
	return a
}

func variantRank(v string) int {
	for i, x := range Variants {
		if x == v {
			return i
		}
	}
	return len(Variants)
}

// fmtNum formats a return or effect size compactly.
func fmtNum(v float64) string {
	switch {
	case math.IsNaN(v):
		return "–"
	case math.IsInf(v, 1):
		return "∞"
	case math.IsInf(v, -1):
		return "−∞"
	case math.Abs(v) >= 100:
		return fmt.Sprintf("%.0f", v)
	case math.Abs(v) >= 10:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.3f", v)
}

// beside renders "ours (thesis)".
func beside(ours float64, thesis map[string]float64, key string) string {
	s := fmtNum(ours)
	if t, ok := thesis[key]; ok {
		s += " (" + strconv.FormatFloat(t, 'f', -1, 64) + ")"
	}
	return s
}

// SeedInterval returns the mean of x (one value per training) and the
// bounds of its two-sided 95 % Student-t confidence interval, mean ±
// t(0.975, n−1)·sd/√n; ok is false with fewer than two finite values.
func SeedInterval(x []float64) (m, lo, hi float64, ok bool) {
	var v []float64
	for _, a := range x {
		if !math.IsNaN(a) && !math.IsInf(a, 0) {
			v = append(v, a)
		}
	}
	if len(v) < 2 {
		return math.NaN(), math.NaN(), math.NaN(), false
	}
	m = stat.Mean(v, nil)
	half := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(v) - 1)}.Quantile(0.975) *
		stat.StdDev(v, nil) / math.Sqrt(float64(len(v)))
	return m, m - half, m + half, true
}

// intervalTable renders per method and environment the mean over
// trainings of their mean test returns with its 95 % interval, and whether
// the thesis's figure lies inside it; ok is false when no cell has two
// trainings.
func (a *aggregate) intervalTable(g group, methods []string, ms map[string]map[string]*cell, thesis thesisTable) (Table, bool) {
	envs := a.envs
	t := Table{Title: "Test return over trainings: mean and 95 % interval (" + g.suffix() + ")", Header: a.header("method", envs)}
	any := false
	for _, m := range methods {
		r := []string{m}
		for _, e := range envs {
			c := ms[m][e]
			if c == nil {
				r = append(r, "–")
				continue
			}
			mean, lo, hi, ok := SeedInterval(c.testMeans)
			if !ok {
				r = append(r, "–")
				continue
			}
			any = true
			cellText := fmt.Sprintf("%s [%s, %s] (%d)", fmtNum(mean), fmtNum(lo), fmtNum(hi), len(c.testMeans))
			if th, ok := thesis[m][LookupEnv(e).Short]; ok {
				if th >= lo && th <= hi {
					cellText += " ✓"
				} else {
					cellText += " ✗"
				}
			}
			r = append(r, cellText)
		}
		t.Rows = append(t.Rows, r)
	}
	t.Note = "Cells: mean over trainings of their mean test returns, [95 % Student-t interval of that mean], (number of trainings); ✓ / ✗: the thesis's figure lies inside / outside the interval. " +
		"With few trainings the interval is wide: a thesis figure outside it is evidence of a real difference, one inside it is no evidence of a match."
	return t, any
}

// CohensD is the information loss of spec §7.3 between the trained
// model's validation returns and the applied model's test returns:
// (metrics.Mean(val) − metrics.Mean(test)) / s_pooled, 0 when both samples are constant
// and equal, ±∞ when they are constant and differ, NaN with too few
// values.
func CohensD(val, test []float64) float64 {
	if len(val) < 1 || len(test) < 1 || len(val)+len(test) < 3 {
		return math.NaN()
	}
	d, err := metrics.CohensD(val, test)
	if err == nil {
		return d
	}
	diff := metrics.Mean(val) - metrics.Mean(test)
	switch {
	case diff == 0:
		return 0
	case diff > 0:
		return math.Inf(1)
	}
	return math.Inf(-1)
}

// Quantile is numpy's default (linear) quantile of x at q ∈ [0, 1].
func Quantile(x []float64, q float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	pos := q * float64(len(s)-1)
	lo := int(math.Floor(pos))
	hi := min(lo+1, len(s)-1)
	return s[lo] + (pos-float64(lo))*(s[hi]-s[lo])
}

// normalised maps every candidate's mean test return per environment to
// [0, 1] between the best candidate's and the 20 % quantile of all test
// returns (spec §7.5; values below the quantile count 0) and averages over
// the environments where the candidate has a result. Candidates are keys of
// byEnv[env].
func normalised(byEnv map[string]map[string]*cell, envs []string) map[string]float64 {
	sum, cnt := map[string]float64{}, map[string]int{}
	for _, e := range envs {
		cs := byEnv[e]
		if len(cs) == 0 {
			continue
		}
		best := math.Inf(-1)
		var pool []float64
		for _, c := range cs {
			best = math.Max(best, c.meanTest())
			pool = append(pool, c.test...)
		}
		q := Quantile(pool, 0.2)
		for k, c := range cs {
			v := 1.0
			if best > q {
				v = math.Min(math.Max((c.meanTest()-q)/(best-q), 0), 1)
			}
			sum[k] += v
			cnt[k]++
		}
	}
	out := map[string]float64{}
	for k, s := range sum {
		out[k] = s / float64(cnt[k])
	}
	return out
}

func (a *aggregate) header(first string, envs []string, extra ...string) []string {
	h := []string{first}
	for _, e := range envs {
		h = append(h, LookupEnv(e).Short)
	}
	return append(h, extra...)
}

func controlEnvs(envs []string) []string {
	var out []string
	for _, e := range envs {
		if LookupEnv(e).Control {
			out = append(out, e)
		}
	}
	return out
}

func (g group) suffix() string {
	s := strings.ToUpper(g.algorithm)
	if g.profile != "" && g.profile != "default" {
		s += ", profile " + g.profile
	}
	return s
}

// Tables renders the thesis-style tables of the rows: per algorithm and
// profile the returns (with the normalised mean over the control
// environments), the information loss (validation vs test returns and
// Cohen's d), the tree sizes and the training seconds; and the ablation
// table when ablation variants are present. Every cell reads "ours
// (thesis)".
func Tables(rows []Row) []Table {
	a := aggregateRows(rows)
	var out []Table
	for _, g := range a.groups {
		if g.variant != VariantFull {
			continue
		}
		ms := a.cells[g]
		methods := orderedMethods(ms)
		thesis := ThesisPPO
		if g.algorithm == "a2c" {
			thesis = ThesisA2C
		}
		// Returns.
		ctl := controlEnvs(a.envs)
		byEnv := map[string]map[string]*cell{}
		for _, m := range methods {
			for e, c := range ms[m] {
				if byEnv[e] == nil {
					byEnv[e] = map[string]*cell{}
				}
				byEnv[e][m] = c
			}
		}
		norm := normalised(byEnv, ctl)
		var extra []string
		if len(ctl) > 0 {
			extra = []string{"norm. mean (control)"}
		}
		t := Table{Title: "Mean test return (" + g.suffix() + ")", Header: a.header("method", a.envs, extra...)}
		for _, m := range methods {
			r := []string{m}
			for _, e := range a.envs {
				c := ms[m][e]
				if c == nil {
					r = append(r, "–")
					continue
				}
				r = append(r, beside(c.meanTest(), thesis[m], LookupEnv(e).Short))
			}
			if len(ctl) > 0 {
				if v, ok := norm[m]; ok {
					r = append(r, fmtNum(v))
				} else {
					r = append(r, "–")
				}
			}
			t.Rows = append(t.Rows, r)
		}
		t.Note = fmt.Sprintf("Cells: our mean over %s test episodes of the final policies, the thesis protocol (thesis in parentheses, spec §8.1–8.2/8.4/8.8); the delivered policies are in the table \"Delivered and final policy\".", episodesText(ms))
		if len(ctl) > 0 {
			t.Note += " Normalised mean: per control environment mapped to [0, 1] between the best method and the 20 % quantile of all test returns (spec §7.5)."
		}
		if s := a.divergedText(methods, ms); s != "" {
			t.Note += " Trainings that diverged have no final policy and are left out of these cells: " + s + "."
		}
		out = append(out, t)
		if it, ok := a.intervalTable(g, methods, ms, thesis); ok {
			out = append(out, it)
		}
		out = append(out, a.deliveredTables(g, methods, ms, thesis)...)
		if len(ctl) == 0 {
			continue
		}
		// Information loss.
		vt := Table{Title: "Validation (trained model) → test (applied model) (" + g.suffix() + ")", Header: a.header("method", ctl)}
		ct := Table{Title: "Information loss, Cohen's d (" + g.suffix() + ")", Header: a.header("method", ctl, "mean")}
		for _, m := range methods {
			vr := []string{m}
			cr := []string{m}
			var ds []float64
			for _, e := range ctl {
				c := ms[m][e]
				if c == nil {
					vr, cr = append(vr, "–"), append(cr, "–")
					continue
				}
				short := LookupEnv(e).Short
				vs := fmtNum(metrics.Mean(c.val)) + " → " + fmtNum(c.meanTest())
				if tv, ok := ThesisVal[m][short]; ok && g.algorithm == "ppo" {
					vs += fmt.Sprintf(" (%s → %s)", strconv.FormatFloat(tv, 'f', -1, 64), strconv.FormatFloat(ThesisPPO[m][short], 'f', -1, 64))
				}
				vr = append(vr, vs)
				d := CohensD(c.val, c.test)
				ds = append(ds, d)
				th := ThesisCohen
				if g.algorithm != "ppo" {
					th = nil
				}
				cr = append(cr, beside(d, th[m], short))
			}
			md := math.NaN()
			if len(ds) > 0 {
				md = metrics.Mean(ds)
			}
			th := map[string]float64{}
			if g.algorithm == "ppo" {
				th = ThesisCohenMean
			}
			cr = append(cr, beside(md, th, m))
			vt.Rows = append(vt.Rows, vr)
			ct.Rows = append(ct.Rows, cr)
		}
		ct.Note = "Cohen's d between the trained model's validation returns and the applied model's test returns, pooled SD (spec §7.3); positive = loss after post-processing, > 0.8 large. Mean over the control environments shown."
		out = append(out, vt, ct)
		// Tree size.
		st := Table{Title: "Tree size, nodes after pruning (" + g.suffix() + ")", Header: a.header("method", ctl, "mean")}
		for _, m := range methods {
			if !Interpretable(m) {
				continue
			}
			r := []string{m}
			var ns []float64
			for _, e := range ctl {
				c := ms[m][e]
				if c == nil {
					r = append(r, "–")
					continue
				}
				n := metrics.Mean(c.nodes)
				ns = append(ns, n)
				r = append(r, beside(n, ThesisNodes[m], LookupEnv(e).Short))
			}
			mn := math.NaN()
			if len(ns) > 0 {
				mn = metrics.Mean(ns)
			}
			r = append(r, beside(mn, ThesisNodesMean, m))
			st.Rows = append(st.Rows, r)
		}
		st.Note = "SYMPOL and D-SDT: nodes after the range/redundancy pruning of spec §1.7; SA-DT and VIPER: CART node count (spec §7.4)."
		out = append(out, st)
		// Seconds.
		tt := Table{Title: "Seconds per training (" + g.suffix() + ")", Header: a.header("method", a.envs)}
		for _, m := range methods {
			r := []string{m}
			for _, e := range a.envs {
				if c := ms[m][e]; c != nil {
					r = append(r, fmt.Sprintf("%.1f", metrics.Mean(c.secs)))
				} else {
					r = append(r, "–")
				}
			}
			tt.Rows = append(tt.Rows, r)
		}
		tt.Note = "Mean wall seconds of training (evaluation excluded) plus the extraction of the derived tree, one core per run."
		out = append(out, tt)
	}
	out = append(out, ablationTables(a)...)
	return out
}

// deliveredTables renders, for every method whose trainings delivered a
// best-validation policy, per environment the delivered and the final
// policies' test returns over the trainings: mean, minimum and the number
// of failed trainings (mean test return below FailBelow), beside the
// thesis's mean.
func (a *aggregate) deliveredTables(g group, methods []string, ms map[string]map[string]*cell, thesis thesisTable) []Table {
	var out []Table
	for _, m := range methods {
		has := false
		for _, c := range ms[m] {
			has = has || c.hasBest
		}
		if !has {
			continue
		}
		t := Table{Title: "Delivered and final policy, " + m + " (" + g.suffix() + ")",
			Header: []string{"env", "trainings", "delivered: mean", "min", "failed", "final: mean", "min", "failed", "thesis", "failed below"}}
		var one []string
		for _, e := range a.envs {
			c := ms[m][e]
			if c == nil {
				continue
			}
			short := LookupEnv(e).Short
			floor, hasFloor := FailBelow[short]
			failed := func(x []float64) string {
				if !hasFloor {
					return "–"
				}
				n := 0
				for _, v := range x {
					if math.IsNaN(v) || v < floor {
						n++
					}
				}
				return strconv.Itoa(n)
			}
			th, fl := "–", "–"
			if v, ok := thesis[m][short]; ok {
				th = strconv.FormatFloat(v, 'f', -1, 64)
			}
			if hasFloor {
				fl = strconv.FormatFloat(floor, 'f', -1, 64)
			}
			name := short
			if oneEpisode(e) {
				name += " ¹"
				one = append(one, e)
			}
			t.Rows = append(t.Rows, []string{name, strconv.Itoa(len(c.final)),
				fmtNum(metrics.Mean(c.delivered)), fmtNum(minOf(c.delivered)), failed(c.delivered),
				fmtNum(metrics.Mean(c.final)), fmtNum(minOf(c.final)), failed(c.final), th, fl})
		}
		t.Note = "Per training, the delivered policy is its best-validation policy (validation seeds disjoint from the test seeds), or its final policy where it kept none; " +
			"cells are over trainings of their mean test returns. Failed: trainings whose mean test return is below the last column's floor (issue 22's floors; CartPole: Gymnasium's reward threshold 475; MiniGrid: 0.5)."
		if s := a.divergedText([]string{m}, ms); s != "" {
			t.Note += " Trainings that diverged (" + s + ") have no final policy: they count as failed in the final columns."
		}
		if len(one) > 0 {
			t.Note += " ¹ " + strings.Join(one, ", ") + " has one fixed layout: its validation and test episodes are the same episode, so the delivered policy was selected on the test episode itself and its test return is no independent estimate."
		}
		out = append(out, t)
	}
	return out
}

// divergedText lists the cells of methods with trainings that diverged
// ("LunarLander sympol: 1, …"); empty when there are none.
func (a *aggregate) divergedText(methods []string, ms map[string]map[string]*cell) string {
	var s []string
	for _, m := range methods {
		for _, e := range a.envs {
			if c := ms[m][e]; c != nil && c.diverged > 0 {
				s = append(s, fmt.Sprintf("%s %s: %d", LookupEnv(e).Short, m, c.diverged))
			}
		}
	}
	return strings.Join(s, ", ")
}

// oneEpisode reports whether environment id has one fixed layout
// (env.Spec.OneEpisode); false for an unknown environment.
func oneEpisode(id string) bool {
	e, err := env.Make(id)
	return err == nil && e.Spec().OneEpisode
}

func minOf(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	m := x[0]
	for _, v := range x[1:] {
		if math.IsNaN(v) || v < m {
			m = v
		}
	}
	return m
}

func episodesText(ms map[string]map[string]*cell) string {
	n := 0
	for _, es := range ms {
		for _, c := range es {
			n = max(n, len(c.test))
		}
	}
	return fmt.Sprint(n)
}

// orderedMethods lists the methods present in table order.
func orderedMethods(ms map[string]map[string]*cell) []string {
	var out []string
	for _, m := range Methods {
		if _, ok := ms[m]; ok {
			out = append(out, m)
		}
	}
	var rest []string
	for m := range ms {
		if !contains(Methods, m) {
			rest = append(rest, m)
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
}

// ablationTables renders SYMPOL's ablation (spec §8.7) for every
// (algorithm, profile) that has ablation variants.
func ablationTables(a *aggregate) []Table {
	type key struct{ algorithm, profile string }
	vars := map[key][]string{}
	var keys []key
	for _, g := range a.groups {
		if a.cells[g][SYMPOL] == nil {
			continue
		}
		k := key{g.algorithm, g.profile}
		if _, ok := vars[k]; !ok {
			keys = append(keys, k)
		}
		vars[k] = append(vars[k], g.variant)
	}
	var out []Table
	for _, k := range keys {
		vs := vars[k]
		if len(vs) < 2 && (len(vs) == 0 || vs[0] == VariantFull) {
			continue
		}
		ctl := controlEnvs(a.envs)
		byEnv := map[string]map[string]*cell{}
		for _, v := range vs {
			for e, c := range a.cells[group{k.algorithm, k.profile, v}][SYMPOL] {
				if byEnv[e] == nil {
					byEnv[e] = map[string]*cell{}
				}
				byEnv[e][v] = c
			}
		}
		norm := normalised(byEnv, ctl)
		t := Table{Title: "Ablation of SYMPOL, mean test return (" + group{k.algorithm, k.profile, ""}.suffix() + ")",
			Header: a.header("variant", ctl, "normalised mean")}
		for _, v := range vs {
			r := []string{VariantTitle[v]}
			for _, e := range ctl {
				c := byEnv[e][v]
				if c == nil {
					r = append(r, "–")
					continue
				}
				r = append(r, beside(c.meanTest(), ThesisAblation[v], LookupEnv(e).Short))
			}
			r = append(r, beside(norm[v], ThesisAblationNorm, v))
			t.Rows = append(t.Rows, r)
		}
		t.Note = "Normalised mean per spec §7.5 over the variants run here (the thesis's over its five variants)."
		out = append(out, t)
	}
	return out
}
