package data

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"
)

// CSVOptions say how a delimited text file is split into records.
type CSVOptions struct {
	// Delimiter separates fields. 0 detects it among ',', ';', '\t', '|'
	// and runs of blanks from the first lines after SkipLines (see
	// DetectCSV).
	Delimiter rune
	// Whitespace separates fields by runs of spaces and tabs and ignores
	// blanks at the start and end of each line, as in the UCI .data files
	// german, landsat, horse-colic and solar-flare. Delimiter is then
	// ignored.
	Whitespace bool
	// Header says the first record (after SkipLines, comments and blank
	// lines) holds the column names.
	Header bool
	// SkipLines physical lines are skipped at the start of the input,
	// before the header or the data, whatever they contain.
	SkipLines int
	// Comment, when not empty, makes lines that start with it be skipped,
	// e.g. ";;;", "*" or "%".
	Comment string
	// TrimSpace removes spaces (and tabs, unless the delimiter is a tab)
	// around fields; spaces outside the quotes of a quoted field are
	// always dropped then. Use it with Delimiter ',' for files whose
	// fields are separated by ", " (UCI adult).
	TrimSpace bool
	// MaxColumns, when positive, is the largest number of fields a record
	// may have; longer records are an error.
	MaxColumns int
}

// gzipMagic starts every gzip stream.
var gzipMagic = []byte{0x1f, 0x8b}

// openMaybeGzip opens path and returns a reader of its content, gunzipped
// when the file starts with the gzip magic bytes.
func openMaybeGzip(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	br := bufio.NewReaderSize(f, 1<<16)
	head, _ := br.Peek(2)
	if !bytes.Equal(head, gzipMagic) {
		return readCloser{newGuardedReader(br), f}, nil
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: gzip: %w", path, err)
	}
	return readCloser{newGuardedReader(zr), f}, nil
}

type readCloser struct {
	io.Reader
	c io.Closer
}

func (r readCloser) Close() error { return r.c.Close() }

// readAllFile reads the whole (possibly gzipped) file.
func readAllFile(path string) ([]byte, error) {
	rc, err := openMaybeGzip(path)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}

// ReadCSVFile reads a delimited text file; see ReadCSV. Files starting with
// the gzip magic bytes (such as .csv.gz files) are decompressed on the fly.
func ReadCSVFile(path string, opt CSVOptions) (*Records, error) {
	b, err := readAllFile(path)
	if err != nil {
		return nil, err
	}
	return parseCSV(b, path, opt)
}

// ReadCSV reads delimited text from r. source names the input in error
// messages (usually the file name).
//
// Fields may be quoted with double quotes ("" inside quotes stands for one
// quote; delimiters and line breaks may appear inside quotes). Lines may end
// with LF, CRLF or CR. A UTF-8 byte order mark is dropped; input that is not
// valid UTF-8 but contains no control bytes is taken as Latin-1 and converted.
// Blank lines are skipped. Every record must have as many fields as the
// header (or the first record); Records.Lines holds the 1-based line on which
// each row starts. Errors name the source and the line.
func ReadCSV(r io.Reader, source string, opt CSVOptions) (*Records, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	return parseCSV(b, source, opt)
}

// decodeText checks that b is text and returns it as a UTF-8 string without
// a byte order mark.
func decodeText(b []byte, source string) (string, error) {
	if len(b) >= 2 && ((b[0] == 0xff && b[1] == 0xfe) || (b[0] == 0xfe && b[1] == 0xff)) {
		return "", fmt.Errorf("%s: file is UTF-16 encoded; convert it to UTF-8", source)
	}
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	if i := firstControl(b); i >= 0 {
		line, col := lineCol(b, i)
		return "", fmt.Errorf("%s:%d: column %d: byte 0x%02x: binary data, not a text file", source, line, col, b[i])
	}
	if utf8.Valid(b) {
		return string(b), nil
	}
	// Not UTF-8 but free of control bytes: most likely Latin-1 text.
	var sb strings.Builder
	sb.Grow(len(b) + len(b)/8)
	for _, c := range b {
		sb.WriteRune(rune(c))
	}
	return sb.String(), nil
}

