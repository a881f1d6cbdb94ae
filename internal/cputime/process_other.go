//go:build !unix

package cputime

import "time"

// process returns the wall time since the first call: this system has no
// getrusage.
func process() time.Duration { return wall() }
