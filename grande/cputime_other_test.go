//go:build !unix

package grande

// processCPU is unavailable: benchmarks report 0 CPU time.
func processCPU() float64 { return 0 }
