package main

import (
	"flag"
	"fmt"

	"github.com/gdt-ml/gdt/hpo"
)

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
