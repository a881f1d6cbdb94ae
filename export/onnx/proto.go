package onnx

import (
	"encoding/binary"
	"math"

	"google.golang.org/protobuf/encoding/protowire"
)

// The subset of onnx.proto (ONNX IR version 8) this package writes. Field
// numbers are onnx.proto's.

// Tensor element types (TensorProto.DataType).
const (
	TypeFloat  int32 = 1
	TypeInt64  int32 = 7
	TypeString int32 = 8
	TypeDouble int32 = 11
)

// Attribute types (AttributeProto.AttributeType).
const (
	AttrFloat   int32 = 1
	AttrInt     int32 = 2
	AttrString  int32 = 3
	AttrTensor  int32 = 4
	AttrFloats  int32 = 6
	AttrInts    int32 = 7
	AttrStrings int32 = 8
)

// Model is an ONNX ModelProto.
type Model struct {
	IRVersion       int64
	Opsets          []Opset
	ProducerName    string
	ProducerVersion string
	Domain          string
	ModelVersion    int64
	Doc             string
	Graph           Graph
	Metadata        []KeyValue
}

// Opset is an OperatorSetIdProto: the version of an operator domain ("" is
// the default domain ai.onnx).
type Opset struct {
	Domain  string
	Version int64
}

// KeyValue is a StringStringEntryProto (model metadata).
type KeyValue struct{ Key, Value string }

// Graph is a GraphProto.
type Graph struct {
	Name         string
	Nodes        []Node
	Initializers []Tensor
	Doc          string
	Inputs       []ValueInfo
	Outputs      []ValueInfo
}

// Node is a NodeProto: one operator call.
type Node struct {
	Inputs  []string
	Outputs []string
	Name    string
	OpType  string
	Attrs   []Attr
	Doc     string
	Domain  string
}

// Attr is an AttributeProto; Type says which value field is used.
type Attr struct {
	Name    string
	Type    int32
	F       float32
	I       int64
	S       []byte
	T       *Tensor
	Floats  []float32
	Ints    []int64
	Strings [][]byte
}

// Tensor is a TensorProto. Numeric data is kept little-endian in Raw;
// strings in Strings.
type Tensor struct {
	Dims     []int64
	DataType int32
	Strings  [][]byte
	Name     string
	Raw      []byte
}

// ValueInfo is a ValueInfoProto of a tensor type; a Dim with Param set is
// symbolic (e.g. "N").
type ValueInfo struct {
	Name     string
	ElemType int32
	Shape    []Dim
}

// Dim is one dimension of a tensor shape.
type Dim struct {
	Value int64
	Param string
}

// Marshal encodes the model in the protobuf wire format.
func (m *Model) Marshal() []byte {
	var b []byte
	b = appendInt(b, 1, m.IRVersion)
	b = appendString(b, 2, m.ProducerName)
	b = appendString(b, 3, m.ProducerVersion)
	b = appendString(b, 4, m.Domain)
	b = appendInt(b, 5, m.ModelVersion)
	b = appendString(b, 6, m.Doc)
	b = appendMessage(b, 7, m.Graph.marshal())
	for _, o := range m.Opsets {
		var ob []byte
		ob = appendString(ob, 1, o.Domain)
		ob = appendInt(ob, 2, o.Version)
		b = appendMessage(b, 8, ob)
	}
	for _, kv := range m.Metadata {
		var kb []byte
		kb = appendString(kb, 1, kv.Key)
		kb = appendString(kb, 2, kv.Value)
		b = appendMessage(b, 14, kb)
	}
	return b
}

func (g *Graph) marshal() []byte {
	var b []byte
	for i := range g.Nodes {
		b = appendMessage(b, 1, g.Nodes[i].marshal())
	}
	b = appendString(b, 2, g.Name)
	for i := range g.Initializers {
		b = appendMessage(b, 5, g.Initializers[i].marshal())
	}
	b = appendString(b, 10, g.Doc)
	for i := range g.Inputs {
		b = appendMessage(b, 11, g.Inputs[i].marshal())
	}
	for i := range g.Outputs {
		b = appendMessage(b, 12, g.Outputs[i].marshal())
	}
	return b
}

func (n *Node) marshal() []byte {
	var b []byte
	for _, s := range n.Inputs {
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendString(b, s)
	}
	for _, s := range n.Outputs {
		b = protowire.AppendTag(b, 2, protowire.BytesType)
		b = protowire.AppendString(b, s)
	}
	b = appendString(b, 3, n.Name)
	b = appendString(b, 4, n.OpType)
	for i := range n.Attrs {
		b = appendMessage(b, 5, n.Attrs[i].marshal())
	}
	b = appendString(b, 6, n.Doc)
	b = appendString(b, 7, n.Domain)
	return b
}

