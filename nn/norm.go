package nn

import (
	"fmt"
	"math"

	"github.com/gdt-ml/gdt/optim"
)

// LayerNorm normalises every row to zero mean and unit variance (biased
// variance, ε inside the square root) and applies a learned per-value scale
// ("weight", initialised to 1) and shift ("bias", 0), as torch.nn.LayerNorm
// over the last axis. Statistics are accumulated in float64.
type LayerNorm struct {
	n      int
	eps    float64
	g, b   []float32
	gg, gb []float32
	params []optim.Param

	bs   int
	xhat []float32
	inv  []float32 // 1/σ per row
	y    []float32
	dx   []float32
}

// NewLayerNorm returns layer normalisation over rows of n values with the
// given ε (0 means PyTorch's 1e−5).
func NewLayerNorm(n int, eps float64) (*LayerNorm, error) {
	if n <= 0 {
		return nil, fmt.Errorf("nn: NewLayerNorm: width %d, want > 0", n)
	}
	if eps == 0 {
		eps = 1e-5
	}
	if !(eps > 0) {
		return nil, fmt.Errorf("nn: NewLayerNorm: eps %v, want > 0", eps)
	}
	l := &LayerNorm{n: n, eps: eps}
	val, grad := make([]float32, 2*n), make([]float32, 2*n)
	l.g, l.b, l.gg, l.gb = val[:n:n], val[n:], grad[:n:n], grad[n:]
	for i := range l.g {
		l.g[i] = 1
	}
	l.params = []optim.Param{{Name: "weight", Value: l.g, Grad: l.gg}, {Name: "bias", Value: l.b, Grad: l.gb}}
	return l, nil
}

// In returns the row width.
func (l *LayerNorm) In() int { return l.n }

// Out returns the row width.
func (l *LayerNorm) Out() int { return l.n }

// Params returns "weight" (scale) and "bias" (shift).
func (l *LayerNorm) Params() []optim.Param { return l.params }

// Forward normalises every row.
func (l *LayerNorm) Forward(x []float32, B int, train bool) []float32 {
	checkForward("LayerNorm", x, B, l.n)
	n := l.n
	l.bs = B
	l.xhat = grow(l.xhat, B*n)
	l.inv = grow(l.inv, B)
	l.y = grow(l.y, B*n)
	for r := 0; r < B; r++ {
		row := x[r*n : (r+1)*n]
		var s float64
		for _, v := range row {
			s += float64(v)
		}
		mu := s / float64(n)
		var ss float64
		for _, v := range row {
			d := float64(v) - mu
			ss += d * d
		}
		inv := 1 / math.Sqrt(ss/float64(n)+l.eps)
		l.inv[r] = float32(inv)
		xh, y := l.xhat[r*n:(r+1)*n], l.y[r*n:(r+1)*n]
		for i, v := range row {
			h := float32((float64(v) - mu) * inv)
			xh[i] = h
			y[i] = h*l.g[i] + l.b[i]
		}
	}
	return l.y
}

// Backward accumulates the scale and shift gradients and returns
// dx = (1/σ)(ĝ − mean(ĝ) − x̂·mean(ĝ·x̂)) with ĝ = dy·weight.
func (l *LayerNorm) Backward(dy []float32) []float32 {
	checkBackward("LayerNorm", dy, l.bs, l.n)
	n := l.n
	l.dx = grow(l.dx, l.bs*n)
	for r := 0; r < l.bs; r++ {
		d, xh, dx := dy[r*n:(r+1)*n], l.xhat[r*n:(r+1)*n], l.dx[r*n:(r+1)*n]
		var s1, s2 float64
		for i, v := range d {
			l.gg[i] += v * xh[i]
			l.gb[i] += v
			gh := float64(v * l.g[i])
			s1 += gh
			s2 += gh * float64(xh[i])
		}
		m1, m2 := s1/float64(n), s2/float64(n)
		inv := float64(l.inv[r])
		for i, v := range d {
			gh := float64(v * l.g[i])
			dx[i] = float32(inv * (gh - m1 - float64(xh[i])*m2))
		}
	}
	return l.dx
}

