package model

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Option is one text option (CLI --set key=value) being read by a kind's
// option parser. Its typed getters record the first parse error.
type Option struct {
	Key   string // normalised: lower case, '-' → '_'
	Value string // trimmed
	err   error
}

// Float returns the value as a float64.
func (o *Option) Float() float64 {
	v, err := strconv.ParseFloat(o.Value, 64)
	o.fail(err)
	return v
}

// Int returns the value as an int.
func (o *Option) Int() int {
	v, err := strconv.Atoi(o.Value)
	o.fail(err)
	return v
}

// Int64 returns the value as an int64.
func (o *Option) Int64() int64 {
	v, err := strconv.ParseInt(o.Value, 10, 64)
	o.fail(err)
	return v
}

// NonZeroInt is Int for a field whose zero value stands for "the default":
// an explicit 0 is an error instead of a silent switch to the default.
func (o *Option) NonZeroInt() int {
	v := o.Int()
	o.nonZero(v == 0)
	return v
}

// NonZeroInt64 is Int64 for a field whose zero value stands for "the
// default" (a seed, for example).
func (o *Option) NonZeroInt64() int64 {
	v := o.Int64()
	o.nonZero(v == 0)
	return v
}

// NonZeroFloat is Float for a field whose zero value stands for "the
// default".
func (o *Option) NonZeroFloat() float64 {
	v := o.Float()
	o.nonZero(v == 0)
	return v
}

func (o *Option) nonZero(zero bool) {
	if zero {
		o.fail(ErrZeroIsDefault)
	}
}

// ErrZeroIsDefault is the error of an option given as 0 where a zero field
// means "use the default": training with the default instead of the 0
// asked for would be a silent surprise.
var ErrZeroIsDefault = errors.New("0 is not accepted here (an unset option is 0 and means the default); leave the option out for the default or give another value")

// Bool returns the value as a bool (1, t, true, 0, f, false, …).
func (o *Option) Bool() bool {
	v, err := strconv.ParseBool(o.Value)
	o.fail(err)
	return v
}

// Lower returns the value in lower case.
func (o *Option) Lower() string { return strings.ToLower(o.Value) }

func (o *Option) fail(err error) {
	if err != nil && o.err == nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) {
			err = ne.Err
		}
		o.err = err
	}
}

// errEmptyValue rejects key= with nothing after it: no option takes an
// empty value, and an empty string field would silently mean the default.
var errEmptyValue = errors.New("empty value")

// ErrUnknownOption is returned by a kind's option callback for a key it
// does not know; EachOption turns it into a message listing known keys.
var ErrUnknownOption = errors.New("unknown option")

// EachOption calls set for every option in sorted key order (so options
// that overlap apply in a fixed order). kind prefixes error messages and
// known lists the valid keys for the "unknown option" message.
func EachOption(kind string, opts map[string]string, known []string, set func(o *Option) error) error {
	keys := make([]string, 0, len(opts))
	for k := range opts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		o := &Option{Key: strings.ReplaceAll(strings.ToLower(strings.TrimSpace(k)), "-", "_"), Value: strings.TrimSpace(opts[k])}
		var err error
		if o.Value == "" {
			err = errEmptyValue
		} else {
			err = set(o)
		}
		if errors.Is(err, ErrUnknownOption) {
			return fmt.Errorf("%s: unknown option %q (known: %s)", kind, k, strings.Join(known, ", "))
		}
		if err == nil {
			err = o.err
		}
		if err != nil {
			return fmt.Errorf("%s: option %s=%q: %w", kind, k, opts[k], err)
		}
	}
	return nil
}

// CheckSplits validates the training and validation data of a learner that
// early-stops: both present, shapes consistent, labels matching rows,
// inputs finite. kind prefixes the messages.
func CheckSplits(kind string, train, valid *Data) error {
	if train == nil || train.X == nil || train.X.Rows == 0 {
		return fmt.Errorf("%s: no training rows", kind)
	}
	if valid == nil || valid.X == nil || valid.X.Rows == 0 {
		return fmt.Errorf("%s: a validation split is required for early stopping", kind)
	}
	for _, d := range []struct {
		name string
		d    *Data
	}{{"training", train}, {"validation", valid}} {
		if err := d.d.X.Check(); err != nil {
			return fmt.Errorf("%s: %s rows: %w", kind, d.name, err)
		}
		if len(d.d.Y) != d.d.X.Rows {
			return fmt.Errorf("%s: %s data has %d rows but %d labels", kind, d.name, d.d.X.Rows, len(d.d.Y))
		}
		for i, v := range d.d.X.Data {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return fmt.Errorf("%s: %s row %d, column %d is %v: inputs must be finite (impute missing values)", kind, d.name, i/d.d.X.Cols, i%d.d.X.Cols, v)
			}
		}
	}
	if train.X.Cols != valid.X.Cols {
		return fmt.Errorf("%s: training rows have %d columns, validation rows %d", kind, train.X.Cols, valid.X.Cols)
	}
	if train.X.Cols == 0 {
		return fmt.Errorf("%s: the input has no columns", kind)
	}
	return nil
}
