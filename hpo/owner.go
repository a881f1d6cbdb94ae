package hpo

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"strconv"
	"strings"
	"sync"
)

// Owner identifies the worker process that runs a trial, so that other
// workers can tell whether it is still alive.
type Owner struct {
	Host string `json:"host"`
	PID  int    `json:"pid"`
	// Start is the process start time in clock ticks since boot
	// (/proc/PID/stat field 22; 0 where unknown). It tells a live owner
	// from a new process that reuses a dead owner's PID.
	Start uint64 `json:"start,omitempty"`
	// Token is random per process.
	Token string `json:"token"`
}

var (
	selfOnce  sync.Once
	selfOwner Owner
)

// Self returns the owner record of this process.
func Self() Owner {
	selfOnce.Do(func() {
		host, _ := os.Hostname()
		var b [8]byte
		_, _ = rand.Read(b[:])
		selfOwner = Owner{Host: host, PID: os.Getpid(), Token: hex.EncodeToString(b[:])}
		if st, ok := procStat(selfOwner.PID); ok {
			selfOwner.Start = st.start
		}
	})
	return selfOwner
}

// Liveness is what a worker can tell about another worker.
type Liveness int

// Liveness values.
const (
	Unknown Liveness = iota // another host: only the lease can tell
	Alive
	Dead
)

// Check reports whether the owner process is alive, when it ran on this
// host. A zombie counts as dead, and so does a live process whose start
// time differs from the owner's (the PID was reused).
func (o Owner) Check() Liveness {
	me := Self()
	if o.Host != me.Host || o.PID <= 0 {
		return Unknown
	}
	if o.PID == me.PID {
		if o.Token == me.Token {
			return Alive
		}
		return Dead // an earlier process with our PID
	}
	if processGone(o.PID) {
		return Dead
	}
	st, ok := procStat(o.PID)
	if !ok {
		return Alive // signal 0 succeeded (or EPERM): the process exists
	}
	if st.state == 'Z' || st.state == 'X' {
		return Dead
	}
	if o.Start != 0 && st.start != o.Start {
		return Dead
	}
	return Alive
}

type procInfo struct {
	state byte
	start uint64
}

// procStat reads state and start time of pid from /proc (Linux).
func procStat(pid int) (procInfo, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procInfo{}, false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 || i+2 >= len(s) {
		return procInfo{}, false
	}
	f := strings.Fields(s[i+2:])
	// f[0] is field 3 (state); start time is field 22 → f[19].
	if len(f) < 20 || len(f[0]) != 1 {
		return procInfo{}, false
	}
	start, err := strconv.ParseUint(f[19], 10, 64)
	if err != nil {
		return procInfo{}, false
	}
	return procInfo{state: f[0][0], start: start}, true
}
