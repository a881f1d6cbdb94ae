package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/c-bata/goptuna"
	"github.com/gdt-ml/gdt/bench"
	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/datasets"
	"github.com/gdt-ml/gdt/hpo"
	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/safefile"
)

func init() {
	register(command{name: "tune", summary: "search hyperparameters (TPE, random, CMA-ES) with workers sharing one study", run: runTune})
}

// Extra study attributes of gdt tune.
const (
	attrDataFile = "gdt:data_file"
	attrTarget   = "gdt:target"
	attrTask     = "gdt:task"
)

func runTune(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("tune", "--model KIND (--dataset NAME | --data FILE | --env ID) [--trials N] [flags]",
		"Searches the hyperparameters of a model kind over the thesis's space under the thesis's\n"+
			"protocol (objective: the protocol's validation score, macro F1), until the study has\n"+
			"--trials evaluated trials (complete or pruned, as Optuna counts them; failed trials,\n"+
			"including those of killed workers, are replaced). The study lives in\n"+
			"--storage: a journal file by default (no setup; processes on one machine share it) or\n"+
			"postgres://user@host:port/db for workers on many machines. Start more workers on the\n"+
			"same study with the same command plus --join (or `gdt tune --join --study NAME\n"+
			"--storage …`); a killed worker's trial is marked failed and the search goes on.\n"+
			"Writes the best configuration as JSON (--out), usable by `gdt bench --tuned`.\n"+
			"\n"+
			"--model sympol --env ID tunes SYMPOL policies (sympol-rl spec §7.2): each trial trains\n"+
			"--seeds policies (env seeds 142, 242, …) for --steps environment steps with the sampled\n"+
			"hyperparameters on top of the environment's preset; the objective is the mean final\n"+
			"validation return, and the mean validation return after every evaluation (about every\n"+
			"50 000 steps) goes to the pruner. The best configuration is usable by\n"+
			"`gdt rl train --tuned FILE`.", stderr)
	kind := fs.String("model", "", "model kind: "+strings.Join(kindNames(), ", ")+"; inline options are fixed like --set: grande[depth=4]")
	dataset := fs.String("dataset", "", `registered dataset (e.g. grande/wdbc, adult; "demo" for the built-in data)`)
	envID := fs.String("env", "", "environment of a policy study (--model sympol), e.g. CartPole-v1")
	rlSeeds := fs.Int("seeds", 5, "policy studies: trainings per trial (env seeds 142, 242, …)")
	rlSteps := fs.Int("steps", 1_000_000, "policy studies: environment steps per training")
	rlProfile := fs.String("profile", "default", "policy studies: training profile, default or reference")
	rlParallel := fs.Int("parallel", 1, "policy studies: trainings of one trial run at once (results do not depend on it)")
	var df dataFlags
	df.register(fs, true)
	trials := fs.Int("trials", 100, "evaluated (complete or pruned) trials the study should reach; on an existing study an explicit value changes its target")
	sampler := fs.String("sampler", "", "tpe (default), random or cmaes (joining workers default to the study's)")
	pruner := fs.String("pruner", "", "median (default), sha (successive halving) or none")
	warmUp := fs.Int("pruner-warmup", -1, "reported steps 0…N at which no trial is pruned, set when a study is created (-1: 0 for models, a quarter of the training's evaluations for policies)")
	storage := fs.String("storage", "gdt-hpo.jsonl", "journal file, or postgres://user@host:port/db?sslmode=disable")
	study := fs.String("study", "", "study name (default KIND:DATASET)")
	workers := fs.Int("workers", 1, "workers in this process")
	createOnly := fs.Bool("create-only", false, "create the study and exit (start workers with --join)")
	join := fs.Bool("join", false, "join an existing study (its model, dataset and space come from the store)")
	protocol := fs.String("protocol", "", "search protocol: "+strings.Join(hpo.ProtocolNames(), ", ")+" (default: grande-5x2 for grande, gradtree-cv3 otherwise)")
	spaceName := fs.String("space", "", "search space: "+strings.Join(hpo.SpaceNames(), ", ")+" (default: the model kind's)")
	seed := fs.Int64("seed", 42, "model seed of every fit (tabular studies; policy studies initialise with seed 42 as the thesis)")
	samplerSeed := fs.Int64("sampler-seed", 0, "sampler seed (0: a fresh one per worker)")
	out := fs.String("out", "", "write the best configuration here (default tuned/KIND__DATASET.json)")
	root := fs.String("data-root", "", "benchmark data folder (default: $GDT_DATA, else ../shared/data next to the repository)")
	heartbeat := fs.Duration("heartbeat", 10*time.Second, "lease renewal interval of a running trial")
	lease := fs.Duration("lease", 2*time.Minute, "a trial without heartbeat for this long is marked failed (workers on the same host are checked by PID at once)")
	quiet := fs.Bool("quiet", false, "no progress lines")
	listSpaces := fs.Bool("list-spaces", false, "print the search spaces and protocols and exit")
	asJSON := jsonFlag(fs)
	fixed := optionFlags{}
	fs.Var(fixed, "set", "fix a model option key=value (repeatable; removed from the search space; gdt models KIND lists them)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, pos[0])
	}
	if *listSpaces {
		return printSpaces(stdout)
	}
	if df.drop != "" {
		return fmt.Errorf("%w: --drop is not stored in a study; remove the columns from the file instead", errUsage)
	}
	if *kind != "" {
		k, o, err := kindWithOptions(*kind, fixed)
		if err != nil {
			return err
		}
		*kind, fixed = k, o
	}
	if *createOnly && *join {
		return fmt.Errorf("%w: --create-only and --join exclude each other", errUsage)
	}
	if *trials < 1 {
		return fmt.Errorf("%w: --trials %d: want at least 1", errUsage, *trials)
	}
	if *workers < 1 {
		return fmt.Errorf("%w: --workers %d: want at least 1", errUsage, *workers)
	}
	store, err := hpo.OpenStore(*storage)
	if err != nil {
		return err
	}
	defer store.Close()
	cfg := hpo.Config{Sampler: *sampler, Pruner: *pruner, Seed: *samplerSeed, Heartbeat: *heartbeat, Lease: *lease, WarmUp: *warmUp}

	rl := hpo.IsRLKind(*kind)
	if rl && (*dataset != "" || df.path != "") {
		return fmt.Errorf("%w: --model %s tunes a policy: give --env, not --dataset or --data", errUsage, *kind)
	}
	if !rl && *kind != "" {
		var bad string
		fs.Visit(func(f *flag.Flag) {
			switch f.Name {
			case "env", "seeds", "steps", "profile", "parallel":
				bad = f.Name
			}
		})
		if bad != "" {
			return fmt.Errorf("%w: --%s applies to policy studies (--model sympol), not to --model %q", errUsage, bad, *kind)
		}
	}
	trialsSet := false
	fs.Visit(func(f *flag.Flag) { trialsSet = trialsSet || f.Name == "trials" })
	req := hpo.Request{Name: *study, Kind: *kind, Space: *spaceName, Protocol: *protocol, Fixed: fixed, Trials: *trials,
		TrialsExplicit: trialsSet, Seed: *seed, Join: *join, CreateOnly: *createOnly, Config: cfg, Where: *storage}
	if rl {
		req.RL = &hpo.RLSetup{Method: *kind, Env: *envID, Seeds: *rlSeeds, Steps: *rlSteps, Profile: *rlProfile}
	} else {
		attrs := map[string]string{}
		req.Dataset = *dataset
		if df.path != "" {
			abs, _ := filepath.Abs(df.path)
			req.Dataset = datasetLabel("", df.path)
			attrs[attrDataFile], attrs[attrTarget], attrs[attrTask] = abs, df.target, df.task
		}
		req.Attrs = attrs
		req.CheckData = func() error {
			a := map[string]string{hpo.AttrDataset: req.Dataset}
			for k, v := range attrs {
				a[k] = v
			}
			_, err := tuneDataset(a, *root, &df)
			return err
		}
	}
	s, opened, err := hpo.Open(store, req)
	if errors.Is(err, hpo.ErrRequest) {
		return fmt.Errorf("%w: %s", errUsage, strings.TrimPrefix(err.Error(), hpo.ErrRequest.Error()+": "))
	}
	if err != nil {
		return err
	}
	name, _ := req.StudyName()
	if !*quiet {
		fmt.Fprintln(stderr, opened.Summary)
		if opened.Retarget > 0 {
			fmt.Fprintf(stderr, "study %q: target changed from %d to %d trials\n", name, opened.Retarget, *trials)
		}
	}
	if s == nil { // --create-only
		if *asJSON {
			return writeJSON(stdout, map[string]any{"study": name, "storage": *storage, "created": true})
		}
		fmt.Fprintf(stdout, "created study %q in %s; start workers with: gdt tune --join --study '%s' --storage '%s'\n", name, *storage, name, *storage)
		return nil
	}
	if !opened.Created {
		if err := checkRLFlags(fs, s, name); err != nil {
			return err
		}
	}
	var obj hpo.Objective
	if hpo.IsRLKind(s.Attrs[hpo.AttrKind]) {
		setup, err := s.RLSetupOf()
		if err != nil {
			return err
		}
		setup.Parallel, setup.Serial = *rlParallel, *workers > 1
		if obj, err = hpo.RLObjective(setup); err != nil {
			return err
		}
	} else {
		ds, err := tuneDataset(s.Attrs, *root, &df)
		if err != nil {
			return err
		}
		proto, err := hpo.LookupProtocol(s.Attrs[hpo.AttrProtocol])
		if err != nil {
			return err
		}
		mseed, _ := strconv.ParseInt(s.Attrs[hpo.AttrSeed], 10, 64)
		if obj, err = hpo.ModelObjective(ds, s.Attrs[hpo.AttrKind], proto, mseed); err != nil {
			return err
		}
	}
	outPath := *out
	if outPath == "" {
		outPath = filepath.Join("tuned", s.Attrs[hpo.AttrKind]+"__"+strings.NewReplacer("/", "_", ":", "_").Replace(s.Attrs[hpo.AttrDataset])+".json")
	}
	w := &tuneWriter{study: s, name: name, storage: *storage, out: outPath, stderr: stderr, quiet: *quiet, best: math.Inf(-1), start: time.Now()}
	wcfg := cfg
	wcfg.Progress = w.event
	werr := hpo.RunWorkers(ctx, store, name, wcfg, *workers, obj)
	if err := w.writeBest(true); err != nil && !errors.Is(err, goptuna.ErrNoCompletedTrials) {
		return err
	}
	if werr != nil {
		return werr
	}
	c, _ := s.Counts()
	b, err := s.Best()
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(stdout, map[string]any{"study": name, "storage": *storage, "complete": c.Complete, "pruned": c.Pruned,
			"failed": c.Fail, "best_trial": b.Number, "best_value": jsonFloat(b.Value), "best_options": b.Options, "out": outPath})
	}
	fmt.Fprintf(stdout, "study %q: %d complete, %d pruned, %d failed trials; best trial %d: %.4f\n", name, c.Complete, c.Pruned, c.Fail, b.Number, b.Value)
	keys := make([]string, 0, len(b.Options))
	for k := range b.Options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(stdout, "  %s = %s\n", k, b.Options[k])
	}
	fmt.Fprintf(stdout, "best configuration written to %s\n", outPath)
	return nil
}

