// Package corrupt makes damaged copies of JSON files (model files) and gob
// streams (rl checkpoints) for the tests that check gdt survives them:
// every field set to hostile values, arrays and strings resized, compact
// base64 arrays poisoned (Mutate); counts and lengths made huge, bytes
// overwritten, deleted and duplicated inside gob's framing (MutateGob);
// truncations and bit flips.
package corrupt

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
)

// Mutation is one damaged copy of a file and what was done to it; Bytes
// builds the copy (mutations are listed cheaply and built on demand).
type Mutation struct {
	What  string
	build func() []byte
}

// Bytes returns the damaged copy.
func (m Mutation) Bytes() []byte { return m.build() }

// Mutate returns damaged copies of the JSON document b, field by field:
// every number set to −1, 0, huge (±1e9, 2³¹, 1e300) and fractional (0.5)
// values, every boolean flipped, every array emptied, shortened and
// lengthened, every string emptied and bloated (16 KiB), every compact
// base64 float32 array given a NaN, +Inf, huge, −1 (all bits set) and 1e9
// (as bits) element and shortened and lengthened, every object field
// deleted (except "format" and "version"); then 8 truncations and 24 bit
// flips drawn with seed. Arrays longer than three are visited at their
// first, middle and last element only. The order is deterministic.
func Mutate(b []byte, seed uint64) ([]Mutation, error) {
	var doc any
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, err
	}
	var out []Mutation
	add := func(what string, path []any, v any, del bool) error {
		out = append(out, Mutation{fmt.Sprintf("%s: %s", pathString(path), what), func() []byte {
			var d any
			if err := json.Unmarshal(b, &d); err != nil {
				panic(err) // b was parsed above
			}
			nb, err := json.Marshal(set(d, path, v, del))
			if err != nil {
				panic(err) // only JSON values are set
			}
			return nb
		}})
		return nil
	}
	var walk func(v any, path []any) error
	walk = func(v any, path []any) error {
		p := append([]any(nil), path...)
		var err error
		do := func(what string, path []any, v any, del bool) {
			if err == nil {
				err = add(what, path, v, del)
			}
		}
		switch v := v.(type) {
		case float64:
			for _, n := range []float64{-1, 0, 1e9, -1e9, 0.5, 2147483648, 1e300} {
				if n != v {
					do(fmt.Sprintf("number %v → %v", v, n), p, n, false)
				}
			}
		case bool:
			do("flipped", p, !v, false)
		case string:
			do("emptied", p, "", false)
			do("bloated", p, strings.Repeat("x", 1<<14), false)
			if raw, e := base64.StdEncoding.DecodeString(v); e == nil && len(v) >= 8 && len(raw)%4 == 0 {
				for _, w := range []struct {
					what string
					bits uint32
				}{{"NaN", 0x7fc00000}, {"+Inf", 0x7f800000}, {"huge", 0x7f7fffff}, {"-1", 0xffffffff}, {"1e9", 1000000000}} {
					for _, at := range []int{0, len(raw)/8*4 - 4 + 4*(len(raw)/4%2), len(raw) - 4} {
						if at < 0 || at+4 > len(raw) {
							continue
						}
						r := append([]byte(nil), raw...)
						binary.LittleEndian.PutUint32(r[at:], w.bits)
						do(fmt.Sprintf("element %d set to %s", at/4, w.what), p, base64.StdEncoding.EncodeToString(r), false)
					}
				}
				do("compact array shortened", p, base64.StdEncoding.EncodeToString(raw[:len(raw)-4]), false)
				do("compact array lengthened", p, base64.StdEncoding.EncodeToString(append(append([]byte(nil), raw...), raw[:4]...)), false)
			}
		case []any:
			do("array emptied", p, []any{}, false)
			if len(v) > 0 {
				do("array shortened", p, v[:len(v)-1], false)
				do("array lengthened", p, append(append([]any(nil), v...), v[len(v)-1]), false)
			}
			idx := []int{}
			if len(v) <= 3 {
				for i := range v {
					idx = append(idx, i)
				}
			} else {
				idx = []int{0, len(v) / 2, len(v) - 1}
			}
			for _, i := range idx {
				if err == nil {
					err = walk(v[i], append(p, i))
				}
			}
		case map[string]any:
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				if k == "format" || k == "version" {
					continue
				}
				do("field deleted", append(p, k), nil, true)
				if err == nil {
					err = walk(v[k], append(p, k))
				}
			}
		}
		return err
	}
	if err := walk(doc, nil); err != nil {
		return nil, err
	}
	return append(out, byteDamage(b, seed, 7)...), nil
}

// byteDamage returns the format-blind damage of b: eight truncations and
// 24 single-bit flips at places drawn from (seed, stream).
func byteDamage(b []byte, seed, stream uint64) []Mutation {
	var out []Mutation
	r := rand.New(rand.NewPCG(seed, stream))
	for i := 1; i <= 8; i++ {
		n := len(b) * i / 9
		out = append(out, Mutation{fmt.Sprintf("truncated at byte %d", n), func() []byte { return b[:n] }})
	}
	for i := 0; i < 24; i++ {
		nb := append([]byte(nil), b...)
		at := r.IntN(len(nb))
		nb[at] ^= 1 << r.IntN(8)
		out = append(out, Mutation{fmt.Sprintf("bit flip at byte %d", at), func() []byte { return nb }})
	}
	return out
}

// set returns d with the value at path replaced by v (or deleted).
func set(d any, path []any, v any, del bool) any {
	if len(path) == 0 {
		return v
	}
	switch k := path[0].(type) {
	case string:
		m := d.(map[string]any)
		if len(path) == 1 && del {
			delete(m, k)
			return m
		}
		m[k] = set(m[k], path[1:], v, del)
		return m
	default:
		a := d.([]any)
		a[k.(int)] = set(a[k.(int)], path[1:], v, del)
		return a
	}
}

func pathString(path []any) string {
	var s []string
	for _, p := range path {
		s = append(s, fmt.Sprint(p))
	}
	return strings.Join(s, ".")
}
