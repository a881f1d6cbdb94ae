package hpo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/c-bata/goptuna"
	"github.com/c-bata/goptuna/cmaes"
	"github.com/c-bata/goptuna/medianstopping"
	"github.com/c-bata/goptuna/successivehalving"
	"github.com/c-bata/goptuna/tpe"
)

// Store is where studies live: goptuna's Storage plus what workers need to
// share a study safely.
type Store interface {
	goptuna.Storage
	// Claim atomically creates a running trial owned by this process if the
	// study has fewer than budget complete, pruned or running trials;
	// trialID is -1 when there is no free slot. done counts the study's
	// complete and pruned trials.
	Claim(studyID, budget int) (trialID, done int, err error)
	// Heartbeat renews the lease of a running trial of this process.
	Heartbeat(trialID int) error
	// ReapStale marks failed the unfinished trials whose worker is gone.
	ReapStale(studyID int, lease time.Duration) ([]int, error)
	Close() error
}

// OpenStore opens the store named by spec: a postgres:// or postgresql://
// URL for PostgreSQL, otherwise the path of a journal file (an optional
// "file:" prefix is removed).
func OpenStore(spec string) (Store, error) {
	switch {
	case strings.HasPrefix(spec, "postgres://"), strings.HasPrefix(spec, "postgresql://"):
		return OpenPostgres(spec)
	case spec == "":
		return nil, errors.New("hpo: empty storage name (want a journal file path or postgres://…)")
	}
	return OpenJournal(strings.TrimPrefix(spec, "file:"))
}

// Study attribute keys (study user attributes) that describe a gdt search,
// so that joining workers need only the store and the study name.
const (
	AttrKind     = "gdt:kind"
	AttrDataset  = "gdt:dataset"
	AttrProtocol = "gdt:protocol"
	AttrTrials   = "gdt:trials"
	AttrSpace    = "gdt:space"
	AttrSampler  = "gdt:sampler"
	AttrPruner   = "gdt:pruner"
	AttrSeed     = "gdt:model_seed"
	AttrWarmUp   = "gdt:pruner_warmup"
)

// Config configures a study handle in one worker.
type Config struct {
	// Sampler is "tpe" (default), "random" or "cmaes" (CMA-ES for the
	// numeric dimensions, random for the categorical ones).
	Sampler string
	// Pruner is "median" (default: stop a trial whose best running score
	// is below the median of complete trials at the same step, after 5
	// complete trials), "sha" (asynchronous successive halving) or "none".
	Pruner string
	// WarmUp is the number of first reported steps (0, 1, …, WarmUp) at
	// which the pruner never stops a trial: the median rule starts after
	// it, successive halving puts its first rung at step WarmUp + 1. It is
	// stored when a study is created (negative: 0); a worker loading a
	// study with WarmUp ≤ 0 uses the study's.
	// Policy studies set it so that no trial is judged on its first,
	// nearly untrained evaluations.
	WarmUp int
	// Seed seeds the sampler; 0 draws one per process (workers must not
	// share a seed, or they propose the same configurations). With one
	// worker, "random" and "cmaes" repeat a search exactly; goptuna's TPE
	// draws its categorical values from the process-global math/rand, so
	// TPE searches with categorical dimensions do not repeat.
	Seed int64
	// Heartbeat is how often a running trial renews its lease (default
	// 10 s); Lease is how long a trial without heartbeat stays running
	// before other workers mark it failed (default 2 min). Workers on the
	// same host detect a dead worker at once from its PID.
	Heartbeat, Lease time.Duration
	// Poll is how long a worker waits before asking again when every
	// remaining slot is taken by running trials (default 1 s).
	Poll time.Duration
	// MaxFailures stops the worker after that many failed trials in a row
	// (default 5): a broken objective should not burn the whole budget.
	MaxFailures int
	// Progress, if set, receives an event after every trial this worker
	// finishes and for every stale trial it marks failed.
	Progress func(Event)
}

func (c Config) withDefaults() Config {
	if c.Sampler == "" {
		c.Sampler = "tpe"
	}
	if c.Pruner == "" {
		c.Pruner = "median"
	}
	if c.Heartbeat <= 0 {
		c.Heartbeat = 10 * time.Second
	}
	if c.Lease <= 0 {
		c.Lease = 2 * time.Minute
	}
	if c.Poll <= 0 {
		c.Poll = time.Second
	}
	if c.WarmUp < 0 {
		c.WarmUp = 0
	}
	if c.MaxFailures <= 0 {
		c.MaxFailures = 5
	}
	if c.Seed == 0 {
		c.Seed = time.Now().UnixNano() ^ int64(Self().PID)<<32
	}
	return c
}