// controlByte marks bytes that never appear in text files.
var controlByte = func() (t [256]bool) {
	for c := 0; c < 0x20; c++ {
		t[c] = true
	}
	for _, c := range []byte{'\t', '\n', '\r', '\f', '\v', 0x1a} {
		t[c] = false
	}
	return t
}()

func firstControl(b []byte) int {
	for i, c := range b {
		if controlByte[c] {
			return i
		}
	}
	return -1
}

// lineCol returns the 1-based line and byte column of offset i.
func lineCol(b []byte, i int) (line, col int) {
	line = 1
	start := 0
	for j := 0; j < i; j++ {
		switch b[j] {
		case '\n':
			line++
			start = j + 1
		case '\r':
			if j+1 < len(b) && b[j+1] == '\n' {
				continue
			}
			line++
			start = j + 1
		}
	}
	return line, i - start + 1
}

// unterminatedError reports a quoted field whose closing quote is not in
// the text; a chunked reader then reads on before giving up.
type unterminatedError struct{ msg string }

func (e *unterminatedError) Error() string { return e.msg }

// csvScanner splits text into records.
type csvScanner struct {
	src        string
	pos        int
	line       int // physical line at pos, 1-based
	source     string
	delim      string // field delimiter (unused in whitespace mode)
	delimByte  byte   // delim[0]
	whitespace bool
	trim       bool
	comment    string
	maxCols    int
	stop       [256]bool // bytes that end an unquoted field
}

func newCSVScanner(src, source string, opt CSVOptions) (*csvScanner, error) {
	s := &csvScanner{src: src, line: 1, source: source, whitespace: opt.Whitespace,
		trim: opt.TrimSpace, comment: opt.Comment, maxCols: opt.MaxColumns}
	if opt.SkipLines < 0 {
		return nil, fmt.Errorf("%s: SkipLines is %d, want >= 0", source, opt.SkipLines)
	}
	for i := 0; i < opt.SkipLines && s.pos < len(s.src); i++ {
		s.skipLine()
	}
	if !s.whitespace {
		d := opt.Delimiter
		if d == 0 {
			d, s.whitespace = detectDelimiter(src[s.pos:], opt.Comment)
		}
		switch {
		case d == '"' || d == '\n' || d == '\r' || d == utf8.RuneError || d < 0 || !utf8.ValidRune(d):
			return nil, fmt.Errorf("%s: invalid delimiter %q", source, d)
		case d == ' ' && opt.Delimiter == 0:
			s.whitespace = true
		}
		s.delim = string(d)
		s.delimByte = s.delim[0]
	}
	s.stop['\n'] = true
	s.stop['\r'] = true
	if s.whitespace {
		s.stop[' '] = true
		s.stop['\t'] = true
	} else {
		s.stop[s.delimByte] = true
	}
	return s, nil
}

// skipLine moves past the end of the current physical line.
func (s *csvScanner) skipLine() {
	i := strings.IndexAny(s.src[s.pos:], "\r\n")
	if i < 0 {
		s.pos = len(s.src)
		return
	}
	s.pos += i
	s.eol()
}

