package serve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// loadResult summarises one load run.
type loadResult struct {
	requests, errors int
	rows             int
	elapsed          time.Duration
	p50, p99         time.Duration
}

func (r loadResult) String() string {
	return fmt.Sprintf("%5d requests in %5.2f s: %7.0f req/s, %8.0f rows/s, p50 %7.2f ms, p99 %7.2f ms, %d errors",
		r.requests, r.elapsed.Seconds(), float64(r.requests)/r.elapsed.Seconds(), float64(r.requests*r.rows)/r.elapsed.Seconds(),
		ms(r.p50), ms(r.p99), r.errors)
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// hammer sends body to url from workers goroutines until maxRequests were
// sent or the time budget is spent.
func hammer(url string, body []byte, rows, workers, maxRequests int, budget time.Duration) loadResult {
	tr := &http.Transport{MaxIdleConnsPerHost: workers, MaxConnsPerHost: workers}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	var sent, errs atomic.Int64
	lat := make([][]time.Duration, workers)
	deadline := time.Now().Add(budget)
	start := time.Now()
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for sent.Add(1) <= int64(maxRequests) && time.Now().Before(deadline) {
				t0 := time.Now()
				resp, err := client.Post(url, "application/json", bytes.NewReader(body))
				if err != nil {
					errs.Add(1)
					continue
				}
				var r struct {
					Predictions []any `json:"predictions"`
				}
				err = json.NewDecoder(resp.Body).Decode(&r)
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if err != nil || resp.StatusCode != 200 || len(r.Predictions) != rows {
					errs.Add(1)
				}
				lat[w] = append(lat[w], time.Since(t0))
			}
		}(w)
	}
	wg.Wait()
	res := loadResult{elapsed: time.Since(start), rows: rows, errors: int(errs.Load())}
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	sort.Slice(all, func(a, b int) bool { return all[a] < all[b] })
	res.requests = len(all)
	if len(all) > 0 {
		res.p50 = all[len(all)/2]
		res.p99 = all[min(len(all)-1, len(all)*99/100)]
	}
	return res
}

// TestLoad runs the server on 127.0.0.1 (Run, as gdt serve does) and
// measures throughput and latency of single-row and 1,000-row requests
// from 8 concurrent clients, bounded in count and time. It fails on any
// error. go test -run TestLoad -v ./serve prints the figures.
func TestLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("load test skipped in -short mode")
	}
	f := getFixture(t)
	s, err := New(Config{PollInterval: -1, Logf: t.Logf}, "cart="+f.paths["cart"], "gradtree="+f.paths["gradtree"], "grande="+f.paths["grande"])
	if err != nil {
		t.Fatal(err)
	}
	addr, stop := runServer(t, s)
	base := "http://" + addr
	one, _ := json.Marshal(map[string]any{"rows": rowsJSON(f.ds.X, 0, 1)})
	var thousand []map[string]any
	for len(thousand) < 1000 {
		thousand = append(thousand, rowsJSON(f.ds.X, 0, min(300, 1000-len(thousand)))...)
	}
	big, _ := json.Marshal(map[string]any{"rows": thousand})
	explained, _ := json.Marshal(map[string]any{"rows": rowsJSON(f.ds.X, 0, 1), "explain": true})
	const workers = 8
	for _, kind := range []string{"cart", "gradtree", "grande"} {
		url := base + "/v1/models/" + kind + "/predict"
		for _, c := range []struct {
			name    string
			body    []byte
			rows, n int
			budget  time.Duration
		}{
			{"1 row", one, 1, 2000, time.Second},
			{"1 row+explain", explained, 1, 1000, time.Second / 2},
			{"1000 rows", big, 1000, 60, 2 * time.Second},
		} {
			r := hammer(url, c.body, c.rows, workers, c.n, c.budget)
			t.Logf("%-8s %-13s %s", kind, c.name, r)
			if r.errors > 0 || r.requests == 0 {
				t.Errorf("%s %s: %d errors in %d requests", kind, c.name, r.errors, r.requests)
			}
		}
	}
	if err := stop(); err != nil {
		t.Fatalf("Run: %v", err)
	}
}

// TestRunPollsAndShutsDown checks the background reload by polling and the
// graceful shutdown of Run.
func TestRunPollsAndShutsDown(t *testing.T) {
	f := getFixture(t)
	path := t.TempDir() + "/m.json"
	if err := f.models["cart"].Save(path); err != nil {
		t.Fatal(err)
	}
	s, err := New(Config{PollInterval: 20 * time.Millisecond, Logf: t.Logf}, path)
	if err != nil {
		t.Fatal(err)
	}
	addr, stop := runServer(t, s)
	if err := f.models["grande"].Save(path); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); s.Model("m").Spec.Kind != "grande"; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the changed model file was not reloaded within 5 s")
		}
	}
	resp, err := http.Get("http://" + addr + "/healthz")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("healthz: %v", err)
	}
	resp.Body.Close()
	if err := stop(); err != nil {
		t.Fatalf("Run: %v", err)
	}
	if _, err := http.Get("http://" + addr + "/healthz"); err == nil {
		t.Fatal("server still answers after shutdown")
	}
}
