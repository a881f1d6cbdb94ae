package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/gdt-ml/gdt/serve"
)

func init() {
	register(command{name: "serve", summary: "serve saved models over HTTP/JSON", run: runServe})
}

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("serve", "MODEL… [--addr 127.0.0.1:8080] [flags]",
		"Serves the saved models over HTTP/JSON (a MODEL is a file, named by its base name, or NAME=FILE):\n"+
			"  GET  /healthz\n"+
			"  GET  /v1/models                 names, kinds, tasks, classes and input schemas\n"+
			"  POST /v1/models/{name}/predict  {\"rows\": [{\"age\": 37, \"housing\": \"rent\"}, …], \"explain\": true}\n"+
			"Rows are keyed by raw feature names (categories as strings; null = missing; an unknown\n"+
			"category is routed as an unseen level and reported in \"warnings\"). Changed model files are\n"+
			"reloaded (polling, or at once on SIGHUP) without dropping requests; SIGINT/SIGTERM stop\n"+
			"the server gracefully. Answers are streamed; a handler panic is a 500 with a JSON error.\n"+
			"Status codes: 200; 400 bad request or row; 404 unknown model/endpoint; 405 wrong method;\n"+
			"413 over --max-body, --max-rows or --max-explain-rows; 415 non-JSON Content-Type;\n"+
			"500 internal error; 503 (with Retry-After) every --max-concurrent slot busy for --queue-wait.", stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
	maxBody := fs.Int64("max-body", 32<<20, "largest request body in bytes (413 beyond)")
	maxRows := fs.Int("max-rows", 100000, "most rows per request (413 beyond)")
	maxExplain := fs.Int("max-explain-rows", 10000, "most rows per request with \"explain\": true (413 beyond)")
	maxConc := fs.Int("max-concurrent", 0, "predict requests at work at once; a request that finds no free slot within --queue-wait gets 503 with Retry-After (0: 2 × GOMAXPROCS, at least 4)")
	queueWait := fs.Duration("queue-wait", time.Second, "how long a predict request waits for a free slot before 503 (0: not at all)")
	poll := fs.Duration("poll", 2*time.Second, "how often model files are checked for changes (0: never)")
	readTimeout := fs.Duration("read-timeout", 30*time.Second, "HTTP read timeout")
	writeTimeout := fs.Duration("write-timeout", 60*time.Second, "HTTP write timeout: the longest a whole answer may take, computing included (raise it for large explained requests)")
	topK := fs.Int("top-k", 3, "GRANDE trees per explanation")
	asJSON := fs.Bool("json", false, "once listening, print {\"url\", \"models\"} as one JSON document on standard output")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		fs.Usage()
		return fmt.Errorf("%w: want at least one MODEL file", errUsage)
	}
	if *poll == 0 {
		*poll = -1
	}
	if *queueWait == 0 {
		*queueWait = -1
	}
	if *maxExplain <= 0 || *maxRows <= 0 || *maxConc < 0 || *maxBody <= 0 {
		return fmt.Errorf("%w: --max-rows, --max-explain-rows and --max-body must be positive, --max-concurrent ≥ 0", errUsage)
	}
	logf := func(format string, a ...any) {
		fmt.Fprintf(stderr, time.Now().Format("2006-01-02 15:04:05 ")+format+"\n", a...)
	}
	s, err := serve.New(serve.Config{MaxBodyBytes: *maxBody, MaxRows: *maxRows, MaxExplainRows: *maxExplain,
		MaxConcurrent: *maxConc, QueueWait: *queueWait, PollInterval: *poll,
		ReadTimeout: *readTimeout, WriteTimeout: *writeTimeout, TopK: *topK, Logf: logf}, pos...)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("--addr %s: %w", *addr, err)
	}
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer func() {
		signal.Stop(hup)
		close(hup) // ends the reload goroutine
	}()
	go func() {
		for range hup {
			logf("SIGHUP: reloading the model files")
			s.Reload(true)
		}
	}()
	logf("serving %v on http://%s (Ctrl-C stops)", s.Names(), ln.Addr())
	if *asJSON {
		if err := writeJSON(stdout, map[string]any{"url": "http://" + ln.Addr().String(), "models": s.Names()}); err != nil {
			return err
		}
	}
	if err := s.Run(ctx, ln); err != nil {
		return err
	}
	logf("stopped")
	return nil
}
