package nn

import "fmt"

// Shape is the channel-major (NCHW) shape of one image row: C channels of
// H×W values, stored as C·H·W consecutive floats (channel, then row, then
// column).
type Shape struct {
	C, H, W int
}

// Size returns C·H·W.
func (s Shape) Size() int { return s.C * s.H * s.W }

// String returns "C×H×W".
func (s Shape) String() string { return fmt.Sprintf("%d×%d×%d", s.C, s.H, s.W) }

func (s Shape) validate(who string) error {
	if s.C <= 0 || s.H <= 0 || s.W <= 0 {
		return fmt.Errorf("nn: %s: input shape %v, want C, H, W > 0", who, s)
	}
	return nil
}

// Shaped is implemented by the image layers (convolution, pooling): the
// shapes of their input and output rows.
type Shaped interface {
	InShape() Shape
	OutShape() Shape
}

// Buffer is a named non-trainable state tensor of a module (e.g. the running
// statistics of batch normalisation); saving a model must save it too.
type Buffer struct {
	Name  string
	Value []float32
}

// BufferHolder is implemented by modules with non-trainable state.
type BufferHolder interface {
	Buffers() []Buffer
}

// Buffers returns the non-trainable state of m (nil if it has none); for
// Sequential and Concat the names carry the layer index as parameters do.
func Buffers(m Module) []Buffer {
	if h, ok := m.(BufferHolder); ok {
		return h.Buffers()
	}
	return nil
}

func prefixBuffers(out []Buffer, prefix string, m Module) []Buffer {
	for _, b := range Buffers(m) {
		b.Name = prefix + b.Name
		out = append(out, b)
	}
	return out
}
