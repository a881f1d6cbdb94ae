package main

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	_ "github.com/gdt-ml/gdt/rl/env/all"

	rlbench "github.com/gdt-ml/gdt/rl/bench"
	"github.com/gdt-ml/gdt/rl/ppo"
	"github.com/gdt-ml/gdt/safefile"
)

// stringList is a repeatable flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, " ") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// rlBench runs `gdt rl bench`.
func rlBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return rlBenchNamed(ctx, "rl bench", args, stdout, stderr)
}

func rlBenchNamed(ctx context.Context, name string, args []string, stdout, stderr io.Writer) error {
	fs := newFlags(name, "[--envs LIST] [--methods LIST] [--seeds N] [--first-seed S] [--steps N] --out FILE.csv [flags]",
		"Runs the SYMPOL study: per environment and method, N trainings (env seeds S, S+100, …;\n"+
			"S = --first-seed, 142 by default as in the thesis)\n"+
			"with the thesis's best hyperparameters and the training protocol of rl/ppo (val_episodes validation episodes\n"+
			"behind the delivered policy, restarts of trainings that have not learned), 5 test episodes each; writes one\n"+
			"CSV row per (environment, method, seed) and prints the thesis's tables (returns,\n"+
			"information loss as Cohen's d, tree size, ablation) beside the thesis's numbers.\n"+
			"Methods: "+strings.Join(rlbench.Methods, ", ")+". Rerunning the same command resumes (a training\n"+
			"resumed from its checkpoint continues bit for bit as an uninterrupted one).\n"+
			"With --from FILE.csv instead of --out, it only renders the tables (and --report).", stderr)
	envs := fs.String("envs", "", "comma-separated environment IDs or short names (CP, AB, LL, MC-C, PD-C, E-R, DK, LG-5, LG-7, DS); default all ten")
	methods := fs.String("methods", "", "comma-separated methods; default all")
	seeds := fs.Int("seeds", 5, "trainings per environment and method")
	firstSeed := fs.Int("first-seed", 142, "environment seed of the first training per environment and method (then +100 per training); a seed no study has looked at gives an unseen sample")
	steps := fs.Int("steps", 1_000_000, "environment steps per training")
	out := fs.String("out", "", "results CSV (appended to as jobs finish; an existing file is resumed)")
	from := fs.String("from", "", "render tables/report from this CSV without training")
	algo := fs.String("algorithm", "ppo", "ppo or a2c (spec §8.8)")
	profile := fs.String("profile", "default", "default or reference (the reference code's quirks, spec §11)")
	ablation := fs.Bool("ablation", false, "run SYMPOL's ablation variants (spec §8.7) besides the full method")
	variants := fs.String("variants", "", "comma-separated ablation variants instead of --ablation's all: "+strings.Join(rlbench.Variants[1:], ", "))
	levelEps := fs.Int("level", 0, "also play each training's delivered policy on this many episodes of its own (seeds 900000000, …: the same for every training, disjoint from validation and test) and record their mean in the CSV's level column, a far less noisy measure than the test's episodes for comparing arms paired by seed; rows already in a resumed file stay as they were written (0: off)")
	workers := fs.Int("workers", 0, "parallel trainings (default: the number of cores)")
	ckpt := fs.String("checkpoints", "", "directory for checkpoints of running trainings (default FILE.csv.ckpt)")
	curves := fs.Bool("curves", true, "evaluate the applied trees at every evaluation for the learning curves")
	report := fs.String("report", "", "write DIR/index.html (tables and SVG learning curves) and DIR/tables.md")
	caseStudy := fs.String("case-study", "", "run the DistShift goal-misgeneralisation recipe (spec §9) and write its report to DIR")
	quiet := fs.Bool("quiet", false, "no progress output")
	asJSON := jsonFlag(fs)
	var sets stringList
	fs.Var(&sets, "set", "hyperparameter key=value applied to every training (repeatable; gdt models sympol lists them)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, pos[0])
	}
	if *firstSeed < 1 {
		return fmt.Errorf("%w: --first-seed %d: expected ≥ 1", errUsage, *firstSeed)
	}
	if *levelEps < 0 {
		return fmt.Errorf("%w: --level %d: expected ≥ 0", errUsage, *levelEps)
	}
	if *caseStudy != "" {
		return runCaseStudy(ctx, *caseStudy, *steps, 0, stdout, stderr, *quiet)
	}
	if *out == "" && *from == "" {
		return fmt.Errorf("%w: --out FILE.csv is required (or --from FILE.csv to render existing results)", errUsage)
	}
	if *from != "" {
		rows, err := readRLRows(*from)
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(stdout, map[string]any{"rows": rlRowsJSON(rows), "from": *from})
		}
		return rlTables(rows, *report, stdout)
	}
	opt := rlbench.Options{
		Envs: splitList(*envs), Methods: splitList(*methods), Seeds: *seeds, FirstSeed: *firstSeed, Steps: *steps, Level: *levelEps,
		Algorithm: *algo, Profile: *profile, Set: sets, Workers: *workers, Curves: *curves,
	}
	if *ablation {
		opt.Variants = append([]string(nil), rlbench.Variants...)
		if *methods == "" {
			opt.Methods = []string{rlbench.SYMPOL}
		}
	}
	if *variants != "" {
		opt.Variants = []string{""}
		for _, v := range splitList(*variants) {
			if v == "full" {
				continue
			}
			opt.Variants = append(opt.Variants, v)
		}
	}
	opt.CheckpointDir = *ckpt
	if opt.CheckpointDir == "" {
		opt.CheckpointDir = *out + ".ckpt"
	}
	old, err := readRLRows(*out)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	opt.Done = old
	// Stream finished jobs into the CSV so an interruption loses at most the
	// running trainings (which resume from their checkpoints).
	opt.OnRows = func(rs []rlbench.Row) error { return appendRLRows(*out, rs) }
	total, err := rlbench.JobCount(opt)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	prog := newProgress(stderr, total, "rl bench", *quiet)
	var mu sync.Mutex
	finished := 0
	opt.Progress = func(done, total int, msg string) {
		mu.Lock()
		finished = done
		mu.Unlock()
		prog.update(done, total, msg)
	}
	opt.Training = func(job string, p ppo.Progress) {
		mu.Lock()
		done := finished
		mu.Unlock()
		msg := fmt.Sprintf("%s: %dk/%dk steps", job, p.Step/1000, p.Total/1000)
		if !math.IsNaN(p.RecentReturn) {
			msg += fmt.Sprintf(", return %.1f", p.RecentReturn)
		}
		prog.update(done, total, msg)
	}
	rows, runErr := rlbench.Run(ctx, opt)
	prog.finish()
	if runErr != nil {
		if errors.Is(runErr, context.Canceled) {
			fmt.Fprintf(stderr, "gdt rl bench: interrupted; finished jobs are in %s, running ones in %s; rerun the same command to resume\n", *out, opt.CheckpointDir)
		}
		return runErr
	}
	// Rewrite the file: this run's rows in job order, then rows of other
	// runs kept from the old file.
	merged := append([]rlbench.Row(nil), rows...)
	seen := map[string]bool{}
	for _, r := range rows {
		seen[r.Key()] = true
	}
	for _, r := range old {
		if !seen[r.Key()] {
			merged = append(merged, r)
			seen[r.Key()] = true
		}
	}
	if err := safefile.Write(*out, func(w io.Writer) error { return rlbench.WriteCSV(w, merged) }); err != nil {
		return err
	}
	os.Remove(opt.CheckpointDir) // only if empty
	nErr := 0
	for _, r := range rows {
		switch {
		case r.Err != "":
			nErr++
			fmt.Fprintf(stderr, "gdt rl bench: %s %s seed %d: %s\n", r.Env, r.Method, r.Seed, r.Err)
		case r.DivergedStep != 0:
			fmt.Fprintf(stderr, "gdt rl bench: warning: %s %s seed %d: the training diverged at step %d and ended there; no final policy (diverged_step in %s)\n",
				r.Env, r.Method, r.Seed, r.DivergedStep, *out)
		}
	}
	var show []rlbench.Row
	for _, r := range merged {
		if r.Steps == *steps {
			show = append(show, r)
		}
	}
	if *asJSON {
		if *report != "" {
			if err := rlbench.WriteReport(*report, show); err != nil {
				return err
			}
		}
		return writeJSON(stdout, map[string]any{"rows": rlRowsJSON(show), "out": *out, "rows_in_file": len(merged), "failed": nErr})
	}
	if err := rlTables(show, *report, stdout); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d rows in %s", len(merged), *out)
	if nErr > 0 {
		fmt.Fprintf(stdout, " (%d failed: rerun to retry)", nErr)
	}
	fmt.Fprintln(stdout)
	return nil
}

