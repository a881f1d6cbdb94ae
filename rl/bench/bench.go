// Package bench is the harness behind `gdt rl bench`: it trains every
// (environment, method, seed) of the SYMPOL study with the same PPO/A2C
// code (package rl/ppo), extracts the post-hoc trees (D-SDT, SA-DT, VIPER),
// evaluates trained and applied models on the protocol's validation and
// test episodes (spec sympol-rl §7.1), and renders the thesis's tables
// (returns, information loss as Cohen's d, tree size, ablation, A2C)
// beside the thesis's numbers, as markdown or as an HTML page with SVG
// learning curves.
//
// One job trains one model; the methods derived from it share the
// training: mlp → mlp, sa-dt-d5, sa-dt-d8, viper-d5, viper-d8; sdt → sdt,
// d-sdt; sympol → sympol. Jobs run in parallel (one goroutine each, every
// trainer single-threaded), each from its own seeds, so the results do not
// depend on the number of workers. A job whose rows are all in Options.Done
// is skipped (resume from a CSV); with Options.CheckpointDir an interrupted
// training resumes from its last checkpoint, bit for bit as if it had not
// stopped.
package bench

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/gdt-ml/gdt/rl/ppo"
)

// Row is one (environment, method, seed) result: one CSV row.
type Row struct {
	Env       string
	Method    string
	Seed      int // environment seed of the training (42 + 100·trial)
	Algorithm string
	Profile   string
	Variant   string // ablation variant ("" = the full method)
	Steps     int    // step budget of the training (the protocol's 1 000 000)
	// TrainedSteps is the number of environment steps actually taken
	// (the last batch may overshoot the budget).
	TrainedSteps int
	// ValReturn is the mean validation return of the trained model (the
	// expert for SA-DT/VIPER, the SDT for D-SDT), TestReturn the mean test
	// return of the applied model (spec §7.3).
	ValReturn, TestReturn float64
	TreeNodes             int     // nodes of the applied tree after pruning (0: not a tree)
	Seconds               float64 // training seconds (evaluation excluded) plus extraction
	ValEpisodes           []float64
	TestEpisodes          []float64
	Curve                 []Point // evaluations during training
	Err                   string  // non-empty when the job failed
	// BestValReturn, BestTestReturn and BestStep describe the training's
	// best-validation policy (ppo.BestPolicy), the policy the training
	// delivers (Delivered), beside the protocol's figures above, which are
	// the final policy's: its mean validation return, its mean return on
	// the same test episodes, and the step of the evaluation that chose it. Only rows of a trained method
	// (sympol, mlp, sdt) have one; BestStep 0 means none (the returns are
	// then NaN), as in files written before these columns existed.
	BestValReturn, BestTestReturn float64
	BestStep                      int
	// Restarts counts the restarts of the training (ppo.Config.RestartAfter;
	// 0 in files written before the column) and RestartReasons says why,
	// one per restart (ppo.RestartNotLearned or ppo.RestartDiverged; nil in
	// files written before the column).
	Restarts       int
	RestartReasons []string
	// DivergedStep, when not 0, is the step at which the training
	// diverged with no restart left (ppo.Trainer.Diverged) and ended: the
	// row is no error, its delivered policy is the best-validation one,
	// and its final policy (and any model extracted from it) does not
	// exist, so ValReturn and TestReturn are NaN and the episode lists
	// empty.
	DivergedStep int
	// Recheck is the best-validation policy's recheck record (ppo.Recheck,
	// with the recheck option): each kept policy's step, mean return and
	// standard deviation on the recheck episodes, so that a study can
	// replay other choices among them, paired with the curve's test
	// returns at the same steps. nil without a recheck and in files
	// written before the column.
	Recheck *ppo.Recheck
	// Level is the delivered policy's level (Options.Level): its mean
	// return, the returns' standard deviation and their count on the
	// level episodes; nil without one and in files written before the
	// column.
	Level *Level
}

// Level is a policy's mean return on many greedy episodes from the level
// seeds (LevelSeed, LevelSeed+1, …), the same episodes for every training
// of a study, disjoint from every validation and test episode: a measure
// of the delivered policy far less noisy than its few test episodes, for
// comparing arms of a study paired by seed.
type Level struct {
	Mean, SD float64
	N        int
}

// LevelSeed is the first level-episode seed (Options.Level). A training
// whose validation or test seeds come within levelGuard of it is refused.
const (
	LevelSeed  = 900_000_000
	levelGuard = 10_000_000
)

// Delivered returns the mean test return of the policy the training
// delivers, its best-validation policy (BestTestReturn) where the row has
// one, else the final policy's (TestReturn); best reports which.
func (r Row) Delivered() (test float64, best bool) {
	if r.BestStep != 0 {
		return r.BestTestReturn, true
	}
	return r.TestReturn, false
}

