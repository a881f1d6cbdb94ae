package bench

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/datasets"
)

// Suite is a named list of datasets evaluated under one protocol.
type Suite struct {
	Name      string
	Protocol  Protocol
	ModelSeed int // the model seed every trial uses (thesis: 42)
	Entries   []datasets.SuiteEntry
	// Load loads one dataset of the suite; nil means datasets.Load.
	LoadFunc func(root, name string) (*data.Dataset, error)
}

// Load loads dataset name of the suite from root.
func (s *Suite) Load(root, name string) (*data.Dataset, error) {
	if s.LoadFunc != nil {
		return s.LoadFunc(root, name)
	}
	return datasets.Load(root, name)
}

// Select returns the suite's dataset names, restricted to only when given
// (in suite order); an unknown name is an error.
func (s *Suite) Select(only []string) ([]string, error) {
	var names []string
	want := map[string]bool{}
	for _, n := range only {
		full, err := s.resolve(n)
		if err != nil {
			return nil, err
		}
		want[full] = true
	}
	for _, e := range s.Entries {
		if len(want) == 0 || want[e.Dataset] {
			names = append(names, e.Dataset)
		}
	}
	return names, nil
}

// resolve finds the dataset n means: the entry named exactly n, else the
// entry whose name, or whose name after the last "/" (e.g. "adult" for
// "grande/adult"), equals n ignoring case. No match or more than one is an
// error.
func (s *Suite) resolve(n string) (string, error) {
	if _, ok := s.Entry(n); ok {
		return n, nil
	}
	var hits []string
	for _, e := range s.Entries {
		base := e.Dataset[strings.LastIndex(e.Dataset, "/")+1:]
		if strings.EqualFold(e.Dataset, n) || strings.EqualFold(base, n) {
			hits = append(hits, e.Dataset)
		}
	}
	switch len(hits) {
	case 1:
		return hits[0], nil
	case 0:
		return "", fmt.Errorf("suite %s has no dataset %q (it has: %s)", s.Name, n, strings.Join(s.names(), ", "))
	}
	return "", fmt.Errorf("suite %s: dataset %q is ambiguous (matches %s)", s.Name, n, strings.Join(hits, ", "))
}

func (s *Suite) names() []string {
	out := make([]string, len(s.Entries))
	for i, e := range s.Entries {
		out[i] = e.Dataset
	}
	return out
}

// Entry returns the suite entry of dataset name.
func (s *Suite) Entry(name string) (datasets.SuiteEntry, bool) {
	for _, e := range s.Entries {
		if e.Dataset == name {
			return e, true
		}
	}
	return datasets.SuiteEntry{}, false
}

// suiteProtocols maps each suite to its evaluation protocol.
var suiteProtocols = map[string]Protocol{
	"gradtree-binary":     GradTreeProtocol{},
	"gradtree-multiclass": GradTreeProtocol{},
	"grande":              CVProtocol{K: 5, ValidFraction: 0.1, Seed: 42, Pipeline: "gr-paper"},
}

// customSuites holds suites defined in code rather than by package datasets
// (e.g. "multimodal", bench_multimodal.go); filled by init functions.
var customSuites = map[string]func() *Suite{}

// SuiteNames lists the suites gdt bench can run.
func SuiteNames() []string {
	out := make([]string, 0, len(suiteProtocols)+len(customSuites))
	for n := range suiteProtocols {
		out = append(out, n)
	}
	for n := range customSuites {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// LookupSuite returns the suite called name.
func LookupSuite(name string) (*Suite, error) {
	if def, ok := customSuites[name]; ok {
		return def(), nil
	}
	p, ok := suiteProtocols[name]
	if !ok {
		return nil, fmt.Errorf("unknown suite %q (known: %s)", name, strings.Join(SuiteNames(), ", "))
	}
	entries, err := datasets.Suite(name)
	if err != nil {
		return nil, err
	}
	return &Suite{Name: name, Protocol: p, ModelSeed: 42, Entries: entries}, nil
}
