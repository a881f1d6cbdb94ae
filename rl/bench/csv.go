package bench

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/rl/ppo"
)

// Header is the column order of the results file. The first eight columns
// are the protocol's; val_episodes and test_episodes hold the per-episode
// returns (";"-separated) behind Cohen's d, curve the evaluations during
// training ("step train trained applied selection test sd nodes" per
// point, ";"-separated; selection is the mean over ppo's val_episodes, test
// the trained model's mean test return at that evaluation, sd the spread
// of the validation returns behind selection and nodes the evaluated
// tree's pruned size, Point.Nodes; older files lack the last one, three or
// four); these
// are the final policy's. The last three describe the best-validation
// policy, which a training delivers (Row.BestValReturn, …, Row.Delivered;
// empty without one, and then the final policy is delivered); files
// written before they existed read as rows without one. restarts counts
// the training's restarts (0 where absent), restart_reasons gives their
// reasons (";"-separated: "not learned", "diverged"; empty where absent).
// diverged_step, when not empty, is the step at which the training
// diverged with no restart left and ended (Row.DivergedStep): the row is
// no error; its final policy does not exist (val_return and test_return
// "nan") and its delivered one is the best-validation policy. recheck,
// with the recheck option, holds the rechecked policies ("step mean sd"
// per policy, ";"-separated, oldest first; Row.Recheck), empty otherwise
// and in older files. level, with Options.Level, is the delivered
// policy's level ("mean sd n", Row.Level), empty otherwise and in older
// files.
var Header = []string{"env", "method", "seed", "steps", "val_return", "test_return", "tree_nodes", "seconds",
	"algorithm", "profile", "variant", "trained_steps", "val_episodes", "test_episodes", "curve", "error",
	"best_val_return", "best_test_return", "best_step", "restarts", "restart_reasons", "diverged_step", "recheck", "level"}

func fmtFloat(v float64) string {
	if math.IsNaN(v) {
		return "nan"
	}
	return strconv.FormatFloat(v, 'g', 10, 64)
}

func fmtList(x []float64) string {
	s := make([]string, len(x))
	for i, v := range x {
		s[i] = fmtFloat(v)
	}
	return strings.Join(s, ";")
}

func fmtRecheck(r *ppo.Recheck) string {
	if r == nil {
		return ""
	}
	s := make([]string, len(r.Steps))
	for i, step := range r.Steps {
		sd := math.NaN()
		if i < len(r.SDs) {
			sd = r.SDs[i]
		}
		s[i] = strconv.Itoa(step) + " " + fmtFloat(r.Returns[i]) + " " + fmtFloat(sd)
	}
	return strings.Join(s, ";")
}

func fmtLevel(l *Level) string {
	if l == nil {
		return ""
	}
	return fmtFloat(l.Mean) + " " + fmtFloat(l.SD) + " " + strconv.Itoa(l.N)
}

func fmtCurve(c []Point) string {
	s := make([]string, len(c))
	for i, p := range c {
		s[i] = strconv.Itoa(p.Step) + " " + fmtFloat(p.Train) + " " + fmtFloat(p.Trained) + " " + fmtFloat(p.Applied) + " " + fmtFloat(p.Selection) +
			" " + fmtFloat(p.Test) + " " + fmtFloat(p.SelectionSD) + " " + strconv.Itoa(p.Nodes)
	}
	return strings.Join(s, ";")
}

// record renders a row as CSV fields in Header order.
func record(r Row) []string {
	var bestVal, bestTest, bestStep, diverged string
	if r.BestStep != 0 {
		bestVal, bestTest, bestStep = fmtFloat(r.BestValReturn), fmtFloat(r.BestTestReturn), strconv.Itoa(r.BestStep)
	}
	if r.DivergedStep != 0 {
		diverged = strconv.Itoa(r.DivergedStep)
	}
	return []string{r.Env, r.Method, strconv.Itoa(r.Seed), strconv.Itoa(r.Steps), fmtFloat(r.ValReturn),
		fmtFloat(r.TestReturn), strconv.Itoa(r.TreeNodes), strconv.FormatFloat(r.Seconds, 'f', 3, 64),
		r.Algorithm, r.Profile, r.Variant, strconv.Itoa(r.TrainedSteps), fmtList(r.ValEpisodes),
		fmtList(r.TestEpisodes), fmtCurve(r.Curve), r.Err, bestVal, bestTest, bestStep, strconv.Itoa(r.Restarts),
		strings.Join(r.RestartReasons, ";"), diverged, fmtRecheck(r.Recheck), fmtLevel(r.Level)}
}

// WriteCSV writes rows with a header line.
func WriteCSV(w io.Writer, rs []Row) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(Header); err != nil {
		return err
	}
	return AppendCSV(cw, rs)
}

