package model

import (
	"fmt"
	"math"
)

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
