package serve

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// logCounter collects log lines (safe for concurrent use).
type logCounter struct {
	mu    sync.Mutex
	lines []string
}

func (l *logCounter) logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

func (l *logCounter) count(sub string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, s := range l.lines {
		if strings.Contains(s, sub) {
			n++
		}
	}
	return n
}

// waitSlotsFree waits until every slot of s is free (a handler gives its
// slot back when it returns, which may be just after the client has read
// the whole answer).
func waitSlotsFree(t *testing.T, s *Server, what string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); len(s.work) != 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: %d slots still taken after 10 s", what, len(s.work))
		}
	}
}

// setHook installs testHook for the test's duration.
func setHook(t *testing.T, h func(point string)) {
	testHook = h
	t.Cleanup(func() { testHook = nil })
}

// TestHandlerPanic forces the predict handler to panic (testHook) before
// and after its answer started: before, the client gets a 500 with a JSON
// error; after, a truncated answer (the connection is cut); either way the
// panic is logged once with its stack and the server goes on answering.
func TestHandlerPanic(t *testing.T) {
	f := getFixture(t)
	logs := &logCounter{}
	s, hs := newTestServer(t, Config{PollInterval: -1, Logf: logs.logf}, "m="+f.paths["grande"])
	url := hs.URL + "/v1/models/m/predict"
	rows := map[string]any{"rows": rowsJSON(f.ds.X, 0, 20), "explain": true}
	for _, point := range []string{"parsed", "streaming"} {
		var armed atomic.Bool
		armed.Store(true)
		setHook(t, func(p string) {
			if p == point && armed.CompareAndSwap(true, false) {
				panic("forced by the test at " + point)
			}
		})
		body, _ := json.Marshal(rows)
		resp, err := hs.Client().Post(url, "application/json", bytes.NewReader(body))
		switch point {
		case "parsed":
			if err != nil {
				t.Fatal(err)
			}
			var e ErrorResponse
			derr := json.NewDecoder(resp.Body).Decode(&e)
			resp.Body.Close()
			if resp.StatusCode != 500 || derr != nil || !strings.Contains(e.Error, "forced by the test at parsed") ||
				resp.Header.Get("Content-Type") != "application/json" {
				t.Fatalf("panic before the answer: status %d, %v, error %q", resp.StatusCode, derr, e.Error)
			}
		case "streaming":
			if err == nil {
				_, err = io.ReadAll(resp.Body)
				resp.Body.Close()
			}
			if err == nil {
				t.Fatal("panic while streaming: the client read a complete answer")
			}
		}
		if n := logs.count("panic in POST /v1/models/m/predict: forced by the test at " + point); n != 1 {
			t.Fatalf("%s: the panic was logged %d times, want once", point, n)
		}
		if n := logs.count("goroutine "); n == 0 {
			t.Fatalf("%s: no stack in the log", point)
		}
		// the server goes on, and the slot was given back
		if code, r := post(t, hs.Client(), url, rows); code != 200 || len(r.Explanations) != 20 {
			t.Fatalf("after the panic at %s: %d %s", point, code, r.Error)
		}
		waitSlotsFree(t, s, "after the panic at "+point)
	}
}

