package serve

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/gdt-ml/gdt/data"
)

// PredictRequest is the body of POST /v1/models/{name}/predict.
type PredictRequest struct {
	// Rows are JSON objects keyed by raw feature names.
	Rows []json.RawMessage `json:"rows"`
	// Explain asks for one explanation per row.
	Explain bool `json:"explain,omitempty"`
}

// PredictResponse is the answer to a predict request. The server writes
// it row by row (package doc, "Operation"), byte for byte as json.Encoder
// with HTML escaping off encodes this struct.
type PredictResponse struct {
	Model string `json:"model"`
	Kind  string `json:"kind"`
	Task  string `json:"task"`
	// Classes names the columns of Probabilities.
	Classes []string `json:"classes,omitempty"`
	// Predictions holds a class label (string) per row, or for regression
	// a number.
	Predictions []any `json:"predictions"`
	// Probabilities holds the class probabilities of every row.
	Probabilities [][]Float32    `json:"probabilities,omitempty"`
	Explanations  []*Explanation `json:"explanations,omitempty"`
	// Warnings reports unknown categories treated as missing (at most
	// 100 lines).
	Warnings []string `json:"warnings,omitempty"`
}

// Float32 is a float32 that encodes as the shortest decimal that reads
// back as the same float32.
type Float32 float32

// MarshalJSON writes the shortest round-tripping decimal.
func (f Float32) MarshalJSON() ([]byte, error) {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil, fmt.Errorf("serve: non-finite output %v", v)
	}
	return strconv.AppendFloat(nil, v, 'g', -1, 32), nil
}

// ErrorResponse is the body of every error answer.
type ErrorResponse struct {
	Error string `json:"error"`
	// Row and Feature locate bad input (row −1: not about one row).
	Row     *int   `json:"row,omitempty"`
	Feature string `json:"feature,omitempty"`
}

// inputError is a client error with an HTTP status.
type inputError struct {
	status  int
	msg     string
	row     int // −1 when not about a row
	feature string
}

func (e *inputError) Error() string { return e.msg }

func badRow(row int, feature, format string, args ...any) *inputError {
	return &inputError{status: http.StatusBadRequest, row: row, feature: feature, msg: fmt.Sprintf(format, args...)}
}

func (s *Server) routes() {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{"status": "ok", "models": len(s.names)})
	})
	mux.HandleFunc("GET /v1/models", func(w http.ResponseWriter, r *http.Request) {
		out := make([]ModelInfo, 0, len(s.names))
		for _, n := range s.names {
			out = append(out, s.slots[n].cur.Load().info)
		}
		writeJSON(w, http.StatusOK, map[string]any{"models": out})
	})
	mux.HandleFunc("GET /v1/models/{name}", func(w http.ResponseWriter, r *http.Request) {
		sl, ok := s.lookup(w, r)
		if ok {
			writeJSON(w, http.StatusOK, sl.cur.Load().info)
		}
	})
	mux.HandleFunc("POST /v1/models/{name}/predict", s.handlePredict)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if p := r.URL.Path; strings.HasPrefix(p, "/v1/models/") && strings.HasSuffix(p, "/predict") {
			w.Header().Set("Allow", "POST")
			writeError(w, &inputError{status: http.StatusMethodNotAllowed, row: -1, msg: fmt.Sprintf("%s %s: use POST", r.Method, p)})
			return
		}
		writeError(w, &inputError{status: http.StatusNotFound, row: -1,
			msg: fmt.Sprintf("no endpoint %s %s: use GET /healthz, GET /v1/models, GET /v1/models/{name}, POST /v1/models/{name}/predict", r.Method, r.URL.Path)})
	})
	s.mux = s.recoverPanics(mux)
}

func (s *Server) lookup(w http.ResponseWriter, r *http.Request) (*slot, bool) {
	name := r.PathValue("name")
	sl := s.slots[name]
	if sl == nil {
		writeError(w, &inputError{status: http.StatusNotFound, row: -1,
			msg: fmt.Sprintf("no model %q (served: %s)", name, strings.Join(s.names, ", "))})
		return nil, false
	}
	return sl, true
}

