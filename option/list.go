package option

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// Option is one declared option of a configuration type C: its Spec and
// how it reads and writes C. Most options bind a field (Field returns a
// pointer to it: *int, *int64, *float64, *string or *bool); options whose
// value is not one field's (a shortcut, a typed enum, a list) give Set and,
// unless they are shortcuts, Get.
type Option[C any] struct {
	Spec
	// Field returns a pointer to the field the option sets.
	Field func(c *C) any
	// Invert stores the negation of a Bool option (a field NoX for an
	// option x whose default is true).
	Invert bool
	// Set applies a checked, normalised value (instead of Field).
	Set func(c *C, value string) error
	// Get returns the value in c as text, "" when it is the zero value
	// (instead of Field).
	Get func(c *C) string
}

// List is the declaration of every option of a configuration type C.
type List[C any] struct {
	// Kind names the kind in error messages.
	Kind    string
	Options []Option[C]
}

// Specs returns the declarations in order.
func (l *List[C]) Specs() []Spec {
	out := make([]Spec, len(l.Options))
	for i, o := range l.Options {
		out[i] = o.Spec
	}
	return out
}

// Lookup returns the declaration of key (or of one of its aliases).
func (l *List[C]) Lookup(key string) (Spec, bool) {
	if o := l.find(key); o != nil {
		return o.Spec, true
	}
	return Spec{}, false
}

func (l *List[C]) find(key string) *Option[C] {
	k := Normalize(key)
	for i := range l.Options {
		o := &l.Options[i]
		if Normalize(o.Key) == k {
			return o
		}
		for _, a := range append(o.Aliases, o.Deprecated...) {
			if Normalize(a) == k {
				return o
			}
		}
	}
	return nil
}

// Keys returns the canonical keys in declaration order.
func (l *List[C]) Keys() []string {
	out := make([]string, len(l.Options))
	for i, o := range l.Options {
		out[i] = o.Key
	}
	return out
}

// Parse returns the configuration the text options describe (fields not
// given stay zero, which means their default).
func (l *List[C]) Parse(opts map[string]string) (C, error) {
	var c C
	err := l.Apply(&c, opts)
	return c, err
}

// Check reports the first option of opts that is unknown or out of range.
func (l *List[C]) Check(opts map[string]string) error {
	_, err := l.Parse(opts)
	return err
}

// Apply sets the options on c in sorted key order (so that a shortcut and
// the options it sets apply in a fixed order). Errors name the kind, the
// key, the value and the allowed range.
func (l *List[C]) Apply(c *C, opts map[string]string) error {
	for _, k := range sortedKeys(opts) {
		o := l.find(k)
		if o == nil {
			return fmt.Errorf("%s: unknown option %q (known: %s)", l.Kind, k, strings.Join(l.Keys(), ", "))
		}
		if err := o.apply(c, opts[k]); err != nil {
			return fmt.Errorf("%s: option %s=%q: %w", l.Kind, k, opts[k], err)
		}
	}
	return nil
}

func (o *Option[C]) apply(c *C, value string) error {
	v, err := o.Check(value)
	if err != nil {
		return err
	}
	if o.Set != nil {
		return o.Set(c, v)
	}
	if w, ok := o.Words[v]; ok && w != "" {
		// A word stands for the zero value (e.g. depth=none: unlimited).
		reflect.ValueOf(o.Field(c)).Elem().SetZero()
		return nil
	}
	return store(o.Field(c), v, o.Invert)
}

// store parses a checked value into the field p points at.
func store(p any, v string, invert bool) error {
	switch f := p.(type) {
	case *int:
		n, err := strconv.Atoi(v)
		*f = n
		return err
	case *int64:
		n, err := strconv.ParseInt(v, 10, 64)
		*f = n
		return err
	case *float64:
		x, err := strconv.ParseFloat(v, 64)
		*f = x
		return err
	case *bool:
		b, err := strconv.ParseBool(v)
		*f = b != invert
		return err
	case *string:
		*f = v
		return nil
	}
	return fmt.Errorf("option: field type %T is not supported", p)
}

