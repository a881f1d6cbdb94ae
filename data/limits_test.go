package data

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInputLimits checks bounded reading: a gzip bomb stops at
// MaxInputBytes with an error naming the limit and the flag, binary content
// (a NUL byte in the first block) is a clear error, and a file under the
// limit reads.
func TestInputLimits(t *testing.T) {
	dir := t.TempDir()
	old := MaxInputBytes
	defer func() { MaxInputBytes = old }()
	MaxInputBytes = 10_000

	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("a,b\n"))
	zw.Write(bytes.Repeat([]byte("1,2\n"), 100_000)) // 400 kB from about 1 kB
	zw.Close()
	bomb := filepath.Join(dir, "bomb.csv.gz")
	small := filepath.Join(dir, "small.csv")
	binary := filepath.Join(dir, "binary.csv")
	lateNUL := filepath.Join(dir, "late.csv")
	for path, b := range map[string][]byte{
		bomb:    gz.Bytes(),
		small:   []byte("a,b\n1,2\n3,4\n"),
		binary:  append([]byte("a,b\n1,"), 0, 0, 0, '\n'),
		lateNUL: append(append([]byte("a,b\n"), bytes.Repeat([]byte("1,2\n"), 4000)...), 0),
	} {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		path, want string
	}{
		{bomb, "over the input limit (raise it with --max-input-bytes)"},
		{binary, "byte 7 is NUL: binary data"},
		{lateNUL, "over the input limit"},
	} {
		for name, read := range map[string]func() error{
			"ReadFile": func() error { _, err := ReadFile(tc.path, ReadOptions{}); return err },
			"OpenChunks": func() error {
				c, err := OpenChunks(tc.path, ReadOptions{})
				if err != nil {
					return err
				}
				defer c.Close()
				for {
					tab, err := c.Next()
					if err != nil || tab == nil {
						return err
					}
				}
			},
		} {
			err := read()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s %s: %v, want an error containing %q", name, filepath.Base(tc.path), err, tc.want)
			}
		}
	}
	if _, err := ReadFile(small, ReadOptions{}); err != nil {
		t.Errorf("a file under the limit: %v", err)
	}
}
