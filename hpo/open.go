package hpo

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/rl/env"
)

// ErrRequest marks a Request that cannot be served as asked; the message
// says why and how to ask instead.
var ErrRequest = errors.New("tune request")

// Request is what one `gdt tune` invocation asks of a study (messages name
// the command's flags): to create it
// (Kind and its data given), to join it (Name given), or either (create it
// unless it exists, then work on it).
type Request struct {
	// Name is the study's name; default Kind:Dataset (tabular kinds) or
	// Kind:Env (policy kinds).
	Name string
	// Kind is the model kind (or the policy method "sympol"). Required to
	// create a study; when joining it must match the study's, if given.
	Kind string
	// Dataset labels the tabular data (a registered name, or "file:NAME").
	Dataset string
	// RL describes a policy study (Kind "sympol"): environment, trainings
	// per trial, steps and profile.
	RL *RLSetup
	// Space is the search space (default: Kind's); Protocol the scoring
	// protocol (default DefaultProtocol(Kind), RLProtocol for policies).
	Space, Protocol string
	// Fixed options are held fixed and removed from the space; they are
	// checked against the kind's declaration when the study is created and
	// refused when joining.
	Fixed map[string]string
	// Trials is the number of evaluated trials the study should reach;
	// TrialsExplicit reports that it was asked for, so an existing study's
	// target changes to it.
	Trials         int
	TrialsExplicit bool
	// Seed is the model seed of every fit of a tabular study.
	Seed int64
	// Attrs are stored with a created study besides the Attr* ones (e.g.
	// where the data file is).
	Attrs map[string]string
	// CheckData, if set, is called before a tabular study is created (the
	// data must load).
	CheckData func() error
	// Join requires the study to exist; CreateOnly requires it not to.
	Join, CreateOnly bool
	// Config is the sampler, pruner and lease configuration of this
	// process's workers.
	Config Config
	// Where names the store in messages.
	Where string
}

// Opened tells what Open did.
type Opened struct {
	Created bool
	// Retarget is the study's former trial target when Open changed it
	// (0: unchanged, or the study is new).
	Retarget int
	// Summary is one line describing the study (for a progress message).
	Summary string
}

func requestErr(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrRequest}, args...)...)
}

// StudyName is the default name of a study: KIND:DATASET, or KIND:ENV.
func (r Request) StudyName() (string, error) {
	if r.Name != "" {
		return r.Name, nil
	}
	rl := IsRLKind(r.Kind)
	switch {
	case rl && (r.RL == nil || r.RL.Env == ""):
		return "", requestErr("--model %s needs --env (e.g. CartPole-v1), or --study to join a study", r.Kind)
	case rl:
		return r.Kind + ":" + r.RL.Env, nil
	case r.Kind == "" || r.Dataset == "":
		return "", requestErr("give --model and --dataset (or --data), or --model sympol and --env, or --study to join a study")
	}
	return r.Kind + ":" + r.Dataset, nil
}

// Open creates the study r describes or opens the existing one, checking
// that r agrees with it, and sets its trial target. A study created a
// moment ago by another worker started with the same request is joined.
// With CreateOnly the returned study is nil after creation.
func Open(store Store, r Request) (*Study, Opened, error) {
	name, err := r.StudyName()
	if err != nil {
		return nil, Opened{}, err
	}
	if r.Where == "" {
		r.Where = "the store"
	}
	_, lookupErr := store.GetStudyIDFromName(name)
	exists := lookupErr == nil
	var s *Study
	var op Opened
	switch {
	case r.Join && !exists:
		return nil, op, fmt.Errorf("no study %q in %s to join (create it first, without --join)", name, r.Where)
	case exists && r.CreateOnly:
		return nil, op, fmt.Errorf("study %q already exists in %s", name, r.Where)
	case exists:
		if s, err = join(store, name, r); err != nil {
			return nil, op, err
		}
		c, _ := s.Counts()
		op.Summary = fmt.Sprintf("joined study %q in %s: %s on %s, %d complete, %d running, %d pruned, %d failed", name, r.Where,
			s.Attrs[AttrKind], s.Attrs[AttrDataset], c.Complete, c.Running, c.Pruned, c.Fail)
	default:
		if s, op.Summary, err = create(store, name, r); err != nil {
			return nil, op, err
		}
		op.Created = true
		if r.CreateOnly {
			return nil, op, nil
		}
	}
	old, err := s.setTarget(r.Trials, r.TrialsExplicit)
	if err != nil {
		return nil, op, err
	}
	if old > 0 {
		op.Retarget = old
	}
	return s, op, nil
}

// join opens the existing study name and checks that r agrees with it.
func join(store Store, name string, r Request) (*Study, error) {
	s, err := LoadStudy(store, name, r.Config)
	if err != nil {
		return nil, err
	}
	switch {
	case len(r.Fixed) > 0:
		return nil, requestErr("fixed options (--set) apply when a study is created; study %q exists", name)
	case r.Kind != "" && r.Kind != s.Attrs[AttrKind]:
		return nil, fmt.Errorf("study %q tunes %s, not %s", name, s.Attrs[AttrKind], r.Kind)
	case r.RL != nil && r.RL.Env != "" && r.RL.Env != s.Attrs[AttrDataset]:
		return nil, fmt.Errorf("study %q tunes on %s, not %s", name, s.Attrs[AttrDataset], r.RL.Env)
	}
	return s, nil
}