// tuneWriter prints trial events and keeps the best-configuration file up to
// date.
type tuneWriter struct {
	mu      sync.Mutex
	study   *hpo.Study
	name    string
	storage string
	out     string
	stderr  io.Writer
	quiet   bool
	best    float64
	start   time.Time
}

func (w *tuneWriter) event(e hpo.Event) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.quiet {
		switch {
		case e.Reaped:
			fmt.Fprintf(w.stderr, "trial %d marked failed: %s\n", e.Number, e.Err)
		case e.State == goptuna.TrialStateFail:
			fmt.Fprintf(w.stderr, "trial %d FAILED: %s\n", e.Number, e.Err)
		default:
			fmt.Fprintf(w.stderr, "trial %d %s %.4f (best %.4f; %d/%d evaluated, %d pruned; %s) %s\n", e.Number, strings.ToUpper(e.State.String()),
				e.Value, e.Best, e.Complete+e.Pruned, e.Budget, e.Pruned, time.Since(w.start).Round(time.Second), formatOptions(e.Options, w.study.Space))
		}
	}
	if e.State == goptuna.TrialStateComplete && e.Best > w.best {
		w.best = e.Best
		if err := w.writeBestLocked(false); err != nil {
			fmt.Fprintf(w.stderr, "writing %s: %v\n", w.out, err)
		}
	}
}

