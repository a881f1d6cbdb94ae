package data

import (
	"bytes"
	"fmt"
	"io"
)

// MaxInputBytes bounds how many bytes a data file may hold after
// decompression (a .csv.gz of a few MB can expand to GBs). Reading past it
// is an error naming the limit; the CLI raises it with --max-input-bytes.
var MaxInputBytes int64 = 1 << 30

// binaryProbe is the size of the first block checked for NUL bytes.
const binaryProbe = 64 << 10

// guardedReader reads a data file's (decompressed) content, failing with
// a clear error when the first block holds a NUL byte (binary data such as
// /dev/zero, /dev/urandom or an image) or when more than limit bytes come.
type guardedReader struct {
	r     io.Reader
	limit int64
	n     int64
}

func newGuardedReader(r io.Reader) *guardedReader {
	return &guardedReader{r: r, limit: MaxInputBytes}
}

func (g *guardedReader) Read(p []byte) (int, error) {
	if g.n > g.limit {
		return 0, g.tooBig()
	}
	if int64(len(p)) > g.limit+1-g.n {
		p = p[:g.limit+1-g.n]
	}
	k, err := g.r.Read(p)
	if g.n < binaryProbe {
		end := min(int64(k), binaryProbe-g.n)
		if i := bytes.IndexByte(p[:end], 0); i >= 0 {
			return 0, fmt.Errorf("byte %d is NUL: binary data, not a text file", g.n+int64(i)+1)
		}
	}
	g.n += int64(k)
	if g.n > g.limit {
		return 0, g.tooBig()
	}
	return k, err
}

func (g *guardedReader) tooBig() error {
	return fmt.Errorf("more than %d bytes (after decompression): over the input limit (raise it with --max-input-bytes)", g.limit)
}
