package bench

import (
	"bytes"
	"context"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gdt-ml/gdt/metrics"
	"github.com/gdt-ml/gdt/rl/distill"
	"github.com/gdt-ml/gdt/rl/env"
	"github.com/gdt-ml/gdt/rl/methods"
	"github.com/gdt-ml/gdt/rl/policy"
	"github.com/gdt-ml/gdt/rl/ppo"
	"github.com/gdt-ml/gdt/rl/sdt"
	"github.com/gdt-ml/gdt/safefile"
)

// rolloutSource is implemented by a trainer that exposes its last PPO
// rollout buffer (needed by the reference profile's SA-DT data, spec §6.4).
type rolloutSource interface {
	LastRollout() (obs, actions []float32, n int)
}

// trainConfig returns the training configuration of a job's base method on
// env with the options' budget, seed, profile, algorithm, variant and
// extra settings.
func trainConfig(opt *Options, j job) (ppo.Config, error) {
	cfg, err := methods.Preset(j.env.ID, j.base)
	if err != nil {
		return cfg, fmt.Errorf("%w (method %s)", err, j.base)
	}
	cfg.TotalSteps, cfg.Seed, cfg.Workers = opt.Steps, j.seed, 1
	// Parallel trainings already keep the cores busy: no helper goroutines
	// for the update (results do not depend on it).
	cfg.Serial = opt.Workers > 1
	if err := cfg.SetProfile(opt.Profile); err != nil {
		return cfg, err
	}
	if err := cfg.SetAlgorithm(opt.Algorithm); err != nil {
		return cfg, err
	}
	switch j.variant {
	case VariantNoDynamic:
		cfg.DynamicBuffer = false
	case VariantStaticBatch:
		cfg.StaticBatch = true
	case VariantNoAdamW:
		cfg.AdamW = false
	case VariantTreeCritic:
		if err := cfg.Set("critic", "tree"); err != nil {
			return cfg, fmt.Errorf("variant %s needs a tree critic in rl/ppo: %w", j.variant, err)
		}
	}
	for _, kv := range opt.Set {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return cfg, fmt.Errorf("--set %q: expected key=value", kv)
		}
		if err := cfg.Set(strings.TrimSpace(k), strings.TrimSpace(v)); err != nil {
			return cfg, err
		}
	}
	return cfg, cfg.Validate()
}

// applicable reports whether method m can be evaluated on an environment
// with this spec (VIPER needs discrete actions).
func applicable(m string, spec env.Spec) bool {
	if m == VIPER5 || m == VIPER8 {
		return spec.Action.Discrete()
	}
	return true
}

// runJob trains one model and evaluates the methods derived from it. ran
// is false when every row came from done.
func runJob(ctx context.Context, opt *Options, j job, done map[string]Row) (rows []Row, ran bool) {
	tmpl := Row{Env: j.env.ID, Seed: j.seed, Algorithm: opt.Algorithm, Profile: opt.Profile, Variant: j.variant, Steps: opt.Steps}
	fail := func(methods []string, err error) []Row {
		var rs []Row
		for _, m := range methods {
			r := tmpl
			r.Method, r.Err = m, err.Error()
			r.ValReturn, r.TestReturn = math.NaN(), math.NaN()
			rs = append(rs, r)
		}
		return rs
	}
	e, err := env.Make(j.env.ID)
	if err != nil {
		return fail(j.methods, err), true
	}
	spec := e.Spec()
	var todo []string
	for _, m := range j.methods {
		if !applicable(m, spec) {
			continue
		}
		r := tmpl
		r.Method = m
		if d, ok := done[r.Key()]; ok {
			rows = append(rows, d)
		} else {
			todo = append(todo, m)
		}
	}
	if len(todo) == 0 {
		return rows, false
	}
	res, err := train(ctx, opt, j, spec, todo)
	if err != nil {
		if ctx.Err() != nil {
			return nil, false
		}
		return append(rows, fail(todo, err)...), true
	}
	for _, r := range res {
		r.Env, r.Seed, r.Algorithm, r.Profile, r.Variant, r.Steps = tmpl.Env, tmpl.Seed, tmpl.Algorithm, tmpl.Profile, tmpl.Variant, tmpl.Steps
		rows = append(rows, r)
	}
	// Keep the job's method order.
	order := map[string]int{}
	for i, m := range j.methods {
		order[m] = i
	}
	sortRows(rows, func(a, b Row) bool { return order[a.Method] < order[b.Method] })
	return rows, true
}