// Event reports a finished or reaped trial.
type Event struct {
	Number   int
	State    goptuna.TrialState
	Value    float64
	Options  map[string]string
	Err      string
	Reaped   bool // marked failed because its worker was gone
	Complete int  // complete trials in the study after this event
	Pruned   int  // pruned trials in the study after this event
	Budget   int
	Best     float64 // best value so far (NaN-free only when Complete > 0)
}

// Study is one search: a goptuna study in a store, its search space and the
// description of what is tuned.
type Study struct {
	G     *goptuna.Study
	Store Store
	Space *Space
	Attrs map[string]string
	cfg   Config
}

// NewStudy creates the study name in store for space, with the given
// description attributes (Attr* keys; the space is stored too). It fails if
// the study exists.
func NewStudy(store Store, name string, space *Space, attrs map[string]string, cfg Config) (*Study, error) {
	if _, err := store.GetStudyIDFromName(name); err == nil {
		return nil, fmt.Errorf("hpo: study %q already exists (join it, or choose another --study name)", name)
	}
	cfg = cfg.withDefaults()
	opts, err := studyOptions(store, space, cfg)
	if err != nil {
		return nil, err
	}
	g, err := goptuna.CreateStudy(name, opts...)
	if err != nil {
		return nil, fmt.Errorf("hpo: create study %q: %w", name, err)
	}
	sb, err := json.Marshal(space)
	if err != nil {
		return nil, err
	}
	all := map[string]string{AttrSpace: string(sb), AttrSampler: cfg.Sampler, AttrPruner: cfg.Pruner, AttrWarmUp: strconv.Itoa(cfg.WarmUp)}
	for k, v := range attrs {
		all[k] = v
	}
	for k, v := range all {
		if err := g.SetUserAttr(k, v); err != nil {
			return nil, fmt.Errorf("hpo: study %q: set %s: %w", name, k, err)
		}
	}
	return &Study{G: g, Store: store, Space: space, Attrs: all, cfg: cfg}, nil
}

// LoadStudy opens the existing study name; its search space and description
// come from the store. Sampler and pruner default to the study's own. Trials
// of workers that are gone are marked failed on the way.
func LoadStudy(store Store, name string, cfg Config) (*Study, error) {
	id, err := store.GetStudyIDFromName(name)
	if err != nil {
		return nil, fmt.Errorf("hpo: no study %q in the store: %w", name, err)
	}
	attrs, err := store.GetStudyUserAttrs(id)
	// A study being created by another worker gets its attributes a moment
	// after its row: wait for them briefly.
	for wait := 0; err == nil && attrs[AttrSpace] == "" && wait < 20; wait++ {
		time.Sleep(100 * time.Millisecond)
		attrs, err = store.GetStudyUserAttrs(id)
	}
	if err != nil {
		return nil, err
	}
	var space Space
	if err := json.Unmarshal([]byte(attrs[AttrSpace]), &space); err != nil {
		return nil, fmt.Errorf("hpo: study %q has no readable search space (attribute %s): %v", name, AttrSpace, err)
	}
	if cfg.Sampler == "" {
		cfg.Sampler = attrs[AttrSampler]
	}
	if cfg.Pruner == "" {
		cfg.Pruner = attrs[AttrPruner]
	}
	if cfg.WarmUp <= 0 {
		cfg.WarmUp, _ = strconv.Atoi(attrs[AttrWarmUp])
	}
	cfg = cfg.withDefaults()
	opts, err := studyOptions(store, &space, cfg)
	if err != nil {
		return nil, err
	}
	g, err := goptuna.LoadStudy(name, opts...)
	if err != nil {
		return nil, fmt.Errorf("hpo: load study %q: %w", name, err)
	}
	s := &Study{G: g, Store: store, Space: &space, Attrs: attrs, cfg: cfg}
	// The loader, too, marks the trials of dead workers failed.
	if _, err := s.Reap(); err != nil {
		return nil, err
	}
	return s, nil
}

