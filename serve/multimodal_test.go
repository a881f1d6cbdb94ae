package serve

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMultimodalFileRejected checks that a multimodal model file gets an
// error naming the file and what the server takes, not a decoding error.
func TestMultimodalFileRejected(t *testing.T) {
	p := filepath.Join(t.TempDir(), "mm.json")
	if err := os.WriteFile(p, []byte(`{"kind": "multimodal", "version": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := New(Config{PollInterval: -1, Logf: t.Logf}, "mm="+p)
	if err == nil || !strings.Contains(err.Error(), p+" is a multimodal model file") {
		t.Fatalf("error %v, want one naming the multimodal file", err)
	}
}
