package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/gdt-ml/gdt/datasets"
	"github.com/gdt-ml/gdt/model"
)

// Tuned is a tuned configuration: the best trial of a hyperparameter search
// (`gdt tune`) for one model kind on one dataset.
type Tuned struct {
	Kind     string            `json:"kind"`    // model kind, e.g. "gradtree"
	Dataset  string            `json:"dataset"` // dataset name as the registry loads it
	Options  map[string]string `json:"options"` // the kind's options (fixed ones included)
	Score    float64           `json:"score"`   // the search's validation score
	Protocol string            `json:"protocol"`
	Study    string            `json:"study"`
	Storage  string            `json:"storage,omitempty"`
	Trial    int               `json:"trial"`           // number of the best trial
	Complete int               `json:"complete_trials"` // complete trials of the study when written
	Sampler  string            `json:"sampler,omitempty"`
	Written  time.Time         `json:"written"`
}

// ReadTuned reads tuned configurations from a JSON file (one object or an
// array of them) or from every *.json file of a directory.
func ReadTuned(path string) ([]Tuned, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("tuned configurations: %w", err)
	}
	files := []string{path}
	if st.IsDir() {
		if files, err = filepath.Glob(filepath.Join(path, "*.json")); err != nil {
			return nil, err
		}
		sort.Strings(files)
		if len(files) == 0 {
			return nil, fmt.Errorf("tuned configurations: no *.json files in %s", path)
		}
	}
	var out []Tuned
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		b = []byte(strings.TrimSpace(string(b)))
		var list []Tuned
		if len(b) > 0 && b[0] == '[' {
			err = json.Unmarshal(b, &list)
		} else {
			var one Tuned
			err = json.Unmarshal(b, &one)
			list = []Tuned{one}
		}
		if err != nil {
			return nil, fmt.Errorf("%s: not a tuned configuration: %w", f, err)
		}
		for i, t := range list {
			if t.Kind == "" || t.Dataset == "" {
				return nil, fmt.Errorf("%s: entry %d: kind and dataset are required", f, i)
			}
		}
		out = append(out, list...)
	}
	return out, nil
}

// tunedKey normalises a dataset name for matching ("gradtree/adult" and
// "adult" are the same dataset).
func tunedKey(kind, dataset string) string {
	return kind + "\x00" + strings.TrimPrefix(dataset, "gradtree/")
}

// TunedName is the name under which results of a tuned model appear.
func TunedName(model string) string { return model + "-tuned" }

// RunTuned runs the benchmark like Run, but every model trains with the
// tuned configuration of each dataset: tuned holds configurations by model
// kind (the bench models named like their kind — cart, gradtree, grande,
// random-forest — take the configurations of that kind) and dataset.
// Datasets without a tuned configuration for a model are skipped and listed
// in missing. Results are named TunedName(model), and the returned suite
// carries the thesis's optimised-hyperparameter figures as its reference
// (for WriteMarkdown).
func RunTuned(ctx context.Context, opt Options, tuned []Tuned) (results []Result, names []string, suite *Suite, missing []string, err error) {
	suite = opt.Def
	if suite == nil {
		if suite, err = LookupSuite(opt.Suite); err != nil {
			return nil, nil, nil, nil, err
		}
	}
	if len(opt.Models) == 0 {
		return nil, nil, nil, nil, errors.New("bench: no models given")
	}
	byKey := map[string]Tuned{}
	for _, t := range tuned {
		byKey[tunedKey(t.Kind, t.Dataset)] = t
	}
	dsNames, err := suite.Select(opt.Datasets)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	for _, m := range opt.Models {
		base, err := Lookup(m)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		if _, err := model.LookupKind(m); err != nil {
			return nil, nil, nil, nil, fmt.Errorf("bench: --tuned needs models named like a learner kind (cart, gradtree, grande, random-forest); %q is not one", m)
		}
		ensureModel(Model{Name: TunedName(m), Help: base.Help + " — tuned per dataset", Thesis: base.Thesis,
			UsesValidation: base.UsesValidation, New: base.New})
		names = append(names, TunedName(m))
	}
	type plan struct {
		dataset string
		models  []string // per-dataset registered names
		base    []string // their result names
	}
	var plans []plan
	for _, d := range dsNames {
		p := plan{dataset: d}
		for _, m := range opt.Models {
			t, ok := byKey[tunedKey(m, d)]
			if !ok {
				missing = append(missing, m+" on "+d)
				continue
			}
			k, err := model.LookupKind(m)
			if err != nil {
				return nil, nil, nil, nil, err
			}
			if _, err := k.New(t.Options, 42); err != nil {
				return nil, nil, nil, nil, fmt.Errorf("bench: tuned %s options for %s: %w", m, d, err)
			}
			name := fmt.Sprintf("%s@%s", TunedName(m), d)
			opts := t.Options
			ensureModel(Model{Name: name, Help: "tuned " + m + " for " + d, UsesValidation: k.UsesValidation,
				New: func(seed int64) Learner {
					l, err := k.New(opts, seed)
					if err != nil {
						panic(err) // validated above
					}
					return l
				}})
			p.models = append(p.models, name)
			p.base = append(p.base, TunedName(m))
		}
		if len(p.models) > 0 {
			plans = append(plans, p)
		}
	}
	trials := opt.Trials
	if trials <= 0 {
		trials = suite.Protocol.DefaultTrials()
	}
	total := 0
	for range plans {
		total += trials
	}
	doneJobs := 0
	for _, p := range plans {
		sub := opt
		sub.Def, sub.Suite, sub.Datasets, sub.Models = suite, suite.Name, []string{p.dataset}, p.models
		sub.Done = nil
		for _, r := range opt.Done {
			for i, b := range p.base {
				if r.Model == b && r.Dataset == p.dataset {
					r.Model = p.models[i]
					sub.Done = append(sub.Done, r)
				}
			}
		}
		offset := doneJobs
		if opt.OnResult != nil {
			models, base := p.models, p.base
			sub.OnResult = func(r Result) {
				for j, n := range models {
					if r.Model == n {
						r.Model = base[j]
					}
				}
				opt.OnResult(r)
			}
		}
		if opt.Progress != nil {
			sub.Progress = func(done, _ int, last string) { opt.Progress(offset+done, total, last) }
		}
		rs, err := Run(ctx, sub)
		for i := range rs {
			for j, n := range p.models {
				if rs[i].Model == n {
					rs[i].Model = p.base[j]
				}
			}
		}
		results = append(results, rs...)
		if err != nil {
			return results, names, optimisedSuite(suite), missing, err
		}
		doneJobs += trials
	}
	return results, names, optimisedSuite(suite), missing, nil
}

// ensureModel registers m unless a model of that name exists.
func ensureModel(m Model) {
	regMu.Lock()
	defer regMu.Unlock()
	if _, ok := registry[m.Name]; !ok {
		registry[m.Name] = m
	}
}

// optimisedSuite returns a copy of s whose reference figures are the
// thesis's optimised-hyperparameter table.
func optimisedSuite(s *Suite) *Suite {
	c := *s
	c.Entries = make([]datasets.SuiteEntry, len(s.Entries))
	for i, e := range s.Entries {
		if e.Optimised != nil {
			e.Thesis, e.ThesisStd, e.ThesisTable = e.Optimised, e.OptimisedStd, e.OptimisedTable
		} else {
			e.Thesis, e.ThesisStd, e.ThesisTable = nil, nil, "none (the thesis has no optimised table for this suite)"
		}
		c.Entries[i] = e
	}
	return &c
}