func studyOptions(store Store, space *Space, cfg Config) ([]goptuna.StudyOption, error) {
	opts := []goptuna.StudyOption{
		goptuna.StudyOptionStorage(store),
		goptuna.StudyOptionDirection(goptuna.StudyDirectionMaximize),
		goptuna.StudyOptionLogger(&goptuna.StdLogger{Logger: log.New(io.Discard, "", 0)}),
	}
	switch cfg.Sampler {
	case "tpe":
		opts = append(opts, goptuna.StudyOptionSampler(tpe.NewSampler(tpe.SamplerOptionSeed(cfg.Seed))))
	case "random":
		opts = append(opts, goptuna.StudyOptionSampler(newRandomSampler(cfg.Seed)))
	case "cmaes":
		numeric := map[string]interface{}{}
		for _, p := range space.Params {
			if p.Type != Categorical {
				numeric[p.Name] = p.Distribution()
			}
		}
		opts = append(opts,
			goptuna.StudyOptionSampler(newRandomSampler(cfg.Seed)),
			goptuna.StudyOptionRelativeSampler(cmaes.NewSampler(cmaes.SamplerOptionSeed(cfg.Seed))),
			goptuna.StudyOptionDefineSearchSpace(numeric))
	default:
		return nil, fmt.Errorf("hpo: unknown sampler %q (want tpe, random or cmaes)", cfg.Sampler)
	}
	switch cfg.Pruner {
	case "median":
		p := medianstopping.NewMedianPruner()
		p.NStartUpTrials = 5
		p.NWarmUpSteps = cfg.WarmUp
		opts = append(opts, goptuna.StudyOptionPruner(p))
	case "sha":
		p, err := successivehalving.NewPruner(successivehalving.OptionSetReductionFactor(3), successivehalving.OptionMinResource(cfg.WarmUp+1))
		if err != nil {
			return nil, err
		}
		opts = append(opts, goptuna.StudyOptionPruner(p))
	case "none":
	default:
		return nil, fmt.Errorf("hpo: unknown pruner %q (want median, sha or none)", cfg.Pruner)
	}
	return opts, nil
}

// Counts tallies a study's trials by state.
type Counts struct {
	Running, Complete, Pruned, Fail, Waiting int
}

// Counts returns the number of trials in each state.
func (s *Study) Counts() (Counts, error) {
	trials, err := s.G.GetTrials()
	if err != nil {
		return Counts{}, err
	}
	var c Counts
	for _, t := range trials {
		switch t.State {
		case goptuna.TrialStateRunning:
			c.Running++
		case goptuna.TrialStateComplete:
			c.Complete++
		case goptuna.TrialStatePruned:
			c.Pruned++
		case goptuna.TrialStateFail:
			c.Fail++
		case goptuna.TrialStateWaiting:
			c.Waiting++
		}
	}
	return c, nil
}

// Best is the best complete trial of a study.
type Best struct {
	Number  int
	Value   float64
	Options map[string]string // the model kind's options (fixed ones included)
	Params  map[string]interface{}
}

// Best returns the best complete trial.
func (s *Study) Best() (Best, error) {
	t, err := s.Store.GetBestTrial(s.G.ID)
	if err != nil {
		return Best{}, err
	}
	return Best{Number: t.Number, Value: t.Value, Options: s.Space.Options(t.InternalParams), Params: t.Params}, nil
}

// Reap marks the trials of dead workers failed and reports them.
func (s *Study) Reap() ([]int, error) {
	ids, err := s.Store.ReapStale(s.G.ID, s.cfg.Lease)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		if s.cfg.Progress != nil {
			t, err := s.Store.GetTrial(id)
			if err == nil {
				s.cfg.Progress(Event{Number: t.Number, State: t.State, Reaped: true, Err: t.SystemAttrs[FailReasonAttr], Budget: -1})
			}
		}
	}
	return ids, nil
}

// Budget returns the number of evaluated (complete or pruned) trials the
// study asks for (0 if it was created without one).
func (s *Study) Budget() int {
	n, _ := strconv.Atoi(s.Attrs[AttrTrials])
	return n
}

