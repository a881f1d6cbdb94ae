//go:build !unix

package hpo

import (
	"errors"
	"os"
)

var errNoFlock = errors.New("hpo: the journal store needs file locks of a Unix system (use --storage postgres://… here)")

// processGone cannot tell on this system.
func processGone(pid int) bool { return false }

func lockFile(f *os.File, exclusive bool) error { return errNoFlock }

func unlockFile(f *os.File) error { return errNoFlock }
