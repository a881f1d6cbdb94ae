package serve

import (
	"context"
	"fmt"
	"net/http"
	"runtime/debug"
	"strconv"
	"time"
)

// testHook, when set by a test, is called at the named points of a predict
// request ("parsed": the request was decoded, nothing written yet;
// "streaming": the answer's first bytes were written), so a test can force
// a handler to panic at either point.
var testHook func(point string)

func hook(point string) {
	if testHook != nil {
		testHook(point)
	}
}

// slots bounds the predict requests that work at the same time: a request
// takes a slot once its body is read and gives it back when its answer is
// written, so the rows decoded into table and model space, the
// predictions and the explanations in progress are bounded by
// Config.MaxConcurrent requests.
type slots chan struct{}

// acquire takes a slot, waiting at most wait (and not beyond ctx); false
// when none freed up in time.
func (s slots) acquire(ctx context.Context, wait time.Duration) bool {
	select {
	case s <- struct{}{}:
		return true
	default:
	}
	if wait <= 0 {
		return false
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case s <- struct{}{}:
		return true
	case <-t.C:
	case <-ctx.Done():
	}
	return false
}

func (s slots) release() { <-s }

// busy answers 503 with Retry-After when every slot stayed taken.
func (s *Server) busy(w http.ResponseWriter) {
	w.Header().Set("Retry-After", strconv.Itoa(retryAfter))
	writeError(w, &inputError{status: http.StatusServiceUnavailable, row: -1,
		msg: fmt.Sprintf("server busy: all %d prediction slots stayed in use for %v; retry after %d s (gdt serve --max-concurrent raises the bound)",
			s.cfg.MaxConcurrent, s.cfg.QueueWait, retryAfter)})
}

// retryAfter is the Retry-After of a 503, in seconds.
const retryAfter = 1

// recorder remembers whether the answer's header was written, so a panic
// can still become a 500 when nothing was sent.
type recorder struct {
	http.ResponseWriter
	wrote bool
}

func (r *recorder) WriteHeader(code int) {
	r.wrote = true
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(b []byte) (int, error) {
	r.wrote = true
	return r.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection (write
// deadlines, flushing).
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// recoverPanics turns a panic in h into a 500 with a JSON error body (or,
// when the answer has started, an aborted connection, so the client sees
// a truncated answer rather than a complete-looking one), logs it once
// with its stack, and leaves the server running.
func (s *Server) recoverPanics(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &recorder{ResponseWriter: w}
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.cfg.Logf("serve: panic in %s %s: %v\n%s", r.Method, r.URL.Path, v, debug.Stack())
			if rec.wrote {
				panic(http.ErrAbortHandler) // net/http closes the connection without logging again
			}
			writeError(w, &inputError{status: http.StatusInternalServerError, row: -1,
				msg: fmt.Sprintf("internal error: %v (logged by the server)", v)})
		}()
		h.ServeHTTP(rec, r)
	})
}
