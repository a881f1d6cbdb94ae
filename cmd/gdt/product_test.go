package main

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is a bytes.Buffer safe for concurrent writes and reads.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func trainLoans(t *testing.T, kind string, set ...string) (dir, csv, model string) {
	t.Helper()
	dir = t.TempDir()
	csv = filepath.Join(dir, "loans.csv")
	os.WriteFile(csv, []byte(trainCSV), 0o644)
	model = filepath.Join(dir, kind+".json")
	args := []string{"train", "--data", csv, "--target", "decision", "--model", kind, "--out", model, "--quiet"}
	for _, s := range set {
		args = append(args, "--set", s)
	}
	if _, errOut, code := gdt(t, args...); code != 0 {
		t.Fatalf("train: exit %d: %s", code, errOut)
	}
	return dir, csv, model
}

func TestExportAndReportCommands(t *testing.T) {
	dir, csv, model := trainLoans(t, "cart", "depth=2")
	onnxPath := filepath.Join(dir, "m.onnx")
	out, errOut, code := gdt(t, "export", model, "--format", "onnx", "--out", onnxPath)
	if code != 0 || !strings.Contains(out, "wrote "+onnxPath) {
		t.Fatalf("export: exit %d: %s %s", code, out, errOut)
	}
	if b, err := os.ReadFile(onnxPath); err != nil || len(b) < 200 {
		t.Fatalf("export wrote %d bytes: %v", len(b), err)
	}
	if _, errOut, code := gdt(t, "export", model, "--format", "pmml", "--out", onnxPath); code != 2 || !strings.Contains(errOut, "the only export format is onnx") {
		t.Fatalf("bad format: exit %d: %s", code, errOut)
	}
	repDir := filepath.Join(dir, "rep")
	out, errOut, code = gdt(t, "report", model, "--data", csv, "--out", repDir, "--rows", "0,5")
	if code != 0 {
		t.Fatalf("report: exit %d: %s %s", code, out, errOut)
	}
	page, err := os.ReadFile(filepath.Join(repDir, "report.html"))
	if err != nil || !bytes.Contains(page, []byte(`id="explanations"`)) || !bytes.Contains(page, []byte("Row 5")) || !bytes.Contains(page, []byte("Confusion matrix")) {
		t.Fatalf("report page: %v", err)
	}
	if _, errOut, code := gdt(t, "report", model, "--data", csv, "--out", repDir, "--rows", "99"); code != 1 || !strings.Contains(errOut, "row 99") {
		t.Fatalf("row out of range: exit %d: %s", code, errOut)
	}
}

func TestServeCommand(t *testing.T) {
	_, _, model := trainLoans(t, "cart", "depth=2")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skipf("no loopback: %v", err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr lockedBuffer
	done := make(chan int, 1)
	go func() { done <- run(ctx, []string{"serve", model, "--addr", addr, "--poll", "0"}, &stdout, &stderr) }()
	var resp *http.Response
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		resp, err = http.Post("http://"+addr+"/v1/models/cart/predict", "application/json",
			strings.NewReader(`{"rows": [{"age": 30, "income": 52000, "housing": "castle"}], "explain": true}`))
		if err == nil || time.Now().After(deadline) {
			break
		}
	}
	if err != nil {
		cancel()
		t.Fatalf("server not reachable: %v; log: %s", err, stderr.String())
	}
	var body bytes.Buffer
	body.ReadFrom(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(body.String(), `"predictions":["yes"]`) || !strings.Contains(body.String(), "unknown category") {
		t.Fatalf("predict: %d %s", resp.StatusCode, body.String())
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 || !strings.Contains(stderr.String(), "stopped") {
			t.Fatalf("serve exit %d: %s", code, stderr.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not stop")
	}
}
