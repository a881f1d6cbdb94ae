// Package serve is gdt's HTTP/JSON prediction server for saved models
// (standard library only).
//
// # Endpoints
//
//	GET  /healthz                      {"status":"ok","models":N}
//	GET  /v1/models                    every model: name, kind, task, target, classes, input schema
//	GET  /v1/models/{name}             one model
//	POST /v1/models/{name}/predict     predictions
//
// A predict request is
//
//	{"rows": [{"age": 37, "income": "52000", "housing": "rent"}, …], "explain": true}
//
// Rows are JSON objects keyed by the raw feature names of the model's input
// schema (GET /v1/models). Numeric features take a JSON number or a
// numeric string; categorical features take a string (a JSON number is
// read as its text, e.g. a postcode). null (and, for categorical features,
// "") is a missing value, as is a value whose text (a string's, or a
// number's as written, spaces trimmed) is a missing marker: one of
// data.DefaultMissing (e.g. "?", "NA", the text "null") or of the markers
// the model was trained with (gdt train --na-values, stored in the model
// file and listed as "na_values" by GET /v1/models/{name}); gdt predict
// reads a CSV cell the same way. The model's preprocessing handles a
// missing value as in training (numeric: the training median;
// categorical: its own category if missing values occurred in training,
// else like an unseen level). A
// category never seen in training is encoded as an unseen level, as by
// gdt predict and every rendering (package interpret's unseen-level rule),
// and reported in "warnings". Keys that are not features are ignored.
// A row that lacks a feature, or a value of the wrong type, gives 400 with
// a message naming the row, the feature and what was expected.
//
// The response holds the predictions (class labels, or numbers for
// regression), the class probabilities in the order of "classes", and with
// "explain" one explanation per row: the decision path of a tree model
// (every condition in raw units, the row's value and the branch taken) or,
// for GRANDE, the trees with the largest instance-wise weights, their
// weight shares and their paths.
//
// # Operation
//
// Request bodies are limited (Config.MaxBodyBytes, 413 beyond), as are
// the rows per request (Config.MaxRows) and the rows per request with
// explanations (Config.MaxExplainRows); the messages name the limit and
// the gdt serve flag that raises it. At most Config.MaxConcurrent predict
// requests work at once: a request takes a slot once its body is read (a
// slow sender holds none) and waits for one at most Config.QueueWait,
// then gets 503 with Retry-After. Answers are streamed: the predictions,
// probabilities and explanations are written row by row (explanations in
// chunks computed in parallel) through a buffered writer, so a request's
// memory is its input in table and model space, not its answer; the JSON
// is the same, byte for byte, as encoding PredictResponse. A panic in a
// handler is logged once with its stack and answered 500 with a JSON
// error (or, when the answer has begun, the connection is cut); the
// server goes on.
//
// The HTTP server has read, write and idle timeouts: ReadTimeout cuts off
// a client that sends slowly; WriteTimeout bounds the whole answer from
// the end of the request's headers (computing included), so it cuts off a
// client that stops reading and frees its slot — raise it for large
// explained requests. Model files are
// polled for changes (modification time and size) and reloaded in the
// background; Reload does the same on demand (gdt serve calls it on
// SIGHUP). A reloaded model replaces the old one atomically: requests in
// flight finish with the model they started with, and a file that fails to
// load leaves the old model serving. Run shuts the server down gracefully
// when its context ends.
package serve

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gdt-ml/gdt/model"
)

// Config configures a Server. Zero fields take the defaults in brackets.
type Config struct {
	// MaxBodyBytes limits a request body [32 MiB].
	MaxBodyBytes int64
	// MaxRows limits the rows of one request [100,000].
	MaxRows int
	// MaxExplainRows limits the rows of one request with "explain": true
	// [10,000]: an explanation costs far more time and answer bytes than
	// a prediction (a GRANDE explanation is about 2 KB of JSON per row).
	MaxExplainRows int
	// MaxConcurrent bounds the predict requests that work at the same
	// time [2 × GOMAXPROCS, at least 4]: one request's prediction already
	// uses every core, so more slots buy no throughput, only memory (each
	// working request holds its rows in table and model space; answers
	// are streamed).
	MaxConcurrent int
	// QueueWait is how long a predict request waits for a free slot
	// before it is answered 503 with Retry-After [1 s]; a negative value
	// answers 503 at once.
	QueueWait time.Duration
	// ReadTimeout, WriteTimeout and IdleTimeout are the HTTP server's
	// timeouts [30 s, 60 s, 120 s].
	ReadTimeout, WriteTimeout, IdleTimeout time.Duration
	// ShutdownTimeout bounds the graceful shutdown [15 s].
	ShutdownTimeout time.Duration
	// PollInterval is how often model files are checked for changes
	// [2 s]; a negative value disables polling.
	PollInterval time.Duration
	// TopK is the number of GRANDE trees in an explanation [3].
	TopK int
	// Logf logs reloads and errors [log.Printf].
	Logf func(format string, args ...any)
}

func (c Config) withDefaults() Config {
	if c.MaxBodyBytes <= 0 {
		c.MaxBodyBytes = 32 << 20
	}
	if c.MaxRows <= 0 {
		c.MaxRows = 100000
	}
	if c.MaxExplainRows <= 0 {
		c.MaxExplainRows = 10000
	}
	if c.MaxConcurrent <= 0 {
		c.MaxConcurrent = max(4, 2*runtime.GOMAXPROCS(0))
	}
	if c.QueueWait == 0 {
		c.QueueWait = time.Second
	}
	if c.ReadTimeout <= 0 {
		c.ReadTimeout = 30 * time.Second
	}
	if c.WriteTimeout <= 0 {
		c.WriteTimeout = 60 * time.Second
	}
	if c.IdleTimeout <= 0 {
		c.IdleTimeout = 120 * time.Second
	}
	if c.ShutdownTimeout <= 0 {
		c.ShutdownTimeout = 15 * time.Second
	}
	if c.PollInterval == 0 {
		c.PollInterval = 2 * time.Second
	}
	if c.TopK <= 0 {
		c.TopK = 3
	}
	if c.Logf == nil {
		c.Logf = log.Printf
	}
	return c
}

