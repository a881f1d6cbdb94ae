package linalg

import (
	"os"
	"slices"
	"strconv"
	"testing"
	"time"
)

// TestHostSpeed prints the distribution of the wall time of one 64×256×256
// product on one core (the critic's hidden layer on a minibatch) over
// GDT_LINALG_PROBE trials: on a host whose speed drifts (shared cores,
// throttling), the minimum is the product at full speed and the median
// what a long run sees, so wall times measured at different minutes can be
// put side by side.
//
//	GDT_LINALG_PROBE=20000 go test -run 'TestHostSpeed$' -v ./linalg
func TestHostSpeed(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("GDT_LINALG_PROBE"))
	if n <= 0 {
		t.Skip("set GDT_LINALG_PROBE to the number of trials")
	}
	a := make([]float32, 64*256)
	b := make([]float32, 256*256)
	c := make([]float32, 64*256)
	for i := range a {
		a[i] = float32(i%7) * 0.1
	}
	for i := range b {
		b[i] = float32(i%5) * 0.1
	}
	d := make([]time.Duration, n)
	for i := range d {
		t0 := time.Now()
		Gemm(false, false, 64, 256, 256, 1, a, 256, b, 256, 0, c, 256)
		d[i] = time.Since(t0)
	}
	slices.Sort(d)
	t.Logf("64×256×256 product, %d trials: min %v, 10th percentile %v, median %v, 90th percentile %v", n, d[0], d[n/10], d[n/2], d[n*9/10])
}