func rlTables(rows []rlbench.Row, report string, stdout io.Writer) error {
	if err := rlbench.WriteMarkdown(stdout, rows); err != nil {
		return err
	}
	if report != "" {
		if err := rlbench.WriteReport(report, rows); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "report: %s\n", filepath.Join(report, "index.html"))
	}
	return nil
}

func readRLRows(path string) ([]rlbench.Row, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return rlbench.ReadCSV(f, path)
}

// appendRLRows appends rows to the CSV at path, writing the header first
// if the file is new or empty. A file whose header is not the current one
// (written by an older gdt, without the best-validation columns) is
// rewritten with the current header, its rows kept, so that every line has
// the same columns.
func appendRLRows(path string, rs []rlbench.Row) error {
	if head, err := csvHeader(path); err == nil && len(head) > 0 && !slices.Equal(head, rlbench.Header) {
		prev, err := readRLRows(path)
		if err != nil {
			return err
		}
		return safefile.Write(path, func(w io.Writer) error { return rlbench.WriteCSV(w, append(prev, rs...)) })
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return err
	}
	cw := csv.NewWriter(f)
	if st.Size() == 0 {
		if err := cw.Write(rlbench.Header); err != nil {
			f.Close()
			return err
		}
	}
	if err := rlbench.AppendCSV(cw, rs); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// csvHeader returns the first record of the CSV file at path (nil for an
// empty file).
func csvHeader(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	cr := csv.NewReader(f)
	cr.FieldsPerRecord = -1
	head, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, nil
	}
	for i := range head {
		head[i] = strings.TrimSpace(head[i])
	}
	return head, err
}

