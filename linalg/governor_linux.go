//go:build linux

package linalg

import (
	"bytes"
	"os"
	"strconv"
)

// readCPU reads the machine's CPU clocks from /proc/stat (first line:
// user nice system idle iowait irq softirq steal …) and the process's
// user and system time from /proc/self/stat (fields 14 and 15).
func readCPU() cpuSample {
	st, err := os.ReadFile("/proc/stat")
	if err != nil {
		return cpuSample{}
	}
	line, _, _ := bytes.Cut(st, []byte("\n"))
	f := bytes.Fields(line)
	if len(f) < 9 || string(f[0]) != "cpu" {
		return cpuSample{}
	}
	var v [8]uint64
	for i := range v {
		if v[i], err = strconv.ParseUint(string(f[i+1]), 10, 64); err != nil {
			return cpuSample{}
		}
	}
	s := cpuSample{busy: v[0] + v[1] + v[2] + v[5] + v[6] + v[7], ok: true}
	s.total = s.busy + v[3] + v[4]
	// The machine's CPUs are the "cpuN" lines (in a container they may be
	// more than the process may use).
	for _, l := range bytes.Split(st, []byte("\n"))[1:] {
		if len(l) > 3 && string(l[:3]) == "cpu" && l[3] >= '0' && l[3] <= '9' {
			s.cpus++
		}
	}
	if s.cpus == 0 {
		return cpuSample{}
	}
	self, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return cpuSample{}
	}
	// The command name (field 2) may hold spaces: count from its ')'.
	i := bytes.LastIndexByte(self, ')')
	if i < 0 {
		return cpuSample{}
	}
	g := bytes.Fields(self[i+1:]) // g[0] is field 3
	if len(g) < 13 {
		return cpuSample{}
	}
	u, err1 := strconv.ParseUint(string(g[11]), 10, 64)
	k, err2 := strconv.ParseUint(string(g[12]), 10, 64)
	if err1 != nil || err2 != nil {
		return cpuSample{}
	}
	s.self = u + k
	return s
}
