// Package modelfile reads and writes gdt's versioned model file: one JSON
// document holding the input schema, the fitted preprocessing pipeline, the
// learned parameters and the plain tree(s), written atomically.
//
// # Versions and compatibility
//
// Every file carries "format": "gdt-model" and an integer "version". Save
// always writes Version, the newest; Read accepts every version from 1 to
// Version and refuses newer files with a message asking for a newer gdt.
//
// The version number covers the whole document, including the "pipeline"
// section (package preprocess) and each kind's "model" section (cart,
// gradtree, grande, random-forest, …). The policy:
//
//   - Adding an optional field that older readers may ignore, and whose
//     absence in older files means the old behaviour, does not change the
//     version.
//   - Any other change — renaming, removing or re-encoding a field, or
//     changing what a stored value means — bumps Version by one and adds a
//     migration to the migrations list that rewrites a version N−1 document
//     into version N (on the decoded JSON, before the sections are handed to
//     their owners). Read applies the migrations in order, so a file of any
//     older version upgrades step by step; old files are never rewritten on
//     disk.
//   - The tests hold golden files of every released version
//     (testdata/v1/…: tiny CART, GradTree, GRANDE and random-forest models with
//     their recorded predictions). They must keep loading and predicting the
//     recorded values; a version bump adds a testdata/vN folder (generated with
//     go test ./modelfile -run TestGolden -update) and keeps the old ones.
//
// Version 2 stores the trained form (package ensemble) of GRANDE and
// GradTree models; migrateV1 upgrades version-1 files.
package modelfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/gdt-ml/gdt/ensemble"
	"github.com/gdt-ml/gdt/safefile"
)

// Format is the value of the "format" field of every gdt model file.
const Format = "gdt-model"

// Version is the newest model-file version this build writes and reads.
const Version = 2

// migration rewrites a decoded model file of one version into the next:
// migrations[i] turns version i+1 into version i+2. It may change any
// top-level section (the "version" field is set by upgrade).
type migration func(doc map[string]json.RawMessage) error

// migrations upgrade old files step by step; len(migrations) must be
// Version−1 (checked by the tests).
var migrations = []migration{migrateV1}

// upgrade applies steps to the JSON document b of version from until it
// is of version to.
func upgrade(b []byte, from, to int, steps []migration) ([]byte, error) {
	if to-1 > len(steps) {
		return nil, fmt.Errorf("no migration from version %d to %d in this build", len(steps)+1, to)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, err
	}
	for v := from; v < to; v++ {
		if err := steps[v-1](doc); err != nil {
			return nil, fmt.Errorf("version %d to %d: %w", v, v+1, err)
		}
		doc["version"] = json.RawMessage(fmt.Sprint(v + 1))
	}
	return json.Marshal(doc)
}

// Column describes one raw input column the model expects.
type Column struct {
	Name   string   `json:"name"`
	Kind   string   `json:"kind"`             // "numeric" or "categorical"
	Levels []string `json:"levels,omitempty"` // categorical levels seen in training
}

// File is the content of a model file. Pipeline and Model are kept as raw
// JSON so each estimator owns its own encoding.
type File struct {
	Format string `json:"format"`
	// Version is the version the file was written in (Read upgrades the
	// content of older files to the current layout but keeps this number;
	// Save writes the current Version).
	Version  int      `json:"version"`
	Kind     string   `json:"kind"` // estimator name, e.g. "cart", "gradtree"
	Created  string   `json:"created,omitempty"`
	Task     string   `json:"task"`
	Target   string   `json:"target,omitempty"`
	Classes  []string `json:"classes,omitempty"`
	Inputs   []Column `json:"inputs"`
	Protocol string   `json:"protocol,omitempty"` // preprocessing protocol name
	// NAValues are the text values the training data declared missing
	// (gdt train --na-values) on top of the reader's defaults; files that
	// the model reads later apply them too. Optional: older files have none.
	NAValues []string        `json:"na_values,omitempty"`
	Pipeline json.RawMessage `json:"pipeline,omitempty"`
	Model    json.RawMessage `json:"model"`
	Info     map[string]any  `json:"info,omitempty"` // free-form training facts (scores, seconds, options)
}