// Point is one evaluation during training.
type Point struct {
	Step    int
	Train   float64 // mean return of recent (stochastic) training episodes
	Trained float64 // validation return of the trained model
	Applied float64 // validation return of the applied model (NaN if not computed)
	// Selection is the trained model's mean return over all of ppo's
	// val_episodes validation episodes (ppo.EvalRecord.Selection), the
	// figure its delivered choice and restart rule compare; NaN in files
	// written before it (their points have four numbers).
	Selection float64
	// Test is the trained model's mean return over the test episodes at
	// this evaluation and SelectionSD the standard deviation of the
	// validation returns behind Selection (ppo.EvalRecord.SelectionSD):
	// they let a study replay other rules for the delivered choice (which
	// sees only validation returns) and score them on test episodes,
	// paired on the same trainings. NaN in files written before them
	// (their points have four or five numbers).
	Test, SelectionSD float64
	// Nodes counts the evaluated tree's nodes after pruning (as
	// Row.TreeNodes does the final one's; 0: not a tree, or a file written
	// before it, whose points have seven numbers or fewer), so a study can
	// weigh a delivered choice's tree size.
	Nodes int
}

// Key identifies a row for resuming.
func (r Row) Key() string {
	return strings.Join([]string{r.Env, r.Method, fmt.Sprint(r.Seed), r.Algorithm, r.Profile, r.Variant, fmt.Sprint(r.Steps)}, "\x00")
}

// Options configure a benchmark run.
type Options struct {
	Envs    []string // environment IDs (or short names); nil = all ten
	Methods []string // methods; nil = all
	Seeds   int      // trainings per (env, method): env seeds FirstSeed, FirstSeed+100, …; 0 = 5
	// FirstSeed is the environment seed of the first training of every
	// (env, method); 0 = 142 (the thesis's 142, 242, …, 542).
	FirstSeed int
	Steps     int      // environment steps per training; 0 = 1 000 000
	Algorithm string   // "ppo" (default) or "a2c"
	Profile   string   // "default" or "reference"
	Variants  []string // ablation variants of SYMPOL to run besides (or instead of) the full method; nil = [""]
	Set       []string // extra key=value hyperparameters applied to every training
	Workers   int      // parallel jobs; 0 = GOMAXPROCS
	// Level, when positive, plays each training's delivered policy on
	// this many level episodes (LevelSeed, …) after its test and records
	// them in Row.Level.
	Level int
	// Done lists rows already computed; jobs whose rows are all there are
	// skipped.
	Done []Row
	// CheckpointDir, if set, holds one checkpoint per running training,
	// written at every evaluation and on interruption, read back when the
	// job starts again, removed when it finishes.
	CheckpointDir string
	// Curves computes the applied model's validation return at every
	// evaluation (SA-DT refitted, D-SDT re-discretised) for the learning
	// curves.
	Curves bool
	// OnRows, if set, receives the rows of every finished job (calls are
	// serialised), e.g. to append them to the CSV at once.
	OnRows func([]Row) error
	// Progress, if set, is called after every finished job.
	Progress func(done, total int, msg string)
	// Training, if set, is called after every training iteration of every
	// job with the job's name and its progress (from the workers'
	// goroutines: it must be safe for concurrent use).
	Training func(job string, p ppo.Progress)
}

// job is one training and the methods derived from it.
type job struct {
	env     Env
	base    string   // sympol, mlp or sdt
	methods []string // the requested methods derived from this training
	seed    int
	variant string
}

// baseOf returns the method whose training a method derives from.
func baseOf(m string) (string, error) {
	switch m {
	case SYMPOL:
		return SYMPOL, nil
	case MLP, SADT5, SADT8, VIPER5, VIPER8:
		return MLP, nil
	case SDT, DSDT:
		return SDT, nil
	}
	return "", fmt.Errorf("method %q: expected one of %s", m, strings.Join(Methods, ", "))
}

