package corrupt

import (
	"errors"
	"fmt"
)

// MutateGob returns damaged copies of the gob stream b (an rl checkpoint),
// aware of gob's framing: the stream is a sequence of messages, each a
// byte count and then a type definition (negative type id) or a value. A
// damaged value message has its byte count mended, so the damage reaches
// the decoder instead of ending at the framing:
//   - around every string of the value messages (a field or tensor name:
//     a length byte and at least three printable bytes; at most 32 of them,
//     spread over the stream) the length is set to 2³¹ and 2⁴⁰ and the byte
//     before it (an entry count or a field number) to 2³⁰ and 2⁴⁰;
//   - at 24 places spread over the value messages a byte is set to 0x00,
//     0xff and 0x7f, a huge count (2⁴⁰) is inserted, and 8 bytes are deleted
//     and duplicated;
//   - every type definition has a byte in its middle set to 0xff;
//
// then, unmended, 8 truncations and 24 bit flips drawn with seed. The
// order is deterministic.
func MutateGob(b []byte, seed uint64) ([]Mutation, error) {
	msgs, err := gobMessages(b)
	if err != nil {
		return nil, err
	}
	var out []Mutation
	// edit replaces payload[at:at+n] of message k with repl and mends the
	// message's byte count.
	edit := func(what string, k, at, n int, repl []byte) {
		out = append(out, Mutation{what, func() []byte {
			var nb []byte
			for j, m := range msgs {
				if j == k {
					m = append(append(append([]byte(nil), m[:at]...), repl...), m[at+n:]...)
				}
				nb = append(GobUint(nb, uint64(len(m))), m...)
			}
			return nb
		}})
	}
	type place struct{ msg, at int }
	var values, strs []place
	for k, m := range msgs {
		if isTypeDef(m) {
			if len(m) > 2 {
				edit(fmt.Sprintf("type definition %d: byte %d set to 0xff", k, len(m)/2), k, len(m)/2, 1, []byte{0xff})
			}
			continue
		}
		for i := 1; i < len(m); i++ {
			values = append(values, place{k, i})
			if l := int(m[i]); l >= 3 && l < 128 && i+1+l <= len(m) && printable(m[i+1:i+1+l]) {
				strs = append(strs, place{k, i})
			}
		}
	}
	if len(values) == 0 {
		return nil, errors.New("corrupt: the gob stream holds no value")
	}
	for _, p := range spread(strs, 32) {
		m := msgs[p.msg]
		name := string(m[p.at+1 : p.at+1+int(m[p.at])])
		edit(fmt.Sprintf("length of the string %q set to 2^31", name), p.msg, p.at, 1, GobUint(nil, 1<<31))
		edit(fmt.Sprintf("length of the string %q set to 2^40", name), p.msg, p.at, 1, GobUint(nil, 1<<40))
		edit(fmt.Sprintf("count before the string %q set to 2^30", name), p.msg, p.at-1, 1, GobUint(nil, 1<<30))
		edit(fmt.Sprintf("count before the string %q set to 2^40", name), p.msg, p.at-1, 1, GobUint(nil, 1<<40))
	}
	for _, p := range spread(values, 24) {
		where := fmt.Sprintf("message %d, byte %d", p.msg, p.at)
		for _, v := range []byte{0x00, 0xff, 0x7f} {
			if msgs[p.msg][p.at] != v {
				edit(fmt.Sprintf("%s set to 0x%02x", where, v), p.msg, p.at, 1, []byte{v})
			}
		}
		edit(where+": a count of 2^40 inserted", p.msg, p.at, 0, GobUint(nil, 1<<40))
		n := min(8, len(msgs[p.msg])-p.at)
		edit(fmt.Sprintf("%s: %d bytes deleted", where, n), p.msg, p.at, n, nil)
		edit(fmt.Sprintf("%s: %d bytes duplicated", where, n), p.msg, p.at, 0, msgs[p.msg][p.at:p.at+n])
	}
	return append(out, byteDamage(b, seed, 11)...), nil
}

// spread returns at most n of ps, evenly spaced.
func spread[T any](ps []T, n int) []T {
	if len(ps) <= n {
		return ps
	}
	out := make([]T, n)
	for i := range out {
		out[i] = ps[i*len(ps)/n]
	}
	return out
}

func printable(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c > 0x7e {
			return false
		}
	}
	return true
}

// gobMessages splits a gob stream into its messages' payloads.
func gobMessages(b []byte) ([][]byte, error) {
	var msgs [][]byte
	for i := 0; i < len(b); {
		n, next, err := readGobUint(b, i)
		if err != nil {
			return nil, fmt.Errorf("corrupt: not a gob stream: byte %d: %v", i, err)
		}
		if n == 0 || n > uint64(len(b)-next) {
			return nil, fmt.Errorf("corrupt: not a gob stream: message at byte %d of %d bytes", i, n)
		}
		msgs = append(msgs, b[next:next+int(n)])
		i = next + int(n)
	}
	if len(msgs) == 0 {
		return nil, errors.New("corrupt: empty gob stream")
	}
	return msgs, nil
}

// isTypeDef reports whether a message defines a type: its type id (a gob
// signed integer, sign in the low bit) is negative.
func isTypeDef(m []byte) bool {
	id, _, err := readGobUint(m, 0)
	return err == nil && id&1 == 1
}

// readGobUint reads a gob unsigned integer at b[i:]: one byte below 128,
// else the negated byte count and the big-endian bytes.
func readGobUint(b []byte, i int) (uint64, int, error) {
	if i >= len(b) {
		return 0, i, errors.New("unexpected end")
	}
	if b[i] < 128 {
		return uint64(b[i]), i + 1, nil
	}
	n := int(-int8(b[i]))
	if n > 8 || i+1+n > len(b) {
		return 0, i, errors.New("bad unsigned integer")
	}
	var x uint64
	for _, c := range b[i+1 : i+1+n] {
		x = x<<8 | uint64(c)
	}
	return x, i + 1 + n, nil
}

// GobUint appends gob's encoding of x.
func GobUint(b []byte, x uint64) []byte {
	if x < 128 {
		return append(b, byte(x))
	}
	var be []byte
	for ; x > 0; x >>= 8 {
		be = append([]byte{byte(x)}, be...)
	}
	return append(append(b, byte(-len(be))), be...)
}
