package serve

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"runtime"
	"strconv"
	"sync"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/model"
)

// prediction is a validated request with its predictions, ready to be
// written: the answer is written row by row from it (stream), so that
// memory holds the request's rows in table and model space, not the
// answer.
type prediction struct {
	m        *loaded
	explain  bool
	tab      *data.Table
	x, p     *data.Matrix
	warnings []string
}

// prepare decodes and checks a request body and predicts its rows with
// model m. Every client error is found here, before a byte of the answer
// is written.
func (s *Server) prepare(m *loaded, body []byte) (*prediction, error) {
	rows, explain, err := decodeRequest(body)
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, &inputError{status: http.StatusBadRequest, row: -1, msg: `request: "rows" is missing or empty: expected {"rows": [{feature: value, …}, …]}`}
	}
	if len(rows) > s.cfg.MaxRows {
		return nil, &inputError{status: http.StatusRequestEntityTooLarge, row: -1,
			msg: fmt.Sprintf("request has %d rows: at most %d per request (gdt serve --max-rows raises the limit)", len(rows), s.cfg.MaxRows)}
	}
	if explain && m.info.Explain == "" {
		return nil, &inputError{status: http.StatusBadRequest, row: -1, msg: fmt.Sprintf("%s models give no explanations: send \"explain\": false", m.info.Kind)}
	}
	if explain && len(rows) > s.cfg.MaxExplainRows {
		return nil, &inputError{status: http.StatusRequestEntityTooLarge, row: -1,
			msg: fmt.Sprintf("request has %d rows with \"explain\": true: at most %d per request (gdt serve --max-explain-rows raises the limit; or send \"explain\": false)", len(rows), s.cfg.MaxExplainRows)}
	}
	tab, warnings, err := m.table(rows)
	if err != nil {
		return nil, err
	}
	x, p, err := m.predict(tab)
	if err != nil {
		return nil, err
	}
	for i, v := range p.Data {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return nil, fmt.Errorf("row %d: the model's output is %v", i/max(p.Cols, 1), v)
		}
	}
	return &prediction{m: m, explain: explain, tab: tab, x: x, p: p, warnings: warnings}, nil
}

// writers holds the buffered writers of answers (64 KiB each), reused
// across requests.
var writers = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, 64<<10) }}

// chunkRows is how many rows are explained (in parallel) between two
// writes of the answer.
const chunkRows = 512

