package data

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// Chunk is a run of consecutive rows of a file read by Chunks.
type Chunk struct {
	*Table       // the rows, typed
	First  int   // index of the chunk's first row among the file's rows (0-based)
	Lines  []int // 1-based source line of each row; nil when the format has none
}

// Chunks reads a data file a run of rows at a time, so that a long file can
// be processed in bounded memory while it is read. Delimited text is read
// and typed piece by piece: about csvChunkBytes of text per chunk (at least
// 1,001 rows in the first, so that header detection sees what ReadFile
// sees); ARFF and Parquet files are read whole and handed out in chunks of
// wholeChunkRows rows.
//
// Every column the schema names (ReadOptions.Schema Categorical or Numeric)
// gets exactly the values ReadFile gives it; categorical level codes are
// numbered per chunk (compare levels by text), and other columns are typed
// per chunk, so such a column may be numeric in one chunk and categorical
// in the next, and the rule of NumericLookingPercent is applied per chunk
// (Schema.LenientOthers turns it off for them). Errors name the file and
// line as ReadFile's do; an error in a late row surfaces only when its
// chunk is read.
type Chunks struct {
	source string
	names  []string
	schema Schema
	next   int // index of the next chunk's first row

	// Whole-table formats.
	table *Table
	lines []int

	// Delimited text.
	csv *csvStream
	// first is the first chunk of delimited text, read by OpenChunks.
	first *Chunk
}

// Chunk sizes (variables for the tests).
var (
	csvChunkBytes  = 1 << 20
	wholeChunkRows = 8192
)

// headerSampleRows is the number of rows detectHeader looks at, the header
// candidate included.
const headerSampleRows = 1001

// OpenChunks opens path for reading in chunks (see Chunks); opt is as for
// ReadFile. Errors that ReadFile reports from the start of the file (no
// such column, empty file, bad delimiter) are reported here.
func OpenChunks(path string, opt ReadOptions) (*Chunks, error) {
	format, err := fileFormat(path, opt)
	if err != nil {
		return nil, err
	}
	if format != "csv" {
		t, lines, err := readFileLines(path, opt)
		if err != nil {
			return nil, err
		}
		return &Chunks{source: path, names: t.Names(), table: t, lines: lines}, nil
	}
	if opt.Header && opt.NoHeader {
		return nil, fmt.Errorf("%s: both Header and NoHeader are set", path)
	}
	rc, err := openMaybeGzip(path)
	if err != nil {
		return nil, err
	}
	cs := &csvStream{rc: rc, path: path, opt: opt}
	c := &Chunks{source: path, schema: opt.schema(), csv: cs}
	rec, err := cs.firstRecords()
	if err != nil {
		rc.Close()
		return nil, err
	}
	c.names = rec.Names()
	first, err := c.typed(rec)
	if err != nil {
		rc.Close()
		return nil, err
	}
	c.first = first
	return c, nil
}

// Names returns the column names of the file.
func (c *Chunks) Names() []string { return c.names }

// Next returns the next chunk, or io.EOF after the last one.
func (c *Chunks) Next() (*Chunk, error) {
	if c.table != nil {
		n := c.table.NumRows()
		if c.next >= n {
			return nil, io.EOF
		}
		lo, hi := c.next, min(c.next+wholeChunkRows, n)
		c.next = hi
		ch := &Chunk{Table: c.table.rowRange(lo, hi), First: lo}
		if c.lines != nil {
			ch.Lines = c.lines[lo:hi]
		}
		return ch, nil
	}
	if c.first != nil {
		ch := c.first
		c.first = nil
		return ch, nil
	}
	if c.csv == nil {
		return nil, io.EOF
	}
	rec, err := c.csv.nextRecords()
	if err != nil {
		return nil, err
	}
	return c.typed(rec)
}

// typed types the records of one chunk.
func (c *Chunks) typed(rec *Records) (*Chunk, error) {
	t, err := rec.Table(c.schema)
	if err != nil {
		return nil, err
	}
	ch := &Chunk{Table: t, First: c.next, Lines: rec.Lines}
	c.next += len(rec.Rows)
	return ch, nil
}

// Close releases the file.
func (c *Chunks) Close() error {
	if c.csv != nil {
		err := c.csv.rc.Close()
		c.csv = nil
		return err
	}
	return nil
}

// rowRange returns a table viewing rows lo…hi−1 of t (values shared).
func (t *Table) rowRange(lo, hi int) *Table {
	out := &Table{Columns: make([]*Column, len(t.Columns))}
	for j, c := range t.Columns {
		v := &Column{Name: c.Name, Kind: c.Kind, Levels: c.Levels}
		if c.Kind == Numeric {
			v.Num = c.Num[lo:hi:hi]
		} else {
			v.Codes = c.Codes[lo:hi:hi]
		}
		out.Columns[j] = v
	}
	return out
}

