package linalg

import (
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestRun checks that Run calls every part exactly once, also with several
// submitters at once, nested calls and one processor.
func TestRun(t *testing.T) {
	for _, procs := range []int{1, 2, 4} {
		func() {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			var wg sync.WaitGroup
			for g := 0; g < 3; g++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for it := 0; it < 200; it++ {
						n := 1 + (it*7+g)%9
						hits := make([]atomic.Int32, n)
						Run(n, func(p int) {
							hits[p].Add(1)
							if p == 0 && it%50 == 0 {
								var inner atomic.Int32
								Run(4, func(int) { inner.Add(1) })
								if inner.Load() != 4 {
									t.Errorf("nested Run ran %d parts, want 4", inner.Load())
								}
							}
						})
						for p := range hits {
							if h := hits[p].Load(); h != 1 {
								t.Errorf("procs %d: part %d of %d ran %d times", procs, p, n, h)
							}
						}
					}
				}()
			}
			wg.Wait()
		}()
	}
}

// goid returns the calling goroutine's number (from its stack header).
func goid() string {
	var buf [64]byte
	s := string(buf[:runtime.Stack(buf[:], false)])
	var id string
	for _, c := range s[len("goroutine "):] {
		if c < '0' || c > '9' {
			break
		}
		id += string(c)
	}
	return id
}

// TestRunPartZero checks that Run's caller runs part 0 itself whatever the
// helpers do (callers that split data by part rely on it to keep a part's
// data on one core), with the pool's adaptation off so that helpers take
// the other parts.
func TestRunPartZero(t *testing.T) {
	defer SetAdaptive(SetAdaptive(false))
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	me := goid()
	for it := 0; it < 2000; it++ {
		var who [4]string
		Run(len(who), func(p int) { who[p] = goid() })
		if who[0] != me {
			t.Fatalf("iteration %d: part 0 ran on goroutine %s, want the caller %s", it, who[0], me)
		}
	}
}

// TestWaitHelps checks that a goroutine waiting for a started task runs
// parts of the jobs the task submits. The task's Run has one part more
// than the pool has helpers, and every part a helper runs holds until the
// waiting caller has run a part (10 s at most): the helpers can hold all
// parts but one, so the last part is the caller's to take, and the test
// fails on the timeout if Wait does not help. (Earlier tests may have
// started more helpers than GOMAXPROCS − 1; the part count follows the
// pool's real size.)
func TestWaitHelps(t *testing.T) {
	defer SetAdaptive(SetAdaptive(false))
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	startPool()
	me := goid()
	onHelper := 0
	for it := 0; it < 50; it++ {
		parts := int(pool.started.Load()) + 1
		var callerRan atomic.Bool
		var taskOn string
		task := Start(func() {
			taskOn = goid()
			Run(parts, func(int) {
				if goid() == me {
					callerRan.Store(true)
					return
				}
				for t0 := time.Now(); !callerRan.Load(); runtime.Gosched() {
					if time.Since(t0) > 10*time.Second {
						t.Error("no part ran on the waiting caller within 10 s")
						return
					}
				}
			})
		})
		time.Sleep(100 * time.Microsecond) // let a helper take the task
		task.Wait()
		if t.Failed() {
			return
		}
		if taskOn != me {
			onHelper++
		}
	}
	if onHelper == 0 {
		t.Skip("no helper took the task in 50 tries (a busy machine)")
	}
}

// TestStart checks that a started task runs exactly once and that Wait
// returns after it, also while the caller's own Run keeps the helpers
// busy.
func TestStart(t *testing.T) {
	for it := 0; it < 500; it++ {
		var n atomic.Int32
		done := false
		task := Start(func() { n.Add(1); done = true })
		Run(3, func(int) {})
		task.Wait()
		if n.Load() != 1 || !done {
			t.Fatalf("iteration %d: task ran %d times", it, n.Load())
		}
	}
}

// BenchmarkRunHandoff measures a Run of two empty parts: the cost of a
// hand-off to a spinning helper.
func BenchmarkRunHandoff(b *testing.B) {
	f := func(int) {}
	for b.Loop() {
		Run(2, f)
	}
}

// BenchmarkGemmPool times the 64-row products of a 256-wide layer on the
// pool (compare with BenchmarkGemm's impl=linalg).
func BenchmarkGemmPool(b *testing.B) {
	for _, s := range []struct {
		name    string
		ta, tb  bool
		m, k, n int
	}{
		{"64x256x256/NN", false, false, 64, 256, 256},
		{"64x256x256/TN", true, false, 256, 64, 256},
		{"64x256x256/NT", false, true, 64, 256, 256},
	} {
		a := make([]float32, s.m*s.k)
		w := make([]float32, s.k*s.n)
		c := make([]float32, s.m*s.n)
		for i := range a {
			a[i] = float32(i%7) - 3
		}
		for i := range w {
			w[i] = float32(i%5) - 2
		}
		lda, ldb := s.k, s.n
		if s.ta {
			lda = s.m
		}
		if s.tb {
			ldb = s.k
		}
		b.Run(s.name+"/serial", func(b *testing.B) {
			for b.Loop() {
				Gemm(s.ta, s.tb, s.m, s.n, s.k, 1, a, lda, w, ldb, 0, c, s.n)
			}
		})
		b.Run(s.name+"/pool", func(b *testing.B) {
			for b.Loop() {
				GemmPool(s.ta, s.tb, s.m, s.n, s.k, 1, a, lda, w, ldb, 0, c, s.n)
			}
		})
	}
}