func sortRows(rs []Row, less func(a, b Row) bool) {
	for i := 1; i < len(rs); i++ {
		for k := i; k > 0 && less(rs[k], rs[k-1]); k-- {
			rs[k], rs[k-1] = rs[k-1], rs[k]
		}
	}
}

// checkpointName is the file name of a job's checkpoint.
func checkpointName(opt *Options, j job) string {
	s := fmt.Sprintf("%s_%s_%d_%s_%s_%s_%d", j.env.ID, j.base, j.seed, opt.Algorithm, opt.Profile, j.variant, opt.Steps)
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, s) + ".ckpt"
}

// applied is the model a method acts with (for a derived method: the tree
// extracted from the trained model), with its size and extraction time.
type applied struct {
	method string
	act    distill.Policy // nil for the base method (the trained actor acts)
	nodes  int
	secs   float64
}

// train runs the training of job j and evaluates the methods todo.
func train(ctx context.Context, opt *Options, j job, spec env.Spec, todo []string) ([]Row, error) {
	cfg, err := trainConfig(opt, j)
	if err != nil {
		return nil, err
	}
	var tr *ppo.Trainer
	ckpt := ""
	curves := map[string][]Point{}
	if opt.CheckpointDir != "" {
		if err := os.MkdirAll(opt.CheckpointDir, 0o755); err != nil {
			return nil, err
		}
		ckpt = filepath.Join(opt.CheckpointDir, checkpointName(opt, j))
		if _, err := os.Stat(ckpt); err == nil {
			if tr, err = methods.Load(ckpt, nil); err != nil {
				return nil, err
			}
			readCurves(ckpt+".curves", curves)
		}
	}
	if tr == nil {
		if tr, err = methods.New(cfg); err != nil {
			return nil, err
		}
	}
	dist := tr.Actor().Dist()
	save := func() error {
		if ckpt == "" {
			return nil
		}
		if err := tr.Save(ckpt); err != nil {
			return err
		}
		return writeCurves(ckpt+".curves", curves)
	}
	name := j.String()
	err = tr.Run(ctx, func(p ppo.Progress) error {
		if opt.Training != nil {
			opt.Training(name, p)
		}
		if p.Eval == nil {
			return nil
		}
		pt := Point{Step: p.Step, Train: p.RecentReturn, Trained: p.Eval.Validation, Applied: math.NaN(),
			Selection: p.Eval.Selection, Test: math.NaN(), SelectionSD: p.Eval.SelectionSD}
		// The evaluated actor: at a restart the attempt's last one, which
		// the new attempt's replaced.
		evaluated := tr.Judged()
		if p.Restarted && p.LastActor != nil {
			evaluated = p.LastActor
		}
		if cfg.EvalEpisodes > 0 {
			// Its test return at this evaluation, for studies of the
			// delivered choice (Point.Test); the training never sees it.
			rets, err := distill.Episodes(tr.Maker(), distill.Seeds(cfg.TestSeed, cfg.EvalEpisodes), distill.Greedy(evaluated), nil)
			if err != nil {
				return err
			}
			pt.Test = metrics.Mean(rets)
		}
		if ta, ok := evaluated.(*policy.TreeActor); ok {
			pr, _, err := tr.PrunedTree(ta, "")
			if err != nil {
				return err
			}
			pt.Nodes = pr.NumNodes()
		}
		for _, m := range todo {
			q := pt
			if m == j.base {
				q.Applied = q.Trained
			} else if opt.Curves && !strings.HasPrefix(m, "viper") {
				a, err := extract(m, tr, cfg, spec, dist, opt.Profile, false)
				if err != nil {
					return err
				}
				if rets, err := distill.Episodes(tr.Maker(), distill.Seeds(cfg.ValidationSeed(), cfg.EvalEpisodes), a.act, nil); err == nil {
					q.Applied = metrics.Mean(rets)
				}
			}
			curves[m] = append(curves[m], q)
		}
		return save()
	})
	if err != nil {
		if ctx.Err() != nil {
			if serr := save(); serr != nil {
				return nil, errors.Join(err, serr)
			}
		}
		return nil, err
	}
	done := func() {
		if ckpt != "" {
			os.Remove(ckpt)
			os.Remove(ckpt + ".curves")
		}
	}
	if d, ok := tr.Diverged(); ok {
		// No final policy, nor a model extracted from it: the rows say
		// where the training diverged, the trained method's keeps its
		// delivered (best-validation) policy.
		var rows []Row
		for _, m := range todo {
			r := Row{Method: m, TrainedSteps: tr.Step(), Seconds: tr.TrainSeconds(), ValReturn: math.NaN(), TestReturn: math.NaN(),
				BestValReturn: math.NaN(), BestTestReturn: math.NaN(), Curve: curves[m], DivergedStep: d.Step}
			if m == j.base {
				bestOf(tr, &r)
			}
			rows = append(rows, r)
		}
		done()
		return rows, nil
	}
	actor := tr.Actor()
	greedy := distill.Greedy(actor)
	nEp := max(cfg.EvalEpisodes, 1)
	valEps, err := distill.Episodes(tr.Maker(), distill.Seeds(cfg.ValidationSeed(), nEp), greedy, nil)
	if err != nil {
		return nil, err
	}
	base := Row{TrainedSteps: tr.Step(), Seconds: tr.TrainSeconds(), ValEpisodes: valEps, ValReturn: metrics.Mean(valEps)}
	var rows []Row
	for _, m := range todo {
		r := base
		r.Method = m
		r.Curve = curves[m]
		a := applied{method: m}
		if m != j.base {
			if a, err = extract(m, tr, cfg, spec, dist, opt.Profile, true); err != nil {
				r.Err = err.Error()
				r.TestReturn = math.NaN()
				rows = append(rows, r)
				continue
			}
		} else if ta, ok := actor.(*policy.TreeActor); ok {
			pr, _, err := tr.PrunedTree(ta, "")
			if err != nil {
				return nil, err
			}
			a.nodes = pr.NumNodes()
		}
		pol := greedy
		if a.act != nil {
			pol = a.act
		}
		if r.TestEpisodes, err = distill.Episodes(tr.Maker(), distill.Seeds(cfg.TestSeed, nEp), pol, nil); err != nil {
			return nil, err
		}
		r.TestReturn = metrics.Mean(r.TestEpisodes)
		r.TreeNodes = a.nodes
		r.Seconds += a.secs
		r.BestValReturn, r.BestTestReturn = math.NaN(), math.NaN()
		if m == j.base {
			bestOf(tr, &r)
			if opt.Level > 0 {
				if r.Level, err = level(tr, opt.Level); err != nil {
					return nil, err
				}
			}
		}
		rows = append(rows, r)
	}
	done()
	return rows, nil
}

