package grande

import "github.com/gdt-ml/gdt/modelfile"

// Float32s and Int32s are modelfile's exact, compact JSON encodings of
// float32 and int32 slices (base64 of their little-endian bytes), which
// GRANDE's model files use for its millions of parameters.
type (
	Float32s = modelfile.Float32s
	Int32s   = modelfile.Int32s
)