// csvStream splits delimited text into records a piece at a time. Each
// piece ends at a line break; a piece that ends inside a quoted field is
// extended until the field closes.
type csvStream struct {
	rc   io.ReadCloser
	path string
	opt  ReadOptions

	pending []byte // bytes read and not yet split
	eof     bool
	line    int        // physical line at the start of pending
	rows    [][]string // room for the rows of a piece, reused

	scan   *csvScanner
	split  *recordSplitter
	header []string // column names once known
	// text is the decision for non-ASCII bytes: 0 undecided, 1 UTF-8,
	// 2 Latin-1 (the file is not valid UTF-8 somewhere).
	text int8
}

// fill reads until pending holds more than n bytes or the input ends,
// csvChunkBytes at a time.
func (cs *csvStream) fill(n int) error {
	for !cs.eof && len(cs.pending) <= n {
		if cap(cs.pending)-len(cs.pending) < csvChunkBytes {
			grown := make([]byte, len(cs.pending), 2*cap(cs.pending)+2*csvChunkBytes)
			copy(grown, cs.pending)
			cs.pending = grown
		}
		k, err := cs.rc.Read(cs.pending[len(cs.pending) : len(cs.pending)+csvChunkBytes])
		cs.pending = cs.pending[:len(cs.pending)+k]
		if err == io.EOF {
			cs.eof = true
		} else if err != nil {
			return fmt.Errorf("%s: %w", cs.path, err)
		}
	}
	return nil
}

// piece returns the longest prefix of pending that ends with a line break
// (everything at the end of the input); ok is false when pending holds no
// line break yet.
func (cs *csvStream) piece() ([]byte, bool) {
	if cs.eof {
		return cs.pending, true
	}
	k := bytes.LastIndexByte(cs.pending, '\n')
	if k < 0 {
		return nil, false
	}
	return cs.pending[:k+1], true
}

// decode checks a piece of raw text and returns it as a string, converting
// Latin-1 to UTF-8 as decodeText does for the whole file: the file is
// UTF-8 when all of it is valid UTF-8, so the first piece with non-ASCII
// bytes that are valid UTF-8 has the rest of the file checked.
func (cs *csvStream) decode(b []byte, first bool) (string, error) {
	if first {
		if len(b) >= 2 && ((b[0] == 0xff && b[1] == 0xfe) || (b[0] == 0xfe && b[1] == 0xff)) {
			return "", fmt.Errorf("%s: file is UTF-16 encoded; convert it to UTF-8", cs.path)
		}
		b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	}
	ctrl, ascii := scanText(b)
	if ctrl >= 0 {
		line, col := lineCol(b, ctrl)
		return "", fmt.Errorf("%s:%d: column %d: byte 0x%02x: binary data, not a text file", cs.path, cs.line+line-1, col, b[ctrl])
	}
	if !ascii && cs.text == 0 {
		cs.text = 1
		if !utf8.Valid(b) {
			cs.text = 2
		} else if valid, err := cs.fileIsUTF8(); err != nil {
			return "", err
		} else if !valid {
			cs.text = 2
		}
	}
	if ascii || cs.text == 1 {
		return string(b), nil
	}
	r := make([]rune, len(b))
	for i, c := range b {
		r[i] = rune(c)
	}
	return string(r), nil
}

// fileIsUTF8 reports whether the whole file is valid UTF-8, reading it
// from a second handle (the position of this stream is not moved). Line
// breaks are ASCII, so the file is checked line-aligned piece by piece.
func (cs *csvStream) fileIsUTF8() (bool, error) {
	rc, err := openMaybeGzip(cs.path)
	if err != nil {
		return false, err
	}
	defer rc.Close()
	buf := make([]byte, 0, csvChunkBytes)
	for {
		k, err := rc.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+k]
		end := err == io.EOF
		if err != nil && !end {
			return false, fmt.Errorf("%s: %w", cs.path, err)
		}
		cut := len(buf)
		if !end {
			cut = bytes.LastIndexByte(buf, '\n') + 1
		}
		if !utf8.Valid(buf[:cut]) {
			return false, nil
		}
		if end {
			return true, nil
		}
		n := copy(buf, buf[cut:])
		buf = buf[:n]
		if n == cap(buf) { // a line longer than the buffer
			buf = append(buf, 0)[:n]
		}
	}
}