// bestOf fills the best-validation columns of the trained method's row
// from the finished trainer's best policy (none: BestStep 0), whose test
// returns the final evaluation played (or, in a run that diverged, its
// end), and its restarts.
func bestOf(tr *ppo.Trainer, r *Row) {
	if b, ok := tr.Best(); ok {
		r.BestStep, r.BestValReturn, r.BestTestReturn = b.Step, b.Validation, metrics.Mean(b.Test)
		r.Recheck = b.Recheck
	}
	r.Restarts = tr.Attempt()
	for _, x := range tr.Restarts() {
		r.RestartReasons = append(r.RestartReasons, x.Reason)
	}
}

// level plays the trainer's delivered policy on n level episodes
// (LevelSeed, …), refusing a training whose validation or test seeds come
// within levelGuard of them.
func level(tr *ppo.Trainer, n int) (*Level, error) {
	cfg := tr.Config()
	for _, s := range []struct {
		what  string
		first int
	}{{"validation", cfg.ValidationSeed()}, {"test", cfg.TestSeed}} {
		if s.first > LevelSeed-levelGuard && s.first < LevelSeed+n+levelGuard {
			return nil, fmt.Errorf("level episodes: the %s seeds (from %d) come within %d of the level seeds (%d …)", s.what, s.first, levelGuard, LevelSeed)
		}
	}
	a, _ := tr.Delivered()
	ret, err := ppo.Returns(tr.Maker(), LevelSeed, n, a, nil)
	if err != nil {
		return nil, err
	}
	return &Level{Mean: metrics.Mean(ret), SD: metrics.Std(ret, 1), N: n}, nil
}

