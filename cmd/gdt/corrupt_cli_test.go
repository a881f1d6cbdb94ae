package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gdt-ml/gdt/internal/corrupt"
)

// The corrupted-model corpus through the command line (issue 20): model
// files of every kind are damaged (corrupt.Mutate: truncations, bit flips,
// numbers set to −1, 0, huge and fractional values, arrays emptied,
// shortened and lengthened, strings emptied and bloated, compact arrays
// poisoned) and each one goes through gdt show, gdt predict, gdt serve
// started on it and a gdt serve --poll reload to it, every process under
// `ulimit -v 4000000`. Counted: panics ("panic:" or "goroutine " on
// stderr), fatal errors ("fatal error:"), deaths by a signal, hangs, and
// wrong successes (exit 0 / HTTP 200 with a non-finite or out-of-range
// probability, probabilities not summing to 1, a prediction that is not one
// of the classes, or a served model that stops answering after a reload).
//
// By default one damaged file per model goes through (a few seconds);
// GDT_CORRUPT_CLI=N sends N per model (scripts/corrupt-cli.sh: 30 per
// model, 330 files). The gdt run is this test binary acting as gdt
// (GDT_TEST_MAIN=1), or the binary GDT_BIN names.

// corpusCSV writes the training rows: two numeric columns (one with
// missing values), two categorical ones, and a binary, a multiclass and a
// regression target.
func corpusCSV(t *testing.T, dir string) (train, query string) {
	var b strings.Builder
	b.WriteString("age,income,housing,city,decision,grade,amount\n")
	housing := []string{"rent", "own", "mortgage"}
	city := []string{"north", "south", "east", "west"}
	for i := 0; i < 90; i++ {
		age := strconv.Itoa(20 + (i*7)%45)
		if i%11 == 3 {
			age = ""
		}
		income := 20000 + (i*3701)%70000
		h, c := housing[i%3], city[(i/3)%4]
		dec := "no"
		if income > 45000 || h == "own" {
			dec = "yes"
		}
		grade := []string{"a", "b", "c"}[(income/25000+i%2)%3]
		fmt.Fprintf(&b, "%s,%d,%s,%s,%s,%s,%.1f\n", age, income, h, c, dec, grade, float64(income)/1000+float64(i%5))
	}
	train = filepath.Join(dir, "train.csv")
	query = filepath.Join(dir, "query.csv")
	if err := os.WriteFile(train, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	q := "age,income,housing,city\n30,25000,rent,north\n,61000,own,south\n55,40000,boat,east\n41,99000,mortgage,\n"
	if err := os.WriteFile(query, []byte(q), 0o644); err != nil {
		t.Fatal(err)
	}
	return train, query
}

// serveRows are the query rows as serve takes them.
const serveRows = `{"rows": [{"age": 30, "income": 25000, "housing": "rent", "city": "north"},
 {"age": null, "income": 61000, "housing": "own", "city": "south"},
 {"age": 55, "income": 40000, "housing": "boat", "city": "east"}]}`

// corpusBase is one trained model file the corpus damages.
type corpusBase struct {
	name, path string
	multimodal bool
}

// trainCorpusBases trains one small model of every kind (and a few tasks).
func trainCorpusBases(t *testing.T, dir, train string) []corpusBase {
	specs := []struct {
		name, kind, target string
		set                []string
	}{
		{"cart", "cart", "decision", []string{"depth=3"}},
		{"cart-regression", "cart", "amount", []string{"depth=3"}},
		{"random-forest", "random-forest", "grade", []string{"n_estimators=4", "depth=3"}},
		{"gradtree", "gradtree", "decision", []string{"depth=3", "epochs=5", "restarts=1"}},
		{"gradtree-multiclass", "gradtree", "grade", []string{"depth=3", "epochs=5", "restarts=1"}},
		{"grande", "grande", "decision", []string{"n_estimators=6", "depth=3", "epochs=4"}},
		{"grande-regression", "grande", "amount", []string{"n_estimators=6", "depth=3", "epochs=4"}},
		{"grande-fast", "grande-fast", "grade", []string{"n_estimators=6", "depth=3", "epochs=4"}},
		{"mlp", "mlp", "grade", []string{"mlp_hidden=8,4", "epochs=3"}},
	}
	var out []corpusBase
	for _, s := range specs {
		p := filepath.Join(dir, s.name+".gdt.json")
		args := []string{"train", "--data", train, "--target", s.target, "--model", s.kind, "--out", p, "--quiet"}
		for _, kv := range s.set {
			args = append(args, "--set", kv)
		}
		if _, errOut, code := gdt(t, args...); code != 0 {
			t.Fatalf("training the %s base model: exit %d: %s", s.name, code, errOut)
		}
		out = append(out, corpusBase{name: s.name, path: p})
	}
	meta := multimodalData(t, dir)
	p := filepath.Join(dir, "multimodal.json")
	if _, errOut, code := gdt(t, "train", "--model", "multimodal", "--data", meta, "--out", p, "--size", "8", "--valid", "0.25", "--quiet",
		"--set", "channels=4,8", "--set", "trees=4", "--set", "depth=2", "--set", "pretrain_epochs=1", "--set", "epochs=1"); code != 0 {
		t.Fatalf("training the multimodal base model: exit %d: %s", code, errOut)
	}
	return append(out, corpusBase{name: "multimodal", path: p, multimodal: true})
}

// corpusTally counts the outcomes of the corpus runs.
type corpusTally struct {
	mu                                              sync.Mutex
	files, runs, rejected, accepted                 int
	panics, fatals, signals, hangs, wrong, unclosed int
	failures                                        []string
}

// outcome counts one CLI run on a damaged file: a hang, a crash or a death
// by a signal is a failure; a non-zero exit is a rejection, wrong unless its
// error contains want (missing says what is then wrong). It reports whether
// the run exited 0, so the caller can check what was printed.
func (c *corpusTally) outcome(label, errOut string, code int, err error, want, missing string) bool {
	switch {
	case err != nil && strings.Contains(err.Error(), "hung"):
		c.fail("hang", label)
	case crashed(errOut) != "":
		c.fail(crashed(errOut), label+": "+firstLines(errOut, 3))
	case err != nil:
		c.fail("signal", label+": "+err.Error())
	case code != 0:
		c.rejected++
		if !strings.Contains(errOut, want) {
			c.fail("wrong", label+": exit "+strconv.Itoa(code)+" "+missing+": "+firstLines(errOut, 2))
		}
	default:
		c.accepted++
		return true
	}
	return false
}

func (c *corpusTally) fail(kind, what string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch kind {
	case "panic":
		c.panics++
	case "fatal":
		c.fatals++
	case "signal":
		c.signals++
	case "hang":
		c.hangs++
	default:
		c.wrong++
	}
	if len(c.failures) < 40 {
		c.failures = append(c.failures, kind+": "+what)
	}
}

// crashed classifies stderr of a gdt run: "panic", "fatal" or "".
func crashed(stderr string) string {
	switch {
	case strings.Contains(stderr, "fatal error:"):
		return "fatal"
	case strings.Contains(stderr, "panic:") || strings.Contains(stderr, "goroutine "):
		return "panic"
	}
	return ""
}

// gdtCommand returns the command running gdt with args under ulimit -v.
func gdtCommand(args ...string) *exec.Cmd {
	bin := os.Getenv("GDT_BIN")
	if bin == "" {
		bin = os.Args[0]
	}
	cmd := exec.Command("/bin/sh", append([]string{"-c", `ulimit -v 4000000 && exec "$0" "$@"`, bin}, args...)...)
	cmd.Env = append(os.Environ(), "GDT_TEST_MAIN=1")
	return cmd
}

// runGdt runs gdt to completion (at most a minute).
func runGdt(args ...string) (stdout, stderr string, code int, err error) {
	cmd := gdtCommand(args...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	if err := cmd.Start(); err != nil {
		return "", "", 0, err
	}
	t := time.AfterFunc(time.Minute, func() { cmd.Process.Kill() })
	err = cmd.Wait()
	hung := !t.Stop()
	code = cmd.ProcessState.ExitCode()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		err = fmt.Errorf("killed by %v", ws.Signal())
		if hung {
			err = fmt.Errorf("hung for a minute")
		}
		return o.String(), e.String(), code, err
	}
	return o.String(), e.String(), code, nil
}

// checkPredictCSV checks gdt predict's CSV: probabilities (p_*) finite in
// [0, 1] summing to 1, the prediction one of the classes (or finite).
func checkPredictCSV(out string, rows int) error {
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		return fmt.Errorf("unreadable output: %v", err)
	}
	if len(recs) != rows+1 {
		return fmt.Errorf("%d output lines for %d rows", len(recs), rows)
	}
	head := recs[0]
	pred := -1
	var probs []int
	classes := map[string]bool{}
	for j, h := range head {
		switch {
		case h == "prediction":
			pred = j
		case strings.HasPrefix(h, "p_"):
			probs = append(probs, j)
			classes[strings.TrimPrefix(h, "p_")] = true
		}
	}
	if pred < 0 {
		return fmt.Errorf("no prediction column in %q", head)
	}
	for i, r := range recs[1:] {
		if len(probs) == 0 {
			v, err := strconv.ParseFloat(r[pred], 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("row %d: prediction %q", i, r[pred])
			}
			continue
		}
		if !classes[r[pred]] {
			return fmt.Errorf("row %d: prediction %q is not one of the classes %q", i, r[pred], head)
		}
		if err := checkProbs(r, probs); err != nil {
			return fmt.Errorf("row %d: %v", i, err)
		}
	}
	return nil
}

