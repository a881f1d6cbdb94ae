//go:build unix

package bench

import "syscall"

// cpuSeconds returns the process's CPU time so far (user + system), or 0
// where the system does not report it.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
