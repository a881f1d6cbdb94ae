package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/gdt-ml/gdt/hpo"
	"github.com/gdt-ml/gdt/rl/env"
	_ "github.com/gdt-ml/gdt/rl/env/all"
)

// createRLStudy creates the policy study name (gdt tune --model sympol
// --env ID): the search space of the method with the --set options fixed,
// checked by building the training configuration before anything is
// stored. With createOnly it prints how to start workers and returns a nil
// study.
func createRLStudy(store hpo.Store, name, kind, envID, spaceName, protocol string, fixed optionFlags, setup hpo.RLSetup, trials int,
	cfg hpo.Config, createOnly bool, storage string, quiet bool, stdout, stderr io.Writer) (*hpo.Study, error) {
	if envID == "" {
		return nil, fmt.Errorf("%w: --model %s needs --env (one of %s)", errUsage, kind, strings.Join(env.IDs(), ", "))
	}
	if protocol != "" && protocol != hpo.RLProtocol {
		return nil, fmt.Errorf("%w: --protocol %q: policy studies use %s", errUsage, protocol, hpo.RLProtocol)
	}
	if setup.Seeds < 1 {
		return nil, fmt.Errorf("%w: --seeds %d: want at least 1", errUsage, setup.Seeds)
	}
	if setup.Steps < 1 {
		return nil, fmt.Errorf("%w: --steps %d: want at least 1", errUsage, setup.Steps)
	}
	sp := spaceName
	if sp == "" {
		sp = kind
	}
	space, err := hpo.LookupSpace(sp)
	if err != nil {
		return nil, err
	}
	if space.Kind != kind {
		return nil, fmt.Errorf("search space %s is for %s, not %s", sp, space.Kind, kind)
	}
	space = space.Without(fixed)
	if bad := hpo.RLSpaceKeys(space); len(bad) > 0 {
		return nil, fmt.Errorf("--set: unknown hyperparameters %s (gdt rl train --set takes the same keys)", strings.Join(bad, ", "))
	}
	base, err := hpo.RLConfig(setup.Env, kind, setup.Profile, setup.Steps, hpo.RLSeed(1), space.Fixed)
	if err != nil {
		return nil, fmt.Errorf("--env/--profile/--set: %w", err)
	}
	if cfg.WarmUp < 0 {
		cfg.WarmUp = hpo.RLWarmUp(setup.Steps, base.EvalFreq)
	}
	if cfg.Sampler == "" {
		cfg.Sampler = "tpe"
	}
	if cfg.Pruner == "" {
		cfg.Pruner = "median"
	}
	attrs := hpo.RLAttrs(setup, trials)
	s, err := hpo.NewStudy(store, name, space, attrs, cfg)
	if err != nil {
		// Another worker started with the same command may have created
		// it a moment ago: join it.
		if _, e := store.GetStudyIDFromName(name); e != nil || createOnly {
			return nil, err
		}
		if s, err = hpo.LoadStudy(store, name, cfg); err != nil {
			return nil, err
		}
	}
	if !quiet {
		fmt.Fprintf(stderr, "created study %q in %s: %s on %s, %s protocol (%s trainings × %s steps, profile %s), %s sampler, %s pruner (warm-up %d evaluations), %d trials, space %s (%d dimensions)\n",
			name, storage, kind, envID, hpo.RLProtocol, attrs[hpo.AttrRLSeeds], attrs[hpo.AttrRLSteps], attrs[hpo.AttrRLProfile],
			cfg.Sampler, cfg.Pruner, cfg.WarmUp+1, trials, sp, len(space.Params))
	}
	if createOnly {
		fmt.Fprintf(stdout, "created study %q in %s; start workers with: gdt tune --join --study '%s' --storage '%s'\n", name, storage, name, storage)
		return nil, nil
	}
	return s, nil
}

// protocolLabel describes a study's protocol in its best-configuration
// file: the protocol name, and for policy studies the trainings per trial,
// their steps and profile.
func protocolLabel(attrs map[string]string) string {
	p := attrs[hpo.AttrProtocol]
	if p != hpo.RLProtocol {
		return p
	}
	return fmt.Sprintf("%s (%s trainings × %s steps, profile %s)", p, attrs[hpo.AttrRLSeeds], attrs[hpo.AttrRLSteps], attrs[hpo.AttrRLProfile])
}

// checkRLFlags refuses --seeds, --steps and --profile values on an
// existing study that differ from the study's own: they apply when a
// study is created.
func checkRLFlags(fs *flag.FlagSet, s *hpo.Study, name string) error {
	attr := map[string]string{"seeds": hpo.AttrRLSeeds, "steps": hpo.AttrRLSteps, "profile": hpo.AttrRLProfile}
	var err error
	fs.Visit(func(f *flag.Flag) {
		a, ok := attr[f.Name]
		if !ok || err != nil {
			return
		}
		if have := s.Attrs[a]; have != f.Value.String() {
			if have == "" {
				have = "none (not a policy study)"
			}
			err = fmt.Errorf("%w: --%s %s: study %q was created with %s (--%s applies when a study is created)", errUsage, f.Name, f.Value, name, have, f.Name)
		}
	})
	return err
}