func checkProbs(r []string, cols []int) error {
	sum := 0.0
	for _, j := range cols {
		v, err := strconv.ParseFloat(r[j], 64)
		if err != nil || math.IsNaN(v) || v < 0 || v > 1 {
			return fmt.Errorf("probability %q", r[j])
		}
		sum += v
	}
	if math.Abs(sum-1) > 1e-3 {
		return fmt.Errorf("probabilities sum to %v", sum)
	}
	return nil
}

// noKeepAlive closes each connection after its answer, so stopping a
// server does not wait for idle connections.
var noKeepAlive = &http.Client{Timeout: time.Minute, Transport: &http.Transport{DisableKeepAlives: true}}

// checkServed asks the server at url for predictions of the query rows:
// 200 with finite probabilities summing to 1 (or finite values), or an
// error status with a JSON error.
func checkServed(url string) (ok bool, err error) {
	resp, err := noKeepAlive.Post(url+"/v1/models/m/predict", "application/json", strings.NewReader(serveRows))
	if err != nil {
		return false, fmt.Errorf("predict request: %v", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		var e struct{ Error string }
		if json.Unmarshal(body, &e) != nil || e.Error == "" {
			return false, fmt.Errorf("status %d without a JSON error: %.200s", resp.StatusCode, body)
		}
		if resp.StatusCode >= 500 {
			return false, fmt.Errorf("status %d: %s", resp.StatusCode, e.Error)
		}
		return false, nil
	}
	var r struct {
		Task          string
		Classes       []string
		Predictions   []any
		Probabilities [][]float64
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return false, fmt.Errorf("unreadable 200 answer: %v: %.200s", err, body)
	}
	if len(r.Predictions) != 3 {
		return false, fmt.Errorf("%d predictions for 3 rows", len(r.Predictions))
	}
	for i, p := range r.Predictions {
		switch v := p.(type) {
		case float64:
			if r.Task != "regression" {
				return false, fmt.Errorf("row %d: a number %v for a %s task", i, v, r.Task)
			}
		case string:
			found := false
			for _, c := range r.Classes {
				found = found || c == v
			}
			if !found {
				return false, fmt.Errorf("row %d: prediction %q is not one of %q", i, v, r.Classes)
			}
		default:
			return false, fmt.Errorf("row %d: prediction %v", i, p)
		}
	}
	for i, row := range r.Probabilities {
		s := make([]string, len(row))
		idx := make([]int, len(row))
		for j, v := range row {
			s[j], idx[j] = strconv.FormatFloat(v, 'g', -1, 64), j
		}
		if len(row) != len(r.Classes) {
			return false, fmt.Errorf("row %d: %d probabilities for %d classes", i, len(row), len(r.Classes))
		}
		if err := checkProbs(s, idx); err != nil {
			return false, fmt.Errorf("row %d: %v", i, err)
		}
	}
	return true, nil
}

// server is a gdt serve process.
type server struct {
	cmd    *exec.Cmd
	url    string
	stderr *lockedBuffer
	exited chan struct{}
}

// startServer starts gdt serve on m=path; url is "" when it exited
// instead of listening (its stderr says why).
func startServer(path string, poll string) (*server, error) {
	cmd := gdtCommand("serve", "--addr", "127.0.0.1:0", "--json", "--poll", poll, "m="+path)
	s := &server{cmd: cmd, stderr: &lockedBuffer{}, exited: make(chan struct{})}
	cmd.Stderr = s.stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	urls := make(chan string, 1)
	go func() {
		var j struct{ URL string }
		dec := json.NewDecoder(out)
		if dec.Decode(&j) != nil {
			j.URL = ""
		}
		urls <- j.URL
		io.Copy(io.Discard, io.MultiReader(dec.Buffered(), out))
	}()
	go func() { cmd.Wait(); close(s.exited) }()
	select {
	case url := <-urls:
		if url == "" {
			<-s.exited
			return s, nil
		}
		s.url = url
		return s, nil
	case <-time.After(time.Minute):
		s.stop()
		return nil, fmt.Errorf("hung for a minute")
	}
}

func (s *server) stop() {
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(10 * time.Second):
		s.cmd.Process.Kill()
		<-s.exited
	}
}

