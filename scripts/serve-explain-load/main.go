// Command serve-explain-load fires concurrent predict requests built from
// the rows of a CSV file at a running gdt serve and reports, per request,
// the status, the wall time, the response size and the number of
// predictions and explanations read back (scripts/serve-explain-rss.sh
// runs it).
//
//	go run ./scripts/serve-explain-load -url http://127.0.0.1:8080/v1/models/adult/predict \
//	    -csv /tmp/adult-200k.csv -drop class -rows 100000 -n 4 -explain
//
// A cell that parses as a finite number is sent as a JSON number, an
// empty cell as null, anything else as a string. The response is read
// token by token, so the client's memory does not grow with its size.
package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"strconv"
	"sync"
	"time"
)

func main() {
	url := flag.String("url", "", "predict URL, e.g. http://127.0.0.1:8080/v1/models/NAME/predict")
	path := flag.String("csv", "", "CSV file with a header row")
	drop := flag.String("drop", "", "column to leave out (the target)")
	rows := flag.Int("rows", 100000, "rows per request (the first ROWS data rows)")
	n := flag.Int("n", 4, "concurrent requests")
	explain := flag.Bool("explain", true, `send "explain": true`)
	flag.Parse()
	if *url == "" || *path == "" {
		flag.Usage()
		os.Exit(2)
	}
	body, err := buildBody(*path, *drop, *rows, *explain)
	if err != nil {
		fmt.Fprintln(os.Stderr, "serve-explain-load:", err)
		os.Exit(1)
	}
	fmt.Printf("request body: %d rows, %.1f MB; %d concurrent requests\n", *rows, float64(len(body))/1e6, *n)
	var wg sync.WaitGroup
	results := make([]string, *n)
	failed := false
	var mu sync.Mutex
	start := time.Now()
	for i := 0; i < *n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			t0 := time.Now()
			r, err := fire(*url, body)
			d := time.Since(t0)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				failed = true
				results[i] = fmt.Sprintf("request %d: %.1f s: %v", i, d.Seconds(), err)
				return
			}
			if r.status != 200 || r.predictions != *rows || (*explain && r.explanations != *rows) {
				failed = true
			}
			results[i] = fmt.Sprintf("request %d: status %d in %.1f s, %.1f MB, %d predictions, %d explanations %s",
				i, r.status, d.Seconds(), float64(r.bytes)/1e6, r.predictions, r.explanations, r.errMsg)
		}(i)
	}
	wg.Wait()
	for _, r := range results {
		fmt.Println(r)
	}
	fmt.Printf("all %d requests done in %.1f s\n", *n, time.Since(start).Seconds())
	if failed {
		os.Exit(1)
	}
}

// buildBody renders the first rows of the CSV file as a predict request.
func buildBody(path, drop string, rows int, explain bool) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(bufio.NewReader(f))
	head, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: header: %w", path, err)
	}
	var b bytes.Buffer
	b.WriteString(`{"explain": ` + strconv.FormatBool(explain) + `, "rows": [`)
	for i := 0; i < rows; i++ {
		rec, err := r.Read()
		if err == io.EOF {
			return nil, fmt.Errorf("%s has only %d data rows, want %d", path, i, rows)
		}
		if err != nil {
			return nil, err
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('{')
		first := true
		for j, name := range head {
			if name == drop {
				continue
			}
			if !first {
				b.WriteByte(',')
			}
			first = false
			k, _ := json.Marshal(name)
			b.Write(k)
			b.WriteByte(':')
			cell := rec[j]
			if x, err := strconv.ParseFloat(cell, 64); err == nil && !math.IsInf(x, 0) && !math.IsNaN(x) {
				b.WriteString(strconv.FormatFloat(x, 'g', -1, 64))
			} else if cell == "" {
				b.WriteString("null")
			} else {
				v, _ := json.Marshal(cell)
				b.Write(v)
			}
		}
		b.WriteByte('}')
	}
	b.WriteString("]}")
	return b.Bytes(), nil
}

type answer struct {
	status                    int
	bytes                     int64
	predictions, explanations int
	errMsg                    string
}

type counter struct {
	r io.Reader
	n int64
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// fire posts body and reads the answer as a stream of tokens, counting
// the elements of "predictions" and "explanations".
func fire(url string, body []byte) (answer, error) {
	resp, err := http.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		return answer{}, err
	}
	defer resp.Body.Close()
	a := answer{status: resp.StatusCode}
	c := &counter{r: resp.Body}
	if resp.StatusCode != 200 {
		var e struct {
			Error string `json:"error"`
		}
		json.NewDecoder(c).Decode(&e)
		a.errMsg = fmt.Sprintf("(error %q, Retry-After %q)", e.Error, resp.Header.Get("Retry-After"))
		return a, nil
	}
	dec := json.NewDecoder(c)
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return a, fmt.Errorf("answer does not start with an object: %v %v", t, err)
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return a, err
		}
		key, _ := t.(string)
		switch key {
		case "predictions", "explanations":
			if t, err := dec.Token(); err != nil || t != json.Delim('[') {
				return a, fmt.Errorf("%s is not an array: %v %v", key, t, err)
			}
			count := 0
			for dec.More() {
				var v json.RawMessage
				if err := dec.Decode(&v); err != nil {
					return a, err
				}
				count++
			}
			if _, err := dec.Token(); err != nil {
				return a, err
			}
			if key == "predictions" {
				a.predictions = count
			} else {
				a.explanations = count
			}
		default:
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				return a, err
			}
		}
	}
	if _, err := dec.Token(); err != nil {
		return a, fmt.Errorf("answer ends early: %w", err)
	}
	if _, err := io.Copy(io.Discard, c); err != nil && !errors.Is(err, io.EOF) {
		return a, err
	}
	a.bytes = c.n
	return a, nil
}
