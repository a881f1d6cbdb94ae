// Package safefile writes files atomically: the content goes to a temporary
// file in the same directory, is flushed to disk, and only then renamed over
// the destination, so readers never see a half-written model or result file.
package safefile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"sync"
)

// live holds the temporary files of the writes under way, so an interrupt
// handler can remove them (RemoveTemps) before the process exits.
var live struct {
	sync.Mutex
	names   map[string]bool
	stopped bool // RemoveTemps ran: no new temporary file is created
}

// errStopped is returned by writes started after RemoveTemps.
var errStopped = errors.New("the process is exiting (interrupted): not writing")

// RemoveTemps removes the temporary files of every write under way and
// makes later writes fail before they create one; it returns the names it
// removed. A signal handler calls it just before exiting: the files being
// replaced keep their old content and no .NAME.tmp-N file is left behind.
// A write whose rename has already happened is complete and unaffected.
func RemoveTemps() []string {
	live.Lock()
	defer live.Unlock()
	live.stopped = true
	var removed []string
	for name := range live.names {
		if os.Remove(name) == nil {
			removed = append(removed, name)
		}
		delete(live.names, name)
	}
	sort.Strings(removed)
	return removed
}

// Writing reports how many writes have a temporary file open now.
func Writing() int {
	live.Lock()
	defer live.Unlock()
	return len(live.names)
}

// createTemp creates and registers the temporary file of a write to path.
func createTemp(dir, path string) (*os.File, error) {
	live.Lock()
	defer live.Unlock()
	if live.stopped {
		return nil, errStopped
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, err
	}
	if live.names == nil {
		live.names = map[string]bool{}
	}
	live.names[tmp.Name()] = true
	return tmp, nil
}

// forget unregisters a temporary file (renamed or removed by its write).
func forget(name string) {
	live.Lock()
	delete(live.names, name)
	live.Unlock()
}

// Write creates path atomically with the bytes produced by fill. The
// temporary file (.NAME.tmp-N beside path) is removed when anything fails,
// fill's panic included; a file replaced keeps its permission bits (a new
// one gets 0644); after the rename the directory is synced so the new name
// itself survives a crash. While it runs the temporary file is registered
// for RemoveTemps, which an interrupt handler calls before exiting.
func Write(path string, fill func(w io.Writer) error) (err error) {
	dir := filepath.Dir(path)
	mode := os.FileMode(0o644)
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
		mode = st.Mode().Perm()
	}
	tmp, err := createTemp(dir, path)
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	tmpName := tmp.Name()
	renamed := false
	defer func() {
		if !renamed {
			tmp.Close()
			os.Remove(tmpName)
		}
		forget(tmpName)
	}()
	bw := bufio.NewWriterSize(tmp, 1<<16)
	if err = fill(bw); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = bw.Flush(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = os.Chmod(tmpName, mode); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = os.Rename(tmpName, path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	renamed = true
	if err = syncDir(dir); err != nil {
		return fmt.Errorf("writing %s: syncing directory %s: %w", path, dir, err)
	}
	return nil
}

// syncDir flushes directory dir's entries (the rename) to disk.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// WriteBytes creates path atomically with content b.
func WriteBytes(path string, b []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}