// died reports how the server process ended ("" while it runs).
func (s *server) died() string {
	select {
	case <-s.exited:
		return fmt.Sprintf("exited (%v)", s.cmd.ProcessState)
	default:
		return ""
	}
}

// corpusPerBase is the number of damaged files per base file: GDT_CORRUPT_CLI,
// 1 when unset.
func corpusPerBase(t *testing.T) int {
	n := os.Getenv("GDT_CORRUPT_CLI")
	if n == "" {
		return 1
	}
	perBase, err := strconv.Atoi(n)
	if err != nil || perBase < 1 {
		t.Fatalf("GDT_CORRUPT_CLI=%q: expected a number of files per model", n)
	}
	return perBase
}

// TestCorruptModelsCLI sends the corrupted-model corpus through gdt show,
// predict and serve (see the comment at the top of the file).
func TestCorruptModelsCLI(t *testing.T) {
	perBase := corpusPerBase(t)
	dir := t.TempDir()
	train, query := corpusCSV(t, dir)
	start := time.Now()
	bases := trainCorpusBases(t, dir, train)
	t.Logf("trained %d base models in %v", len(bases), time.Since(start).Round(time.Millisecond))
	meta := filepath.Join(dir, "meta.csv")
	tally := &corpusTally{}
	for bi, base := range bases {
		b, err := os.ReadFile(base.path)
		if err != nil {
			t.Fatal(err)
		}
		muts, err := corrupt.Mutate(b, uint64(bi))
		if err != nil {
			t.Fatal(err)
		}
		// perBase mutations spread over the list (fields in document
		// order, then truncations and bit flips), shifted per model.
		var picked []corrupt.Mutation
		for i := 0; i < perBase && i < len(muts); i++ {
			picked = append(picked, muts[(i*len(muts)/perBase+bi*7)%len(muts)])
		}
		var poller *server
		watched := filepath.Join(dir, "watched-"+base.name+".json")
		if !base.multimodal {
			if err := os.WriteFile(watched, b, 0o644); err != nil {
				t.Fatal(err)
			}
			if poller, err = startServer(watched, "50ms"); err != nil {
				t.Fatalf("%s: serve --poll on the undamaged file: %v", base.name, err)
			}
			if poller.url == "" {
				t.Fatalf("%s: serve --poll on the undamaged file: %s", base.name, poller.stderr.String())
			}
		}
		for mi, m := range picked {
			tally.files++
			f := filepath.Join(dir, fmt.Sprintf("%s-%03d.json", base.name, mi))
			mb := m.Bytes()
			if err := os.WriteFile(f, mb, 0o644); err != nil {
				t.Fatal(err)
			}
			what := fmt.Sprintf("%s (%s)", f, m.What)
			if os.Getenv("GDT_CORRUPT_TRACE") != "" {
				fmt.Fprintf(os.Stderr, "%s %s\n", time.Now().Format("15:04:05.000"), what)
			}
			// show and predict
			predictArgs := []string{"predict", f, "--data", query, "--proba"}
			if base.multimodal {
				predictArgs = []string{"predict", f, "--data", meta, "--images", dir}
			}
			for _, args := range [][]string{{"show", f}, predictArgs} {
				tally.runs++
				out, errOut, code, err := runGdt(args...)
				label := fmt.Sprintf("gdt %s %s", args[0], what)
				if tally.outcome(label, errOut, code, err, "gdt "+args[0], "without a gdt error line") {
					if args[0] == "predict" {
						if err := checkPredictCSV(out, map[bool]int{false: 4, true: 30}[base.multimodal]); err != nil {
							tally.fail("wrong", label+": exit 0 but "+err.Error())
						}
					} else if strings.Contains(out, "NaN") || strings.Contains(out, "Inf") {
						tally.fail("wrong", label+": exit 0 printing a non-finite value")
					}
				}
			}
			// serve started on the file
			tally.runs++
			s, err := startServer(f, "0")
			label := "gdt serve " + what
			switch {
			case err != nil:
				tally.fail("hang", label+": "+err.Error())
			case crashed(s.stderr.String()) != "":
				tally.fail(crashed(s.stderr.String()), label+": "+firstLines(s.stderr.String(), 3))
				s.stop()
			case s.url == "":
				tally.rejected++
				if s.cmd.ProcessState.ExitCode() <= 0 || !strings.Contains(s.stderr.String(), "gdt serve") {
					tally.fail("wrong", label+": ended "+s.cmd.ProcessState.String()+" without a gdt error line: "+firstLines(s.stderr.String(), 2))
				}
			default:
				tally.accepted++
				if _, err := checkServed(s.url); err != nil {
					tally.fail("wrong", label+": started, but "+err.Error())
				}
				s.stop()
				if c := crashed(s.stderr.String()); c != "" {
					tally.fail(c, label+": "+firstLines(s.stderr.String(), 3))
				}
			}
			if poller == nil {
				continue
			}
			// serve --poll reloading the file
			tally.runs++
			label = "gdt serve --poll reload to " + what
			before := strings.Count(poller.stderr.String(), "serve: model m")
			tmp := watched + ".new"
			if err := os.WriteFile(tmp, mb, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(tmp, watched); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(30 * time.Second)
			for strings.Count(poller.stderr.String(), "serve: model m") == before && poller.died() == "" && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			errOut := poller.stderr.String()
			if d := poller.died(); d != "" {
				kind := crashed(errOut)
				if kind == "" {
					kind = "signal"
				}
				tally.fail(kind, label+": the server "+d+": "+firstLines(errOut[strings.LastIndex(errOut, "serve: model m")+1:], 3))
				if poller, err = startServer(watched, "50ms"); err != nil || poller.url == "" {
					os.WriteFile(watched, b, 0o644)
					poller, _ = startServer(watched, "50ms")
				}
				continue
			}
			if strings.Count(errOut, "serve: model m") == before {
				tally.fail("hang", label+": no reload logged within 30 s")
				continue
			}
			if last := errOut[strings.LastIndex(errOut, "serve: model m"):]; strings.Contains(firstLines(last, 1), "reload failed") {
				tally.rejected++
			} else {
				tally.accepted++
			}
			if _, err := checkServed(poller.url); err != nil {
				tally.fail("wrong", label+": after the reload, "+err.Error())
			}
		}
		if poller != nil {
			poller.stop()
			if c := crashed(poller.stderr.String()); c != "" {
				tally.fail(c, base.name+": serve --poll: "+firstLines(poller.stderr.String(), 3))
			}
		}
	}
	t.Logf("%d corrupted files over %d models (%s), %d runs of show/predict/serve/serve --poll: %d rejected with an error, %d accepted; "+
		"%d panics, %d fatal errors, %d killed by a signal, %d hangs, %d wrong successes",
		tally.files, len(bases), baseNames(bases), tally.runs, tally.rejected, tally.accepted,
		tally.panics, tally.fatals, tally.signals, tally.hangs, tally.wrong)
	for _, f := range tally.failures {
		t.Error(f)
	}
	if tally.files < len(bases)*perBase/2 {
		t.Errorf("only %d corrupted files for %d models", tally.files, len(bases))
	}
}

func baseNames(bases []corpusBase) string {
	var s []string
	for _, b := range bases {
		s = append(s, b.name)
	}
	return strings.Join(s, ", ")
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(strings.TrimSpace(s), "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, " | ")
}
