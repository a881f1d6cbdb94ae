package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress renders long work: a progress bar when stderr is a terminal,
// otherwise a plain line at most every few seconds (CI logs, pipes).
type progress struct {
	mu    sync.Mutex
	bar   *progressbar.ProgressBar
	w     io.Writer
	desc  string
	start time.Time
	last  time.Time
	every time.Duration
	quiet bool
}

func newProgress(w io.Writer, total int, desc string, quiet bool) *progress {
	p := &progress{w: w, desc: desc, start: time.Now(), every: 5 * time.Second, quiet: quiet}
	if quiet {
		return p
	}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription(desc),
			progressbar.OptionShowCount(),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionClearOnFinish(),
			progressbar.OptionThrottle(100*time.Millisecond),
		)
	}
	return p
}

// update reports that done of total units are finished; msg describes the
// last one. done may pass total (training runs whole rollouts past its step
// budget): the count shown is the work done, never clamped.
func (p *progress) update(done, total int, msg string) {
	if p.quiet {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		p.bar.Describe(p.desc + " " + msg)
		if done > p.bar.GetMax() {
			p.bar.ChangeMax(done)
		}
		p.bar.Set(done)
		return
	}
	now := time.Now()
	if done < total && now.Sub(p.last) < p.every {
		return
	}
	p.last = now
	fmt.Fprintf(p.w, "%s: %d/%d done (%s elapsed) — %s\n", p.desc, done, total, now.Sub(p.start).Round(time.Second), msg)
}

func (p *progress) finish() {
	if p.bar != nil {
		p.bar.Finish()
	}
}
