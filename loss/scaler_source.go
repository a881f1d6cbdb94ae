package loss

import "strconv"

// InverseSource returns Go source of Inverse applied to the float64
// expression y (generated code, package interpret): "math.Exp(y) - 1e-07"
// for Log, "y*Scale + Shift" with exact literals otherwise.
func (s Standardizer) InverseSource(y string) string {
	lit := func(v float64) string { return "float64(" + strconv.FormatFloat(v, 'g', -1, 64) + ")" }
	if s.Mode == Log {
		return "math.Exp(" + y + ") - " + lit(logShift)
	}
	return "(" + y + ")*" + lit(s.Scale) + " + " + lit(s.Shift)
}
