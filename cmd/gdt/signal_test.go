package main

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gdt-ml/gdt/safefile"
)

// TestMain lets the test binary play a gdt process whose save is slow
// (GDT_TEST_SLOW_SAVE=PATH), or one doing nothing (GDT_TEST_SIGNALS=1)
// that says "cancelled" when its context would be: it installs main's signal handler, starts a
// save to PATH that writes a little, says so on stdout and then blocks.
//
// With GDT_TEST_MAIN=1 the test binary is gdt itself (main with the
// arguments), so tests can run the real command line without building it.
func TestMain(m *testing.M) {
	if os.Getenv("GDT_TEST_MAIN") == "1" {
		main()
		return
	}
	if os.Getenv("GDT_TEST_SIGNALS") == "1" {
		handleSignals(func() { os.Stdout.WriteString("cancelled\n") }, os.Stderr, os.Exit)
		os.Stdout.WriteString("ready\n")
		time.Sleep(time.Minute)
		os.Exit(0)
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

// TestSignalWithoutSave: a first SIGINT with no save under way only
// cancels (the command stops at its next check); a second one exits 130.
func TestSignalWithoutSave(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GDT_TEST_SIGNALS=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	r := bufio.NewReader(out)
	if line, _ := r.ReadString('\n'); line != "ready\n" {
		t.Fatalf("the helper said %q", line)
	}
	cmd.Process.Signal(syscall.SIGINT)
	if line, _ := r.ReadString('\n'); line != "cancelled\n" {
		t.Fatalf("after the first SIGINT the helper said %q, expected cancelled", line)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		t.Fatalf("the first SIGINT with no save under way ended the process: %v", err)
	case <-time.After(300 * time.Millisecond):
	}
	cmd.Process.Signal(syscall.SIGINT)
	select {
	case err := <-done:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 130 {
			t.Errorf("second SIGINT: %v, expected exit code 130", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the second SIGINT did not end the process")
	}
}
