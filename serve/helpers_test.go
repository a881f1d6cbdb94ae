package serve

import (
	"context"
	"net"
	"os"
	"testing"
	"time"
)

var tempDirs []string

func osMkdirTemp() (string, error) {
	d, err := os.MkdirTemp("", "gdt-serve-test-")
	if err == nil {
		tempDirs = append(tempDirs, d)
	}
	return d, err
}

func writeFile(path string, b []byte) error { return os.WriteFile(path, b, 0o644) }

func TestMain(m *testing.M) {
	code := m.Run()
	for _, d := range tempDirs {
		os.RemoveAll(d)
	}
	os.Exit(code)
}

// runServer starts s on a loopback listener (skipping the test when none
// can be opened) and returns its address and a stop function that cancels
// Run and returns its error, failing the test when Run does not return
// within 20 s.
func runServer(t *testing.T, s *Server) (addr string, stop func() error) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skipf("cannot listen on 127.0.0.1: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx, ln) }()
	return ln.Addr().String(), func() error {
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(20 * time.Second):
			t.Fatal("Run did not return after cancel")
			return nil
		}
	}
}
