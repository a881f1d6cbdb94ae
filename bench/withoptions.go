package bench

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gdt-ml/gdt/model"
)

// WithOptions returns the name of a model that trains like the registered
// model name with set's options on top of its own (set wins), registering
// it on first use. The name lists the options, e.g.
// "grande[n_estimators=256]", so its results never mix with the base
// model's in a results file. It has no thesis column: the thesis's
// figures belong to the published configurations. An option the model's
// kind does not know is an error that names the model.
func WithOptions(name string, set map[string]string) (string, error) {
	base, err := Lookup(name)
	if err != nil {
		return "", err
	}
	if len(set) == 0 {
		return name, nil
	}
	if base.Kind == "" {
		return "", fmt.Errorf("bench: model %s does not take options", name)
	}
	k, err := model.LookupKind(base.Kind)
	if err != nil {
		return "", err
	}
	opts := make(map[string]string, len(base.Options)+len(set))
	for key, v := range base.Options {
		opts[key] = v
	}
	keys := make([]string, 0, len(set))
	for key, v := range set {
		spec, ok := k.Options.Lookup(key)
		if !ok {
			return "", fmt.Errorf("bench: model %s: unknown option %q (gdt models %s lists them)", name, key, base.Kind)
		}
		key = spec.Key
		opts[key] = v
		keys = append(keys, key)
	}
	if err := k.Options.Check(opts); err != nil {
		return "", fmt.Errorf("bench: options for model %s: %w", name, err)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, key := range keys {
		parts[i] = key + "=" + opts[key]
	}
	derived := name + "[" + strings.Join(parts, ",") + "]"
	ensureModel(Model{Name: derived, Help: base.Help + " — with " + strings.Join(parts, ", "),
		UsesValidation: base.UsesValidation, Kind: base.Kind, Options: opts,
		New: func(seed int64) Learner {
			l, err := k.New(opts, seed)
			if err != nil {
				panic(err) // validated above
			}
			return l
		}})
	return derived, nil
}