// create creates the study name of r's kind: its space with the fixed
// options checked against the kind's declaration.
func create(store Store, name string, r Request) (*Study, string, error) {
	if r.Kind == "" {
		return nil, "", requestErr("--model is required to create a study")
	}
	sp := r.Space
	if sp == "" {
		sp = r.Kind
	}
	space, err := LookupSpace(sp)
	if err != nil {
		return nil, "", err
	}
	if space.Kind != r.Kind {
		return nil, "", fmt.Errorf("search space %s is for %s, not %s", sp, space.Kind, r.Kind)
	}
	space = space.Without(r.Fixed)
	cfg := r.Config
	var attrs map[string]string
	var summary string
	if IsRLKind(r.Kind) {
		if attrs, summary, err = rlStudy(r, space, &cfg); err != nil {
			return nil, "", err
		}
	} else {
		if attrs, summary, err = modelStudy(r, space); err != nil {
			return nil, "", err
		}
	}
	if cfg.Sampler == "" {
		cfg.Sampler = "tpe"
	}
	if cfg.Pruner == "" {
		cfg.Pruner = "median"
	}
	s, err := NewStudy(store, name, space, attrs, cfg)
	if err != nil {
		// Another worker started with the same request may have created
		// it a moment ago: join it.
		if _, e := store.GetStudyIDFromName(name); e != nil || r.CreateOnly {
			return nil, "", err
		}
		if s, err = LoadStudy(store, name, r.Config); err != nil {
			return nil, "", err
		}
	}
	summary = fmt.Sprintf("created study %q in %s: %s on %s, %s, %s sampler, %s pruner", name, r.Where, r.Kind, attrs[AttrDataset], summary,
		cfg.Sampler, cfg.Pruner)
	if IsRLKind(r.Kind) {
		summary += fmt.Sprintf(" (warm-up %d evaluations)", cfg.WarmUp+1)
	}
	return s, summary + fmt.Sprintf(", %d trials, space %s (%d dimensions)", r.Trials, sp, len(space.Params)), nil
}

// modelStudy checks a tabular study's request and returns its attributes.
func modelStudy(r Request, space *Space) (map[string]string, string, error) {
	k, err := model.LookupKind(r.Kind)
	if err != nil {
		return nil, "", err
	}
	if err := k.Options.Check(space.Fixed); err != nil {
		return nil, "", fmt.Errorf("--set: %w", err)
	}
	proto := r.Protocol
	if proto == "" {
		proto = DefaultProtocol(r.Kind)
	}
	if _, err := LookupProtocol(proto); err != nil {
		return nil, "", err
	}
	attrs := map[string]string{AttrKind: r.Kind, AttrDataset: r.Dataset, AttrProtocol: proto, AttrTrials: strconv.Itoa(r.Trials),
		AttrSeed: strconv.FormatInt(r.Seed, 10)}
	for k, v := range r.Attrs {
		attrs[k] = v
	}
	if r.CheckData != nil {
		if err := r.CheckData(); err != nil {
			return nil, "", err
		}
	}
	return attrs, proto + " protocol", nil
}

// rlStudy checks a policy study's request (building the training
// configuration before anything is stored) and returns its attributes; it
// sets the pruner's default warm-up in cfg.
func rlStudy(r Request, space *Space, cfg *Config) (map[string]string, string, error) {
	if r.RL == nil || r.RL.Env == "" {
		return nil, "", requestErr("--model %s needs --env (one of %s)", r.Kind, strings.Join(env.IDs(), ", "))
	}
	setup := *r.RL
	switch {
	case r.Protocol != "" && r.Protocol != RLProtocol:
		return nil, "", requestErr("--protocol %q: policy studies use %s", r.Protocol, RLProtocol)
	case setup.Seeds < 1:
		return nil, "", requestErr("--seeds %d: want at least 1", setup.Seeds)
	case setup.Steps < 1:
		return nil, "", requestErr("--steps %d: want at least 1", setup.Steps)
	}
	base, err := RLConfig(setup.Env, r.Kind, setup.Profile, setup.Steps, RLSeed(1), space.Fixed)
	if err != nil {
		return nil, "", fmt.Errorf("--env/--profile/--set: %w", err)
	}
	if cfg.WarmUp < 0 {
		cfg.WarmUp = RLWarmUp(setup.Steps, base.EvalFreq)
	}
	attrs := RLAttrs(setup, r.Trials)
	return attrs, fmt.Sprintf("%s protocol (%s trainings × %s steps, profile %s)", RLProtocol, attrs[AttrRLSeeds], attrs[AttrRLSteps],
		attrs[AttrRLProfile]), nil
}

// setTarget makes the study's trial target trials when it has none or when
// trials was asked for explicitly (e.g. to extend a finished search); it
// returns the former target when it changed one.
func (s *Study) setTarget(trials int, explicit bool) (int, error) {
	budget := s.Budget()
	if budget > 0 && (!explicit || trials == budget) {
		return 0, nil
	}
	if trials < 1 {
		return 0, requestErr("--trials %d: want at least 1", trials)
	}
	if err := s.G.SetUserAttr(AttrTrials, strconv.Itoa(trials)); err != nil {
		return 0, err
	}
	s.Attrs[AttrTrials] = strconv.Itoa(trials)
	return budget, nil
}

// RunWorkers works on the study name with workers handles of this process
// (handle i samples with seed cfg.Seed + i when cfg.Seed is set) until the
// study has its target of evaluated trials or ctx ends; it returns the
// workers' errors joined.
func RunWorkers(ctx context.Context, store Store, name string, cfg Config, workers int, obj Objective) error {
	if workers < 1 {
		return requestErr("--workers %d: want at least 1", workers)
	}
	handles := make([]*Study, workers)
	for i := range handles {
		c := cfg
		if c.Seed != 0 {
			c.Seed += int64(i)
		}
		h, err := LoadStudy(store, name, c)
		if err != nil {
			return err
		}
		handles[i] = h
	}
	errs := make([]error, len(handles))
	var wg sync.WaitGroup
	for i, h := range handles {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = h.Work(ctx, h.Budget(), obj)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}
