package multimodal

import (
	"math"
	"runtime"
	"sync"
)

// Augment configures random image augmentation during training. Every
// sample's transformation is a pure function of (seed, epoch, position in
// the epoch), so results do not depend on the number of workers.
type Augment struct {
	// Flip applies one of the 8 symmetries of the square (identity,
	// horizontal and vertical flips, transposition and the rotations by
	// multiples of 90°), each with probability 1/8. Dermatoscopic images
	// have no preferred orientation.
	Flip bool `json:"flip"`
	// MaxShift is the largest translation in pixels (uniform in ±MaxShift
	// on each axis).
	MaxShift float64 `json:"max_shift"`
	// MaxRotate is the largest rotation in degrees (uniform in ±MaxRotate).
	MaxRotate float64 `json:"max_rotate"`
}

// DefaultAugment is flips, shifts of up to 4 pixels and rotations of up to
// 15 degrees.
func DefaultAugment() Augment { return Augment{Flip: true, MaxShift: 4, MaxRotate: 15} }

// Active reports whether a reports any transformation.
func (a Augment) Active() bool { return a.Flip || a.MaxShift > 0 || a.MaxRotate > 0 }

// splitmix64 is a small counter-based generator: the i-th output of a
// stream depends only on its state, so per-sample streams are cheap.
type splitmix64 uint64

func (s *splitmix64) next() uint64 {
	*s += 0x9E3779B97F4A7C15
	z := uint64(*s)
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// float returns a uniform value in [0, 1).
func (s *splitmix64) float() float64 { return float64(s.next()>>11) / (1 << 53) }

// sampleStream returns the stream of sample pos of epoch epoch.
func sampleStream(seed uint64, epoch, pos int) splitmix64 {
	s := splitmix64(seed ^ 0x6A09E667F3BCC909)
	s = splitmix64(s.next() ^ uint64(epoch)*0x9E3779B97F4A7C15)
	s = splitmix64(s.next() ^ uint64(pos)*0xC2B2AE3D27D4EB4F)
	return s
}

// normalise writes the CHW bytes src as (v/255 − mean[c])/std[c] into dst.
func normalise(src []uint8, c, plane int, mean, std []float32, dst []float32) {
	for ch := 0; ch < c; ch++ {
		m, inv := mean[ch], 1/std[ch]
		s := src[ch*plane : (ch+1)*plane]
		d := dst[ch*plane : (ch+1)*plane]
		for i, v := range s {
			d[i] = (float32(v)*(1.0/255) - m) * inv
		}
	}
}

// augment writes a randomly transformed, normalised copy of the CHW image
// src (c×h×w) into dst, drawing the transformation from st. Pixels are
// sampled bilinearly at the inverse-mapped position, clamped to the border.
func (a Augment) augment(src []uint8, c, h, w int, mean, std []float32, st *splitmix64, dst []float32) {
	d := 0
	if a.Flip {
		d = int(st.next() % 8)
	}
	theta := 0.0
	if a.MaxRotate > 0 {
		theta = (2*st.float() - 1) * a.MaxRotate * math.Pi / 180
	}
	var tx, ty float64
	if a.MaxShift > 0 {
		tx = (2*st.float() - 1) * a.MaxShift
		ty = (2*st.float() - 1) * a.MaxShift
	}
	cos, sin := math.Cos(theta), math.Sin(theta)
	cx, cy := float64(w-1)/2, float64(h-1)/2
	plane := h * w
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			u := float64(x) - cx - tx
			v := float64(y) - cy - ty
			// inverse rotation
			ur := cos*u + sin*v
			vr := -sin*u + cos*v
			// dihedral symmetry (its own inverse up to the rotation pair)
			if d&4 != 0 {
				ur, vr = vr, ur
			}
			if d&1 != 0 {
				ur = -ur
			}
			if d&2 != 0 {
				vr = -vr
			}
			sx := ur + cx
			sy := vr + cy
			if sx < 0 {
				sx = 0
			} else if sx > float64(w-1) {
				sx = float64(w - 1)
			}
			if sy < 0 {
				sy = 0
			} else if sy > float64(h-1) {
				sy = float64(h - 1)
			}
			x0, y0 := int(sx), int(sy)
			x1, y1 := x0+1, y0+1
			if x1 > w-1 {
				x1 = w - 1
			}
			if y1 > h-1 {
				y1 = h - 1
			}
			fx, fy := float32(sx-float64(x0)), float32(sy-float64(y0))
			w00 := (1 - fx) * (1 - fy)
			w01 := fx * (1 - fy)
			w10 := (1 - fx) * fy
			w11 := fx * fy
			o := y*w + x
			for ch := 0; ch < c; ch++ {
				p := src[ch*plane:]
				val := w00*float32(p[y0*w+x0]) + w01*float32(p[y0*w+x1]) + w10*float32(p[y1*w+x0]) + w11*float32(p[y1*w+x1])
				dst[ch*plane+o] = (val*(1.0/255) - mean[ch]) * (1 / std[ch])
			}
		}
	}
}

