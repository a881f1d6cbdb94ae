package bench

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/gdt-ml/gdt/metrics"
)

// Cell is the aggregate of one (dataset, model) over its trials.
type Cell struct {
	Mean, Std float64 // of macro F1 (numpy std, ddof = 0, as the thesis)
	Trials    int
	Failed    int
	Nodes     float64 // mean model size
	FitSecs   float64 // mean fit time
}

// Aggregate groups results by dataset and model (failed trials excluded).
func Aggregate(rs []Result) map[string]map[string]*Cell {
	vals := map[string]map[string][]Result{}
	for _, r := range rs {
		if vals[r.Dataset] == nil {
			vals[r.Dataset] = map[string][]Result{}
		}
		vals[r.Dataset][r.Model] = append(vals[r.Dataset][r.Model], r)
	}
	out := map[string]map[string]*Cell{}
	for d, byModel := range vals {
		out[d] = map[string]*Cell{}
		for m, list := range byModel {
			c := &Cell{}
			var f1 []float64
			for _, r := range list {
				if r.Err != "" {
					c.Failed++
					continue
				}
				f1 = append(f1, r.F1Macro)
				c.Nodes += float64(r.NNodes)
				c.FitSecs += r.FitSeconds
			}
			c.Trials = len(f1)
			if c.Trials > 0 {
				c.Mean = metrics.Mean(f1)
				c.Std = metrics.Std(f1, 0)
				c.Nodes /= float64(c.Trials)
				c.FitSecs /= float64(c.Trials)
			} else {
				c.Mean, c.Std = math.NaN(), math.NaN()
			}
			out[d][m] = c
		}
	}
	return out
}

// WriteMarkdown writes the thesis-style table for suite s: per dataset the
// mean ± std macro F1 of each model over its trials, beside the thesis's
// published figure for that model where one exists; then the mean over
// datasets, MRR and MRD over the models run, and mean tree sizes.
func WriteMarkdown(w io.Writer, s *Suite, models []string, rs []Result) error {
	agg := Aggregate(rs)
	var datasetsRun []string
	for _, e := range s.Entries {
		if agg[e.Dataset] != nil {
			datasetsRun = append(datasetsRun, e.Dataset)
		}
	}
	if len(datasetsRun) == 0 {
		_, err := fmt.Fprintln(w, "(no results)")
		return err
	}
	thesisCol := func(m string) string {
		if mod, err := Lookup(m); err == nil {
			return mod.Thesis
		}
		return ""
	}
	var b strings.Builder
	b.WriteString("| dataset |")
	sep := "|---|"
	for _, m := range models {
		fmt.Fprintf(&b, " %s |", m)
		sep += "---|"
		if tc := thesisCol(m); tc != "" {
			fmt.Fprintf(&b, " thesis %s | Δ |", tc)
			sep += "---|---|"
		}
	}
	b.WriteString("\n" + sep + "\n")
	defer func() {
		if len(s.Entries) > 0 && s.Entries[0].ThesisTable != "" {
			fmt.Fprintf(w, "\nThesis figures: %s.\n", s.Entries[0].ThesisTable)
		}
	}()

	scores := make([][]float64, len(datasetsRun))
	thesisMeans := make([][]float64, len(models))
	for i := range thesisMeans {
		thesisMeans[i] = make([]float64, 0, len(datasetsRun))
	}
	for d, name := range datasetsRun {
		e, _ := s.Entry(name)
		label := e.Display
		if label == "" {
			label = name
		}
		fmt.Fprintf(&b, "| %s |", label)
		scores[d] = make([]float64, len(models))
		for j, m := range models {
			c := agg[name][m]
			if c == nil || c.Trials == 0 {
				b.WriteString(" – |")
				scores[d][j] = math.NaN()
			} else {
				fmt.Fprintf(&b, " %.3f ± %.3f |", c.Mean, c.Std)
				scores[d][j] = c.Mean
			}
			if tc := thesisCol(m); tc != "" {
				if tv, ok := e.Thesis[tc]; ok {
					fmt.Fprintf(&b, " %.3f |", tv)
					if c != nil && c.Trials > 0 {
						fmt.Fprintf(&b, " %+.3f |", c.Mean-tv)
					} else {
						b.WriteString(" |")
					}
					thesisMeans[j] = append(thesisMeans[j], tv)
				} else {
					b.WriteString(" – | |")
				}
			}
		}
		b.WriteString("\n")
	}
	// Summary rows.
	means, err := metrics.MeanScore(scores)
	if err != nil {
		return err
	}
	mrr, err := metrics.MRR(scores)
	if err != nil {
		return err
	}
	mrd, err := metrics.MRD(scores)
	if err != nil {
		return err
	}
	row := func(title string, sums []metrics.Summary, thesis bool) {
		fmt.Fprintf(&b, "| **%s** |", title)
		for j, m := range models {
			if math.IsNaN(sums[j].Std) { // one trial or one dataset: no spread to show
				fmt.Fprintf(&b, " %.3f |", sums[j].Mean)
			} else {
				fmt.Fprintf(&b, " %.3f ± %.3f |", sums[j].Mean, sums[j].Std)
			}
			if thesisCol(m) != "" {
				if thesis && len(thesisMeans[j]) == len(datasetsRun) {
					tm := metrics.Mean(thesisMeans[j])
					fmt.Fprintf(&b, " %.3f | %+.3f |", tm, sums[j].Mean-tm)
				} else {
					b.WriteString(" | |")
				}
			}
		}
		b.WriteString("\n")
	}
	row("Mean", means, true)
	row("MRR", mrr, false)
	row("MRD", mrd, false)
	// Per-model means over the datasets run: model size, and the mean wall
	// time of one fit (fit_seconds as recorded, so it depends on the load).
	perModel := func(title string, field func(*Cell) float64) {
		fmt.Fprintf(&b, "\n%s:", title)
		for _, m := range models {
			var sum float64
			n := 0
			for _, name := range datasetsRun {
				if c := agg[name][m]; c != nil && c.Trials > 0 {
					sum += field(c)
					n++
				}
			}
			if n > 0 {
				fmt.Fprintf(&b, " %s %.1f;", m, sum/float64(n))
			}
		}
		b.WriteString("\n")
	}
	perModel("Mean model size (nodes)", func(c *Cell) float64 { return c.Nodes })
	perModel("Mean fit seconds per trial (wall time as recorded)", func(c *Cell) float64 { return c.FitSecs })
	_, err = io.WriteString(w, b.String())
	return err
}