// TestReadCPU checks that the CPU clocks can be read and advance.
func TestReadCPU(t *testing.T) {
	a := readCPU()
	if !a.ok {
		t.Skip("no CPU clocks on this platform")
	}
	x := 0.0
	for i := 0; i < 30_000_000; i++ {
		x += float64(i)
	}
	b := readCPU()
	if !b.ok || b.cpus < 1 || b.total < a.total || b.self < a.self || b.busy < a.busy {
		t.Fatalf("CPU clocks went back: %+v then %+v (%v)", a, b, x)
	}
	t.Logf("ticks: total %d, busy %d, self %d", b.total-a.total, b.busy-a.busy, b.self-a.self)
}

// TestBackOff checks the serial periods after a late helper: they start at
// minSerial, double up to maxSerial, shrink after prompt jobs, and
// SetAdaptive(false) overrides them.
func TestBackOff(t *testing.T) {
	defer func() {
		pool.penalty.Store(0)
		pool.serialUntil.Store(0)
	}()
	pool.penalty.Store(0)
	backOff()
	if d := time.Duration(pool.penalty.Load()); d != minSerial {
		t.Fatalf("first serial period %v, want %v", d, minSerial)
	}
	if !serial() {
		t.Fatal("not serial right after a back-off")
	}
	prev := SetAdaptive(false)
	if serial() {
		t.Fatal("serial with the adaptation off")
	}
	SetAdaptive(prev)
	for range 20 {
		backOff()
	}
	if d := time.Duration(pool.penalty.Load()); d != maxSerial {
		t.Fatalf("serial period %v after many late helpers, want %v", d, maxSerial)
	}
	for range 20 {
		forgive()
	}
	if d := pool.penalty.Load(); d != 0 {
		t.Fatalf("serial period %v after many prompt jobs, want 0", time.Duration(d))
	}
}

// TestGemmPoolThen checks that the blocks handed to then cover C exactly
// once, after they were computed, for row and column splits.
func TestGemmPoolThen(t *testing.T) {
	defer SetAdaptive(SetAdaptive(false))
	r := rand.New(rand.NewPCG(13, 14))
	for _, s := range []struct {
		ta, tb  bool
		m, n, k int
	}{{false, false, 64, 256, 256}, {true, false, 256, 256, 64}, {false, true, 64, 256, 256}, {false, false, 8, 8, 8}, {false, false, 300, 40, 100}} {
		p := newProblem(r, s.ta, s.tb, s.m, s.n, s.k, 1, 0, 0)
		want := p.run()
		got := append([]float32(nil), p.c...)
		seen := make([]atomic.Int32, s.m*s.n)
		GemmPoolThen(p.ta, p.tb, p.m, p.n, p.k, 1, p.a, p.lda, p.b, p.ldb, 0, got, p.ldc, func(r0, r1, c0, c1 int) {
			for i := r0; i < r1; i++ {
				for j := c0; j < c1; j++ {
					if math.Float32bits(got[i*p.ldc+j]) != math.Float32bits(want[i*p.ldc+j]) {
						t.Errorf("%+v: C[%d][%d] not computed before then", s, i, j)
					}
					seen[i*s.n+j].Add(1)
				}
			}
		})
		for i := range seen {
			if v := seen[i].Load(); v != 1 {
				t.Fatalf("%+v: element %d handed to then %d times", s, i, v)
			}
		}
	}
}

// TestTooBusy checks the governor's decision on synthetic clock readings
// of a 2-core and a 16-core machine (ticks per core over the window: 100).
func TestTooBusy(t *testing.T) {
	for _, c := range []struct {
		cpus              int
		busy, self        uint64 // over the window
		want, ok, invalid bool
	}{
		{cpus: 2, busy: 100, self: 100, want: false, ok: true},   // only us
		{cpus: 2, busy: 200, self: 100, want: true, ok: true},    // another process on a core
		{cpus: 2, busy: 140, self: 100, want: false, ok: true},   // light background load
		{cpus: 16, busy: 1300, self: 100, want: false, ok: true}, // 12 of 16 busy: room left
		{cpus: 16, busy: 1600, self: 100, want: true, ok: true},
		{cpus: 2, invalid: true, ok: false},
	} {
		p := cpuSample{total: 1000, busy: 500, self: 50, cpus: c.cpus, ok: true}
		s := cpuSample{total: 1000 + 100*uint64(c.cpus), busy: 500 + c.busy, self: 50 + c.self, cpus: c.cpus, ok: !c.invalid}
		busy, ok := tooBusy(p, s)
		if busy != c.want || ok != c.ok {
			t.Errorf("%+v: tooBusy = %v, %v; want %v, %v", c, busy, ok, c.want, c.ok)
		}
	}
}

// TestSharing checks Sharing against the pool's state: no helper with one
// processor, always sharing with the adaptation off, and not during a
// back-off period.
func TestSharing(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	if Sharing() {
		t.Error("Sharing with GOMAXPROCS 1: want false")
	}
	runtime.GOMAXPROCS(2)
	prev := SetAdaptive(false)
	if !Sharing() {
		t.Error("Sharing with 2 processors and the adaptation off: want true")
	}
	SetAdaptive(true)
	pool.serialUntil.Store(time.Now().Add(time.Minute).UnixNano())
	if Sharing() {
		t.Error("Sharing in a back-off period: want false")
	}
	pool.serialUntil.Store(0)
	SetAdaptive(prev)
}
