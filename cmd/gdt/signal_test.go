package main

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gdt-ml/gdt/safefile"
)

// TestMain lets the test binary play a gdt process whose save is slow
// (GDT_TEST_SLOW_SAVE=PATH): it installs main's signal handler, starts a
// save to PATH that writes a little, says so on stdout and then blocks.
//
// With GDT_TEST_MAIN=1 the test binary is gdt itself (main with the
// arguments), so tests can run the real command line without building it.
func TestMain(m *testing.M) {
	if os.Getenv("GDT_TEST_MAIN") == "1" {
		main()
		return
	}
	if path := os.Getenv("GDT_TEST_SLOW_SAVE"); path != "" {
		stop := handleSignals(func() {}, os.Stderr, os.Exit)
		defer stop()
		err := safefile.Write(path, func(w io.Writer) error {
			if _, err := w.Write([]byte("partial")); err != nil {
				return err
			}
			if f, ok := w.(interface{ Flush() error }); ok {
				f.Flush()
			}
			os.Stdout.WriteString("saving\n")
			time.Sleep(time.Minute)
			return nil
		})
		if err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestInterruptDuringSave interrupts a save with SIGINT and SIGTERM: the
// process exits 130 / 143, the old file keeps its content and no
// .NAME.tmp-N file is left.
func TestInterruptDuringSave(t *testing.T) {
	for _, c := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}} {
		t.Run(c.sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "model.gdt.json")
			if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), "GDT_TEST_SLOW_SAVE="+path)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			line, _ := bufio.NewReader(out).ReadString('\n')
			if line != "saving\n" {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("the helper said %q, stderr %q", line, stderr.String())
			}
			if tmps, _ := filepath.Glob(filepath.Join(dir, ".model.gdt.json.tmp-*")); len(tmps) != 1 {
				t.Fatalf("temporary files during the save: %v", tmps)
			}
			if err := cmd.Process.Signal(c.sig); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err = <-done:
			case <-time.After(20 * time.Second):
				cmd.Process.Kill()
				t.Fatal("the process did not exit within 20 s of the signal")
			}
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != c.code {
				t.Fatalf("exit: %v, expected code %d (stderr %q)", err, c.code, stderr.String())
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 1 || entries[0].Name() != "model.gdt.json" {
				t.Errorf("files left: %v", entries)
			}
			if b, _ := os.ReadFile(path); string(b) != "old" {
				t.Errorf("the old file holds %q after the interrupted save", b)
			}
			if !strings.Contains(stderr.String(), "removed the unfinished save") {
				t.Errorf("stderr %q does not say what was removed", stderr.String())
			}
		})
	}
}

// TestSignalWithoutSave: a first signal with no save under way only
// cancels (the command stops at its next check); a second one exits 130.
func TestSignalWithoutSave(t *testing.T) {
	var cancelled atomic.Bool
	exited := make(chan int, 1)
	stop := handleSignals(func() { cancelled.Store(true) }, io.Discard, func(code int) { exited <- code })
	defer stop()
	syscall.Kill(os.Getpid(), syscall.SIGINT)
	deadline := time.Now().Add(10 * time.Second)
	for !cancelled.Load() && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if !cancelled.Load() {
		t.Fatal("the first SIGINT did not cancel")
	}
	select {
	case code := <-exited:
		t.Fatalf("the first SIGINT with no save under way exited %d", code)
	case <-time.After(200 * time.Millisecond):
	}
	syscall.Kill(os.Getpid(), syscall.SIGINT)
	select {
	case code := <-exited:
		if code != 130 {
			t.Errorf("second SIGINT: exit %d, expected 130", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the second SIGINT did not exit")
	}
}
