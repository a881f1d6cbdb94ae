package cputime

import "time"

var epoch = time.Now()

// wall is the fallback clock: the wall time since the package started.
func wall() time.Duration { return time.Since(epoch) }