// BatchNorm is batch normalisation over the batch (and, for images, the
// spatial positions) of every channel, as torch.nn.BatchNorm1d/2d: in
// training mode the batch mean and biased variance normalise the input and
// update running estimates (running ← (1 − momentum)·running +
// momentum·batch, with the unbiased variance); in evaluation mode the running
// estimates are used. A learned per-channel scale ("weight", 1) and shift
// ("bias", 0) follow. The running estimates are Buffers ("running_mean",
// "running_var").
type BatchNorm struct {
	c, s     int // channels, spatial positions per channel
	eps, mom float64
	g, b     []float32
	gg, gb   []float32
	params   []optim.Param
	rmean    []float32
	rvar     []float32

	bs    int
	train bool
	xhat  []float32
	inv   []float32 // 1/σ per channel (batch or running)
	y     []float32
	dx    []float32
	sum   []float64 // per-channel scratch
	sum2  []float64
}

// NewBatchNorm1D returns batch normalisation of rows of n features (each
// feature a channel). eps 0 means 1e−5; momentum 0 means 0.1.
func NewBatchNorm1D(n int, eps, momentum float64) (*BatchNorm, error) {
	return newBatchNorm(n, 1, eps, momentum)
}

// NewBatchNorm2D returns batch normalisation of images of the given shape
// (statistics per channel over the batch and the H×W positions).
func NewBatchNorm2D(shape Shape, eps, momentum float64) (*BatchNorm, error) {
	if err := shape.validate("NewBatchNorm2D"); err != nil {
		return nil, err
	}
	return newBatchNorm(shape.C, shape.H*shape.W, eps, momentum)
}

func newBatchNorm(c, s int, eps, mom float64) (*BatchNorm, error) {
	if c <= 0 || s <= 0 {
		return nil, fmt.Errorf("nn: NewBatchNorm: %d channels of %d values, want both > 0", c, s)
	}
	if eps == 0 {
		eps = 1e-5
	}
	if mom == 0 {
		mom = 0.1
	}
	if !(eps > 0) || !(mom > 0 && mom <= 1) {
		return nil, fmt.Errorf("nn: NewBatchNorm: eps %v, momentum %v, want eps > 0 and 0 < momentum ≤ 1", eps, mom)
	}
	m := &BatchNorm{c: c, s: s, eps: eps, mom: mom}
	val, grad := make([]float32, 2*c), make([]float32, 2*c)
	m.g, m.b, m.gg, m.gb = val[:c:c], val[c:], grad[:c:c], grad[c:]
	m.rmean, m.rvar = make([]float32, c), make([]float32, c)
	for i := range m.g {
		m.g[i] = 1
		m.rvar[i] = 1
	}
	m.params = []optim.Param{{Name: "weight", Value: m.g, Grad: m.gg}, {Name: "bias", Value: m.b, Grad: m.gb}}
	m.sum, m.sum2 = make([]float64, c), make([]float64, c)
	m.inv = make([]float32, c)
	return m, nil
}

// In returns the row width (channels × positions).
func (m *BatchNorm) In() int { return m.c * m.s }

// Out returns the row width.
func (m *BatchNorm) Out() int { return m.c * m.s }

// Params returns "weight" and "bias" (per channel).
func (m *BatchNorm) Params() []optim.Param { return m.params }

// Buffers returns "running_mean" and "running_var".
func (m *BatchNorm) Buffers() []Buffer {
	return []Buffer{{Name: "running_mean", Value: m.rmean}, {Name: "running_var", Value: m.rvar}}
}

