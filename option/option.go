// Package option holds the one declaration of a model kind's options: for
// every option its key, type, default, range (numeric bounds and a log-scale
// hint, or the allowed values) and a one-line meaning, bound to the field of
// the kind's configuration it sets. Everything that reads options — the
// CLI's --set, the library's configs, the benchmark harness, tune's search
// spaces and `gdt models` — reads this declaration; nothing keeps a second
// list of keys.
//
// A kind declares a List of its configuration type C. List.Parse turns text
// options (key=value) into a C, checking every value against its range;
// List.Defaults fills the fields left at their zero value with the declared
// defaults; List.Format turns a C back into text options. A kind that is
// another kind with other defaults is one call: List.WithDefaults.
package option

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Type is the type of an option's value.
type Type int

// Option types.
const (
	Int    Type = iota // an integer in [Min, Max]
	Float              // a number in the range
	Bool               // true or false (also 1/0, t/f)
	Choice             // one of Choices
	Text               // free text checked by the option's own parser (e.g. a list of widths)
)

// String names the type as `gdt models` shows it.
func (t Type) String() string {
	switch t {
	case Int:
		return "int"
	case Float:
		return "float"
	case Bool:
		return "bool"
	case Choice:
		return "choice"
	case Text:
		return "text"
	}
	return fmt.Sprintf("Type(%d)", int(t))
}

// MarshalText writes the type's name (for `gdt models --json`).
func (t Type) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// Spec is the declaration of one option, without its binding to a field.
type Spec struct {
	Key string `json:"key"`
	// Aliases are other spellings still accepted (older names, the
	// reference code's names); they mean exactly what Key means.
	Aliases []string `json:"aliases,omitempty"`
	// Deprecated are old spellings still accepted because saved files
	// (model files, tuned configurations) use them; Format writes Key.
	Deprecated []string `json:"deprecated,omitempty"`
	Type       Type     `json:"type"`
	// Default is the value used when the option is not given, as text;
	// empty when there is none (a shortcut that sets other options, or a
	// value that depends on the data, described by DefaultNote).
	Default string `json:"default,omitempty"`
	// TaskDefaults are defaults that differ by task ("binary",
	// "multiclass", "regression"); Default holds the others.
	TaskDefaults map[string]string `json:"task_defaults,omitempty"`
	// DefaultNote describes a default that is not a plain value.
	DefaultNote string `json:"default_note,omitempty"`
	// Min and Max bound Int and Float values (±Inf: unbounded); MinOpen
	// and MaxOpen exclude the bound itself.
	Min     float64 `json:"-"`
	Max     float64 `json:"-"`
	MinOpen bool    `json:"-"`
	MaxOpen bool    `json:"-"`
	// Log says the value is best searched on a log scale (a rate).
	Log bool `json:"log,omitempty"`
	// Choices are the allowed values of a Choice option.
	Choices []string `json:"choices,omitempty"`
	// Words are extra values a numeric option accepts besides numbers
	// (e.g. "none" for an unlimited depth), with their meaning.
	Words map[string]string `json:"words,omitempty"`
	// Range describes the allowed values in words, for Text options.
	RangeNote string `json:"range_note,omitempty"`
	// Meaning is one line on what the option does.
	Meaning string `json:"meaning"`
	// Shortcut marks an option that sets other options (it has no value
	// of its own in a configuration and no default).
	Shortcut bool `json:"shortcut,omitempty"`
	// ZeroDefault marks a numeric option whose field's zero value stands
	// for the default: an explicit 0 is then an error, not a silent
	// switch to the default. Set by the constructors.
	ZeroDefault bool `json:"-"`
	// ZeroIsValue marks an option of a configuration whose zero values
	// are values, not defaults (see ZeroValued): 0 is then never refused
	// as standing for the default.
	ZeroIsValue bool `json:"-"`
}

// ErrZeroIsDefault is the error of an option given as 0 where a zero field
// means "use the default".
var ErrZeroIsDefault = errors.New("0 is not accepted here (an unset option is 0 and means the default); leave the option out for the default or give another value")

// ErrUnknown is the error of an option key a kind does not declare.
var ErrUnknown = errors.New("unknown option")

