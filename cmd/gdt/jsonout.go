package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"math"
	"strconv"
)

// Machine-readable output: every command takes --json and then prints
// exactly one JSON document on standard output (progress and warnings stay
// on standard error). A failing command under --json prints the message on
// standard error and, on standard output, one object {"error", "command",
// "exit_code"} (run in main.go), with a non-zero exit status.

// jsonFlag registers --json on fs.
func jsonFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("json", false, "print one JSON document on standard output (for scripts) instead of text")
}

// writeJSON writes v as one indented JSON document followed by a newline
// (text such as "<=" is kept as is, not HTML-escaped). The document is
// encoded completely before anything is written, so a failure leaves
// standard output empty.
func writeJSON(w io.Writer, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

// jsonFloat is a float64 that encodes NaN and ±Inf as null (encoding/json
// rejects them), e.g. a ROC-AUC that is undefined for a regression task.
type jsonFloat float64

// MarshalJSON implements json.Marshaler.
func (f jsonFloat) MarshalJSON() ([]byte, error) {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, v, 'g', -1, 64), nil
}

// meanStd is a mean and standard deviation over trials or folds.
type meanStd struct {
	Mean jsonFloat `json:"mean"`
	Std  jsonFloat `json:"std"`
}