// eol consumes one line end at pos (LF, CRLF or CR).
func (s *csvScanner) eol() {
	if s.src[s.pos] == '\r' && s.pos+1 < len(s.src) && s.src[s.pos+1] == '\n' {
		s.pos++
	}
	s.pos++
	s.line++
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\f' || c == '\v' }

// skipIgnored skips blank lines and comment lines; it reports whether a
// record follows.
func (s *csvScanner) skipIgnored() bool {
	for s.pos < len(s.src) {
		c := s.src[s.pos]
		if c == '\n' || c == '\r' {
			s.eol()
			continue
		}
		if isBlank(c) {
			j := s.pos
			for j < len(s.src) && isBlank(s.src[j]) {
				j++
			}
			if j == len(s.src) {
				s.pos = j
				return false
			}
			if s.src[j] == '\n' || s.src[j] == '\r' {
				s.pos = j
				s.eol()
				continue
			}
		}
		if s.comment != "" && strings.HasPrefix(s.src[s.pos:], s.comment) {
			s.skipLine()
			continue
		}
		return true
	}
	return false
}

// atDelim reports whether a delimiter starts at pos.
func (s *csvScanner) atDelim() bool {
	if s.pos >= len(s.src) || s.src[s.pos] != s.delimByte {
		return false
	}
	return len(s.delim) == 1 || strings.HasPrefix(s.src[s.pos:], s.delim)
}

func (s *csvScanner) isTrimmable(c byte) bool {
	return c == ' ' || (c == '\t' && s.delimByte != '\t')
}

// record reads the fields of the record at pos (which is not blank or a
// comment) and appends them to dst.
func (s *csvScanner) record(dst []string) ([]string, error) {
	start := s.line
	for {
		if s.maxCols > 0 && len(dst) >= s.maxCols {
			return dst, fmt.Errorf("%s:%d: row has more than %d fields (MaxColumns)", s.source, start, s.maxCols)
		}
		if s.whitespace {
			for s.pos < len(s.src) && (s.src[s.pos] == ' ' || s.src[s.pos] == '\t') {
				s.pos++
			}
		} else if s.trim {
			for s.pos < len(s.src) && s.isTrimmable(s.src[s.pos]) {
				s.pos++
			}
		}
		var field string
		if s.pos < len(s.src) && s.src[s.pos] == '"' {
			f, err := s.quoted()
			if err != nil {
				return dst, err
			}
			field = f
		} else {
			src, stop, i := s.src, &s.stop, s.pos // locals: the hot loop of the reader
			for i < len(src) && !stop[src[i]] {
				i++
			}
			// A multi-byte delimiter only matches as a whole.
			for !s.whitespace && len(s.delim) > 1 && i < len(s.src) && s.src[i] == s.delimByte && !strings.HasPrefix(s.src[i:], s.delim) {
				i++
				for i < len(s.src) && !s.stop[s.src[i]] {
					i++
				}
			}
			field = s.src[s.pos:i]
			s.pos = i
			if s.trim {
				j := len(field)
				for j > 0 && s.isTrimmable(field[j-1]) {
					j--
				}
				field = field[:j]
			}
		}
		dst = append(dst, field)
		if s.pos >= len(s.src) {
			return dst, nil
		}
		c := s.src[s.pos]
		if c == '\n' || c == '\r' {
			s.eol()
			return dst, nil
		}
		if s.whitespace {
			for s.pos < len(s.src) && (s.src[s.pos] == ' ' || s.src[s.pos] == '\t') {
				s.pos++
			}
			if s.pos >= len(s.src) {
				return dst, nil
			}
			if c := s.src[s.pos]; c == '\n' || c == '\r' {
				s.eol()
				return dst, nil
			}
			continue
		}
		// At a delimiter.
		s.pos += len(s.delim)
	}
}

// quoted reads a quoted field starting at pos (on the opening quote), plus
// any text that follows the closing quote up to the next delimiter, which is
// appended as pandas does.
func (s *csvScanner) quoted() (string, error) {
	startLine := s.line
	i := s.pos + 1
	var sb *strings.Builder
	segStart := i
	for {
		j := strings.IndexByte(s.src[i:], '"')
		if j < 0 {
			return "", &unterminatedError{fmt.Sprintf("%s:%d: unterminated quoted field: the quote opened on this line is never closed", s.source, startLine)}
		}
		// Count line breaks inside the quoted part.
		seg := s.src[i : i+j]
		if strings.IndexByte(seg, '\r') >= 0 {
			if sb == nil {
				sb = &strings.Builder{}
			}
			sb.WriteString(s.src[segStart:i])
			for k := 0; k < len(seg); k++ {
				switch seg[k] {
				case '\n':
					s.line++
					sb.WriteByte('\n')
				case '\r':
					s.line++
					sb.WriteByte('\n')
					if k+1 < len(seg) && seg[k+1] == '\n' {
						k++
					}
				default:
					sb.WriteByte(seg[k])
				}
			}
			segStart = i + j
		} else {
			s.line += strings.Count(seg, "\n")
		}
		i += j + 1 // past the quote
		if i < len(s.src) && s.src[i] == '"' {
			// Escaped quote.
			if sb == nil {
				sb = &strings.Builder{}
			}
			sb.WriteString(s.src[segStart:i])
			i++
			segStart = i
			continue
		}
		break
	}
	var field string
	if sb == nil {
		field = s.src[s.pos+1 : i-1]
	} else {
		sb.WriteString(s.src[segStart : i-1])
		field = sb.String()
	}
	s.pos = i
	// Text after the closing quote up to the delimiter.
	k := s.pos
	for k < len(s.src) && !s.stop[s.src[k]] {
		k++
	}
	for !s.whitespace && len(s.delim) > 1 && k < len(s.src) && s.src[k] == s.delimByte && !strings.HasPrefix(s.src[k:], s.delim) {
		k++
		for k < len(s.src) && !s.stop[s.src[k]] {
			k++
		}
	}
	rest := s.src[s.pos:k]
	s.pos = k
	if strings.TrimLeft(rest, " \t") == "" {
		return field, nil
	}
	return field + rest, nil
}

// fieldArena hands out row slices carved from large shared blocks.
type fieldArena struct {
	block []string
	used  int
}

func (a *fieldArena) row(fields []string) []string {
	n := len(fields)
	if len(a.block)-a.used < n {
		a.block = make([]string, max(1<<16, n, 2*len(a.block)))
		a.used = 0
	}
	r := a.block[a.used : a.used+n : a.used+n]
	copy(r, fields)
	a.used += n
	return r
}

// reset makes the arena hand out its current block again: the rows it
// handed out before must no longer be used.
func (a *fieldArena) reset() { a.used = 0 }

// parseCSV splits b into records.
func parseCSV(b []byte, source string, opt CSVOptions) (*Records, error) {
	src, err := decodeText(b, source)
	if err != nil {
		return nil, err
	}
	s, err := newCSVScanner(src, source, opt)
	if err != nil {
		return nil, err
	}
	rec := &Records{Source: source}
	est := strings.Count(src[s.pos:], "\n") + 1
	if est == 1 {
		est = strings.Count(src[s.pos:], "\r") + 1
	}
	rec.Rows = make([][]string, 0, est)
	rec.Lines = make([]int, 0, est)
	sp := newRecordSplitter(source, opt)
	if err := sp.split(s, rec); err != nil {
		return nil, err
	}
	if err := sp.checkRows(rec, len(rec.Rows)); err != nil {
		return nil, err
	}
	return rec, nil
}

// recordSplitter turns the records of a scanner into Records rows; it
// keeps what it learnt (header, field count) across the pieces of a file
// read in chunks.
type recordSplitter struct {
	source     string
	opt        CSVOptions
	want       int // fields per record; -1 before the first record
	wantLine   int // line of the first record
	headerLine int // line of the header (opt.Header)
	buf        []string
	arena      fieldArena
}

func newRecordSplitter(source string, opt CSVOptions) *recordSplitter {
	return &recordSplitter{source: source, opt: opt, want: -1}
}

// split appends the records of s to rec (the first record to rec.Header
// when opt.Header).
func (sp *recordSplitter) split(s *csvScanner, rec *Records) error {
	for s.skipIgnored() {
		line := s.line
		var err error
		sp.buf, err = s.record(sp.buf[:0])
		if err != nil {
			return err
		}
		if sp.want < 0 {
			sp.want = len(sp.buf)
			sp.wantLine = line
			if sp.opt.Header {
				rec.Header = headerNames(sp.buf)
				sp.headerLine = line
				continue
			}
		} else if len(sp.buf) != sp.want {
			what := "first row"
			if sp.opt.Header {
				what = "header"
			}
			return fmt.Errorf("%s:%d: row has %d fields, expected %d (%s, line %d)", sp.source, line, len(sp.buf), sp.want, what, sp.wantLine)
		}
		rec.Rows = append(rec.Rows, sp.arena.row(sp.buf))
		rec.Lines = append(rec.Lines, line)
	}
	return nil
}

// checkRows reports an empty input when the whole file gave no data rows.
func (sp *recordSplitter) checkRows(rec *Records, rows int) error {
	if rows > 0 {
		return nil
	}
	if rec.Header != nil {
		return fmt.Errorf("%s: header only (line %d), no data rows", sp.source, sp.headerLine)
	}
	if sp.opt.SkipLines > 0 || sp.opt.Comment != "" {
		return fmt.Errorf("%s: empty file: no rows after skipping %d preamble lines, comments and blank lines", sp.source, sp.opt.SkipLines)
	}
	return fmt.Errorf("%s: empty file: no rows", sp.source)
}

// headerNames copies the header fields, naming empty ones "Unnamed: j" (0-based,
// as pandas does) and renaming duplicates "x.1", "x.2", … as pandas does.
func headerNames(fields []string) []string {
	h := make([]string, len(fields))
	seen := make(map[string]int, len(fields))
	for j, f := range fields {
		if f == "" {
			f = fmt.Sprintf("Unnamed: %d", j)
		}
		base := f
		for seen[f] > 0 {
			f = fmt.Sprintf("%s.%d", base, seen[base])
			seen[base]++
		}
		seen[f]++
		h[j] = f
	}
	return h
}

// detectDelimiter guesses the delimiter of text from its first records.
// It returns ws = true when fields are separated by runs of blanks.
func detectDelimiter(text, comment string) (d rune, ws bool) {
	const maxLines = 50
	const maxBytes = 1 << 16
	sample := text
	if len(sample) > maxBytes {
		sample = sample[:maxBytes]
		if k := strings.LastIndexAny(sample, "\r\n"); k > 0 {
			sample = sample[:k]
		}
	}
	var lines []string
	for len(sample) > 0 && len(lines) < maxLines {
		k := strings.IndexAny(sample, "\r\n")
		var l string
		if k < 0 {
			l, sample = sample, ""
		} else {
			l, sample = sample[:k], sample[k+1:]
		}
		if strings.TrimSpace(l) == "" || (comment != "" && strings.HasPrefix(l, comment)) {
			continue
		}
		lines = append(lines, l)
	}
	if len(lines) == 0 {
		return ',', false
	}
	// A delimiter found the same number of times on every line wins over
	// one whose first line (a title) differs; among those, the most
	// frequent.
	best, bestCount, bestAll := rune(0), 0, false
	consistent := map[rune]bool{}
	for _, c := range []rune{',', '\t', ';', '|'} {
		n, all, ok := consistentCount(lines, func(l string) int { return countOutsideQuotes(l, byte(c)) })
		if !ok {
			continue
		}
		consistent[c] = true
		if all && !bestAll || all == bestAll && n > bestCount {
			best, bestCount, bestAll = c, n, all
		}
	}
	if best == ',' && consistent[';'] && decimalCommaFields(lines) {
		// "3,5;2,25": semicolons separate numbers with decimal commas
		return ';', false
	}
	if best != 0 {
		return best, false
	}
	if n, _, ok := consistentCount(lines, func(l string) int { return len(strings.Fields(l)) }); ok && n > 1 {
		return ' ', true
	}
	// No consistent choice: take the most frequent candidate.
	for _, c := range []rune{',', '\t', ';', '|'} {
		n := 0
		for _, l := range lines {
			n += countOutsideQuotes(l, byte(c))
		}
		if n > bestCount {
			best, bestCount = c, n
		}
	}
	if best == 0 {
		best = ','
	}
	return best, false
}

// consistentCount reports the count f gives every line, when it is the same
// for all lines (all) or for all but the first, often a title, when there
// are at least three lines.
func consistentCount(lines []string, f func(string) int) (n int, all, ok bool) {
	counts := make([]int, len(lines))
	for i, l := range lines {
		counts[i] = f(l)
	}
	if allEqual(counts) && counts[0] > 0 {
		return counts[0], true, true
	}
	if len(counts) >= 3 && allEqual(counts[1:]) && counts[1] > 0 {
		return counts[1], false, true
	}
	return 0, false, false
}

// decimalCommaFields reports whether every field holding a comma, when the
// lines are split at semicolons, is a number written with a decimal comma.
func decimalCommaFields(lines []string) bool {
	any := false
	for _, l := range lines {
		for _, f := range strings.Split(l, ";") {
			f = strings.Trim(strings.TrimSpace(f), `"`)
			if !strings.Contains(f, ",") {
				continue
			}
			if st := commaNumber(f); st != decimalComma && st != eitherComma {
				return false
			}
			any = true
		}
	}
	return any
}

func allEqual(v []int) bool {
	for _, x := range v[1:] {
		if x != v[0] {
			return false
		}
	}
	return true
}

// countOutsideQuotes counts c in l outside double quotes.
func countOutsideQuotes(l string, c byte) int {
	n, in := 0, false
	for i := 0; i < len(l); i++ {
		switch l[i] {
		case '"':
			in = !in
		case c:
			if !in {
				n++
			}
		}
	}
	return n
}
