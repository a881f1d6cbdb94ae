// Package bench is the benchmark harness behind `gdt bench`: it runs the
// thesis's evaluation protocols over the benchmark suites, with models
// registered by name, and writes per-trial results and thesis-style tables.
package bench

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/gdt-ml/gdt/model"
)

// Data, Problem and Learner are the model-space types of package model.
type (
	Data    = model.Data
	Problem = model.Problem
	Learner = model.Learner
)

// Model is a registered, named model configuration.
type Model struct {
	Name           string
	Help           string
	UsesValidation bool
	// Thesis names the column of the thesis's tables that reports this
	// model, if any (e.g. "CART", "GradTree").
	Thesis string
	// New returns a fresh learner; seed is the model seed of the protocol.
	New func(seed int64) Learner
	// Kind and Options name the learner kind and the fixed options the
	// model trains with, for models that are a registered kind (empty
	// otherwise); WithOptions derives variants from them.
	Kind    string
	Options map[string]string
}

var (
	regMu    sync.RWMutex
	registry = map[string]Model{}
)

// Register adds a model; registering a name twice panics (a programming
// error at init time).
func Register(m Model) {
	regMu.Lock()
	defer regMu.Unlock()
	if _, dup := registry[m.Name]; dup {
		panic("bench: model registered twice: " + m.Name)
	}
	registry[m.Name] = m
}

// Lookup returns the model called name.
func Lookup(name string) (Model, error) {
	regMu.RLock()
	defer regMu.RUnlock()
	m, ok := registry[name]
	if !ok {
		return Model{}, fmt.Errorf("unknown model %q (known: %s)", name, strings.Join(modelNames(), ", "))
	}
	return m, nil
}

// Models returns all registered models sorted by name.
func Models() []Model {
	regMu.RLock()
	defer regMu.RUnlock()
	out := make([]Model, 0, len(registry))
	for _, m := range registry {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func modelNames() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