// Server serves a fixed set of named models.
type Server struct {
	cfg   Config
	slots map[string]*slot
	names []string
	mux   http.Handler
	work  slots // predict requests at work
}

// slot is one named model whose file may be reloaded.
type slot struct {
	name, path string
	cur        atomic.Pointer[loaded]
	mu         sync.Mutex // serialises reloads
	failed     fileStamp  // stamp of the last file that failed to load
}

type fileStamp struct {
	mod  time.Time
	size int64
}

// New loads the model files and returns a server for them. A spec is a
// path (the model's name is the file name without extension) or
// NAME=PATH. Names must be unique.
func New(cfg Config, specs ...string) (*Server, error) {
	if len(specs) == 0 {
		return nil, errors.New("serve: no model files given")
	}
	s := &Server{cfg: cfg.withDefaults(), slots: map[string]*slot{}}
	s.work = make(slots, s.cfg.MaxConcurrent)
	for _, spec := range specs {
		name, path := modelName(spec)
		if name == "" || strings.ContainsAny(name, "/ ") {
			return nil, fmt.Errorf("serve: model %q: the name %q must be non-empty without '/' or blanks (give NAME=PATH)", spec, name)
		}
		if _, dup := s.slots[name]; dup {
			return nil, fmt.Errorf("serve: two models are called %q: give them distinct names with NAME=PATH", name)
		}
		sl := &slot{name: name, path: path}
		m, err := load(name, path, s.cfg)
		if err != nil {
			return nil, err
		}
		sl.cur.Store(m)
		s.slots[name] = sl
		s.names = append(s.names, name)
	}
	sort.Strings(s.names)
	s.routes()
	return s, nil
}

// modelName splits NAME=PATH, or derives the name from the file name.
func modelName(spec string) (name, path string) {
	if i := strings.Index(spec, "="); i > 0 && !strings.ContainsAny(spec[:i], `/\`) {
		return spec[:i], spec[i+1:]
	}
	base := filepath.Base(spec)
	for _, ext := range []string{".gz", ".json", ".model"} {
		base = strings.TrimSuffix(base, ext)
	}
	return base, spec
}

// Names returns the served model names, sorted.
func (s *Server) Names() []string { return append([]string(nil), s.names...) }

// Model returns the model currently served under name (nil if unknown).
func (s *Server) Model(name string) *model.Trained {
	sl := s.slots[name]
	if sl == nil {
		return nil
	}
	return sl.cur.Load().t
}

// Handler returns the HTTP handler of the API.
func (s *Server) Handler() http.Handler { return s.mux }

// Reload checks every model file and reloads those whose modification
// time or size changed (all of them with force). It returns the names
// reloaded; a file that fails to load keeps the old model and its error is
// returned (joined with others) and logged once.
func (s *Server) Reload(force bool) ([]string, error) {
	var done []string
	var errs []error
	for _, name := range s.names {
		ok, err := s.slots[name].reload(s.cfg, force)
		if err != nil {
			errs = append(errs, err)
		}
		if ok {
			done = append(done, name)
		}
	}
	return done, errors.Join(errs...)
}

func (sl *slot) reload(cfg Config, force bool) (bool, error) {
	sl.mu.Lock()
	defer sl.mu.Unlock()
	st, err := os.Stat(sl.path)
	if err != nil {
		return false, fmt.Errorf("serve: model %s: %w", sl.name, err)
	}
	stamp := fileStamp{st.ModTime(), st.Size()}
	cur := sl.cur.Load()
	if !force && (stamp == cur.stamp || stamp == sl.failed) {
		return false, nil
	}
	m, err := load(sl.name, sl.path, cfg)
	if err != nil {
		if stamp != sl.failed {
			cfg.Logf("serve: model %s: reload failed, keeping the loaded model: %v", sl.name, err)
		}
		sl.failed = stamp
		return false, err
	}
	sl.failed = fileStamp{}
	sl.cur.Store(m)
	cfg.Logf("serve: model %s reloaded from %s", sl.name, sl.path)
	return true, nil
}

// Watch polls the model files every Config.PollInterval until ctx ends
// (no-op when polling is disabled).
func (s *Server) Watch(ctx context.Context) {
	if s.cfg.PollInterval < 0 {
		return
	}
	tk := time.NewTicker(s.cfg.PollInterval)
	defer tk.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tk.C:
			s.Reload(false)
		}
	}
}

// Run serves on ln with the configured timeouts and polls the model files
// until ctx ends, then shuts down gracefully: it stops accepting, lets
// requests in flight finish (at most Config.ShutdownTimeout) and returns.
func (s *Server) Run(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{
		Handler:           s.mux,
		ReadTimeout:       s.cfg.ReadTimeout,
		ReadHeaderTimeout: min(s.cfg.ReadTimeout, 10*time.Second),
		WriteTimeout:      s.cfg.WriteTimeout,
		IdleTimeout:       s.cfg.IdleTimeout,
		MaxHeaderBytes:    1 << 20,
	}
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	go s.Watch(wctx)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), s.cfg.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("serve: shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