func (a *Attr) marshal() []byte {
	var b []byte
	b = appendString(b, 1, a.Name)
	switch a.Type {
	case AttrFloat:
		b = protowire.AppendTag(b, 2, protowire.Fixed32Type)
		b = protowire.AppendFixed32(b, math.Float32bits(a.F))
	case AttrInt:
		b = protowire.AppendTag(b, 3, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(a.I))
	case AttrString:
		b = protowire.AppendTag(b, 4, protowire.BytesType)
		b = protowire.AppendBytes(b, a.S)
	case AttrTensor:
		b = appendMessage(b, 5, a.T.marshal())
	case AttrFloats:
		var p []byte
		for _, f := range a.Floats {
			p = protowire.AppendFixed32(p, math.Float32bits(f))
		}
		b = protowire.AppendTag(b, 7, protowire.BytesType)
		b = protowire.AppendBytes(b, p)
	case AttrInts:
		var p []byte
		for _, v := range a.Ints {
			p = protowire.AppendVarint(p, uint64(v))
		}
		b = protowire.AppendTag(b, 8, protowire.BytesType)
		b = protowire.AppendBytes(b, p)
	case AttrStrings:
		for _, s := range a.Strings {
			b = protowire.AppendTag(b, 9, protowire.BytesType)
			b = protowire.AppendBytes(b, s)
		}
	}
	b = protowire.AppendTag(b, 20, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(a.Type))
	return b
}

func (t *Tensor) marshal() []byte {
	var b []byte
	if len(t.Dims) > 0 {
		var p []byte
		for _, d := range t.Dims {
			p = protowire.AppendVarint(p, uint64(d))
		}
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendBytes(b, p)
	}
	b = protowire.AppendTag(b, 2, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(t.DataType))
	for _, s := range t.Strings {
		b = protowire.AppendTag(b, 6, protowire.BytesType)
		b = protowire.AppendBytes(b, s)
	}
	b = appendString(b, 8, t.Name)
	if t.DataType != TypeString {
		b = protowire.AppendTag(b, 9, protowire.BytesType)
		b = protowire.AppendBytes(b, t.Raw)
	}
	return b
}

func (v *ValueInfo) marshal() []byte {
	var shape []byte
	for _, d := range v.Shape {
		var db []byte
		if d.Param != "" {
			db = appendString(db, 2, d.Param)
		} else {
			db = protowire.AppendTag(db, 1, protowire.VarintType)
			db = protowire.AppendVarint(db, uint64(d.Value))
		}
		shape = appendMessage(shape, 1, db)
	}
	var tensor []byte
	tensor = protowire.AppendTag(tensor, 1, protowire.VarintType)
	tensor = protowire.AppendVarint(tensor, uint64(v.ElemType))
	tensor = appendMessage(tensor, 2, shape)
	var typ []byte
	typ = appendMessage(typ, 1, tensor)
	var b []byte
	b = appendString(b, 1, v.Name)
	b = appendMessage(b, 2, typ)
	return b
}

func appendString(b []byte, num protowire.Number, s string) []byte {
	if s == "" {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendString(b, s)
}

func appendInt(b []byte, num protowire.Number, v int64) []byte {
	if v == 0 {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.VarintType)
	return protowire.AppendVarint(b, uint64(v))
}

func appendMessage(b []byte, num protowire.Number, msg []byte) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, msg)
}

// Float64Tensor returns a double tensor with dims (nil: a scalar).
func Float64Tensor(name string, dims []int64, v []float64) Tensor {
	raw := make([]byte, 8*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint64(raw[8*i:], math.Float64bits(x))
	}
	return Tensor{Name: name, Dims: dims, DataType: TypeDouble, Raw: raw}
}

// Float32Tensor returns a float tensor with dims (nil: a scalar).
func Float32Tensor(name string, dims []int64, v []float32) Tensor {
	raw := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(x))
	}
	return Tensor{Name: name, Dims: dims, DataType: TypeFloat, Raw: raw}
}

// Int64Tensor returns an int64 tensor with dims (nil: a scalar).
func Int64Tensor(name string, dims []int64, v []int64) Tensor {
	raw := make([]byte, 8*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint64(raw[8*i:], uint64(x))
	}
	return Tensor{Name: name, Dims: dims, DataType: TypeInt64, Raw: raw}
}
