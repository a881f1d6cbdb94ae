//go:build linux

package hpo

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/c-bata/goptuna"
)

// Environment of a worker process started by these tests (the test binary
// re-executes itself).
const (
	envWorker = "GDT_HPO_TEST_WORKER" // store spec
	envStudy  = "GDT_HPO_TEST_STUDY"
	envBudget = "GDT_HPO_TEST_BUDGET"
	// envHold = N makes the worker hold its trial N+1 (after N finished):
	// it prints "hold" inside the trial's first step and waits there until
	// it is killed, so a test kills it mid-trial without timing guesses.
	envHold = "GDT_HPO_TEST_HOLD"
)

func TestMain(m *testing.M) {
	if spec := os.Getenv(envWorker); spec != "" {
		os.Exit(runTestWorker(spec))
	}
	code := m.Run()
	stopPostgres()
	os.Exit(code)
}

// runTestWorker works on the study with a synthetic objective (3 steps of
// 80 ms), printing "start" and "end" around every trial (and "hold" when
// it holds a trial, see envHold).
func runTestWorker(spec string) int {
	store, err := OpenStore(spec)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer store.Close()
	s, err := LoadStudy(store, os.Getenv(envStudy), Config{Heartbeat: 200 * time.Millisecond, Lease: 5 * time.Second, Poll: 50 * time.Millisecond})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	budget, _ := strconv.Atoi(os.Getenv(envBudget))
	inner := synthetic(3, 80*time.Millisecond)
	hold := -1
	if h := os.Getenv(envHold); h != "" {
		hold, _ = strconv.Atoi(h)
	}
	started := 0
	obj := func(ctx context.Context, opts map[string]string, report func(int, float64) error) (float64, error) {
		fmt.Println("start")
		if started++; started == hold+1 {
			if err := report(0, 0.5); err != nil { // the trial's first step
				return 0, err
			}
			fmt.Println("hold")
			<-ctx.Done() // until killed
			return 0, ctx.Err()
		}
		v, err := inner(ctx, opts, report)
		fmt.Println("end")
		return v, err
	}
	if err := s.Work(context.Background(), budget, obj); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

type worker struct {
	cmd   *exec.Cmd
	lines chan string
	errb  *strings.Builder
}

// startWorker starts a worker process on the study; hold ≥ 0 makes it
// hold its trial hold+1 until killed (envHold).
func startWorker(t *testing.T, spec, study string, budget, hold int) *worker {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envWorker+"="+spec, envStudy+"="+study, envBudget+"="+strconv.Itoa(budget))
	if hold >= 0 {
		cmd.Env = append(cmd.Env, envHold+"="+strconv.Itoa(hold))
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	w := &worker{cmd: cmd, lines: make(chan string, 1000), errb: &strings.Builder{}}
	cmd.Stderr = w.errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			w.lines <- sc.Text()
		}
		close(w.lines)
	}()
	return w
}

// waitFor waits until w prints the line want, failing the test if the
// worker exits first or nothing comes in 60 s.
func (w *worker) waitFor(t *testing.T, want string) {
	t.Helper()
	deadline := time.After(60 * time.Second)
	for {
		select {
		case l, ok := <-w.lines:
			if !ok {
				t.Fatalf("worker %d exited before printing %q: %s", w.cmd.Process.Pid, want, w.errb)
			}
			if l == want {
				return
			}
		case <-deadline:
			t.Fatalf("worker %d did not print %q in 60 s", w.cmd.Process.Pid, want)
		}
	}
}

// kill kills w with SIGKILL and reaps it.
func (w *worker) kill(t *testing.T) {
	t.Helper()
	if err := w.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = w.cmd.Wait()
}

func (w *worker) wait(t *testing.T) {
	t.Helper()
	go func() {
		for range w.lines {
		}
	}()
	done := make(chan error, 1)
	go func() { done <- w.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("worker %d: %v: %s", w.cmd.Process.Pid, err, w.errb)
		}
	case <-time.After(120 * time.Second):
		_ = w.cmd.Process.Kill()
		t.Fatalf("worker %d did not finish in 120 s", w.cmd.Process.Pid)
	}
}

