package option

import (
	"maps"
	"strconv"
)

// ZeroValued returns the declaration of a configuration whose zero field
// values are values, not defaults (a configuration started from a preset):
// an explicit 0 is checked against the range like any other value.
func ZeroValued[C any](kind string, opts ...Option[C]) *List[C] {
	for i := range opts {
		opts[i].ZeroIsValue = true
	}
	return &List[C]{Kind: kind, Options: opts}
}

// IntOpt declares an integer option in [min, max] (max may be Unbounded)
// bound to the field field returns (*int or *int64).
func IntOpt[C any](key, def string, min, max float64, meaning string, field func(c *C) any) Option[C] {
	return Option[C]{Spec: Spec{Key: key, Type: Int, Default: def, Min: min, Max: max, Meaning: meaning}, Field: field}
}

// FloatOpt declares a number option in [min, max] (see Open for exclusive
// bounds) bound to a *float64 field.
func FloatOpt[C any](key, def string, min, max float64, meaning string, field func(c *C) any) Option[C] {
	return Option[C]{Spec: Spec{Key: key, Type: Float, Default: def, Min: min, Max: max, Meaning: meaning}, Field: field}
}

// BoolOpt declares a true/false option bound to a *bool field.
func BoolOpt[C any](key, def, meaning string, field func(c *C) any) Option[C] {
	return Option[C]{Spec: Spec{Key: key, Type: Bool, Default: def, Meaning: meaning}, Field: field}
}

// ChoiceOpt declares an option taking one of choices, bound to a *string
// field (values are lower-cased).
func ChoiceOpt[C any](key, def string, choices []string, meaning string, field func(c *C) any) Option[C] {
	return Option[C]{Spec: Spec{Key: key, Type: Choice, Default: def, Choices: choices, Meaning: meaning}, Field: field}
}

// Custom declares an option whose value is not one plain field: set
// applies a checked value, get returns the current one ("" when zero).
func Custom[C any](s Spec, set func(c *C, v string) error, get func(c *C) string) Option[C] {
	return Option[C]{Spec: s, Set: set, Get: get}
}

// ShortcutOpt declares an option that sets other options (it has no
// default and is never written back by Format).
func ShortcutOpt[C any](s Spec, set func(c *C, v string) error) Option[C] {
	s.Shortcut = true
	return Option[C]{Spec: s, Set: set}
}

// Unbounded is the Max (or, negated, the Min) of a numeric option without
// a limit.
var Unbounded = inf

// Also adds accepted alternative spellings.
func (o Option[C]) Also(aliases ...string) Option[C] {
	o.Aliases = append(append([]string(nil), o.Aliases...), aliases...)
	return o
}

// OldSpelling adds deprecated spellings still accepted because saved files
// use them.
func (o Option[C]) OldSpelling(keys ...string) Option[C] {
	o.Deprecated = append(append([]string(nil), o.Deprecated...), keys...)
	return o
}

// ByTask sets defaults that differ by task.
func (o Option[C]) ByTask(defaults map[string]string) Option[C] {
	o.TaskDefaults = maps.Clone(defaults)
	return o
}

// Note adds a description of the default.
func (o Option[C]) Note(note string) Option[C] {
	o.DefaultNote = note
	return o
}

// LogScale marks the option as searched on a log scale.
func (o Option[C]) LogScale() Option[C] {
	o.Log = true
	return o
}

// Open excludes the lower and/or upper bound from the range.
func (o Option[C]) Open(min, max bool) Option[C] {
	o.MinOpen, o.MaxOpen = min, max
	return o
}

// Word lets a numeric option also take word, meaning the field's zero
// value (e.g. "none" for an unlimited depth).
func (o Option[C]) Word(word, meaning string) Option[C] {
	o.Words = maps.Clone(o.Words)
	if o.Words == nil {
		o.Words = map[string]string{}
	}
	o.Words[word] = meaning
	return o
}

// Inverted stores the negation of a Bool option in its field.
func (o Option[C]) Inverted() Option[C] {
	o.Invert = true
	return o
}

// ZeroMeansDefault marks an option whose zero field stands for a default
// that is not a plain number (DefaultNote), so an explicit 0 is refused.
func (o Option[C]) ZeroMeansDefault() Option[C] {
	o.ZeroDefault = true
	return o
}

// Range sets the free-text description of a Text option's values.
func (o Option[C]) Range(note string) Option[C] {
	o.RangeNote = note
	return o
}

// zeroIsDefault reports whether an explicit 0 must be refused: the field's
// zero value stands for a default that is not 0.
func (s *Spec) zeroIsDefault() bool {
	if s.ZeroIsValue {
		return false
	}
	if s.ZeroDefault {
		return true
	}
	for _, d := range append([]string{s.Default}, mapValues(s.TaskDefaults)...) {
		if f, err := strconv.ParseFloat(d, 64); err == nil && f != 0 {
			return true
		}
	}
	return false
}