// Work pulls trials and evaluates them with obj until the study has budget
// evaluated trials — complete or pruned, as Optuna's n_trials counts them;
// failed trials (including those of killed workers) do not count and are
// replaced — or ctx ends, or MaxFailures trials in a row fail. Any number of workers, in this process
// or others sharing the store, may work on one study at once.
func (s *Study) Work(ctx context.Context, budget int, obj Objective) error {
	if budget <= 0 {
		return fmt.Errorf("hpo: budget %d: want at least one trial", budget)
	}
	failures := 0
	var lastErr string
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		if _, err := s.Reap(); err != nil {
			return err
		}
		id, done, err := s.Store.Claim(s.G.ID, budget)
		if err != nil {
			return err
		}
		if done >= budget {
			return nil
		}
		if id < 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(s.cfg.Poll):
			}
			continue
		}
		ev, err := s.runTrial(ctx, id, obj)
		if err != nil {
			return err
		}
		if ev.State == goptuna.TrialStateFail {
			failures++
			lastErr = ev.Err
			if failures >= s.cfg.MaxFailures {
				return fmt.Errorf("hpo: %d trials in a row failed; last error: %s", failures, lastErr)
			}
		} else {
			failures = 0
		}
		if s.cfg.Progress != nil {
			c, err := s.Counts()
			if err == nil {
				ev.Complete, ev.Pruned = c.Complete, c.Pruned
			}
			ev.Budget = budget
			if b, err := s.Best(); err == nil {
				ev.Best = b.Value
			}
			s.cfg.Progress(ev)
		}
	}
}

// errLost marks a trial that another worker declared failed.
var errLost = errors.New("another worker marked this trial failed (its lease expired); result discarded")

// runTrial evaluates the claimed trial id. It returns an error only for
// store failures and cancellation; objective errors fail the trial.
func (s *Study) runTrial(ctx context.Context, id int, obj Objective) (Event, error) {
	number, err := s.Store.GetTrialNumberFromID(id)
	if err != nil {
		return Event{}, err
	}
	ev := Event{Number: number}
	tctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var wg sync.WaitGroup
	wg.Add(1)
	stop := make(chan struct{})
	go func() {
		defer wg.Done()
		tick := time.NewTicker(s.cfg.Heartbeat)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				if err := s.Store.Heartbeat(id); errors.Is(err, goptuna.ErrTrialCannotBeUpdated) {
					cancel(errLost)
					return
				}
			}
		}
	}()
	trial := goptuna.Trial{Study: s.G, ID: id}
	var value float64
	var objErr error
	if objErr = trial.CallRelativeSampler(); objErr == nil {
		var opts map[string]string
		if opts, objErr = s.Space.Suggest(trial); objErr == nil {
			ev.Options = opts
			report := func(step int, v float64) error {
				if s.G.Pruner == nil {
					return s.Store.SetTrialIntermediateValue(id, step, v)
				}
				return trial.ShouldPrune(step, v)
			}
			value, objErr = obj(tctx, opts, report)
		}
	}
	close(stop)
	wg.Wait()
	if cause := context.Cause(tctx); errors.Is(cause, errLost) {
		ev.State, ev.Err = goptuna.TrialStateFail, errLost.Error()
		return ev, nil
	}
	state := goptuna.TrialStateComplete
	switch {
	case objErr == nil:
	case errors.Is(objErr, goptuna.ErrTrialPruned):
		state = goptuna.TrialStatePruned
	case ctx.Err() != nil:
		_ = s.Store.SetTrialSystemAttr(id, FailReasonAttr, "worker interrupted")
		_ = s.Store.SetTrialState(id, goptuna.TrialStateFail)
		return ev, ctx.Err()
	default:
		state = goptuna.TrialStateFail
		ev.Err = objErr.Error()
	}
	ev.State, ev.Value = state, value
	err = s.finish(id, state, value, ev.Err)
	if errors.Is(err, goptuna.ErrTrialCannotBeUpdated) {
		ev.State, ev.Err = goptuna.TrialStateFail, errLost.Error()
		return ev, nil
	}
	return ev, err
}

func (s *Study) finish(id int, state goptuna.TrialState, value float64, msg string) error {
	switch state {
	case goptuna.TrialStateComplete, goptuna.TrialStatePruned:
		if err := s.Store.SetTrialValue(id, value); err != nil {
			return err
		}
	case goptuna.TrialStateFail:
		if len(msg) > 1000 {
			msg = msg[:1000]
		}
		if err := s.Store.SetTrialSystemAttr(id, "gdt:error", msg); err != nil {
			return err
		}
	}
	return s.Store.SetTrialState(id, state)
}