// extract builds the applied model of a derived method from the trainer's
// current actor. final selects the complete extraction (VIPER is only run
// at the end).
func extract(m string, tr *ppo.Trainer, cfg ppo.Config, spec env.Spec, dist policy.Dist, profile string, final bool) (applied, error) {
	start := time.Now()
	a := applied{method: m}
	actor := tr.Actor()
	expert := distill.Greedy(actor)
	switch m {
	case DSDT:
		st, ok := actor.(*sdt.Tree)
		if !ok {
			return a, fmt.Errorf("d-sdt: the trained actor is a %T, not an SDT", actor)
		}
		d, err := st.Discretize()
		if err != nil {
			return a, err
		}
		a.act = func(obs, action []float32) error { d.Act(obs, action); return nil }
		low, high := tr.PruneBounds()
		if a.nodes, err = d.Size(low, high, profile == ppo.ProfileReference); err != nil {
			return a, err
		}
	case SADT5, SADT8:
		depth := 5
		if m == SADT8 {
			depth = 8
		}
		var t *distill.Tree
		if profile == ppo.ProfileReference {
			src, ok := any(tr).(rolloutSource)
			if !ok {
				return a, fmt.Errorf("%s: the reference profile fits on the last PPO rollout buffer, which rl/ppo does not expose yet (needs Trainer.LastRollout): %w", m, ErrUnsupported)
			}
			obs, acts, n := src.LastRollout()
			s, err := distill.FromBuffer(obs, acts, n, spec.Observation.Dim, dist.ActionDim(), !dist.Discrete)
			if err != nil {
				return a, err
			}
			if t, err = distill.Fit(s, dist, depth, 0, nil); err != nil {
				return a, err
			}
		} else {
			var err error
			if t, _, err = distill.SADT(tr.Maker(), expert, dist, distill.DefaultSADT(depth)); err != nil {
				return a, err
			}
		}
		a.act, a.nodes = t.Act, t.Nodes()
	case VIPER5, VIPER8:
		depth := 5
		if m == VIPER8 {
			depth = 8
		}
		if !final {
			return a, nil
		}
		t, _, err := distill.VIPER(tr.Maker(), expert, distill.LogitSpread(actor), dist, distill.DefaultVIPER(depth))
		if err != nil {
			return a, err
		}
		a.act, a.nodes = t.Act, t.Nodes()
	default:
		return a, fmt.Errorf("method %q is not derived from a training", m)
	}
	a.secs = time.Since(start).Seconds()
	return a, nil
}

// curvesFile is what a running training's ".curves" file beside its
// checkpoint holds. Version 2 points carry Point.Test and
// Point.SelectionSD; files of earlier gdt versions hold the map alone.
type curvesFile struct {
	Version int
	Curves  map[string][]Point
}

func writeCurves(path string, c map[string][]Point) error {
	return safefile.Write(path, func(w io.Writer) error {
		return gob.NewEncoder(w).Encode(curvesFile{Version: 2, Curves: c})
	})
}

// readCurves adds the points of a ".curves" file to c (none if it cannot
// be read: the curve then starts at the resumed step). Points of a file
// written before Point.Test existed read with Test and SelectionSD NaN
// (not computed), not 0.
func readCurves(path string, c map[string][]Point) {
	b, err := os.ReadFile(path)
	if err != nil {
		return
	}
	var cf curvesFile
	if gob.NewDecoder(bytes.NewReader(b)).Decode(&cf) == nil && cf.Version == 2 {
		for k, v := range cf.Curves {
			c[k] = v
		}
		return
	}
	m := map[string][]Point{}
	if gob.NewDecoder(bytes.NewReader(b)).Decode(&m) != nil {
		return
	}
	for k, v := range m {
		for i := range v {
			v[i].Test, v[i].SelectionSD = math.NaN(), math.NaN()
		}
		c[k] = v
	}
}
