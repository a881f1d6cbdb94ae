//go:build unix

package grande

import "syscall"

// processCPU returns the CPU time (user + system) of the process in
// seconds, so that benchmarks can report a cost that depends less on other
// load on the machine.
func processCPU() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)*1e-6
}
