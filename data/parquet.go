package data

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// ReadParquetFile reads a flat Parquet file into a table. Columns of
// physical type boolean, int32, int64, float and double become numeric
// columns (booleans as 0/1; DECIMAL logical types are scaled, unsigned
// integers read as unsigned); byte arrays and fixed-length byte arrays become
// categorical columns with levels in order of first appearance; nulls become
// missing values. Nested (group or repeated) columns and INT96 timestamps are
// reported as unsupported.
func ReadParquetFile(path string) (*Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return readParquet(f, st.Size(), path, MaxParquetCells)
}

// MaxParquetCells bounds rows × columns of a Parquet file read whole (a
// corrupt or hostile footer can claim any row count; a column of 2^28
// doubles is 2 GiB).
var MaxParquetCells int64 = 1 << 28

// readParquet reads a Parquet file of size bytes from r; name is used in
// error messages. Files claiming more than maxCells rows × columns are
// refused before any column is decoded.
func readParquet(r io.ReaderAt, size int64, name string, maxCells int64) (*Table, error) {
	pf, err := openParquet(r, size)
	if err != nil {
		return nil, fmt.Errorf("%s: not a readable Parquet file: %w", name, err)
	}
	n := pf.NumRows()
	if n <= 0 {
		return nil, fmt.Errorf("%s: Parquet file has no rows", name)
	}
	if n > math.MaxInt32 {
		return nil, fmt.Errorf("%s: %d rows is too many", name, n)
	}
	cols := pf.Root().Columns()
	if len(cols) == 0 {
		return nil, fmt.Errorf("%s: Parquet file has no columns", name)
	}
	if n*int64(len(cols)) > maxCells {
		return nil, fmt.Errorf("%s: %d rows × %d columns is more than the limit of %d cells", name, n, len(cols), maxCells)
	}
	t := &Table{Columns: make([]*Column, 0, len(cols))}
	for j, c := range cols {
		col, err := readParquetColumn(c, int(n))
		if err != nil {
			return nil, fmt.Errorf("%s: column %d (%q): %w", name, j+1, c.Name(), err)
		}
		t.Columns = append(t.Columns, col)
	}
	if err := t.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return t, nil
}

// openParquet opens the file, turning library panics on corrupt input into
// errors. The footer's length is checked against the file's size first:
// the library allocates whatever length the file claims.
func openParquet(r io.ReaderAt, size int64) (pf *parquet.File, err error) {
	defer func() {
		if p := recover(); p != nil {
			pf, err = nil, fmt.Errorf("corrupt file: %v", p)
		}
	}()
	if size < 12 {
		return nil, fmt.Errorf("%d bytes: expected at least 12 (the magic PAR1, a footer and its length)", size)
	}
	var tail [8]byte
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return nil, fmt.Errorf("reading the footer length: %w", err)
	}
	if n := int64(binary.LittleEndian.Uint32(tail[:4])); n > size-12 {
		return nil, fmt.Errorf("footer length %d: expected at most %d in a file of %d bytes", n, size-12, size)
	}
	return parquet.OpenFile(r, size)
}

// readParquetColumn decodes one flat column of n rows.
func readParquetColumn(c *parquet.Column, n int) (col *Column, err error) {
	defer func() {
		if p := recover(); p != nil {
			col, err = nil, fmt.Errorf("corrupt column data: %v", p)
		}
	}()
	if !c.Leaf() {
		return nil, errors.New("nested (group) columns are not supported")
	}
	if c.Repeated() {
		return nil, errors.New("repeated (list) columns are not supported")
	}
	typ := c.Type()
	kind := typ.Kind()
	scale := 1.0
	unsigned := false
	if lt := typ.LogicalType(); lt != nil {
		switch v := lt.Value.(type) {
		case *format.DecimalType:
			scale = math.Pow(10, -float64(v.Scale))
		case *format.IntType:
			unsigned = !v.IsSigned
		}
	}
	categorical := false
	switch kind {
	case parquet.Boolean, parquet.Int32, parquet.Int64, parquet.Float, parquet.Double:
	case parquet.ByteArray, parquet.FixedLenByteArray:
		categorical = true
		if scale != 1 {
			return nil, errors.New("DECIMAL stored as a byte array is not supported")
		}
	default:
		return nil, fmt.Errorf("physical type %s is not supported", kind)
	}

	var num []float64
	var codes []int32
	var levels []string
	var index map[string]int32
	if categorical {
		codes = make([]int32, 0, n)
		index = map[string]int32{}
	} else {
		num = make([]float64, 0, n)
	}
	pages := c.Pages()
	defer pages.Close()
	buf := make([]parquet.Value, 1024)
	count := 0
	for {
		page, err := pages.ReadPage()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		vr := page.Values()
		for {
			k, err := vr.ReadValues(buf)
			if count+k > n {
				parquet.Release(page)
				return nil, fmt.Errorf("more values than the file's %d rows", n)
			}
			for _, v := range buf[:k] {
				if categorical {
					if v.IsNull() {
						codes = append(codes, Missing)
						continue
					}
					b := v.ByteArray()
					code, ok := index[string(b)]
					if !ok {
						code = int32(len(levels))
						s := string(b)
						index[s] = code
						levels = append(levels, s)
					}
					codes = append(codes, code)
					continue
				}
				if v.IsNull() {
					num = append(num, math.NaN())
					continue
				}
				var f float64
				switch kind {
				case parquet.Boolean:
					if v.Boolean() {
						f = 1
					}
				case parquet.Int32:
					if unsigned {
						f = float64(uint32(v.Int32()))
					} else {
						f = float64(v.Int32())
					}
				case parquet.Int64:
					if unsigned {
						f = float64(uint64(v.Int64()))
					} else {
						f = float64(v.Int64())
					}
				case parquet.Float:
					f = float64(v.Float())
				case parquet.Double:
					f = v.Double()
				}
				if scale != 1 {
					f *= scale
				}
				num = append(num, f)
			}
			count += k
			if err == io.EOF {
				break
			}
			if err != nil {
				parquet.Release(page)
				return nil, err
			}
		}
		parquet.Release(page)
	}
	if count != n {
		return nil, fmt.Errorf("%d values, but the file has %d rows", count, n)
	}
	if categorical {
		return &Column{Name: c.Name(), Kind: Categorical, Codes: codes, Levels: levels}, nil
	}
	return NewNumeric(c.Name(), num), nil
}
