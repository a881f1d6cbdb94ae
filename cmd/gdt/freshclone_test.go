package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gdt-ml/gdt/datasets"
)

// readmeShellLines returns the command lines of the first sh block after
// heading in the README text, exactly as written (comments included: the
// shell ignores them); lines that are only a comment are left out.
func readmeShellLines(text, heading string) []string {
	i := strings.Index(text, heading)
	if i < 0 {
		return nil
	}
	block := text[i:]
	start := strings.Index(block, "```sh\n")
	if start < 0 {
		return nil
	}
	block = block[start+6:]
	end := strings.Index(block, "```")
	if end < 0 {
		return nil
	}
	var out []string
	for _, l := range strings.Split(block[:end], "\n") {
		if s := strings.TrimSpace(l); s != "" && !strings.HasPrefix(s, "#") {
			out = append(out, l)
		}
	}
	return out
}

// TestReadmeFreshClone clones this checkout's commit into a temporary
// folder that has the benchmark data beside it as shared/data (the layout
// README assumes), and runs README's short commands there through sh,
// exactly as written: from "Set-up on a fresh machine" `go run ./cmd/gdt
// demo` (the full `go test ./...` is what CI runs anyway), then every line
// of "A five-minute tour" — `go install ./cmd/gdt` with GOBIN in the
// clone's temporary folder and on PATH, train, show, predict, eval,
// report, and `gdt serve`, which runs in the background until the tour's
// `curl -s localhost:8080/v1/models` (a comment in README: "from another
// shell") answers. Any failing command fails the test. It needs git and
// the go command; uncommitted changes of the checkout are not in the
// clone.
func TestReadmeFreshClone(t *testing.T) {
	if testing.Short() {
		t.Skip("clones the repository, builds gdt and trains models (-short)")
	}
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed: cannot clone the repository to run README's commands on a fresh clone (Debian: apt-get install -y git)")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		if goBin = filepath.Join(runtime.GOROOT(), "bin", "go"); !fileExists(goBin) {
			t.Skip("no go command on PATH: cannot build gdt in the clone")
		}
	}
	root, err := datasets.Root("")
	if err != nil {
		t.Skipf("benchmark data not found (%v)", err)
	}
	root, _ = filepath.Abs(root)
	if filepath.Base(root) != "data" {
		t.Skipf("data root %s is not a shared/data folder", root)
	}
	repo, _ := filepath.Abs(filepath.Join("..", ".."))
	head, err := exec.Command(git, "-C", repo, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("%s is not a git checkout (%v): nothing to clone", repo, err)
	}
	commit := strings.TrimSpace(string(head))
	if st, _ := exec.Command(git, "-C", repo, "status", "--porcelain", "--untracked-files=no").Output(); len(st) > 0 {
		t.Logf("note: the checkout has uncommitted changes; the clone tests commit %s without them", commit)
	}

	top := t.TempDir()
	clone, bin := filepath.Join(top, "gdt"), filepath.Join(top, "bin")
	if err := os.Symlink(filepath.Dir(root), filepath.Join(top, "shared")); err != nil {
		t.Skip(err)
	}
	run := func(name string, args ...string) {
		t.Helper()
		if out, err := exec.Command(name, args...).CombinedOutput(); err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
	}
	run(git, "clone", "--quiet", repo, clone)
	if err := exec.Command(git, "-C", clone, "checkout", "--quiet", "--detach", commit).Run(); err != nil {
		run(git, "-C", clone, "fetch", "--quiet", repo, commit)
		run(git, "-C", clone, "checkout", "--quiet", "--detach", commit)
	}
	readme, err := os.ReadFile(filepath.Join(clone, "README.md"))
	if err != nil {
		t.Fatal(err)
	}

	// The environment of a new user: gdt installs into GOBIN, which is on
	// PATH; no GDT_DATA, so gdt finds ../shared/data beside the clone.
	var env []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); k != "GDT_DATA" && k != "GOBIN" && k != "PATH" {
			env = append(env, kv)
		}
	}
	env = append(env, "GOBIN="+bin, "PATH="+bin+string(os.PathListSeparator)+filepath.Dir(goBin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	sh := func(line string) *exec.Cmd {
		cmd := exec.Command("sh", "-c", line)
		cmd.Dir, cmd.Env = clone, env
		return cmd
	}

	var lines []string
	for _, l := range readmeShellLines(string(readme), "## Set-up on a fresh machine") {
		if strings.HasPrefix(strings.TrimSpace(l), "go run ./cmd/gdt demo") {
			lines = append(lines, l)
		}
	}
	tour := readmeShellLines(string(readme), "## A five-minute tour")
	if len(lines) != 1 || len(tour) < 7 || !strings.HasPrefix(tour[0], "go install ./cmd/gdt") {
		t.Fatalf("README's set-up demo line %q or tour %q not found as expected", lines, tour)
	}
	lines = append(lines, tour...)
	ran := 0
	for _, line := range lines {
		if strings.HasPrefix(line, "gdt serve ") {
			serveTour(t, sh, line, string(readme))
			ran++
			continue
		}
		start := time.Now()
		var stdout, stderr bytes.Buffer
		cmd := sh(line)
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s\nfailed in a fresh clone: %v\nstdout: %s\nstderr: %s", line, err, tail(stdout.String()), tail(stderr.String()))
		}
		t.Logf("ok (%.1f s): %s", time.Since(start).Seconds(), line)
		ran++
	}
	if _, err := os.Stat(filepath.Join(clone, "wdbc-report", "report.html")); err != nil {
		t.Errorf("the tour's report: %v", err)
	}
	t.Logf("ran %d README commands on a fresh clone of %s", ran, commit)
}

// serveTour runs the tour's gdt serve line in the background, waits for
// the tour's request (README's "curl -s localhost:8080/v1/models" comment;
// run with curl when it is installed) to answer with the model, and stops
// the server. If port 8080 is taken, it says so and leaves serve out.
func serveTour(t *testing.T, sh func(string) *exec.Cmd, line, readme string) {
	t.Helper()
	if ln, err := net.Listen("tcp", "127.0.0.1:8080"); err != nil {
		t.Logf("not run: port 8080 is in use on this machine (%v): %s", err, line)
		return
	} else {
		ln.Close()
	}
	const url = "localhost:8080/v1/models"
	if !strings.Contains(readme, "curl -s "+url) {
		t.Fatalf("README's tour no longer asks the server with curl -s %s; update this test", url)
	}
	var stderr bytes.Buffer
	cmd := sh("exec " + line)
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
	}()
	var body []byte
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		select {
		case err := <-exited:
			exited <- err
			t.Fatalf("%s\nexited in a fresh clone: %v\n%s", line, err, tail(stderr.String()))
		default:
		}
		resp, err := http.Get("http://" + url)
		if err == nil {
			body, _ = io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: no answer from %s within 30 s (%v)\n%s", line, url, err, tail(stderr.String()))
		}
	}
	if curl, err := exec.LookPath("curl"); err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		if body, err = exec.CommandContext(ctx, curl, "-s", url).Output(); err != nil {
			t.Fatalf("curl -s %s: %v", url, err)
		}
	}
	if !bytes.Contains(body, []byte("wdbc")) {
		t.Fatalf("%s answers without the served model:\n%s", url, tail(string(body)))
	}
	cmdOnly, _, _ := strings.Cut(line, "#")
	t.Logf("ok: %s; curl -s %s answers with the model", strings.TrimSpace(cmdOnly), url)
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// tail returns the last 3000 bytes of s.
func tail(s string) string {
	if len(s) > 3000 {
		return "…" + s[len(s)-3000:]
	}
	return s
}