// textClass marks control bytes (1) and non-ASCII bytes (2).
var textClass = func() (t [256]uint8) {
	for c := range 256 {
		switch {
		case controlByte[c]:
			t[c] = 1
		case c >= 0x80:
			t[c] = 2
		}
	}
	return t
}()

// scanText returns the offset of the first control byte (−1 if none) and
// whether b is all ASCII. It looks at eight bytes at a time and byte by
// byte only at words holding a byte below 0x20 (line breaks, tabs) or
// above 0x7f.
func scanText(b []byte) (ctrl int, ascii bool) {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	ascii = true
	i := 0
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		if (w-0x20*ones)&^w&highs == 0 && w&highs == 0 {
			continue // every byte in 0x20…0x7f
		}
		for k, c := range b[i : i+8] {
			switch textClass[c] {
			case 1:
				return i + k, ascii
			case 2:
				ascii = false
			}
		}
	}
	for k, c := range b[i:] {
		switch textClass[c] {
		case 1:
			return i + k, ascii
		case 2:
			ascii = false
		}
	}
	return -1, ascii
}

// records splits the next piece of text (pending holding more than size
// bytes, cut after its last line break) into records, reading on while the
// piece ends inside a quoted field or holds fewer than minRows rows; it
// consumes the piece from pending.
func (cs *csvStream) records(size, minRows int, first bool) (*Records, error) {
	for {
		if err := cs.fill(size); err != nil {
			return nil, err
		}
		b, ok := cs.piece()
		if !ok {
			size = 2 * len(cs.pending)
			continue
		}
		rec, err := cs.splitPiece(b, first)
		var ue *unterminatedError
		switch {
		case err == nil && (cs.eof || len(rec.Rows) >= minRows):
			cs.line = cs.scan.line
			cs.pending = cs.pending[:copy(cs.pending, cs.pending[len(b):])]
			return rec, nil
		case err == nil || errors.As(err, &ue) && !cs.eof:
			size = len(cs.pending) + len(b) // read on, split a longer piece again
		default:
			return nil, err
		}
	}
}

// splitPiece splits one piece of text (starting at line cs.line) into
// records. The first piece also sets up the scanner (skipped lines,
// delimiter detection) and the header.
func (cs *csvStream) splitPiece(b []byte, first bool) (*Records, error) {
	text, err := cs.decode(b, first)
	if err != nil {
		return nil, err
	}
	rec := &Records{Source: cs.path, Header: cs.header}
	if first {
		copt := cs.opt.CSVOptions
		copt.Header = cs.opt.Header
		s, err := newCSVScanner(text, cs.path, copt)
		if err != nil {
			return nil, err
		}
		cs.scan = s
		cs.split = newRecordSplitter(cs.path, copt)
	} else {
		cs.scan.src, cs.scan.pos, cs.scan.line = text, 0, cs.line
		// The previous piece's rows are typed and dropped: reuse their room.
		cs.split.arena.reset()
		rec.Rows = cs.rows[:0]
	}
	if err := cs.split.split(cs.scan, rec); err != nil {
		return nil, err
	}
	if !first {
		cs.rows = rec.Rows
	}
	return rec, nil
}

// firstRecords reads the first piece and settles the column names as
// readCSVDetect does.
func (cs *csvStream) firstRecords() (*Records, error) {
	rec, err := cs.records(csvChunkBytes, headerSampleRows, true)
	if err != nil {
		return nil, err
	}
	if err := cs.split.checkRows(rec, len(rec.Rows)); err != nil {
		return nil, err
	}
	if !cs.opt.Header && !cs.opt.NoHeader && detectHeader(rec, cs.opt.schema().Missing) {
		rec.Header = headerNames(rec.Rows[0])
		rec.Rows = rec.Rows[1:]
		rec.Lines = rec.Lines[1:]
	}
	if cs.opt.Names != nil {
		if len(cs.opt.Names) != rec.NumCols() {
			return nil, fmt.Errorf("%s: %d names given for %d columns", cs.path, len(cs.opt.Names), rec.NumCols())
		}
		if err := uniqueNames(cs.path, cs.opt.Names); err != nil {
			return nil, err
		}
		rec.Header = cs.opt.Names
	}
	cs.header = rec.Names()
	rec.Header = cs.header
	return rec, nil
}

// nextRecords returns the records of the next piece, or io.EOF.
func (cs *csvStream) nextRecords() (*Records, error) {
	for {
		if err := cs.fill(0); err != nil {
			return nil, err
		}
		if len(cs.pending) == 0 && cs.eof {
			return nil, io.EOF
		}
		rec, err := cs.records(csvChunkBytes, 1, false)
		if err != nil {
			return nil, err
		}
		if len(rec.Rows) > 0 {
			return rec, nil
		}
	}
}
