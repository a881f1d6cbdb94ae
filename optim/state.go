package optim

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// State is a deep copy of an optimiser's state: everything needed to
// continue training bit for bit (the parameters themselves belong to the
// model and are not included). It marshals to JSON as is (float32 values
// round-trip exactly; NaN and Inf moments need the binary form) and to a
// compact binary form with WriteTo / ReadState.
type State struct {
	// Steps is the number of optimiser steps taken.
	Steps int64
	// Groups hold the per-group state, in optimiser order.
	Groups []GroupState
	// Average is the wrapper's averaging state (SWA, EMA), or nil.
	Average *AverageState `json:",omitempty"`
}

// GroupState is the state of one group.
type GroupState struct {
	Name    string
	LRScale float64
	Params  []ParamState
}

// ParamState is the state of one parameter: Adam's first and second moments
// and, for averaging wrappers, the running average.
type ParamState struct {
	Name string
	M, V []float32
	Avg  []float32 `json:",omitempty"`
}

// AverageState is the bookkeeping of an averaging wrapper.
type AverageState struct {
	// Kind is "swa" or "ema".
	Kind string
	// Snapshots is the number of weight snapshots averaged so far (SWA).
	Snapshots int64
}

// State returns a deep copy of the optimiser state.
func (a *Adam) State() *State {
	a.sync()
	st := &State{Steps: a.t, Groups: make([]GroupState, len(a.groups))}
	for i, g := range a.groups {
		gs := GroupState{Name: g.cfg.Name, LRScale: g.scale, Params: make([]ParamState, len(g.slots))}
		for j, s := range g.slots {
			gs.Params[j] = ParamState{Name: s.name, M: append([]float32(nil), s.m...), V: append([]float32(nil), s.v...)}
		}
		st.Groups[i] = gs
	}
	return st
}

// match pairs every slot of a with its ParamState in st (by names), checking
// that both sides hold exactly the same groups, parameters and lengths.
func (a *Adam) match(st *State) ([]*ParamState, []*GroupState, error) {
	if st == nil {
		return nil, nil, errors.New("optim: LoadState: nil state")
	}
	if st.Steps < 0 {
		return nil, nil, fmt.Errorf("optim: LoadState: Steps = %d, want ≥ 0", st.Steps)
	}
	if len(st.Groups) != len(a.groups) {
		return nil, nil, fmt.Errorf("optim: LoadState: state has %d groups, optimiser has %d (%v)", len(st.Groups), len(a.groups), a.Groups())
	}
	ps := make([]*ParamState, len(a.slots))
	gs := make([]*GroupState, len(a.groups))
	k := 0
	for gi, g := range a.groups {
		var sg *GroupState
		for i := range st.Groups {
			if st.Groups[i].Name == g.cfg.Name {
				sg = &st.Groups[i]
				break
			}
		}
		if sg == nil {
			return nil, nil, fmt.Errorf("optim: LoadState: state has no group %q", g.cfg.Name)
		}
		if !(sg.LRScale >= 0) || math.IsInf(sg.LRScale, 0) {
			return nil, nil, fmt.Errorf("optim: LoadState: group %q: LRScale = %v, want a finite value ≥ 0", g.cfg.Name, sg.LRScale)
		}
		if len(sg.Params) != len(g.slots) {
			return nil, nil, fmt.Errorf("optim: LoadState: group %q: state has %d params, optimiser has %d", g.cfg.Name, len(sg.Params), len(g.slots))
		}
		gs[gi] = sg
		for _, s := range g.slots {
			var sp *ParamState
			for i := range sg.Params {
				if sg.Params[i].Name == s.name {
					sp = &sg.Params[i]
					break
				}
			}
			if sp == nil {
				return nil, nil, fmt.Errorf("optim: LoadState: group %q: state has no param %q", g.cfg.Name, s.name)
			}
			if len(sp.M) != len(s.p) || len(sp.V) != len(s.p) {
				return nil, nil, fmt.Errorf("optim: LoadState: group %q param %q: len(M) = %d, len(V) = %d, want %d", g.cfg.Name, s.name, len(sp.M), len(sp.V), len(s.p))
			}
			ps[k] = sp
			k++
		}
	}
	return ps, gs, nil
}

