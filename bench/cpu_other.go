//go:build !unix

package bench

// cpuSeconds returns 0: the process's CPU time is not read on this system.
func cpuSeconds() float64 { return 0 }