// Save writes f to path atomically, filling Format, Version and Created.
func Save(path string, f *File) error {
	if f.Kind == "" {
		return errors.New("modelfile: model kind is empty")
	}
	f.Format = Format
	f.Version = Version
	if f.Created == "" {
		f.Created = time.Now().UTC().Format(time.RFC3339)
	}
	b, err := json.MarshalIndent(f, "", " ")
	if err != nil {
		return fmt.Errorf("modelfile: encoding %s: %w", path, err)
	}
	b = append(b, '\n')
	return safefile.WriteBytes(path, b)
}

// Load reads a model file, rejecting foreign, corrupted, truncated and
// newer-version files with an error that says which.
func Load(path string) (*File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("model file: %w", err)
	}
	defer fh.Close()
	return Read(fh, path)
}

// Read decodes a model file from r; name is used in error messages.
func Read(r io.Reader, name string) (*File, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("model file %s: %w", name, err)
	}
	trimmed := bytes.TrimSpace(b)
	if len(trimmed) == 0 {
		return nil, fmt.Errorf("model file %s: empty file", name)
	}
	if trimmed[0] != '{' {
		return nil, fmt.Errorf("model file %s: not a gdt model (expected a JSON object, found %q…)", name, preview(trimmed))
	}
	var probe struct {
		Format  string `json:"format"`
		Version int    `json:"version"`
	}
	if err := json.Unmarshal(b, &probe); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line, col := position(b, se.Offset)
			if se.Offset >= int64(len(b)) || errors.Is(err, io.ErrUnexpectedEOF) || strings.Contains(err.Error(), "unexpected end") {
				return nil, fmt.Errorf("model file %s: truncated or corrupted at line %d, column %d: %v", name, line, col, err)
			}
			return nil, fmt.Errorf("model file %s: corrupted at line %d, column %d: %v", name, line, col, err)
		}
		return nil, fmt.Errorf("model file %s: %v", name, err)
	}
	if probe.Format != Format {
		if probe.Format == "" {
			return nil, fmt.Errorf("model file %s: not a gdt model (no \"format\": %q field)", name, Format)
		}
		return nil, fmt.Errorf("model file %s: format %q is not a gdt model (want %q)", name, probe.Format, Format)
	}
	if probe.Version < 1 || probe.Version > Version {
		if probe.Version > Version {
			return nil, fmt.Errorf("model file %s: version %d is newer than this build reads (1..%d); upgrade gdt", name, probe.Version, Version)
		}
		return nil, fmt.Errorf("model file %s: version %d not supported by this build (reads 1..%d)", name, probe.Version, Version)
	}
	if probe.Version < Version {
		if b, err = upgrade(b, probe.Version, Version, migrations); err != nil {
			return nil, fmt.Errorf("model file %s: upgrading from version %d: %w", name, probe.Version, err)
		}
	}
	var f File
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("model file %s: %v", name, err)
	}
	f.Version = probe.Version
	if f.Kind == "" {
		return nil, fmt.Errorf("model file %s: missing \"kind\"", name)
	}
	if len(f.Model) == 0 {
		return nil, fmt.Errorf("model file %s: missing \"model\" section", name)
	}
	return &f, nil
}

func preview(b []byte) string {
	if len(b) > 16 {
		b = b[:16]
	}
	return string(b)
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

// Float32s is a float32 slice with a compact, exact JSON encoding (base64
// of its little-endian bytes); see ensemble.Float32s.
type Float32s = ensemble.Float32s

// Int32s is an int32 slice with the same compact JSON encoding; see
// ensemble.Int32s.
type Int32s = ensemble.Int32s