// testKilledWorker runs the scenario of the issue on store spec: two worker
// processes share one study; one is killed with SIGKILL in the middle of a
// trial; a third worker joins later (a restart); the study ends with exactly
// budget complete trials and the killed worker's trial failed.
func testKilledWorker(t *testing.T, spec string) {
	const budget = 10
	store, err := OpenStore(spec)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	name := "killed-worker"
	if _, err := NewStudy(store, name, testSpace(), map[string]string{AttrTrials: strconv.Itoa(budget)}, Config{Pruner: "none", Sampler: "tpe"}); err != nil {
		t.Fatal(err)
	}
	// Worker a finishes two trials and holds the third (it says "hold"
	// inside the trial's first step); b joins, and once b is inside a
	// trial too, a is killed: the kill lands mid-trial while another
	// worker works, whatever the machine's load.
	a := startWorker(t, spec, name, budget, 2)
	a.waitFor(t, "hold")
	b := startWorker(t, spec, name, budget, -1)
	b.waitFor(t, "start")
	killedPID := a.cmd.Process.Pid
	a.kill(t)
	c := startWorker(t, spec, name, budget, -1) // a restarted worker joins
	b.wait(t)
	c.wait(t)

	s, err := LoadStudy(store, name, Config{})
	if err != nil {
		t.Fatal(err)
	}
	trials, err := s.G.GetTrials()
	if err != nil {
		t.Fatal(err)
	}
	var complete, failed int
	for _, tr := range trials {
		switch tr.State {
		case goptuna.TrialStateComplete:
			complete++
		case goptuna.TrialStateFail:
			failed++
			reason := tr.SystemAttrs[FailReasonAttr]
			if !strings.Contains(reason, fmt.Sprintf("process %d ", killedPID)) {
				t.Errorf("trial %d failed for %q, want the killed worker %d", tr.Number, reason, killedPID)
			}
		default:
			t.Errorf("trial %d left in state %v", tr.Number, tr.State)
		}
	}
	if complete != budget || failed != 1 {
		t.Errorf("%d complete and %d failed trials, want exactly %d complete and the killed one failed", complete, failed, budget)
	}
	t.Logf("%s: %d trials, %d complete, %d failed (killed worker %d)", spec, len(trials), complete, failed, killedPID)
}

func TestJournalKilledWorker(t *testing.T) {
	testKilledWorker(t, filepath.Join(t.TempDir(), "study.jsonl"))
}

func TestPostgresKilledWorker(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a PostgreSQL server")
	}
	testKilledWorker(t, startPostgres(t))
}

var pgServer struct {
	once sync.Once
	dsn  string
	skip string
	err  error
	stop func()
}

// startPostgres returns the URL of a throw-away PostgreSQL server (Debian's
// binaries) on a free loopback port in a temporary directory, run as an
// unprivileged user (nobody, when the test runs as root). The server is
// started once per test binary and stopped by TestMain.
func startPostgres(t *testing.T) string {
	t.Helper()
	pgServer.once.Do(func() { pgServer.dsn, pgServer.skip, pgServer.stop, pgServer.err = launchPostgres() })
	if pgServer.skip != "" {
		t.Skip(pgServer.skip)
	}
	if pgServer.err != nil {
		t.Fatal(pgServer.err)
	}
	return pgServer.dsn
}

func stopPostgres() {
	if pgServer.stop != nil {
		pgServer.stop()
	}
}