func (w *tuneWriter) writeBest(final bool) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.writeBestLocked(final)
}

func (w *tuneWriter) writeBestLocked(bool) error {
	b, err := w.study.Best()
	if err != nil {
		return err
	}
	c, _ := w.study.Counts()
	t := bench.Tuned{Kind: w.study.Attrs[hpo.AttrKind], Dataset: w.study.Attrs[hpo.AttrDataset], Options: b.Options, Score: b.Value,
		Protocol: protocolLabel(w.study.Attrs), Study: w.name, Storage: redactURL(w.storage), Trial: b.Number, Complete: c.Complete,
		Sampler: w.study.Attrs[hpo.AttrSampler], Written: time.Now().UTC().Round(time.Second)}
	js, err := json.MarshalIndent(t, "", "  ")
	if err != nil {
		return err
	}
	if dir := filepath.Dir(w.out); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	return safefile.WriteBytes(w.out, append(js, '\n'))
}

// formatOptions renders the tuned dimensions of a configuration.
func formatOptions(opts map[string]string, space *hpo.Space) string {
	var parts []string
	for _, p := range space.Params {
		if v, ok := opts[p.Name]; ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil && p.Type != hpo.Categorical && p.Type != hpo.Int {
				v = strconv.FormatFloat(f, 'g', 4, 64)
			}
			parts = append(parts, p.Name+"="+v)
		}
	}
	return strings.Join(parts, " ")
}