// TestBusy holds the only slot with a blocked request: a second request
// waits at most QueueWait and gets 503 with Retry-After and a JSON error;
// one whose wait outlasts the held request is served; with QueueWait < 0
// the 503 comes at once.
func TestBusy(t *testing.T) {
	f := getFixture(t)
	rows := map[string]any{"rows": rowsJSON(f.ds.X, 0, 3)}
	// holdSlot starts a request that stops inside the handler (holding the
	// server's only slot) until release is called; release returns its status.
	holdSlot := func(url string) (release func() int) {
		hold, held, done := make(chan struct{}), make(chan struct{}), make(chan int)
		var first atomic.Bool
		first.Store(true)
		setHook(t, func(p string) {
			if p == "parsed" && first.CompareAndSwap(true, false) {
				close(held)
				<-hold
			}
		})
		go func() {
			body, _ := json.Marshal(rows)
			resp, err := http.Post(url, "application/json", bytes.NewReader(body))
			if err != nil {
				done <- -1
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			done <- resp.StatusCode
		}()
		<-held
		return func() int { close(hold); return <-done }
	}

	_, hs := newTestServer(t, Config{PollInterval: -1, MaxConcurrent: 1, QueueWait: 300 * time.Millisecond}, "m="+f.paths["cart"])
	url := hs.URL + "/v1/models/m/predict"
	release := holdSlot(url)
	body, _ := json.Marshal(rows)
	t0 := time.Now()
	resp, err := hs.Client().Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var e ErrorResponse
	json.NewDecoder(resp.Body).Decode(&e)
	resp.Body.Close()
	waited := time.Since(t0)
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") != "1" || !strings.Contains(e.Error, "--max-concurrent") {
		t.Fatalf("saturated: status %d, Retry-After %q, error %q", resp.StatusCode, resp.Header.Get("Retry-After"), e.Error)
	}
	if waited < 250*time.Millisecond {
		t.Fatalf("503 after %v: the request did not wait for a slot", waited)
	}
	if code := release(); code != 200 {
		t.Fatalf("the held request: %d", code)
	}

	// a request whose wait outlasts the held one is served
	_, hs = newTestServer(t, Config{PollInterval: -1, MaxConcurrent: 1, QueueWait: 10 * time.Second}, "m="+f.paths["cart"])
	url = hs.URL + "/v1/models/m/predict"
	release = holdSlot(url)
	codes := make(chan int)
	go func() {
		time.Sleep(100 * time.Millisecond)
		codes <- release()
	}()
	if code, r := post(t, hs.Client(), url, rows); code != 200 {
		t.Fatalf("waiting for the slot: %d %s", code, r.Error)
	}
	if code := <-codes; code != 200 {
		t.Fatalf("the held request: %d", code)
	}

	// QueueWait < 0: 503 at once
	s, hs := newTestServer(t, Config{PollInterval: -1, MaxConcurrent: 1, QueueWait: -1}, "m="+f.paths["cart"])
	s.work <- struct{}{}
	t0 = time.Now()
	code, r := post(t, hs.Client(), hs.URL+"/v1/models/m/predict", rows)
	<-s.work
	if code != 503 || time.Since(t0) > 2*time.Second {
		t.Fatalf("no wait: %d after %v (%s)", code, time.Since(t0), r.Error)
	}
}

// heapSampler is a ResponseWriter that discards the answer and, at every
// write, collects garbage and records the live heap.
type heapSampler struct {
	header http.Header
	code   int
	n      int64
	peak   uint64
}

func (h *heapSampler) Header() http.Header { return h.header }
func (h *heapSampler) WriteHeader(code int) {
	if h.code == 0 {
		h.code = code
	}
}

func (h *heapSampler) Write(b []byte) (int, error) {
	if h.code == 0 {
		h.code = 200
	}
	h.n += int64(len(b))
	h.peak = max(h.peak, liveHeap())
	return len(b), nil
}