func (s *Server) handlePredict(w http.ResponseWriter, r *http.Request) {
	sl, ok := s.lookup(w, r)
	if !ok {
		return
	}
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
			writeError(w, &inputError{status: http.StatusUnsupportedMediaType, row: -1,
				msg: fmt.Sprintf("Content-Type %q: send a JSON body with Content-Type: application/json (curl: -H 'Content-Type: application/json')", ct)})
			return
		}
	}
	body, ie := s.readBody(w, r)
	if ie != nil {
		writeError(w, ie)
		return
	}
	// the slot is taken once the body is in: a client that sends slowly
	// holds none (the read timeout cuts it off)
	if !s.work.acquire(r.Context(), s.cfg.QueueWait) {
		s.busy(w)
		return
	}
	defer s.work.release()
	m := sl.cur.Load()            // this request uses this model even if a reload swaps it
	pr, err := s.prepare(m, body) // body is garbage from here on: the rows live on in pr's table
	if err != nil {
		var ie *inputError
		if errors.As(err, &ie) {
			writeError(w, ie)
			return
		}
		s.cfg.Logf("serve: model %s: %v", sl.name, err)
		writeError(w, &inputError{status: http.StatusInternalServerError, row: -1, msg: err.Error()})
		return
	}
	hook("parsed")
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	if err := s.stream(w, sl.name, pr); err != nil {
		// the status is sent: cut the connection so the client sees a
		// truncated answer, not a complete-looking one
		s.cfg.Logf("serve: model %s: writing the answer: %v", sl.name, err)
		panic(http.ErrAbortHandler)
	}
}

// readBody reads the request body, at most Config.MaxBodyBytes, into a
// buffer sized once from Content-Length when the client sent it.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, *inputError) {
	rd := http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes)
	var body []byte
	var err error
	if n := r.ContentLength; n > 0 && n <= s.cfg.MaxBodyBytes {
		body = make([]byte, n) // net/http stops the body at Content-Length
		_, err = io.ReadFull(rd, body)
	} else {
		body, err = io.ReadAll(rd)
	}
	if err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			return nil, &inputError{status: http.StatusRequestEntityTooLarge, row: -1,
				msg: fmt.Sprintf("request body exceeds %d bytes: send fewer rows per request (gdt serve --max-body raises the limit)", mb.Limit)}
		}
		return nil, &inputError{status: http.StatusBadRequest, row: -1, msg: "reading the request body: " + err.Error()}
	}
	return body, nil
}

// decodeRequest returns the rows (raw JSON objects) and the explain flag
// of a request body. The common body — an object with just "rows" (an
// array) and "explain" (a boolean) — is checked by json.Valid and split in
// place, its rows slices of body; anything else goes through
// encoding/json's decoder, which gives the error messages (with line and
// column) and the decoder's rules (e.g. case-insensitive keys).
func decodeRequest(body []byte) ([]json.RawMessage, bool, error) {
	if rows, explain, ok := splitRequest(body); ok {
		return rows, explain, nil
	}
	var req PredictRequest
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return nil, false, &inputError{status: http.StatusBadRequest, row: -1, msg: jsonError(body, err)}
	}
	if dec.More() {
		return nil, false, &inputError{status: http.StatusBadRequest, row: -1, msg: "request: unexpected data after the JSON object"}
	}
	return req.Rows, req.Explain, nil
}

// splitRequest is decodeRequest's fast path: ok is false unless body is
// valid JSON, an object whose keys are exactly "rows" (an array) and
// "explain" (true or false).
func splitRequest(body []byte) (rows []json.RawMessage, explain, ok bool) {
	b := bytes.TrimSpace(body)
	if len(b) == 0 || b[0] != '{' || !json.Valid(b) {
		return nil, false, false
	}
	ok = true
	scanObject(b, func(key []byte, escaped bool, val []byte) {
		switch {
		case !ok:
		case string(key) == `"rows"` && len(val) > 0 && val[0] == '[':
			rows = rows[:0]
			scanArray(val, func(v []byte) { rows = append(rows, v) })
		case string(key) == `"explain"` && (string(val) == "true" || string(val) == "false"):
			explain = string(val) == "true"
		default:
			ok = false
		}
	})
	return rows, explain, ok
}

// scanArray calls visit for every element of the JSON array b, which must
// be valid JSON.
func scanArray(b []byte, visit func(v []byte)) {
	i := 1 // after '['
	for {
		i = skipSpace(b, i)
		if i >= len(b) || b[i] == ']' {
			return
		}
		if b[i] == ',' {
			i++
			continue
		}
		end := endOfValue(b, i)
		visit(b[i:end])
		i = end
	}
}