func launchPostgres() (dsn, skip string, stop func(), err error) {
	bins, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	var initdb string
	if len(bins) > 0 {
		initdb = bins[len(bins)-1]
	} else if p, err := exec.LookPath("initdb"); err == nil {
		initdb = p
	} else {
		return "", "PostgreSQL is not installed (Debian: apt-get install -y postgresql); skipping the PostgreSQL test", nil, nil
	}
	pgctl := filepath.Join(filepath.Dir(initdb), "pg_ctl")
	// As root the server runs as nobody, which must reach the directory:
	// use /tmp rather than a $TMPDIR that may be private.
	parent := ""
	if os.Geteuid() == 0 {
		parent = "/tmp"
	}
	dir, err := os.MkdirTemp(parent, "gdt-pg-")
	if err != nil {
		return "", "", nil, err
	}
	cleanup := func() { os.RemoveAll(dir) }
	if err := os.Chmod(dir, 0o755); err != nil {
		cleanup()
		return "", "", nil, err
	}
	var cred *syscall.Credential
	if os.Geteuid() == 0 {
		u, err := user.Lookup("nobody")
		if err != nil {
			cleanup()
			return "", fmt.Sprintf("running as root and there is no user nobody to run PostgreSQL as: %v", err), nil, nil
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			cleanup()
			return "", "", nil, err
		}
		cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	}
	command := func(name string, args ...string) *exec.Cmd {
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "LC_ALL=C", "LANG=C")
		if cred != nil {
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		}
		return cmd
	}
	run := func(name string, args ...string) error {
		if out, err := command(name, args...).CombinedOutput(); err != nil {
			return fmt.Errorf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, out)
		}
		return nil
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		cleanup()
		return "", "", nil, err
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	pgdata := filepath.Join(dir, "data")
	if err := run(initdb, "-D", pgdata, "-U", "gdt", "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync"); err != nil {
		cleanup()
		return "", "", nil, err
	}
	if err := run(pgctl, "-D", pgdata, "-l", filepath.Join(dir, "server.log"), "-w", "-t", "60", "-o",
		fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off", port, dir), "start"); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "server.log"))
		cleanup()
		return "", "", nil, fmt.Errorf("%v\nserver log:\n%s", err, log)
	}
	stop = func() {
		if out, err := command(pgctl, "-D", pgdata, "-m", "immediate", "-w", "stop").CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "pg_ctl stop: %v\n%s", err, out)
		}
		cleanup()
	}
	return fmt.Sprintf("postgres://gdt@127.0.0.1:%d/postgres?sslmode=disable", port), "", stop, nil
}

// TestPostgresStore checks the PostgreSQL store's claim, heartbeat and reap
// in one process.
func TestPostgresStore(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a PostgreSQL server")
	}
	dsn := startPostgres(t)
	store, err := OpenPostgres(dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	s, err := NewStudy(store, "pg", testSpace(), nil, Config{Seed: 2, Pruner: "median"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Work(context.Background(), 6, synthetic(2, 0)); err != nil {
		t.Fatal(err)
	}
	c, _ := s.Counts()
	if c.Complete+c.Pruned != 6 || c.Running != 0 {
		t.Errorf("counts %+v", c)
	}
	id, _, err := store.Claim(s.G.ID, 7)
	if err != nil || id < 0 {
		t.Fatalf("claim = %d, %v", id, err)
	}
	if id2, _, _ := store.Claim(s.G.ID, 7); id2 != -1 {
		t.Errorf("claim beyond the budget gave trial %d", id2)
	}
	if err := store.Heartbeat(id); err != nil {
		t.Error(err)
	}
	// Pretend the owner is a process on another host that went silent.
	if err := store.db.Exec("UPDATE gdt_trial_leases SET host = 'elsewhere', heartbeat = now() - interval '1 hour' WHERE trial_id = ?", id).Error; err != nil {
		t.Fatal(err)
	}
	ids, err := store.ReapStale(s.G.ID, time.Minute)
	if err != nil || len(ids) != 1 || ids[0] != id {
		t.Errorf("reaped %v, %v; want [%d]", ids, err, id)
	}
	if err := store.Heartbeat(id); err != goptuna.ErrTrialCannotBeUpdated {
		t.Errorf("heartbeat after reap = %v", err)
	}
}
