package nn

import (
	"fmt"

	"github.com/gdt-ml/gdt/modelfile"
)

// Float32s is modelfile.Float32s: a float32 slice that encodes in JSON as
// the base64 of its little-endian bytes (exact and compact).
type Float32s = modelfile.Float32s

// Tensor is one named tensor of a State.
type Tensor struct {
	Name string   `json:"name"`
	Data Float32s `json:"data"`
}

// State is a copy of a module's parameters and buffers (e.g. batch
// normalisation's running statistics) by name; it is what a saved model
// holds of a network and serialises with encoding/json.
type State struct {
	Params  []Tensor `json:"params"`
	Buffers []Tensor `json:"buffers,omitempty"`
}

// SaveState returns a deep copy of the parameters and buffers of m.
func SaveState(m Module) *State {
	s := &State{}
	for _, p := range m.Params() {
		s.Params = append(s.Params, Tensor{Name: p.Name, Data: append(Float32s(nil), p.Value...)})
	}
	for _, b := range Buffers(m) {
		s.Buffers = append(s.Buffers, Tensor{Name: b.Name, Data: append(Float32s(nil), b.Value...)})
	}
	return s
}

// LoadState copies a state into m, matching tensors by name; every tensor
// of m must be present with the same length and the state must hold no
// other tensor.
func LoadState(m Module, s *State) error {
	params := map[string][]float32{}
	for _, p := range m.Params() {
		params[p.Name] = p.Value
	}
	bufs := map[string][]float32{}
	for _, b := range Buffers(m) {
		bufs[b.Name] = b.Value
	}
	// validate both before copying either
	if err := checkState("parameter", params, s.Params); err != nil {
		return err
	}
	if err := checkState("buffer", bufs, s.Buffers); err != nil {
		return err
	}
	for _, t := range s.Params {
		copy(params[t.Name], t.Data)
	}
	for _, t := range s.Buffers {
		copy(bufs[t.Name], t.Data)
	}
	return nil
}

func checkState(kind string, dst map[string][]float32, src []Tensor) error {
	seen := map[string]bool{}
	for _, t := range src {
		v, ok := dst[t.Name]
		if !ok {
			return fmt.Errorf("nn: LoadState: %s %q is not in the module", kind, t.Name)
		}
		if seen[t.Name] {
			return fmt.Errorf("nn: LoadState: %s %q appears twice", kind, t.Name)
		}
		if len(t.Data) != len(v) {
			return fmt.Errorf("nn: LoadState: %s %q has %d values, the module expects %d", kind, t.Name, len(t.Data), len(v))
		}
		seen[t.Name] = true
	}
	for name := range dst {
		if !seen[name] {
			return fmt.Errorf("nn: LoadState: %s %q is missing from the state", kind, name)
		}
	}
	return nil
}