// jsonError turns a decoding error into a message with the position.
func jsonError(body []byte, err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		line, col := position(body, se.Offset)
		return fmt.Sprintf("request is not valid JSON at line %d, column %d: %v", line, col, se)
	case errors.As(err, &te):
		line, col := position(body, te.Offset)
		if te.Field == "rows" {
			return fmt.Sprintf(`request: "rows" at line %d, column %d is a JSON %s: expected an array of objects`, line, col, te.Value)
		}
		return fmt.Sprintf("request: field %q at line %d, column %d is a JSON %s: expected %s", te.Field, line, col, te.Value, te.Type)
	case errors.Is(err, io.EOF):
		return `request body is empty: expected {"rows": [{feature: value, …}, …]}`
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "request JSON ends early (truncated body?)"
	}
	msg := err.Error()
	if strings.HasPrefix(msg, "json: unknown field") {
		return "request: " + strings.TrimPrefix(msg, "json: ") + `: expected only "rows" and "explain"`
	}
	return "request: " + msg
}

func position(b []byte, off int64) (line, col int) {
	line, col = 1, 1
	for i := int64(0); i < off && i < int64(len(b)); i++ {
		if b[i] == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}

// maxWarnings bounds the warnings of one response.
const maxWarnings = 100

// table parses the rows into a table with the model's input schema.
func (m *loaded) table(rows []json.RawMessage) (*data.Table, []string, error) {
	n := len(rows)
	tab := &data.Table{Columns: make([]*data.Column, len(m.cols))}
	for j, c := range m.cols {
		col := &data.Column{Name: c.name}
		if c.categorical {
			col.Kind, col.Codes, col.Levels = data.Categorical, make([]int32, n), c.levels
		} else {
			col.Kind, col.Num = data.Numeric, make([]float64, n)
		}
		tab.Columns[j] = col
	}
	var warnings []string
	extra := make([]map[string]int32, len(m.cols)) // unseen levels of this request
	vals := make([][]byte, len(m.cols))
	for i, raw := range rows {
		raw = bytes.TrimSpace(raw)
		if len(raw) == 0 || raw[0] != '{' {
			return nil, nil, badRow(i, "", "row %d is %s: expected a JSON object keyed by feature names", i, describe(raw))
		}
		clear(vals)
		// the decoder has validated the JSON; keys with escapes are rare
		// and take the slow path
		scanObject(raw, func(key []byte, escaped bool, val []byte) {
			k := ""
			if escaped {
				json.Unmarshal(key, &k)
			} else {
				k = string(key[1 : len(key)-1])
			}
			if j, ok := m.colIndex[k]; ok {
				vals[j] = val
			}
		})
		for j, c := range m.cols {
			v := vals[j]
			if v == nil {
				kind := "a number"
				if c.categorical {
					kind = "a category (string)"
				}
				return nil, nil, badRow(i, c.name, "row %d: missing feature %q (%s; send null for a missing value)", i, c.name, kind)
			}
			col := tab.Columns[j]
			if m.isNA(v) { // a missing marker, as gdt predict reads a CSV cell
				if c.categorical {
					col.Codes[i] = data.Missing
				} else {
					col.Num[i] = math.NaN()
				}
				continue
			}
			if !c.categorical {
				x, err := parseNumber(v)
				if err != nil {
					return nil, nil, badRow(i, c.name, "row %d, feature %q: %v", i, c.name, err)
				}
				col.Num[i] = x
				continue
			}
			s, missing, err := parseCategory(v)
			if err != nil {
				return nil, nil, badRow(i, c.name, "row %d, feature %q: %v", i, c.name, err)
			}
			code := data.Missing
			if !missing {
				k, ok := c.index[string(s)]
				if !ok {
					// a level never seen in training: give it a code of
					// its own, so the pipeline encodes it as an unseen
					// level, as gdt predict does (one rule everywhere)
					if extra[j] == nil {
						extra[j] = map[string]int32{}
						col.Levels = append([]string(nil), c.levels...)
					}
					if k, ok = extra[j][string(s)]; !ok {
						k = int32(len(col.Levels))
						col.Levels = append(col.Levels, string(s))
						extra[j][string(s)] = k
					}
					if len(warnings) < maxWarnings {
						warnings = append(warnings, fmt.Sprintf("row %d, feature %q: unknown category %q routed as an unseen level", i, c.name, s))
					}
				}
				code = k
			}
			col.Codes[i] = code
		}
	}
	if len(warnings) == maxWarnings {
		if n := m.known.Count(tab).Rows(); n > len(warnings) {
			warnings = append(warnings, fmt.Sprintf("… %d unknown categories in all", n))
		}
	}
	return tab, warnings, nil
}

// isNA reports whether the JSON value v, a string or a number, is one of
// the missing markers of gdt predict: data.DefaultMissing (e.g. "?", "NA",
// "null") and the model's stored ones (gdt train --na-values). The text
// compared is the string's (unescaped) or the number's as written, with
// surrounding spaces trimmed: what gdt predict compares for a CSV cell
// holding the same text. null and other JSON values are not markers.
func (m *loaded) isNA(v []byte) bool {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return false
	}
	switch c := v[0]; {
	case c == '"':
		u, err := unquote(v)
		if err != nil {
			return false
		}
		v = bytes.TrimSpace(u)
	case c == '-' || (c >= '0' && c <= '9'):
	default:
		return false
	}
	_, ok := m.na[string(v)]
	return ok
}

