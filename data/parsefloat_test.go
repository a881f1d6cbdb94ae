package data

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// checkDecimal fails when parseDecimal accepts s with another value than
// strconv.ParseFloat gives, or accepts what strconv rejects.
func checkDecimal(t *testing.T, s string) {
	t.Helper()
	got, ok := parseDecimal(s)
	if !ok {
		return
	}
	want, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("parseDecimal(%q) = %v, strconv rejects it: %v", s, got, err)
	}
	if math.Float64bits(got) != math.Float64bits(want) {
		t.Fatalf("parseDecimal(%q) = %v (%#x), strconv %v (%#x)", s, got, math.Float64bits(got), want, math.Float64bits(want))
	}
}

func TestParseDecimal(t *testing.T) {
	for _, c := range []struct {
		s  string
		ok bool
	}{
		{"0", true}, {"-0", true}, {"+0.0", true}, {"25", true}, {"226802", true}, {"-3.25", true},
		{".5", true}, {"5.", true}, {"0.000001", true}, {"9007199254740992", true}, {"0.1", true},
		{"9007199254740993", false}, {"1e5", false}, {"inf", false}, {"NaN", false}, {"", false},
		{".", false}, {"-", false}, {"1.2.3", false}, {"1,5", false}, {" 1", false}, {"0x10", false},
		{"1_000", false}, {"0.00000000000000000000001", false},
	} {
		v, ok := parseDecimal(c.s)
		if ok != c.ok {
			t.Errorf("parseDecimal(%q) = %v, %v; want ok %v", c.s, v, ok, c.ok)
		}
		checkDecimal(t, c.s)
	}
	if v, _ := parseDecimal("-0"); !math.Signbit(v) {
		t.Error(`parseDecimal("-0") is not −0`)
	}
	rs := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		var b strings.Builder
		if rs.IntN(3) == 0 {
			b.WriteByte("+-"[rs.IntN(2)])
		}
		for range rs.IntN(12) {
			b.WriteByte(byte('0' + rs.IntN(10)))
		}
		if rs.IntN(2) == 0 {
			b.WriteByte('.')
			for range rs.IntN(23) {
				b.WriteByte(byte('0' + rs.IntN(10)))
			}
		}
		checkDecimal(t, b.String())
	}
}

func FuzzParseDecimal(f *testing.F) {
	for _, s := range []string{"0", "-3.25", ".5", "9007199254740992", "0.1", "1e5", "1.2.3"} {
		f.Add(s)
	}
	f.Fuzz(checkDecimal)
}