func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestExplainMemoryPerRow measures the live heap an explained GRANDE
// request holds while its answer is written, at 1,000 and 9,000 rows: the
// growth per row must stay well below the answer's size per row (an
// answer built in memory holds at least all of it, ~1 KB per row here),
// near what the input costs. Sampled at every write of the answer.
func TestExplainMemoryPerRow(t *testing.T) {
	f := getFixture(t)
	s, err := New(Config{PollInterval: -1, Logf: t.Logf}, "m="+f.paths["grande"])
	if err != nil {
		t.Fatal(err)
	}
	h := s.Handler()
	type run struct {
		rows                  int
		growth, body, written int64
	}
	measure := func(n int) run {
		var rows []map[string]any
		for len(rows) < n {
			rows = append(rows, rowsJSON(f.ds.X, 0, min(300, n-len(rows)))...)
		}
		body, err := json.Marshal(map[string]any{"rows": rows, "explain": true})
		if err != nil {
			t.Fatal(err)
		}
		rows = nil
		req, err := http.NewRequest("POST", "/v1/models/m/predict", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.ContentLength = int64(len(body))
		w := &heapSampler{header: http.Header{}}
		base := liveHeap()
		h.ServeHTTP(w, req)
		if w.code != 200 {
			t.Fatalf("%d rows: status %d", n, w.code)
		}
		runtime.KeepAlive(body)
		return run{rows: n, growth: int64(w.peak) - int64(base), body: int64(len(body)), written: w.n}
	}
	measure(200) // warm the condition cache and the pools
	a, b := measure(1000), measure(9000)
	perRow := float64(b.growth-a.growth) / float64(b.rows-a.rows)
	answerPerRow := float64(b.written) / float64(b.rows)
	bodyPerRow := float64(b.body) / float64(b.rows)
	t.Logf("live heap growth: %d rows %.0f KB, %d rows %.0f KB: %.0f B per row; the answer is %.0f B per row, the request %.0f B per row",
		a.rows, float64(a.growth)/1024, b.rows, float64(b.growth)/1024, perRow, answerPerRow, bodyPerRow)
	if perRow > answerPerRow/4 {
		t.Fatalf("the heap grows by %.0f B per explained row, more than a quarter of the answer's %.0f B per row: the answer is being built in memory", perRow, answerPerRow)
	}
	if perRow > 2*bodyPerRow+256 {
		t.Fatalf("the heap grows by %.0f B per explained row; the request is %.0f B per row", perRow, bodyPerRow)
	}
}

// TestMixedRequests sends valid and invalid requests of every kind from
// 64 connections at once (10,000 requests; 1,000 with -short): every
// answer must have the status its request calls for and a JSON body.
func TestMixedRequests(t *testing.T) {
	f := getFixture(t)
	_, hs := newTestServer(t, Config{PollInterval: -1, MaxRows: 50, MaxExplainRows: 20, QueueWait: 30 * time.Second},
		"cart="+f.paths["cart"], "grande="+f.paths["grande"])
	good := func(lo, n int, explain bool) string {
		b, _ := json.Marshal(map[string]any{"rows": rowsJSON(f.ds.X, lo, lo+n), "explain": explain})
		return string(b)
	}
	type req struct {
		method, path, ct, body string
		status                 int
	}
	p := func(m string) string { return "/v1/models/" + m + "/predict" }
	cases := []req{
		{"POST", p("cart"), "application/json", good(0, 1, false), 200},
		{"POST", p("grande"), "application/json", good(3, 10, true), 200},
		{"POST", p("cart"), "", good(7, 20, true), 200},
		{"POST", p("grande"), "application/json", good(0, 30, true), 413},
		{"POST", p("grande"), "application/json", good(0, 30, false), 200},
		{"POST", p("cart"), "application/json", `{"rows": [` + strings.Repeat(`{"age": 1, "income": 2, "color": "red", "size": "M"},`, 51) + `{}]}`, 413},
		{"POST", p("cart"), "application/json", `{"rows": [{"age": 1, "income": 2, "color": "red"}]}`, 400},
		{"POST", p("cart"), "application/json", `{"rows": [{"age": "x", "income": 2, "color": "red", "size": "M"}]}`, 400},
		{"POST", p("cart"), "application/json", `{"rows": [{"age": 1,`, 400},
		{"POST", p("cart"), "application/json", `{"rows": [], "explain": true}`, 400},
		{"POST", p("cart"), "application/json", `{"Rows": [{"age": 1, "income": 2, "color": "red", "size": "M"}]}`, 200},
		{"POST", p("cart"), "application/json", `[1, 2]`, 400},
		{"POST", p("cart"), "text/csv", "age,income\n1,2\n", 415},
		{"POST", p("nope"), "application/json", good(0, 1, false), 404},
		{"GET", p("cart"), "", "", 405},
		{"GET", "/v1/models", "", "", 200},
		{"GET", "/healthz", "", "", 200},
		{"DELETE", "/v1/models/cart", "", "", 404},
	}
	total := 10000
	if testing.Short() {
		total = 1000
	}
	const conns = 64
	tr := &http.Transport{MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 60 * time.Second}
	var next atomic.Int64
	var mu sync.Mutex
	var bad []string
	counts := map[int]int{}
	var wg sync.WaitGroup
	for c := 0; c < conns; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= total {
					return
				}
				rq := cases[i%len(cases)]
				r, err := http.NewRequest(rq.method, hs.URL+rq.path, strings.NewReader(rq.body))
				if err != nil {
					panic(err)
				}
				if rq.ct != "" {
					r.Header.Set("Content-Type", rq.ct)
				}
				resp, err := client.Do(r)
				msg := ""
				if err != nil {
					msg = err.Error()
				} else {
					var v any
					if derr := json.NewDecoder(resp.Body).Decode(&v); derr != nil {
						msg = "answer is not JSON: " + derr.Error()
					} else if resp.StatusCode != rq.status {
						msg = fmt.Sprintf("status %d, want %d: %v", resp.StatusCode, rq.status, v)
					}
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
				mu.Lock()
				if msg != "" {
					bad = append(bad, fmt.Sprintf("request %d (%s %s): %s", i, rq.method, rq.path, msg))
				} else {
					counts[rq.status]++
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(bad) > 0 {
		t.Fatalf("%d of %d answers unexpected, e.g. %s", len(bad), total, bad[0])
	}
	t.Logf("%d requests from %d connections, statuses as expected: %v", total, conns, counts)
}

// TestSlowClients runs the server with short timeouts: a client that
// stalls while sending its body holds no slot and is cut off; one that
// stops reading a long streamed answer is cut off and its slot comes
// back; the server goes on answering.
func TestSlowClients(t *testing.T) {
	f := getFixture(t)
	logs := &logCounter{}
	s, err := New(Config{PollInterval: -1, Logf: logs.logf, ReadTimeout: 500 * time.Millisecond, WriteTimeout: time.Second}, "m="+f.paths["grande"])
	if err != nil {
		t.Fatal(err)
	}
	addr, stop := runServer(t, s)
	defer stop()
	slotsFree := func(what string) { waitSlotsFree(t, s, what) }

	// a body that never arrives in full
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(c, "POST /v1/models/m/predict HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"rows\": [")
	time.Sleep(100 * time.Millisecond)
	if len(s.work) != 0 {
		t.Fatal("a client still sending its body holds a slot")
	}
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	t0 := time.Now()
	rest, _ := io.ReadAll(c) // the server answers 400 or just closes; either way it ends the connection
	c.Close()
	if time.Since(t0) > 5*time.Second {
		t.Fatalf("a stalled body held the connection %v (read timeout 500 ms)", time.Since(t0))
	}
	t.Logf("stalled body: cut after %v, got %q", time.Since(t0).Round(time.Millisecond), firstLine(rest))
	slotsFree("stalled body")

	// an answer of several MB that the client stops reading
	var rows []map[string]any
	for len(rows) < 10000 {
		rows = append(rows, rowsJSON(f.ds.X, 0, 300)...)
	}
	body, _ := json.Marshal(map[string]any{"rows": rows[:10000], "explain": true})
	c, err = net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetReadBuffer(4096)
	}
	fmt.Fprintf(c, "POST /v1/models/m/predict HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", len(body))
	c.Write(body)
	br := bufio.NewReaderSize(c, 4096)
	c.SetReadDeadline(time.Now().Add(30 * time.Second))
	status, err := br.ReadString('\n')
	if err != nil && status != "" || err == nil && !strings.Contains(status, "200") {
		t.Fatalf("slow reader: %q %v", status, err)
	}
	// stop reading: the write timeout must cut the answer and free the slot
	slotsFree("slow reader")
	c.Close() // (what the server queued before the cut would drain slowly through the small window)
	if logs.count("writing the answer") != 1 {
		t.Fatalf("the cut answer was logged %d times, want once: %q", logs.count("writing the answer"), logs.lines)
	}
	hc := &http.Client{Timeout: 30 * time.Second}
	if code, r := post(t, hc, "http://"+addr+"/v1/models/m/predict", map[string]any{"rows": rowsJSON(f.ds.X, 0, 3), "explain": true}); code != 200 {
		t.Fatalf("after the slow clients: %d %s", code, r.Error)
	}
}

func firstLine(b []byte) string {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return string(b[:i])
	}
	return string(b)
}