// Value returns the option's value in c as text ("" when the field is
// zero, i.e. the default applies; always "" for shortcuts).
func (o *Option[C]) Value(c *C) string {
	switch {
	case o.Shortcut:
		return ""
	case o.Get != nil:
		return o.Get(c)
	}
	switch f := o.Field(c).(type) {
	case *int:
		if *f != 0 {
			return strconv.Itoa(*f)
		}
	case *int64:
		if *f != 0 {
			return strconv.FormatInt(*f, 10)
		}
	case *float64:
		if *f != 0 {
			return strconv.FormatFloat(*f, 'g', -1, 64)
		}
	case *bool:
		if *f {
			return strconv.FormatBool(!o.Invert)
		}
	case *string:
		return *f
	}
	return ""
}

// Format returns c as text options: every non-zero field under its key
// (zero fields are left out, so the kind applies its defaults). Parse of
// the result gives c back.
func (l *List[C]) Format(c C) map[string]string {
	out := map[string]string{}
	for i := range l.Options {
		if v := l.Options[i].Value(&c); v != "" {
			out[l.Options[i].Key] = v
		}
	}
	return out
}

// Defaults returns c with every zero field set to its declared default for
// task ("binary", "multiclass", "regression"; "" fills only the defaults
// that do not depend on the task).
func (l *List[C]) Defaults(c C, task string) C {
	for i := range l.Options {
		o := &l.Options[i]
		if o.Shortcut || o.Field == nil || o.Invert {
			continue
		}
		if task == "" && len(o.TaskDefaults) > 0 {
			continue
		}
		d := o.DefaultFor(task)
		if d == "" || o.Words[d] != "" {
			continue
		}
		p := o.Field(&c)
		if !reflect.ValueOf(p).Elem().IsZero() {
			continue
		}
		if err := store(p, d, false); err != nil {
			panic(fmt.Sprintf("option: %s: default %q of %s: %v", l.Kind, d, o.Key, err)) // a declaration error (tested)
		}
	}
	return c
}

// WithDefaults returns a copy of l for another kind whose defaults differ:
// kind names it, defaults maps keys to their new default values. The
// variant's defaults are filled when its learner is created (Defaults with
// task ""), which fills a zero seed field too: apply the kind's seed
// before that. It panics
// on a key l does not declare or a default outside its range (an init-time
// declaration error).
func (l *List[C]) WithDefaults(kind string, defaults map[string]string) *List[C] {
	out := &List[C]{Kind: kind, Options: append([]Option[C](nil), l.Options...)}
	for k, v := range defaults {
		o := out.find(k)
		if o == nil {
			panic(fmt.Sprintf("option: %s: WithDefaults: %s does not declare %q", kind, l.Kind, k))
		}
		if _, err := o.Check(v); err != nil && !(errors.Is(err, ErrZeroIsDefault)) {
			panic(fmt.Sprintf("option: %s: WithDefaults: %s=%q: %v", kind, k, v, err))
		}
		o.Default, o.TaskDefaults = v, nil
	}
	return out
}

// Subset returns a copy of l for another kind that has only the options
// keys (e.g. a kind that uses part of a larger model). It panics on a key
// l does not declare (an init-time declaration error).
func (l *List[C]) Subset(kind string, keys ...string) *List[C] {
	out := &List[C]{Kind: kind}
	for _, k := range keys {
		o := l.find(k)
		if o == nil {
			panic(fmt.Sprintf("option: %s: Subset: %s does not declare %q", kind, l.Kind, k))
		}
		out.Options = append(out.Options, *o)
	}
	return out
}

// CheckConfig checks the fields of a configuration (typically with its
// defaults filled in) against the declared ranges; errors name the key.
func (l *List[C]) CheckConfig(c C) error {
	return l.Check(l.Format(c))
}

// CheckFields checks every option's value in c against its range, zero
// values included (for configurations whose zero values are values, not
// defaults); empty text values are skipped.
func (l *List[C]) CheckFields(c C) error {
	opts := map[string]string{}
	for i := range l.Options {
		o := &l.Options[i]
		v := o.Value(&c)
		if v == "" && o.Field != nil {
			v = zeroText(o.Field(&c), o.Invert)
		}
		if v != "" {
			opts[o.Key] = v
		}
	}
	for _, k := range sortedKeys(opts) {
		o := l.find(k)
		if _, err := o.Check(opts[k]); err != nil {
			return fmt.Errorf("%s: option %s=%q: %w", l.Kind, k, opts[k], err)
		}
	}
	return nil
}

// zeroText is the text of a zero field ("" for strings).
func zeroText(p any, invert bool) string {
	switch p.(type) {
	case *int, *int64, *float64:
		return "0"
	case *bool:
		return strconv.FormatBool(invert)
	}
	return ""
}

