package onnx

import (
	"encoding/binary"
	"fmt"
	"math"

	"google.golang.org/protobuf/encoding/protowire"
)

// A protobuf decoder for the messages this package writes, so that the
// tests evaluate what was actually encoded.

type field struct {
	num protowire.Number
	typ protowire.Type
	v   uint64 // varint / fixed
	b   []byte // bytes
}

func fields(b []byte) ([]field, error) {
	var out []field
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return nil, protowire.ParseError(n)
		}
		b = b[n:]
		f := field{num: num, typ: typ}
		switch typ {
		case protowire.VarintType:
			f.v, n = protowire.ConsumeVarint(b)
		case protowire.Fixed32Type:
			var v uint32
			v, n = protowire.ConsumeFixed32(b)
			f.v = uint64(v)
		case protowire.Fixed64Type:
			f.v, n = protowire.ConsumeFixed64(b)
		case protowire.BytesType:
			f.b, n = protowire.ConsumeBytes(b)
		default:
			return nil, fmt.Errorf("unexpected wire type %d", typ)
		}
		if n < 0 {
			return nil, protowire.ParseError(n)
		}
		b = b[n:]
		out = append(out, f)
	}
	return out, nil
}

// varints reads a repeated int64 field, packed or not.
func varints(f field) ([]int64, error) {
	if f.typ == protowire.VarintType {
		return []int64{int64(f.v)}, nil
	}
	var out []int64
	b := f.b
	for len(b) > 0 {
		v, n := protowire.ConsumeVarint(b)
		if n < 0 {
			return nil, protowire.ParseError(n)
		}
		out = append(out, int64(v))
		b = b[n:]
	}
	return out, nil
}

func decodeModel(b []byte) (*Model, error) {
	fs, err := fields(b)
	if err != nil {
		return nil, err
	}
	m := &Model{}
	for _, f := range fs {
		switch f.num {
		case 1:
			m.IRVersion = int64(f.v)
		case 2:
			m.ProducerName = string(f.b)
		case 7:
			if m.Graph, err = decodeGraph(f.b); err != nil {
				return nil, err
			}
		case 8:
			sub, err := fields(f.b)
			if err != nil {
				return nil, err
			}
			var o Opset
			for _, g := range sub {
				if g.num == 1 {
					o.Domain = string(g.b)
				} else if g.num == 2 {
					o.Version = int64(g.v)
				}
			}
			m.Opsets = append(m.Opsets, o)
		case 14:
			sub, err := fields(f.b)
			if err != nil {
				return nil, err
			}
			var kv KeyValue
			for _, g := range sub {
				if g.num == 1 {
					kv.Key = string(g.b)
				} else if g.num == 2 {
					kv.Value = string(g.b)
				}
			}
			m.Metadata = append(m.Metadata, kv)
		}
	}
	return m, nil
}

func decodeGraph(b []byte) (Graph, error) {
	var g Graph
	fs, err := fields(b)
	if err != nil {
		return g, err
	}
	for _, f := range fs {
		switch f.num {
		case 1:
			n, err := decodeNode(f.b)
			if err != nil {
				return g, err
			}
			g.Nodes = append(g.Nodes, n)
		case 2:
			g.Name = string(f.b)
		case 5:
			t, err := decodeTensor(f.b)
			if err != nil {
				return g, err
			}
			g.Initializers = append(g.Initializers, t)
		case 11, 12:
			v, err := decodeValueInfo(f.b)
			if err != nil {
				return g, err
			}
			if f.num == 11 {
				g.Inputs = append(g.Inputs, v)
			} else {
				g.Outputs = append(g.Outputs, v)
			}
		}
	}
	return g, nil
}

func decodeNode(b []byte) (Node, error) {
	var n Node
	fs, err := fields(b)
	if err != nil {
		return n, err
	}
	for _, f := range fs {
		switch f.num {
		case 1:
			n.Inputs = append(n.Inputs, string(f.b))
		case 2:
			n.Outputs = append(n.Outputs, string(f.b))
		case 3:
			n.Name = string(f.b)
		case 4:
			n.OpType = string(f.b)
		case 5:
			a, err := decodeAttr(f.b)
			if err != nil {
				return n, err
			}
			n.Attrs = append(n.Attrs, a)
		case 7:
			n.Domain = string(f.b)
		}
	}
	return n, nil
}

func decodeAttr(b []byte) (Attr, error) {
	var a Attr
	fs, err := fields(b)
	if err != nil {
		return a, err
	}
	for _, f := range fs {
		switch f.num {
		case 1:
			a.Name = string(f.b)
		case 2:
			a.F = math.Float32frombits(uint32(f.v))
		case 3:
			a.I = int64(f.v)
		case 4:
			a.S = f.b
		case 5:
			t, err := decodeTensor(f.b)
			if err != nil {
				return a, err
			}
			a.T = &t
		case 7:
			if f.typ == protowire.Fixed32Type {
				a.Floats = append(a.Floats, math.Float32frombits(uint32(f.v)))
				continue
			}
			for i := 0; i+4 <= len(f.b); i += 4 {
				a.Floats = append(a.Floats, math.Float32frombits(binary.LittleEndian.Uint32(f.b[i:])))
			}
		case 8:
			v, err := varints(f)
			if err != nil {
				return a, err
			}
			a.Ints = append(a.Ints, v...)
		case 9:
			a.Strings = append(a.Strings, f.b)
		case 20:
			a.Type = int32(f.v)
		}
	}
	return a, nil
}

func decodeTensor(b []byte) (Tensor, error) {
	var t Tensor
	fs, err := fields(b)
	if err != nil {
		return t, err
	}
	for _, f := range fs {
		switch f.num {
		case 1:
			v, err := varints(f)
			if err != nil {
				return t, err
			}
			t.Dims = append(t.Dims, v...)
		case 2:
			t.DataType = int32(f.v)
		case 6:
			t.Strings = append(t.Strings, f.b)
		case 8:
			t.Name = string(f.b)
		case 9:
			t.Raw = f.b
		}
	}
	return t, nil
}

func decodeValueInfo(b []byte) (ValueInfo, error) {
	var v ValueInfo
	fs, err := fields(b)
	if err != nil {
		return v, err
	}
	for _, f := range fs {
		switch f.num {
		case 1:
			v.Name = string(f.b)
		case 2: // TypeProto
			tp, err := fields(f.b)
			if err != nil {
				return v, err
			}
			for _, g := range tp {
				if g.num != 1 {
					continue
				}
				tt, err := fields(g.b)
				if err != nil {
					return v, err
				}
				for _, h := range tt {
					switch h.num {
					case 1:
						v.ElemType = int32(h.v)
					case 2:
						dims, err := fields(h.b)
						if err != nil {
							return v, err
						}
						for _, d := range dims {
							dd, err := fields(d.b)
							if err != nil {
								return v, err
							}
							var dim Dim
							for _, x := range dd {
								if x.num == 1 {
									dim.Value = int64(x.v)
								} else if x.num == 2 {
									dim.Param = string(x.b)
								}
							}
							v.Shape = append(v.Shape, dim)
						}
					}
				}
			}
		}
	}
	return v, nil
}