// runCaseStudy runs the DistShift recipe (spec §9) and writes
// DIR/case-study.md.
func runCaseStudy(ctx context.Context, dir string, steps, episodes int, stdout, stderr io.Writer, quiet bool) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	opt := rlbench.CaseStudyOptions{Steps: steps, Episodes: episodes}
	if !quiet {
		opt.Progress = func(stage string) { fmt.Fprintln(stderr, "gdt rl bench:", stage) }
	}
	res, err := rlbench.CaseStudy(ctx, opt)
	if err != nil {
		return err
	}
	var b strings.Builder
	if err := res.Markdown(&b); err != nil {
		return err
	}
	path := filepath.Join(dir, "case-study.md")
	if err := safefile.WriteBytes(path, []byte(b.String())); err != nil {
		return err
	}
	fmt.Fprint(stdout, b.String())
	fmt.Fprintf(stdout, "\nwritten to %s\n", path)
	return nil
}

// rlRowsJSON is rows as `gdt rl bench --json` prints them, with the
// delivered policy's test return (rlbench.Row.Delivered) (NaN, e.g. a
// missing best policy's return, as null; curves left out: the report and
// the CSV hold them).
func rlRowsJSON(rows []rlbench.Row) []map[string]any {
	out := make([]map[string]any, len(rows))
	floats := func(v []float64) []jsonFloat {
		f := make([]jsonFloat, len(v))
		for i, x := range v {
			f[i] = jsonFloat(x)
		}
		return f
	}
	for i, r := range rows {
		d, best := r.Delivered()
		delivered := policyFinal
		if best {
			delivered = policyBest
		}
		out[i] = map[string]any{"delivered": delivered, "delivered_test_return": jsonFloat(d), "env": r.Env, "method": r.Method, "seed": r.Seed, "algorithm": r.Algorithm, "profile": r.Profile,
			"variant": r.Variant, "steps": r.Steps, "trained_steps": r.TrainedSteps, "validation_return": jsonFloat(r.ValReturn),
			"test_return": jsonFloat(r.TestReturn), "tree_nodes": r.TreeNodes, "seconds": jsonFloat(r.Seconds),
			"validation_episodes": floats(r.ValEpisodes), "test_episodes": floats(r.TestEpisodes), "error": r.Err,
			"best_validation_return": jsonFloat(r.BestValReturn), "best_test_return": jsonFloat(r.BestTestReturn), "best_step": r.BestStep,
			"restarts": r.Restarts, "restart_reasons": r.RestartReasons, "diverged_step": r.DivergedStep}
	}
	return out
}