// AppendCSV writes rows without a header (to extend an existing file) and
// flushes.
func AppendCSV(cw *csv.Writer, rs []Row) error {
	for _, r := range rs {
		if err := cw.Write(record(r)); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// ReadCSV reads a results file written by WriteCSV (to resume a run or
// rebuild the tables). name is used in error messages, which give the line
// and column of a malformed value.
func ReadCSV(r io.Reader, name string) ([]Row, error) {
	kc, err := data.NewKeyedCSV(r, name, "gdt rl bench results file", "env", "method", "seed", "val_return", "test_return")
	if err != nil {
		return nil, err
	}
	var out []Row
	for {
		ok, err := kc.Next()
		if err != nil {
			return nil, err
		}
		if !ok {
			return out, nil
		}
		line := kc.Line()
		get := kc.Get
		bad := func(k, want, got string) error { return kc.Errorf(k, "expected %s, found %q", want, got) }
		num := func(k string) (float64, error) { return kc.Float(k, math.NaN()) }
		integer := kc.Int
		list := func(k string) ([]float64, error) {
			s := get(k)
			if s == "" {
				return nil, nil
			}
			var out []float64
			for _, p := range strings.Split(s, ";") {
				v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
				if err != nil {
					return nil, bad(k, "numbers separated by ';'", p)
				}
				out = append(out, v)
			}
			return out, nil
		}
		row := Row{Env: get("env"), Method: get("method"), Algorithm: get("algorithm"), Profile: get("profile"),
			Variant: get("variant"), Err: get("error")}
		if row.Env == "" || row.Method == "" {
			return nil, fmt.Errorf("%s:%d: empty env or method", name, line)
		}
		for _, f := range []struct {
			k string
			p *int
		}{{"seed", &row.Seed}, {"steps", &row.Steps}, {"tree_nodes", &row.TreeNodes}, {"trained_steps", &row.TrainedSteps}, {"best_step", &row.BestStep}, {"restarts", &row.Restarts}, {"diverged_step", &row.DivergedStep}} {
			if *f.p, err = integer(f.k); err != nil {
				return nil, err
			}
		}
		for _, f := range []struct {
			k string
			p *float64
		}{{"val_return", &row.ValReturn}, {"test_return", &row.TestReturn}, {"seconds", &row.Seconds},
			{"best_val_return", &row.BestValReturn}, {"best_test_return", &row.BestTestReturn}} {
			if *f.p, err = num(f.k); err != nil {
				return nil, err
			}
		}
		if s := get("restart_reasons"); s != "" {
			row.RestartReasons = strings.Split(s, ";")
			for _, why := range row.RestartReasons {
				if why != ppo.RestartNotLearned && why != ppo.RestartDiverged {
					return nil, bad("restart_reasons", fmt.Sprintf("%q or %q separated by ';'", ppo.RestartNotLearned, ppo.RestartDiverged), why)
				}
			}
		}
		if row.ValEpisodes, err = list("val_episodes"); err != nil {
			return nil, err
		}
		if row.TestEpisodes, err = list("test_episodes"); err != nil {
			return nil, err
		}
		if s := get("curve"); s != "" {
			for _, p := range strings.Split(s, ";") {
				f := strings.Fields(p)
				if len(f) != 4 && len(f) != 5 && len(f) != 7 && len(f) != 8 {
					return nil, bad("curve", "points of 8 numbers (4, 5 or 7 in older files)", p)
				}
				pt := Point{Selection: math.NaN(), Test: math.NaN(), SelectionSD: math.NaN()}
				if pt.Step, err = strconv.Atoi(f[0]); err != nil {
					return nil, bad("curve", "an integer step", f[0])
				}
				vals := []*float64{&pt.Train, &pt.Trained, &pt.Applied, &pt.Selection, &pt.Test, &pt.SelectionSD}
				for i, v := range f[1:min(len(f), 7)] {
					if *vals[i], err = strconv.ParseFloat(v, 64); err != nil {
						return nil, bad("curve", "a number", v)
					}
				}
				if len(f) == 8 {
					if pt.Nodes, err = strconv.Atoi(f[7]); err != nil || pt.Nodes < 0 {
						return nil, bad("curve", "a node count", f[7])
					}
				}
				row.Curve = append(row.Curve, pt)
			}
		}
		if s := get("recheck"); s != "" {
			row.Recheck = &ppo.Recheck{}
			for _, p := range strings.Split(s, ";") {
				f := strings.Fields(p)
				if len(f) != 3 {
					return nil, bad("recheck", "policies of 3 numbers (step mean sd)", p)
				}
				step, err := strconv.Atoi(f[0])
				if err != nil || step < 0 {
					return nil, bad("recheck", "a step", f[0])
				}
				var m, sd float64
				for i, v := range []*float64{&m, &sd} {
					if *v, err = strconv.ParseFloat(f[i+1], 64); err != nil {
						return nil, bad("recheck", "a number", f[i+1])
					}
				}
				r := row.Recheck
				r.Steps, r.Returns, r.SDs = append(r.Steps, step), append(r.Returns, m), append(r.SDs, sd)
			}
		}
		if s := get("level"); s != "" {
			f := strings.Fields(s)
			if len(f) != 3 {
				return nil, bad("level", "3 numbers (mean sd n)", s)
			}
			l := &Level{}
			for i, v := range []*float64{&l.Mean, &l.SD} {
				if *v, err = strconv.ParseFloat(f[i], 64); err != nil {
					return nil, bad("level", "a number", f[i])
				}
			}
			if l.N, err = strconv.Atoi(f[2]); err != nil || l.N < 1 {
				return nil, bad("level", "an episode count ≥ 1", f[2])
			}
			row.Level = l
		}
		if row.Algorithm == "" {
			row.Algorithm = "ppo"
		}
		if row.Profile == "" {
			row.Profile = "default"
		}
		out = append(out, row)
	}
}