// stream writes the answer to pr as JSON, byte for byte what encoding
// PredictResponse with json.Encoder (HTML escaping off) gives, row by row
// onto w: the predictions, the probabilities, then the explanations in
// chunks of chunkRows explained in parallel. An error after the first
// write leaves the answer truncated.
func (s *Server) stream(w io.Writer, name string, pr *prediction) error {
	bw := writers.Get().(*bufio.Writer)
	bw.Reset(w)
	defer func() {
		bw.Reset(nil)
		writers.Put(bw)
	}()
	m, t, p := pr.m, pr.m.t, pr.p
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	// value writes v as JSON (without the encoder's newline)
	value := func(v any) error {
		buf.Reset()
		if err := enc.Encode(v); err != nil {
			return err
		}
		bw.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
		return nil
	}
	field := func(key string, v any) error {
		bw.WriteString(`,"` + key + `":`)
		return value(v)
	}
	bw.WriteString(`{"model":`)
	if err := value(name); err != nil {
		return err
	}
	field("kind", m.info.Kind)
	field("task", m.info.Task)
	regression := t.Task == data.Regression
	if !regression && len(t.Classes) > 0 {
		field("classes", t.Classes)
	}
	labels := make([][]byte, len(t.Classes))
	for c, l := range t.Classes {
		buf.Reset()
		if err := enc.Encode(l); err != nil {
			return err
		}
		labels[c] = bytes.Clone(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	}
	bw.WriteString(`,"predictions":[`)
	var num []byte
	for i, v := range model.Decide(t.Task, p) {
		if i > 0 {
			bw.WriteByte(',')
		}
		switch {
		case regression:
			num = strconv.AppendFloat(num[:0], float64(float32(v)), 'g', -1, 32)
			bw.Write(num)
		case int(v) < len(labels):
			bw.Write(labels[int(v)])
		default:
			bw.WriteString(`"` + strconv.Itoa(int(v)) + `"`)
		}
	}
	bw.WriteByte(']')
	if !regression && p.Rows > 0 {
		bw.WriteString(`,"probabilities":[`)
		for i := 0; i < p.Rows; i++ {
			if i > 0 {
				bw.WriteByte(',')
			}
			bw.WriteByte('[')
			for c, v := range p.Row(i) {
				if c > 0 {
					bw.WriteByte(',')
				}
				num = strconv.AppendFloat(num[:0], float64(v), 'g', -1, 32)
				bw.Write(num)
			}
			bw.WriteByte(']')
		}
		bw.WriteByte(']')
	}
	hook("streaming")
	if pr.explain {
		bw.WriteString(`,"explanations":[`)
		if err := s.explainRows(bw, pr); err != nil {
			return err
		}
		bw.WriteByte(']')
	}
	if len(pr.warnings) > 0 {
		if err := field("warnings", pr.warnings); err != nil {
			return err
		}
	}
	bw.WriteString("}\n")
	return bw.Flush()
}

// explainRows writes the explanations of every row, comma-separated, in
// chunks of chunkRows rows split among GOMAXPROCS workers, each encoding
// its rows into its own buffer; the buffers are written in row order.
func (s *Server) explainRows(bw *bufio.Writer, pr *prediction) error {
	workers := max(1, runtime.GOMAXPROCS(0))
	type part struct {
		buf bytes.Buffer
		enc *json.Encoder
		ex  explainer
		err error
	}
	parts := make([]*part, workers)
	for k := range parts {
		pt := &part{ex: explainer{m: pr.m, topK: s.cfg.TopK}}
		pt.enc = json.NewEncoder(&pt.buf)
		pt.enc.SetEscapeHTML(false)
		parts[k] = pt
	}
	n := pr.p.Rows
	for lo := 0; lo < n; lo += chunkRows {
		hi := min(n, lo+chunkRows)
		per := (hi - lo + workers - 1) / workers
		var wg sync.WaitGroup
		for k, pt := range parts {
			a, b := lo+k*per, min(hi, lo+(k+1)*per)
			pt.buf.Reset()
			if a >= b {
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := a; i < b; i++ {
					ex, err := pt.ex.explain(pr.tab, i, pr.x.Row(i))
					if err == nil {
						if i > 0 {
							pt.buf.WriteByte(',')
						}
						err = pt.enc.Encode(ex)
					}
					if err != nil {
						pt.err = fmt.Errorf("explaining row %d: %w", i, err)
						return
					}
					pt.buf.Truncate(pt.buf.Len() - 1) // the encoder's newline
				}
			}()
		}
		wg.Wait()
		for _, pt := range parts {
			if pt.err != nil {
				return pt.err
			}
			if _, err := bw.Write(pt.buf.Bytes()); err != nil {
				return err
			}
		}
	}
	return nil
}

// explainer explains rows of one request; each worker has its own (the
// scratch buffer of tree shares).
type explainer struct {
	m      *loaded
	topK   int
	shares []float64
	top    []int
}

// explain explains row i (model space x) of tab.
func (e *explainer) explain(tab *data.Table, i int, x []float32) (*Explanation, error) {
	m := e.m
	switch {
	case m.view != nil:
		return m.explainPath(tab, i, x)
	case m.plain != nil && m.plain.Ensemble != nil:
		return e.explainEnsemble(tab, i, x)
	}
	return nil, fmt.Errorf("%s models give no explanation", m.t.Spec.Kind)
}