// Check parses value as the option's type and checks it against the range.
// It returns the value normalised (lower-cased choices and words).
func (s *Spec) Check(value string) (string, error) {
	v := strings.TrimSpace(value)
	if v == "" {
		return "", errors.New("empty value")
	}
	if w := strings.ToLower(v); s.Words[w] != "" {
		return w, nil
	}
	switch s.Type {
	case Int:
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return "", fmt.Errorf("not an integer: expected %s", s.Range())
		}
		if err := s.checkNumber(float64(n)); err != nil {
			return "", err
		}
	case Float:
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(f) {
			return "", fmt.Errorf("not a number: expected %s", s.Range())
		}
		if err := s.checkNumber(f); err != nil {
			return "", err
		}
	case Bool:
		if _, err := strconv.ParseBool(v); err != nil {
			return "", errors.New("expected true or false")
		}
	case Choice:
		l := strings.ToLower(v)
		for _, c := range s.Choices {
			if c == l {
				return l, nil
			}
		}
		return "", fmt.Errorf("expected one of %s", strings.Join(s.Choices, ", "))
	}
	return v, nil
}

func (s *Spec) checkNumber(f float64) error {
	if f == 0 && s.zeroIsDefault() {
		return ErrZeroIsDefault
	}
	if f < s.Min || f > s.Max || (s.MinOpen && f == s.Min) || (s.MaxOpen && f == s.Max) || math.IsInf(f, 0) {
		return fmt.Errorf("out of range: expected %s", s.Range())
	}
	return nil
}

// Range describes the allowed values: "1…16", "(0, 1]", "≥ 0", "one of a,
// b", plus the accepted words.
func (s *Spec) Range() string {
	var r string
	switch s.Type {
	case Bool:
		r = "true or false"
	case Choice:
		r = strings.Join(s.Choices, " | ")
	case Text:
		r = s.RangeNote
	case Int:
		switch {
		case math.IsInf(s.Max, 1) && math.IsInf(s.Min, -1):
			r = "any integer"
		case math.IsInf(s.Max, 1):
			r = "≥ " + num(s.Min)
		default:
			r = num(s.Min) + "…" + num(s.Max)
		}
	case Float:
		lo, hi := math.IsInf(s.Min, -1), math.IsInf(s.Max, 1)
		switch {
		case lo && hi:
			r = "any number"
		case hi && s.MinOpen:
			r = "> " + num(s.Min)
		case hi:
			r = "≥ " + num(s.Min)
		case lo && s.MaxOpen:
			r = "< " + num(s.Max)
		case lo:
			r = "≤ " + num(s.Max)
		default:
			l, h := "[", "]"
			if s.MinOpen {
				l = "("
			}
			if s.MaxOpen {
				h = ")"
			}
			r = l + num(s.Min) + ", " + num(s.Max) + h
		}
	}
	for _, w := range sortedKeys(s.Words) {
		r += " | " + w
	}
	return r
}

// DefaultFor returns the option's default for a task ("" for the
// task-independent default).
func (s *Spec) DefaultFor(task string) string {
	if d, ok := s.TaskDefaults[task]; ok && task != "" {
		return d
	}
	return s.Default
}

// DefaultText gives the default value(s) as `gdt models` shows them: the
// value, then the task-specific ones ("—" when there is none; DefaultNote
// is shown beside the meaning).
func (s *Spec) DefaultText() string {
	parts := []string{}
	if s.Default != "" {
		parts = append(parts, s.Default)
	}
	for _, t := range sortedKeys(s.TaskDefaults) {
		parts = append(parts, t+": "+s.TaskDefaults[t])
	}
	if len(parts) == 0 {
		return "—"
	}
	return strings.Join(parts, "; ")
}

// JSON-only fields of a Spec.
type specJSON struct {
	Range string   `json:"range"`
	Lo    *float64 `json:"min,omitempty"`
	Hi    *float64 `json:"max,omitempty"`
}

// Info is a Spec with its range spelled out, as `gdt models --json` writes it.
type Info struct {
	Spec
	specJSON
}

// InfoOf returns s with its range spelled out.
func InfoOf(s Spec) Info {
	i := Info{Spec: s, specJSON: specJSON{Range: s.Range()}}
	if s.Type == Int || s.Type == Float {
		if !math.IsInf(s.Min, 0) {
			v := s.Min
			i.Lo = &v
		}
		if !math.IsInf(s.Max, 0) {
			v := s.Max
			i.Hi = &v
		}
	}
	return i
}

// Normalize returns key in canonical form: trimmed, lower case, '-' → '_'.
func Normalize(key string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimSpace(key)), "-", "_")
}

func num(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}
