package main

import (
	"fmt"
	"strings"

	"github.com/gdt-ml/gdt/bench"
	"github.com/gdt-ml/gdt/model"
)

// One model vocabulary for train, eval, bench and tune: a model is a name
// with optional inline options, grande[n_estimators=64,depth=4]; a list
// separates models by commas outside brackets. --set key=value options go
// to every model of the list whose kind declares the key (cart has no
// n_estimators, so --models grande,cart --set n_estimators=64 changes only
// grande); a key no model of the list declares is an error. Inline options
// win over --set.

// modelItem is one model of a list: its name and inline options.
type modelItem struct {
	name string
	opts map[string]string
}

// parseModelList splits a model list such as "grande[n_estimators=64,depth=4],cart".
func parseModelList(s string) ([]modelItem, error) {
	var items []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '[':
			depth++
		case ']':
			depth--
			if depth < 0 {
				return nil, fmt.Errorf("%w: model list %q: unmatched ]", errUsage, s)
			}
		case ',':
			if depth == 0 {
				items = append(items, s[start:i])
				start = i + 1
			}
		}
	}
	if depth != 0 {
		return nil, fmt.Errorf("%w: model list %q: unclosed [", errUsage, s)
	}
	items = append(items, s[start:])
	var out []modelItem
	for _, it := range items {
		it = strings.TrimSpace(it)
		if it == "" {
			continue
		}
		m, err := parseModelItem(it)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: empty model list", errUsage)
	}
	return out, nil
}

// parseModelItem parses one "name" or "name[k=v,…]".
func parseModelItem(s string) (modelItem, error) {
	name, rest, ok := strings.Cut(s, "[")
	m := modelItem{name: strings.TrimSpace(name)}
	if !ok {
		return m, nil
	}
	if !strings.HasSuffix(rest, "]") {
		return m, fmt.Errorf("%w: model %q: options must end with ]", errUsage, s)
	}
	m.opts = map[string]string{}
	for _, kv := range strings.Split(strings.TrimSuffix(rest, "]"), ",") {
		if strings.TrimSpace(kv) == "" {
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return m, fmt.Errorf("%w: model %q: want key=value inside [ ], got %q", errUsage, s, kv)
		}
		m.opts[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return m, nil
}

// declares reports whether model kind declares option key (an alias or
// deprecated spelling counts).
func declares(kind, key string) bool {
	k, err := model.LookupKind(kind)
	if err != nil {
		return false
	}
	_, ok := k.Options.Lookup(key)
	return ok
}

// optionsFor returns the options of item under the list-wide --set options:
// the --set keys its kind declares, then its inline options on top.
func optionsFor(kind string, item modelItem, sets map[string]string) map[string]string {
	opts := map[string]string{}
	for k, v := range sets {
		if declares(kind, k) {
			opts[k] = v
		}
	}
	for k, v := range item.opts {
		opts[k] = v
	}
	return opts
}

// checkSets returns an error for a --set key no kind of kinds declares.
func checkSets(sets map[string]string, kinds []string) error {
	for key := range sets {
		found := false
		for _, k := range kinds {
			found = found || declares(k, key)
		}
		if !found {
			return fmt.Errorf("%w: --set %s: no model of the list declares %q (gdt models KIND lists a kind's options)", errUsage, key, key)
		}
	}
	return nil
}

// benchModels resolves a model list of eval or bench to registered bench
// model names, deriving grande[n_estimators=64]-style variants for inline
// and --set options.
func benchModels(list string, sets map[string]string) ([]string, error) {
	items, err := parseModelList(list)
	if err != nil {
		return nil, err
	}
	var kinds, names []string
	for _, it := range items {
		m, err := bench.Lookup(it.name)
		if err != nil {
			return nil, err
		}
		kinds = append(kinds, m.Kind)
	}
	if err := checkSets(sets, kinds); err != nil {
		return nil, err
	}
	for i, it := range items {
		name, err := bench.WithOptions(it.name, optionsFor(kinds[i], it, sets))
		if err != nil {
			return nil, err
		}
		names = append(names, name)
	}
	return names, nil
}

// kindWithOptions resolves train's or tune's --model (one kind, possibly
// with inline options) and --set into the kind and its options.
func kindWithOptions(s string, sets map[string]string) (string, map[string]string, error) {
	it, err := parseModelItem(strings.TrimSpace(s))
	if err != nil {
		return "", nil, err
	}
	opts := map[string]string{}
	for k, v := range sets {
		opts[k] = v
	}
	for k, v := range it.opts {
		opts[k] = v
	}
	return it.name, opts, nil
}