// LoadState restores a state returned by State (of an optimiser with the
// same groups and parameters; order does not matter, names do).
func (a *Adam) LoadState(st *State) error {
	ps, gs, err := a.match(st)
	if err != nil {
		return err
	}
	a.load(st, ps, gs)
	return nil
}

func (a *Adam) load(st *State, ps []*ParamState, gs []*GroupState) {
	a.t = st.Steps
	for i, g := range a.groups {
		g.scale = gs[i].LRScale
	}
	for i, s := range a.slots {
		copy(s.m, ps[i].M)
		copy(s.v, ps[i].V)
		markLive(s)
		if s.lazy != nil {
			s.lazy.reset(s, a.groups[s.group].gt, 1-float32(a.groups[s.group].cfg.Beta1))
		}
	}
}

// Binary form: the magic below, then Steps, the groups (name, scale, params:
// name, M, V, optional Avg) and the optional average state. Integers are
// varints, floats little-endian IEEE bits, slices length-prefixed.
const stateMagic = "gdt-optim-state\x01"

// WriteTo writes the binary form of s to w.
func (s *State) WriteTo(w io.Writer) (int64, error) {
	e := &encoder{w: bufio.NewWriterSize(w, 1<<16)}
	e.bytes([]byte(stateMagic))
	e.varint(s.Steps)
	e.uvarint(uint64(len(s.Groups)))
	for _, g := range s.Groups {
		e.str(g.Name)
		e.f64(g.LRScale)
		e.uvarint(uint64(len(g.Params)))
		for _, p := range g.Params {
			e.str(p.Name)
			e.f32s(p.M)
			e.f32s(p.V)
			if p.Avg != nil {
				e.uvarint(1)
				e.f32s(p.Avg)
			} else {
				e.uvarint(0)
			}
		}
	}
	if s.Average != nil {
		e.uvarint(1)
		e.str(s.Average.Kind)
		e.varint(s.Average.Snapshots)
	} else {
		e.uvarint(0)
	}
	if e.err == nil {
		e.err = e.w.Flush()
	}
	return e.n, e.err
}

// MarshalBinary returns the binary form of s.
func (s *State) MarshalBinary() ([]byte, error) {
	var b bytes.Buffer
	_, err := s.WriteTo(&b)
	return b.Bytes(), err
}

// UnmarshalBinary replaces s with the state in data.
func (s *State) UnmarshalBinary(data []byte) error {
	st, err := ReadState(bytes.NewReader(data))
	if err != nil {
		return err
	}
	*s = *st
	return nil
}

// ReadState reads a state written by WriteTo.
func ReadState(r io.Reader) (*State, error) {
	d := &decoder{r: bufio.NewReaderSize(r, 1<<16)}
	magic := d.bytes(len(stateMagic))
	if d.err == nil && string(magic) != stateMagic {
		return nil, fmt.Errorf("optim: ReadState: not an optimiser state (bad magic at offset 0)")
	}
	st := &State{Steps: d.varint("Steps")}
	ng := d.count("number of groups")
	for range ng {
		if d.err != nil {
			break
		}
		g := GroupState{Name: d.str("group name"), LRScale: d.f64("LRScale")}
		np := d.count("number of params")
		for range np {
			if d.err != nil {
				break
			}
			p := ParamState{Name: d.str("param name")}
			p.M = d.f32s("M of " + p.Name)
			p.V = d.f32s("V of " + p.Name)
			if d.count("average flag") == 1 {
				p.Avg = d.f32s("Avg of " + p.Name)
			}
			g.Params = append(g.Params, p)
		}
		st.Groups = append(st.Groups, g)
	}
	if d.count("average flag") == 1 {
		st.Average = &AverageState{Kind: d.str("average kind"), Snapshots: d.varint("snapshots")}
	}
	if d.err != nil {
		return nil, d.err
	}
	return st, nil
}