// Batcher turns rows of an ImageSet (plus optional tabular rows) into
// normalised float32 network inputs, in parallel over the samples of a
// batch, and can prefetch batches in the background while the caller
// trains on the previous one.
type Batcher struct {
	Images    *ImageSet
	Mean, Std []float32
	Aug       Augment
	Seed      uint64
	// Tab, if set, holds TabCols values per image row (indexed like the
	// image rows passed to Fill), appended after the pixels of each row.
	Tab     []float32
	TabCols int
	// Workers is the number of goroutines per batch (0: GOMAXPROCS).
	Workers int
}

// RowWidth returns the width of one input row: C·H·W (+ TabCols).
func (b *Batcher) RowWidth() int {
	return b.Images.Shape.Size() + b.TabCols
}

// Fill writes the input rows of images idx into dst (len(idx)·RowWidth).
// With augment, sample j of the batch is transformed with the stream of
// (Seed, epoch, offset+j).
func (b *Batcher) Fill(dst []float32, idx []int, augment bool, epoch, offset int) {
	workers := b.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if workers > len(idx) {
		workers = len(idx)
	}
	width := b.RowWidth()
	size := b.Images.Shape.Size()
	one := func(j int) {
		i := idx[j]
		row := dst[j*width : (j+1)*width]
		b.fillImage(row[:size], i, augment, epoch, offset+j)
		if b.TabCols > 0 {
			copy(row[size:], b.Tab[i*b.TabCols:(i+1)*b.TabCols])
		}
	}
	if workers <= 1 {
		for j := range idx {
			one(j)
		}
		return
	}
	var wg sync.WaitGroup
	for g := 0; g < workers; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for j := g; j < len(idx); j += workers {
				one(j)
			}
		}(g)
	}
	wg.Wait()
}

// fillImage writes image i, normalised (and with augment transformed by
// the stream of (Seed, epoch, pos)), into dst (C·H·W values).
func (b *Batcher) fillImage(dst []float32, i int, augment bool, epoch, pos int) {
	sh := b.Images.Shape
	src := b.Images.Image(i)
	if augment && b.Aug.Active() {
		st := sampleStream(b.Seed, epoch, pos)
		b.Aug.augment(src, sh.C, sh.H, sh.W, b.Mean, b.Std, &st, dst)
	} else {
		normalise(src, sh.C, sh.H*sh.W, b.Mean, b.Std, dst)
	}
}

// Batch is one prepared batch of a Stream.
type Batch struct {
	Index int       // batch number within the epoch
	Rows  []int     // image rows of the batch
	X     []float32 // len(Rows)·RowWidth inputs
}

// filler writes network input rows for a list of samples.
type filler interface {
	RowWidth() int
	Fill(dst []float32, idx []int, augment bool, epoch, offset int)
}

// Stream prepares the batches of one epoch in a background goroutine, at
// most depth batches ahead of the consumer, and sends them in order.
// The consumer must call release(batch) once it is done with a batch's X
// (the buffer is reused) and either drain the channel or close stop.
func (b *Batcher) Stream(batches [][]int, augment bool, epoch, depth int, stop <-chan struct{}) (out <-chan *Batch, release func(*Batch)) {
	return stream(b, batches, augment, epoch, depth, stop)
}

func stream(f filler, batches [][]int, augment bool, epoch, depth int, stop <-chan struct{}) (out <-chan *Batch, release func(*Batch)) {
	if depth < 1 {
		depth = 1
	}
	width := f.RowWidth()
	ch := make(chan *Batch, depth)
	free := make(chan []float32, depth+1)
	maxRows := 0
	for _, r := range batches {
		if len(r) > maxRows {
			maxRows = len(r)
		}
	}
	for i := 0; i < depth+1; i++ {
		free <- make([]float32, maxRows*width)
	}
	go func() {
		defer close(ch)
		offset := 0
		for k, rows := range batches {
			var buf []float32
			select {
			case buf = <-free:
			case <-stop:
				return
			}
			x := buf[:len(rows)*width]
			f.Fill(x, rows, augment, epoch, offset)
			offset += len(rows)
			select {
			case ch <- &Batch{Index: k, Rows: rows, X: x}:
			case <-stop:
				return
			}
		}
	}()
	return ch, func(bt *Batch) { free <- bt.X[:cap(bt.X)] }
}
