package data

import (
	"bytes"
	"strings"
	"testing"
)

// TestParquetFooterLength: a footer length beyond the file is an error
// before anything is allocated for it (FuzzReadParquet found an 11-byte file
// claiming a 1.2 GB footer, which the library allocated).
func TestParquetFooterLength(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"PAR1\x19\xbcHPAR1", "11 bytes: expected at least 12"}, // the fuzzer's: 0x48bc1931 bytes asked for
		{"PAR1\xff\xff\xff\xffPAR1", "footer length 4294967295: expected at most 0 in a file of 12 bytes"},
		{"PAR1x\x00\x00\x10\x00PAR1", "footer length 1048576: expected at most 1 in a file of 13 bytes"},
	} {
		_, err := readParquet(bytes.NewReader([]byte(c.in)), int64(len(c.in)), "f.parquet", 1<<14)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, expected one containing %q", c.in, err, c.want)
		}
	}
}