type encoder struct {
	w   *bufio.Writer
	n   int64
	err error
	buf [binary.MaxVarintLen64]byte
}

func (e *encoder) bytes(b []byte) {
	if e.err != nil {
		return
	}
	n, err := e.w.Write(b)
	e.n += int64(n)
	e.err = err
}

func (e *encoder) uvarint(x uint64) { e.bytes(e.buf[:binary.PutUvarint(e.buf[:], x)]) }
func (e *encoder) varint(x int64)   { e.bytes(e.buf[:binary.PutVarint(e.buf[:], x)]) }
func (e *encoder) str(s string)     { e.uvarint(uint64(len(s))); e.bytes([]byte(s)) }
func (e *encoder) f64(x float64) {
	binary.LittleEndian.PutUint64(e.buf[:8], math.Float64bits(x))
	e.bytes(e.buf[:8])
}

func (e *encoder) f32s(x []float32) {
	e.uvarint(uint64(len(x)))
	var b [4096]byte
	for len(x) > 0 {
		k := min(len(x), len(b)/4)
		for i, v := range x[:k] {
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
		}
		e.bytes(b[:4*k])
		x = x[k:]
	}
}

type decoder struct {
	r   *bufio.Reader
	off int64
	err error
}

func (d *decoder) fail(what string, err error) {
	if d.err == nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		d.err = fmt.Errorf("optim: ReadState: %s at byte offset %d: %w", what, d.off, err)
	}
}

func (d *decoder) bytes(n int) []byte {
	if d.err != nil {
		return nil
	}
	b := make([]byte, n)
	k, err := io.ReadFull(d.r, b)
	d.off += int64(k)
	if err != nil {
		d.fail("reading", err)
		return nil
	}
	return b
}

type countingByteReader struct{ d *decoder }

func (c countingByteReader) ReadByte() (byte, error) {
	b, err := c.d.r.ReadByte()
	if err == nil {
		c.d.off++
	}
	return b, err
}

func (d *decoder) uvarint(what string) uint64 {
	if d.err != nil {
		return 0
	}
	x, err := binary.ReadUvarint(countingByteReader{d})
	if err != nil {
		d.fail(what, err)
	}
	return x
}

func (d *decoder) varint(what string) int64 {
	if d.err != nil {
		return 0
	}
	x, err := binary.ReadVarint(countingByteReader{d})
	if err != nil {
		d.fail(what, err)
	}
	return x
}

// maxCount bounds lengths read from a file (no state holds 2^40 entries).
const maxCount = 1 << 40

func (d *decoder) count(what string) int {
	x := d.uvarint(what)
	if d.err == nil && x > maxCount {
		d.fail(what, fmt.Errorf("implausible length %d", x))
		return 0
	}
	return int(x)
}

func (d *decoder) str(what string) string {
	n := d.count(what + " length")
	if n > 1<<20 {
		d.fail(what, fmt.Errorf("implausible string length %d", n))
		return ""
	}
	return string(d.bytes(n))
}

func (d *decoder) f64(what string) float64 {
	b := d.bytes(8)
	if b == nil {
		d.fail(what, io.ErrUnexpectedEOF)
		return 0
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(b))
}

func (d *decoder) f32s(what string) []float32 {
	n := d.count(what + " length")
	if d.err != nil {
		return nil
	}
	out := make([]float32, 0, min(n, 1<<20))
	var b [4096]byte
	for n > 0 {
		k := min(n, len(b)/4)
		got, err := io.ReadFull(d.r, b[:4*k])
		d.off += int64(got)
		if err != nil {
			d.fail(what, err)
			return nil
		}
		for i := range k {
			out = append(out, math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])))
		}
		n -= k
	}
	return out
}