// CheckDeclaration checks the declaration itself: unique keys and aliases,
// a meaning for every option, every default inside its range, a binding
// for every option. Kinds call it from a test.
func (l *List[C]) CheckDeclaration() error {
	seen := map[string]string{}
	for i := range l.Options {
		o := &l.Options[i]
		for _, k := range append(append([]string{o.Key}, o.Aliases...), o.Deprecated...) {
			n := Normalize(k)
			if prev, dup := seen[n]; dup {
				return fmt.Errorf("%s: key %q of %s is also %s's", l.Kind, k, o.Key, prev)
			}
			seen[n] = o.Key
		}
		if o.Meaning == "" {
			return fmt.Errorf("%s: option %s has no meaning", l.Kind, o.Key)
		}
		if o.Field == nil && o.Set == nil {
			return fmt.Errorf("%s: option %s sets nothing", l.Kind, o.Key)
		}
		if o.Field == nil && o.Get == nil && !o.Shortcut {
			return fmt.Errorf("%s: option %s has Set without Get", l.Kind, o.Key)
		}
		if o.Type == Choice && len(o.Choices) == 0 {
			return fmt.Errorf("%s: choice option %s has no choices", l.Kind, o.Key)
		}
		if (o.Type == Int || o.Type == Float) && !(o.Min <= o.Max) {
			return fmt.Errorf("%s: option %s has no range", l.Kind, o.Key)
		}
		if o.Shortcut && (o.Default != "" || len(o.TaskDefaults) > 0) {
			return fmt.Errorf("%s: shortcut %s has a default", l.Kind, o.Key)
		}
		for _, d := range append([]string{o.Default}, mapValues(o.TaskDefaults)...) {
			if d == "" {
				continue
			}
			if _, err := o.Check(d); err != nil && !errors.Is(err, ErrZeroIsDefault) {
				return fmt.Errorf("%s: option %s: default %q: %w", l.Kind, o.Key, d, err)
			}
		}
		if o.Field != nil {
			var c C
			switch o.Field(&c).(type) {
			case *int, *int64, *float64, *string, *bool:
			default:
				return fmt.Errorf("%s: option %s binds a field of type %T", l.Kind, o.Key, o.Field(&c))
			}
		}
	}
	return nil
}

// Declared is what the rest of the code needs of a kind's declaration
// without knowing its configuration type.
type Declared interface {
	Specs() []Spec
	Lookup(key string) (Spec, bool)
	// Check reports the first unknown or out-of-range option.
	Check(opts map[string]string) error
	// CheckDeclaration and Unbound check the declaration (for tests).
	CheckDeclaration() error
	Unbound(skip ...string) []string
}

var _ Declared = (*List[struct{}])(nil)

func sortedKeys(m map[string]string) []string { return slices.Sorted(maps.Keys(m)) }

func mapValues(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for _, k := range sortedKeys(m) {
		out = append(out, m[k])
	}
	return out
}

// unbounded are the bounds of a numeric option without a limit.
var (
	inf    = math.Inf(1)
	negInf = math.Inf(-1)
)

// Unbound returns the exported fields of C that no option writes: for each
// field, a configuration with only that field set to a non-zero value must
// format differently from the zero configuration. skip names fields that
// are deliberately not options (library-only fields). Kinds call it from a
// test, so that a field added to a configuration without a declared option
// is noticed.
func (l *List[C]) Unbound(skip ...string) []string {
	var zero C
	base := l.Format(zero)
	t := reflect.TypeOf(zero)
	var out []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() || contains(skip, f.Name) {
			continue
		}
		var c C
		if !setNonZero(reflect.ValueOf(&c).Elem().Field(i)) {
			out = append(out, f.Name)
			continue
		}
		if reflect.DeepEqual(l.Format(c), base) {
			out = append(out, f.Name)
		}
	}
	return out
}

// setNonZero gives v some non-zero value; it reports false for a kind it
// does not know.
func setNonZero(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(3)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(3)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(0.25)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.String:
		v.SetString("x")
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 1, 1)
		if !setNonZero(s.Index(0)) {
			return false
		}
		v.Set(s)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() && setNonZero(v.Field(i)) {
				return true
			}
		}
		return false
	default:
		return false
	}
	return true
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
