package safefile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteReplacesAtomically(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "m.json")
	if err := WriteBytes(p, []byte("old")); err != nil {
		t.Fatal(err)
	}
	// A failing writer must leave the old content and no temporary file.
	err := Write(p, func(w io.Writer) error {
		w.Write([]byte("partial"))
		return errors.New("boom")
	})
	if err == nil {
		t.Fatal("expected error")
	}
	b, _ := os.ReadFile(p)
	if string(b) != "old" {
		t.Fatalf("content %q after failed write", b)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("leftover files: %v", entries)
	}
	if err := WriteBytes(p, []byte("new")); err != nil {
		t.Fatal(err)
	}
	b, _ = os.ReadFile(p)
	if string(b) != "new" {
		t.Fatalf("got %q", b)
	}
}

func TestWriteMissingDir(t *testing.T) {
	err := WriteBytes(filepath.Join(t.TempDir(), "no", "such", "f"), nil)
	if err == nil {
		t.Fatal("expected error for a missing directory")
	}
}

// TestWriteCleansUpAndKeepsMode checks that a failing or panicking fill
// leaves no .NAME.tmp-N file and the old content, and that replacing a
// file keeps its permission bits.
func TestWriteCleansUpAndKeepsMode(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.json")
	if err := WriteBytes(path, []byte("old")); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, func(w io.Writer) error { w.Write([]byte("half")); return errors.New("disk full") }); err == nil {
		t.Fatal("a failing fill gave no error")
	}
	func() {
		defer func() { recover() }()
		Write(path, func(w io.Writer) error { w.Write([]byte("half")); panic("boom") })
	}()
	if err := WriteBytes(path, []byte("new")); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Fatalf("directory holds %v, want only m.json", names)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v after replacing a 0600 file, want 0600", st.Mode().Perm())
	}
	if b, _ := os.ReadFile(path); string(b) != "new" {
		t.Fatalf("content %q, want new", b)
	}
}

// TestRemoveTemps: the temporary file of a write under way is registered,
// RemoveTemps removes it, the write then fails leaving the old content,
// and later writes fail before creating a temporary file.
func TestRemoveTemps(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "m.json")
	if err := WriteBytes(p, []byte("old")); err != nil {
		t.Fatal(err)
	}
	if Writing() != 0 {
		t.Fatalf("%d writes under way before any", Writing())
	}
	var removed []string
	err := Write(p, func(w io.Writer) error {
		if Writing() != 1 {
			t.Errorf("%d writes under way during one", Writing())
		}
		removed = RemoveTemps()
		_, err := w.Write([]byte("new"))
		return err
	})
	if err == nil {
		t.Fatal("the write whose temporary file was removed succeeded")
	}
	if len(removed) != 1 || !strings.HasPrefix(filepath.Base(removed[0]), ".m.json.tmp-") {
		t.Fatalf("RemoveTemps removed %v", removed)
	}
	if b, _ := os.ReadFile(p); string(b) != "old" {
		t.Fatalf("content %q", b)
	}
	if err := WriteBytes(p, []byte("later")); err == nil {
		t.Fatal("a write after RemoveTemps succeeded")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || Writing() != 0 {
		t.Fatalf("files left: %v, %d writes registered", entries, Writing())
	}
	live.Lock()
	live.stopped = false // let the package's other tests write again
	live.Unlock()
}