func (o *Options) defaults() error {
	if len(o.Envs) == 0 {
		for _, e := range Envs {
			o.Envs = append(o.Envs, e.ID)
		}
	}
	if len(o.Methods) == 0 {
		o.Methods = append([]string(nil), Methods...)
	}
	if o.Seeds <= 0 {
		o.Seeds = 5
	}
	if o.Steps <= 0 {
		o.Steps = 1_000_000
	}
	if o.FirstSeed == 0 {
		o.FirstSeed = 142
	}
	if o.FirstSeed < 0 {
		return fmt.Errorf("first seed %d: expected ≥ 0", o.FirstSeed)
	}
	if o.Level < 0 {
		return fmt.Errorf("level episodes %d: expected ≥ 0", o.Level)
	}
	if o.Algorithm == "" {
		o.Algorithm = ppo.AlgoPPO
	}
	if o.Profile == "" {
		o.Profile = ppo.ProfileDefault
	}
	if len(o.Variants) == 0 {
		o.Variants = []string{VariantFull}
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	for _, v := range o.Variants {
		if _, ok := VariantTitle[v]; !ok {
			return fmt.Errorf("ablation variant %q: expected one of %s", v, strings.Join(Variants[1:], ", "))
		}
	}
	if o.Algorithm != ppo.AlgoPPO && o.Algorithm != ppo.AlgoA2C {
		return fmt.Errorf("algorithm %q: expected %q or %q", o.Algorithm, ppo.AlgoPPO, ppo.AlgoA2C)
	}
	if o.Profile != ppo.ProfileDefault && o.Profile != ppo.ProfileReference {
		return fmt.Errorf("profile %q: expected %q or %q", o.Profile, ppo.ProfileDefault, ppo.ProfileReference)
	}
	return nil
}

// jobs lists the jobs in a fixed order: environment, variant, base
// method, seed.
func (o *Options) jobs() ([]job, error) {
	bases := map[string][]string{}
	var order []string
	for _, m := range o.Methods {
		b, err := baseOf(m)
		if err != nil {
			return nil, err
		}
		if _, ok := bases[b]; !ok {
			order = append(order, b)
		}
		if !contains(bases[b], m) {
			bases[b] = append(bases[b], m)
		}
	}
	rank := map[string]int{SYMPOL: 0, MLP: 1, SDT: 2}
	sort.SliceStable(order, func(i, j int) bool { return rank[order[i]] < rank[order[j]] })
	var js []job
	for _, id := range o.Envs {
		e := LookupEnv(id)
		for _, v := range o.Variants {
			for _, b := range order {
				if v != VariantFull && b != SYMPOL {
					continue // the ablation concerns SYMPOL only
				}
				for k := 1; k <= o.Seeds; k++ {
					js = append(js, job{env: e, base: b, methods: bases[b], seed: o.FirstSeed + 100*(k-1), variant: v})
				}
			}
		}
	}
	return js, nil
}

func contains(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

// Run executes the benchmark and returns all rows (those of Done that
// belong to the requested jobs included) in job order, independent of the
// number of workers. Failed jobs give rows with Err set; Run's error is
// reserved for invalid options and cancellation.
func Run(ctx context.Context, opt Options) ([]Row, error) {
	if err := opt.defaults(); err != nil {
		return nil, err
	}
	js, err := opt.checkedJobs()
	if err != nil {
		return nil, err
	}
	done := map[string]Row{}
	for _, r := range opt.Done {
		if r.Err == "" {
			done[r.Key()] = r
		}
	}
	results := make([][]Row, len(js))
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var hookErr error
	finished := 0
	for w := 0; w < opt.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				rows, ran := runJob(ctx, &opt, js[i], done)
				results[i] = rows
				mu.Lock()
				finished++
				if ran && opt.OnRows != nil && ctx.Err() == nil && hookErr == nil {
					hookErr = opt.OnRows(rows)
				}
				if opt.Progress != nil {
					opt.Progress(finished, len(js), js[i].String())
				}
				mu.Unlock()
			}
		}()
	}
	for i := range js {
		if ctx.Err() != nil {
			break
		}
		mu.Lock()
		stop := hookErr != nil
		mu.Unlock()
		if stop {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	var out []Row
	for _, rs := range results {
		out = append(out, rs...)
	}
	if err := ctx.Err(); err != nil {
		return out, err
	}
	return out, hookErr
}

func (j job) String() string {
	s := fmt.Sprintf("%s %s seed %d", LookupEnv(j.env.ID).Short, j.base, j.seed)
	if j.variant != "" {
		s += " (" + j.variant + ")"
	}
	return s
}

// ErrUnsupported marks a method or variant the training code cannot run
// yet.
var ErrUnsupported = errors.New("not supported by rl/ppo yet")

// JobCount returns the number of trainings Run will consider for opt
// (finished ones included), e.g. to size a progress bar.
func JobCount(opt Options) (int, error) {
	if err := opt.defaults(); err != nil {
		return 0, err
	}
	js, err := opt.checkedJobs()
	return len(js), err
}

// checkedJobs returns the jobs after checking that every training's
// configuration is valid (e.g. that no seed's validation episodes share a
// seed with the test episodes, ppo.Config.Validate), so a bad option fails
// before anything trains rather than as failed rows.
func (o *Options) checkedJobs() ([]job, error) {
	js, err := o.jobs()
	if err != nil {
		return nil, err
	}
	for _, j := range js {
		if _, err := trainConfig(o, j); err != nil {
			return nil, fmt.Errorf("%s: %w", j, err)
		}
	}
	return js, nil
}