// redactURL drops a password from a storage URL.
func redactURL(s string) string {
	if i := strings.Index(s, "://"); i >= 0 {
		if at := strings.Index(s[i+3:], "@"); at >= 0 {
			cred := s[i+3 : i+3+at]
			if c := strings.Index(cred, ":"); c >= 0 {
				return s[:i+3] + cred[:c] + ":***" + s[i+3+at:]
			}
		}
	}
	return s
}

// datasetLabel names the data of a study.
func datasetLabel(name, path string) string {
	if path != "" {
		return "file:" + filepath.Base(path)
	}
	return name
}

// tuneDataset loads the study's data: a registered dataset, the demo data,
// or a file (with its target).
func tuneDataset(attrs map[string]string, root string, df *dataFlags) (*data.Dataset, error) {
	if f := attrs[attrDataFile]; f != "" {
		d := *df
		d.path, d.target, d.task = f, attrs[attrTarget], attrs[attrTask]
		ds, _, err := d.loadDataset()
		return ds, err
	}
	name := attrs[hpo.AttrDataset]
	if name == "demo" {
		return datasets.Demo(), nil
	}
	r, err := datasets.Root(root)
	if err != nil {
		return nil, err
	}
	return datasets.Load(r, name)
}

func kindNames() []string {
	var out []string
	for _, n := range []string{"cart", "gradtree", "grande", "grande-fast", "random-forest", "sympol"} {
		if _, err := model.LookupKind(n); err == nil || hpo.IsRLKind(n) {
			out = append(out, n)
		}
	}
	return out
}

func printSpaces(w io.Writer) error {
	for _, n := range hpo.SpaceNames() {
		s, err := hpo.LookupSpace(n)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "space %s (kind %s) — %s\n", n, s.Kind, s.Source)
		for _, p := range s.Params {
			fmt.Fprintf(w, "  %s\n", p)
		}
		if len(s.Fixed) > 0 {
			keys := make([]string, 0, len(s.Fixed))
			for k := range s.Fixed {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			var parts []string
			for _, k := range keys {
				parts = append(parts, k+"="+s.Fixed[k])
			}
			fmt.Fprintf(w, "  fixed: %s\n", strings.Join(parts, " "))
		}
	}
	fmt.Fprintln(w)
	for _, n := range hpo.ProtocolNames() {
		p, _ := hpo.LookupProtocol(n)
		fmt.Fprintf(w, "protocol %s — %s\n", n, p.Help)
	}
	fmt.Fprintf(w, "protocol %s — %s\n", hpo.RLProtocol, hpo.RLProtocolHelp)
	return nil
}
