package ensemble

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
)

// Float32s is a float32 slice that encodes in JSON as one base64 string of
// its little-endian IEEE-754 bytes: exact (every bit survives, also NaN
// payloads and −0), 5.3 characters per value instead of the ~12 of decimal
// text, and fast to read. Decoding also accepts a JSON array of numbers
// (hand-written files) and null.
type Float32s []float32

// MarshalJSON encodes the slice as a base64 string.
func (f Float32s) MarshalJSON() ([]byte, error) {
	raw := make([]byte, 4*len(f))
	for i, v := range f {
		binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(v))
	}
	return quoteBase64(raw), nil
}

// UnmarshalJSON decodes a base64 string (as written by MarshalJSON), a JSON
// array of numbers, or null.
func (f *Float32s) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		*f = nil
		return nil
	case len(b) > 0 && b[0] == '[':
		var a []float32
		if err := json.Unmarshal(b, &a); err != nil {
			return fmt.Errorf("float32 array: %w", err)
		}
		*f = a
		return nil
	}
	raw, err := unquoteBase64(b, "float32")
	if err != nil {
		return err
	}
	out := make([]float32, len(raw)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
	}
	*f = out
	return nil
}

// Int32s is an int32 slice with the same compact JSON encoding as Float32s
// (base64 of little-endian two's-complement bytes; arrays and null are
// accepted when decoding).
type Int32s []int32

// MarshalJSON encodes the slice as a base64 string.
func (s Int32s) MarshalJSON() ([]byte, error) {
	raw := make([]byte, 4*len(s))
	for i, v := range s {
		binary.LittleEndian.PutUint32(raw[4*i:], uint32(v))
	}
	return quoteBase64(raw), nil
}

// UnmarshalJSON decodes a base64 string, a JSON array of integers, or null.
func (s *Int32s) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		*s = nil
		return nil
	case len(b) > 0 && b[0] == '[':
		var a []int32
		if err := json.Unmarshal(b, &a); err != nil {
			return fmt.Errorf("int32 array: %w", err)
		}
		*s = a
		return nil
	}
	raw, err := unquoteBase64(b, "int32")
	if err != nil {
		return err
	}
	out := make([]int32, len(raw)/4)
	for i := range out {
		out[i] = int32(binary.LittleEndian.Uint32(raw[4*i:]))
	}
	*s = out
	return nil
}

func quoteBase64(raw []byte) []byte {
	out := make([]byte, base64.StdEncoding.EncodedLen(len(raw))+2)
	out[0] = '"'
	base64.StdEncoding.Encode(out[1:], raw)
	out[len(out)-1] = '"'
	return out
}

func unquoteBase64(b []byte, what string) ([]byte, error) {
	if len(b) < 2 || b[0] != '"' || b[len(b)-1] != '"' {
		return nil, fmt.Errorf("%s data: expected a base64 string, an array or null, got %.20q", what, b)
	}
	raw, err := base64.StdEncoding.DecodeString(string(b[1 : len(b)-1]))
	if err != nil {
		return nil, fmt.Errorf("%s data: invalid base64: %w", what, err)
	}
	if len(raw)%4 != 0 {
		return nil, fmt.Errorf("%s data: %d bytes: expected a multiple of 4", what, len(raw))
	}
	return raw, nil
}