// Forward normalises with batch statistics (train, B ≥ 2) or with the
// running estimates (evaluation, or a training batch of one row).
func (m *BatchNorm) Forward(x []float32, B int, train bool) []float32 {
	w := m.c * m.s
	checkForward("BatchNorm", x, B, w)
	m.bs = B
	m.train = train && B*m.s > 1
	m.xhat = grow(m.xhat, B*w)
	m.y = grow(m.y, B*w)
	mean := m.sum
	if m.train {
		clear(m.sum)
		clear(m.sum2)
		for r := 0; r < B; r++ {
			for ch := 0; ch < m.c; ch++ {
				var s float64
				for _, v := range x[r*w+ch*m.s : r*w+(ch+1)*m.s] {
					s += float64(v)
				}
				m.sum[ch] += s
			}
		}
		cnt := float64(B * m.s)
		for ch := range mean {
			mean[ch] /= cnt
		}
		for r := 0; r < B; r++ {
			for ch := 0; ch < m.c; ch++ {
				mu := mean[ch]
				var s float64
				for _, v := range x[r*w+ch*m.s : r*w+(ch+1)*m.s] {
					d := float64(v) - mu
					s += d * d
				}
				m.sum2[ch] += s
			}
		}
		for ch := 0; ch < m.c; ch++ {
			v := m.sum2[ch] / cnt
			m.inv[ch] = float32(1 / math.Sqrt(v+m.eps))
			m.rmean[ch] = float32((1-m.mom)*float64(m.rmean[ch]) + m.mom*mean[ch])
			m.rvar[ch] = float32((1-m.mom)*float64(m.rvar[ch]) + m.mom*m.sum2[ch]/(cnt-1))
		}
	} else {
		for ch := 0; ch < m.c; ch++ {
			mean[ch] = float64(m.rmean[ch])
			m.inv[ch] = float32(1 / math.Sqrt(float64(m.rvar[ch])+m.eps))
		}
	}
	for r := 0; r < B; r++ {
		for ch := 0; ch < m.c; ch++ {
			o := r*w + ch*m.s
			mu, inv, g, b := mean[ch], float64(m.inv[ch]), m.g[ch], m.b[ch]
			xh, y := m.xhat[o:o+m.s], m.y[o:o+m.s]
			for i, v := range x[o : o+m.s] {
				h := float32((float64(v) - mu) * inv)
				xh[i] = h
				y[i] = h*g + b
			}
		}
	}
	return m.y
}

// Backward accumulates the scale and shift gradients and returns dx; in
// training mode through the batch statistics, in evaluation mode through the
// fixed affine map.
func (m *BatchNorm) Backward(dy []float32) []float32 {
	w := m.c * m.s
	B := m.bs
	checkBackward("BatchNorm", dy, B, w)
	m.dx = grow(m.dx, B*w)
	// per channel: Σ dy and Σ dy·x̂
	clear(m.sum)
	clear(m.sum2)
	for r := 0; r < B; r++ {
		for ch := 0; ch < m.c; ch++ {
			o := r*w + ch*m.s
			xh := m.xhat[o : o+m.s]
			var s1, s2 float64
			for i, v := range dy[o : o+m.s] {
				s1 += float64(v)
				s2 += float64(v) * float64(xh[i])
			}
			m.sum[ch] += s1
			m.sum2[ch] += s2
		}
	}
	for ch := 0; ch < m.c; ch++ {
		m.gb[ch] += float32(m.sum[ch])
		m.gg[ch] += float32(m.sum2[ch])
	}
	cnt := float64(B * m.s)
	for r := 0; r < B; r++ {
		for ch := 0; ch < m.c; ch++ {
			o := r*w + ch*m.s
			k := float64(m.g[ch]) * float64(m.inv[ch])
			xh, dx := m.xhat[o:o+m.s], m.dx[o:o+m.s]
			if !m.train {
				for i, v := range dy[o : o+m.s] {
					dx[i] = float32(k * float64(v))
				}
				continue
			}
			m1, m2 := m.sum[ch]/cnt, m.sum2[ch]/cnt
			for i, v := range dy[o : o+m.s] {
				dx[i] = float32(k * (float64(v) - m1 - float64(xh[i])*m2))
			}
		}
	}
	return m.dx
}