// scanObject calls visit for every member of the JSON object b, which must
// be valid JSON: key is the quoted key (escaped tells whether it holds
// escapes), val the raw value.
func scanObject(b []byte, visit func(key []byte, escaped bool, val []byte)) {
	i := 1 // after '{'
	for {
		i = skipSpace(b, i)
		if i >= len(b) || b[i] == '}' {
			return
		}
		if b[i] == ',' {
			i++
			continue
		}
		kEnd, escaped := endOfString(b, i)
		key := b[i:kEnd]
		i = skipSpace(b, kEnd)
		i = skipSpace(b, i+1) // ':'
		vEnd := endOfValue(b, i)
		visit(key, escaped, b[i:vEnd])
		i = vEnd
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// endOfString returns the index after the string starting at b[i] == '"'.
func endOfString(b []byte, i int) (int, bool) {
	escaped := false
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			escaped = true
			j++
		case '"':
			return j + 1, escaped
		}
	}
	return len(b), escaped
}

// endOfValue returns the index after the value starting at b[i].
func endOfValue(b []byte, i int) int {
	switch b[i] {
	case '"':
		e, _ := endOfString(b, i)
		return e
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				e, _ := endOfString(b, j)
				j = e - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return len(b)
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\t' && b[j] != '\n' && b[j] != '\r' {
		j++
	}
	return j
}

// unquote returns the text of the JSON string v (fast when it holds no
// escapes).
func unquote(v []byte) ([]byte, error) {
	if bytes.IndexByte(v, '\\') < 0 {
		return v[1 : len(v)-1], nil
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return nil, err
	}
	return []byte(s), nil
}

// parseNumber reads a numeric feature: a JSON number, a numeric string,
// or null / "" / "NaN" for a missing value (NaN).
func parseNumber(v []byte) (float64, error) {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return 0, errors.New("empty value: expected a number")
	}
	text := string(v)
	switch c := v[0]; {
	case c == 'n':
		return math.NaN(), nil
	case c == '"':
		u, err := unquote(v)
		if err != nil {
			return 0, err
		}
		s := strings.TrimSpace(string(u))
		if s == "" {
			return math.NaN(), nil
		}
		x, err := strconv.ParseFloat(s, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("expected a number (or a numeric string, or null), got the string %q", s)
		}
		if math.IsNaN(x) {
			return x, nil
		}
		if math.IsInf(x, 0) {
			return 0, fmt.Errorf("expected a finite number, got %q", s)
		}
		return x, nil
	case c == '-' || (c >= '0' && c <= '9'):
		x, err := strconv.ParseFloat(text, 64)
		if err != nil || math.IsInf(x, 0) {
			return 0, fmt.Errorf("expected a finite number, got %s", text)
		}
		return x, nil
	}
	return 0, fmt.Errorf("expected a number (or a numeric string, or null), got %s", describe(v))
}

// parseCategory reads a categorical feature: a string, a number (its
// text), or null / "" (missing).
func parseCategory(v []byte) ([]byte, bool, error) {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return nil, false, errors.New("empty value: expected a category")
	}
	switch c := v[0]; {
	case c == 'n':
		return nil, true, nil
	case c == '"':
		s, err := unquote(v)
		return s, len(s) == 0, err
	case c == '-' || (c >= '0' && c <= '9'):
		return v, false, nil
	}
	return nil, false, fmt.Errorf("expected a category (a string) or null, got %s", describe(v))
}

// describe names the JSON type of v for messages.
func describe(v []byte) string {
	if len(v) == 0 {
		return "empty"
	}
	switch v[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean (" + string(v) + ")"
	case 'n':
		return "null"
	case '"':
		return "a string"
	}
	return "a number (" + string(v) + ")"
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		enc.Encode(ErrorResponse{Error: "encoding the response: " + err.Error()})
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

func writeError(w http.ResponseWriter, e *inputError) {
	resp := ErrorResponse{Error: e.msg, Feature: e.feature}
	if e.row >= 0 {
		row := e.row
		resp.Row = &row
	}
	writeJSON(w, e.status, resp)
}
