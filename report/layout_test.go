package report

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/export/exporttest"
	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/train"
)

// wideTree trains a CART tree on rows whose drawing is wider than a
// 1280 px window (depth 7, regression).
func wideTree(t *testing.T) (*model.Trained, *data.Dataset) {
	t.Helper()
	ds := exporttest.Dataset(data.Regression, 800, 11)
	m, err := model.Train(context.Background(), ds, model.Spec{Kind: "cart", Options: map[string]string{"depth": "7"}, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	m.Target = "target"
	return m, ds
}

var (
	treeSVGTag = regexp.MustCompile(`<div class="tree-scroll"><div class="figure"><svg([^>]*)>`)
	rootRect   = regexp.MustCompile(`<g class="node [a-z]+" id="svg[0-9]+-node0"><title>[^<]*</title><rect x="([0-9.]+)" y="[0-9.]+" width="([0-9.]+)"`)
	viewBoxRe  = regexp.MustCompile(` viewBox="0 0 ([0-9.]+) ([0-9.]+)"`)
)

// TestTreeFitsPageWidth checks that every tree drawing scales to the page
// width (width 100 %, never beyond its natural width, aspect ratio kept by
// its viewBox), so that the root is in view on load in a 1280 px window,
// and that a tree wider than the page offers its full size. The fixture's
// tree is wider than the window with its root beyond 1280 px at natural
// size: drawn at natural size as before, its root was off-screen.
func TestTreeFitsPageWidth(t *testing.T) {
	m, ds := wideTree(t)
	page, err := Build(m, ds.X, ds.Y, Config{Rows: []int{0}})
	if err != nil {
		t.Fatal(err)
	}
	html := string(page)
	tags := treeSVGTag.FindAllStringSubmatchIndex(html, -1)
	if len(tags) != 2 {
		t.Fatalf("%d fitted tree drawings; want 2 (the tree and row 0's path)", len(tags))
	}
	const window, padding = 1280.0, 24.0 // main's left padding
	for i, tag := range tags {
		attrs := html[tag[2]:tag[3]]
		vb := viewBoxRe.FindStringSubmatch(attrs)
		if vb == nil {
			t.Fatalf("tree %d: no viewBox: %s", i, attrs)
		}
		w, _ := strconv.ParseFloat(vb[1], 64)
		if !strings.Contains(attrs, ` width="100%"`) || strings.Contains(attrs, ` height="`) {
			t.Errorf("tree %d: want width=\"100%%\" and no fixed height: %s", i, attrs)
		}
		if !strings.Contains(attrs, fmt.Sprintf(`max-width:%spx`, vb[1])) {
			t.Errorf("tree %d: want max-width at the natural width %s px: %s", i, vb[1], attrs)
		}
		root := rootRect.FindStringSubmatch(html[tag[1]:])
		if root == nil {
			t.Fatalf("tree %d: no root node", i)
		}
		x, _ := strconv.ParseFloat(root[1], 64)
		rw, _ := strconv.ParseFloat(root[2], 64)
		if x+rw+padding <= window {
			t.Errorf("tree %d: the fixture's root ends at %.0f px at natural size; want a tree whose root is beyond 1280 px", i, x+rw)
		}
		// Fitted into the content width (at least fitWidth at 1280 px),
		// the root's right edge is scaled by fitWidth / w.
		scale := min(1, fitWidth/w)
		if right := padding + (x+rw)*scale; right > window {
			t.Errorf("tree %d: root ends at %.0f px when fitted; want ≤ %.0f", i, right, window)
		}
		start := strings.LastIndex(html[:tag[0]], `<div class="tree-view"`)
		if w > fitWidth && !strings.Contains(html[start:tag[0]], `class="full-size"`) {
			t.Errorf("tree %d (%.0f px wide): no full-size switch", i, w)
		}
	}
	if _, err := wellFormed(page); err != nil {
		t.Fatalf("the page is not well-formed: %v", err)
	}
}

var (
	plotRect   = regexp.MustCompile(`<rect class="plot" x="([0-9.]+)" y="[0-9.]+" width="([0-9.]+)"`)
	legendXs   = regexp.MustCompile(` (?:x|x1|x2|cx)="([0-9.]+)"`)
	polylineRe = regexp.MustCompile(`<polyline [^>]*stroke-width="([0-9.]+)"([^>]*) points="([^"]*)"><title>([^<]*)</title>`)
)

// history returns n checks of a run, at epoch ends (steps = 0) or every
// steps training steps, with the best check at best (1-based).
func history(n, steps, best int) train.RunReport {
	r := train.RunReport{Epochs: n}
	for k := 1; k <= n; k++ {
		e := train.Epoch{TrainLoss: 1 / float64(k), ValidLoss: 1.1/float64(k) + 0.01*float64(k)}
		if steps > 0 {
			e.Step, e.Epoch = k*steps, 1+k*steps/7
		}
		r.History = append(r.History, e)
	}
	r.BestEpoch, r.BestLoss = best, r.History[best-1].ValidLoss
	if steps > 0 {
		r.BestStep, r.BestEpoch, r.Epochs = best*steps, r.History[best-1].Epoch, r.History[n-1].Epoch
	}
	return r
}

// TestLearningCurveLayout checks the learning-curve chart: the kept
// restart bold, the others faint, the legend right of the plot rectangle
// (never over the data) with a handful of entries however many restarts,
// and an x axis saying what it plots — epochs, or the training step of
// each check for fits that validate every so many steps.
func TestLearningCurveLayout(t *testing.T) {
	for _, c := range []struct {
		name      string
		steps     int // steps between checks; 0: per epoch
		wantLabel string
		wantBest  string
	}{
		{"per epoch", 0, "epoch", "best epoch 6"},
		{"every 20 steps", 20, "training step (minibatches across epochs; validation checked every 20 steps)", "best check: step 120"},
	} {
		t.Run(c.name, func(t *testing.T) {
			runs := []train.RunReport{history(9, c.steps, 4), history(12, c.steps, 6), history(7, c.steps, 3), history(8, c.steps, 5), history(10, c.steps, 2)}
			ch, about := learningChart(runs, 1)
			svg := ch.svg()
			if ch.xLabel != c.wantLabel {
				t.Errorf("x label %q, want %q", ch.xLabel, c.wantLabel)
			}
			if c.steps > 0 && (strings.Contains(ch.title, "epoch") || !strings.Contains(about, "every 20 training steps")) {
				t.Errorf("a per-step chart says epochs: title %q, text %q", ch.title, about)
			}
			if !strings.Contains(svg, ">"+c.wantBest+"<") {
				t.Errorf("no legend entry %q", c.wantBest)
			}
			// x of the kept run's last check: epoch 12 or step 240
			wantMax := 12.0
			if c.steps > 0 {
				wantMax = float64(12 * c.steps)
			}
			if ch.xMax != wantMax {
				t.Errorf("x axis ends at %g, want %g (the kept run's last check)", ch.xMax, wantMax)
			}
			bold, faint := 0, 0
			for _, m := range polylineRe.FindAllStringSubmatch(svg, -1) {
				switch {
				case strings.Contains(m[4], "restart 2 (kept)"):
					if m[1] != "2.4" || strings.Contains(m[2], "opacity") {
						t.Errorf("kept series %q: width %s %s; want bold and opaque", m[4], m[1], m[2])
					}
					bold++
				case strings.Contains(m[2], `stroke-opacity="0.25"`):
					faint++
				default:
					t.Errorf("series %q (width %s%s) is neither the kept restart nor faint", m[4], m[1], m[2])
				}
			}
			if bold != 2 || faint != 8 {
				t.Errorf("%d bold and %d faint series; want 2 and 8", bold, faint)
			}
			plot := plotRect.FindStringSubmatch(svg)
			if plot == nil {
				t.Fatal("no plot rectangle")
			}
			px, _ := strconv.ParseFloat(plot[1], 64)
			pw, _ := strconv.ParseFloat(plot[2], 64)
			i := strings.Index(svg, `<g class="legend">`)
			if i < 0 {
				t.Fatal("no legend")
			}
			legend := svg[i : i+strings.Index(svg[i:], "</g>")]
			if n := strings.Count(legend, "<text"); n != 5 {
				t.Errorf("%d legend entries, want 5 (kept training, validation, best, other restarts' training, validation)", n)
			}
			for _, m := range legendXs.FindAllStringSubmatch(legend, -1) {
				if x, _ := strconv.ParseFloat(m[1], 64); x <= px+pw {
					t.Errorf("legend element at x = %g inside the plot rectangle (right edge %g)", x, px+pw)
				}
			}
		})
	}
}

// TestLearningCurveSteps trains a GRANDE that checks its validation loss
// every 2 steps and checks that the report's curve is plotted against the
// training steps the fit recorded.
func TestLearningCurveSteps(t *testing.T) {
	ds := exporttest.Dataset(data.Binary, 240, 11)
	opts := exporttest.Options("grande-fast")
	opts["eval_every"], opts["batch_size"] = "2", "32"
	m, err := model.Train(context.Background(), ds, model.Spec{Kind: "grande-fast", Options: opts, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	m.Target = "target"
	page, err := Build(m, ds.X, ds.Y, Config{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"loss at each validation check", "validation checked every 2 steps", "best check: step "} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}
