// Package model defines what every gdt learner provides in model space
// (dense float32 features after preprocessing) and keeps the registry of
// learner kinds, so the benchmark harness, the CLI and the model file can
// train, save and load any of them by name.
package model

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/option"
	"github.com/gdt-ml/gdt/train"
)

// Data is one prepared part of a split: features in model space and labels.
type Data struct {
	X *data.Matrix
	Y []float64
}

// Problem describes the learning problem a learner is fitted on.
type Problem struct {
	Task       data.Task
	NumClasses int      // 1 for regression
	Features   []string // names of the model-space columns
}

// Learner is a model that can be fitted and asked for predictions.
type Learner interface {
	// Fit trains on train. valid is the validation split for learners that
	// use one (early stopping); others get nil.
	Fit(ctx context.Context, p Problem, train, valid *Data) error
	// PredictProba returns one row per sample: class probabilities
	// (binary: 2 columns) or, for regression, the prediction (1 column).
	PredictProba(X *data.Matrix) (*data.Matrix, error)
	// NumNodes returns the size of the fitted model (internal + leaf
	// nodes; for ensembles the total).
	NumNodes() int
}

// Describer is implemented by learners that can render themselves as
// readable text; names are the model-space feature and class names.
type Describer interface {
	Describe(features, classes []string) string
}

// Kind is a registered learner family, e.g. "cart" or "gradtree".
type Kind struct {
	Name string
	Help string
	// UsesValidation reports whether Fit wants a validation split.
	UsesValidation bool
	// DefaultProtocol is the preprocessing used when a Spec names none.
	DefaultProtocol string
	// Options declares the kind's options (keys, defaults, ranges,
	// meanings); New reads opts through it.
	Options option.Declared
	// New returns an untrained learner configured by opts (keys declared
	// by Options; unknown keys and out-of-range values are errors) and
	// seed.
	New func(opts map[string]string, seed int64) (Learner, error)
	// Unmarshal restores a fitted learner saved with json.Marshal.
	Unmarshal func(b json.RawMessage) (Learner, error)
}

var (
	mu    sync.RWMutex
	kinds = map[string]Kind{}
)

// RegisterKind adds a learner kind; a duplicate name panics (init-time
// programming error).
func RegisterKind(k Kind) {
	if k.Options == nil {
		panic("model: kind " + k.Name + " declares no options")
	}
	mu.Lock()
	defer mu.Unlock()
	if _, dup := kinds[k.Name]; dup {
		panic("model: kind registered twice: " + k.Name)
	}
	kinds[k.Name] = k
}

// KindNames lists the registered kinds, sorted.
func KindNames() []string {
	mu.RLock()
	defer mu.RUnlock()
	return kindNamesLocked()
}

func kindNamesLocked() []string {
	names := make([]string, 0, len(kinds))
	for n := range kinds {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// LookupKind returns the kind called name.
func LookupKind(name string) (Kind, error) {
	mu.RLock()
	defer mu.RUnlock()
	k, ok := kinds[name]
	if !ok {
		return Kind{}, fmt.Errorf("unknown model kind %q (known: %s)", name, strings.Join(kindNamesLocked(), ", "))
	}
	return k, nil
}

// ProgressSetter is implemented by learners whose Fit reports progress
// after every epoch (restart, epoch, losses).
type ProgressSetter interface {
	SetProgress(func(train.Progress))
}
