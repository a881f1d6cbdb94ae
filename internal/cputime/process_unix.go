//go:build unix

package cputime

import (
	"syscall"
	"time"
)

// process returns the CPU time (user + system) of the process so far.
func process() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return wall()
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
