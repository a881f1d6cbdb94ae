package optim

import (
	"math"
	"math/bits"
	"unsafe"
)

// addr returns the address of x (for overlap checks only).
func addr(x *float32) uintptr { return uintptr(unsafe.Pointer(x)) }

// sqrt32 is the correctly rounded float32 square root (one SQRTSS).
func sqrt32(x float32) float32 { return float32(math.Sqrt(float64(x))) }

// ftz flushes a denormal float32 to a zero of the same sign, as the x86
// MXCSR FTZ/DAZ mode the AVX2 Keras loop runs in (and GPU arithmetic) does.
func ftz(x float32) float32 {
	if b := math.Float32bits(x); b&0x7f800000 == 0 {
		return math.Float32frombits(b & 0x80000000)
	}
	return x
}

// kerasFTZ is one Keras Adam update with every operand and intermediate
// flushed like the AVX2 loop, so both give the same bits.
func kerasFTZ(p, g, m, v, c1, c2, alpha, eps float32) (float32, float32, float32) {
	g, m, v, p = ftz(g), ftz(m), ftz(v), ftz(p)
	m = ftz(m + ftz(ftz(g-m)*c1))
	v = ftz(v + ftz(ftz(ftz(g*g)-v)*c2))
	p = ftz(p - ftz(ftz(m*alpha)/ftz(ftz(sqrt32(v))+eps)))
	return p, m, v
}

// pow32 is β^t rounded to float32, with β already a float32 (as TF, JAX do).
func pow32(beta float32, t int64) float32 {
	return float32(math.Pow(float64(beta), float64(t)))
}

// coef holds the per-step scalars of one group. Products are wrapped in
// float32() conversions wherever a sum follows so that the compiler never
// fuses them into FMA: every operation is rounded on its own, on every CPU.
type coef struct {
	rule  Rule
	decay bool

	c1, c2 float32 // 1 − β1, 1 − β2 (rounded as the reference does)
	b1, b2 float32 // β1, β2
	eps    float32

	alpha float32 // Keras: lr·√(1−β2ᵗ)/(1−β1ᵗ)
	kwd   float32 // Keras decay: λ (θ −= θ·λ·lr)
	klr   float32 // Keras decay: lr

	negStep   float32 // Torch: −lr/(1−β1ᵗ)
	bc2s      float32 // Torch: √(1−β2ᵗ)
	lerpSmall bool    // Torch lerp branch: weight 1−β1 < 0.5
	c1c       float32 // Torch lerp, large weight: 1 − (1−β1)
	tdecay    float32 // Torch: 1 − lr·λ

	bc1, bc2 float32 // Optax: 1 − β1ᵗ, 1 − β2ᵗ
	negLR    float32 // Optax: −lr
	owd      float32 // Optax: λ
}

// newCoef computes the scalars of step t (≥ 1) with learning rate lr.
func newCoef(g *Group, lr float64, t int64) coef {
	c := coef{rule: g.Rule, decay: g.WeightDecay != 0}
	b1f, b2f := float32(g.Beta1), float32(g.Beta2)
	c.b1, c.b2, c.eps = b1f, b2f, float32(g.Epsilon)
	switch g.Rule {
	case Keras:
		// Legacy Keras hands float32 β's to the ResourceApplyAdam kernel,
		// which forms 1 − β in float32.
		c.c1, c.c2 = 1-b1f, 1-b2f
		b1p, b2p := pow32(b1f, t), pow32(b2f, t)
		lr32 := float32(lr)
		c.alpha = float32(lr32*sqrt32(1-b2p)) / (1 - b1p)
		c.kwd, c.klr = float32(g.WeightDecay), lr32
	case Torch:
		w := 1 - g.Beta1 // Python float, cast to float32 by lerp
		c.c1 = float32(w)
		c.lerpSmall = math.Abs(w) < 0.5
		c.c1c = 1 - c.c1
		c.c2 = float32(1 - g.Beta2)
		bc1 := 1 - math.Pow(g.Beta1, float64(t))
		bc2 := 1 - math.Pow(g.Beta2, float64(t))
		c.negStep = float32(-(lr / bc1))
		c.bc2s = float32(math.Sqrt(bc2))
		c.tdecay = float32(1 - lr*g.WeightDecay)
	case Optax:
		c.c1, c.c2 = float32(1-g.Beta1), float32(1-g.Beta2)
		c.bc1, c.bc2 = 1-pow32(b1f, t), 1-pow32(b2f, t)
		c.negLR = float32(-lr)
		c.owd = float32(g.WeightDecay)
	}
	return c
}

// elem updates one entry; it is the single definition of every rule that
// the dense loops below repeat (a test checks they agree bit for bit).
func (c *coef) elem(p, g, m, v float32) (float32, float32, float32) {
	switch c.rule {
	case Keras:
		if c.decay {
			p -= float32(float32(p*c.kwd) * c.klr)
		}
		p, m, v = kerasFTZ(p, g, m, v, c.c1, c.c2, c.alpha, c.eps)
	case Torch:
		if c.decay {
			p = float32(p * c.tdecay)
		}
		if c.lerpSmall {
			m += float32(c.c1 * (g - m))
		} else {
			m = g - float32((g-m)*c.c1c)
		}
		v = float32(v*c.b2) + float32(float32(c.c2*g)*g)
		p += float32(c.negStep*m) / (sqrt32(v)/c.bc2s + c.eps)
	default: // Optax (moments flushed to zero as XLA on the CPU does)
		m = ftz(float32(c.c1*g) + float32(c.b1*m))
		v = ftz(float32(c.c2*float32(g*g)) + float32(c.b2*v))
		u := (m / c.bc1) / (sqrt32(v/c.bc2) + c.eps)
		if c.decay {
			u += float32(c.owd * p)
		}
		p += float32(u * c.negLR)
	}
	return p, m, v
}

// dense updates every entry of p, g, m, v (equal lengths).
func (c *coef) dense(p, g, m, v []float32) {
	switch {
	case c.rule == Keras && !c.decay:
		c.denseKeras(p, g, m, v)
	case c.rule == Torch && !c.decay && c.lerpSmall:
		c.denseTorch(p, g, m, v)
	case c.rule == Optax:
		c.denseOptax(p, g, m, v)
	default:
		for i := range p {
			p[i], m[i], v[i] = c.elem(p[i], g[i], m[i], v[i])
		}
	}
}

func (c *coef) denseKeras(p, g, m, v []float32) {
	g, m, v = g[:len(p)], m[:len(p)], v[:len(p)]
	if k := len(p) &^ 7; useAVX2 && k > 0 {
		kerasAVX2(&p[0], &g[0], &m[0], &v[0], k, c.c1, c.c2, c.alpha, c.eps)
		p, g, m, v = p[k:], g[k:], m[k:], v[k:]
	}
	c1, c2, alpha, eps := c.c1, c.c2, c.alpha, c.eps
	for i := range p {
		p[i], m[i], v[i] = kerasFTZ(p[i], g[i], m[i], v[i], c1, c2, alpha, eps)
	}
}

func (c *coef) denseTorch(p, g, m, v []float32) {
	g, m, v = g[:len(p)], m[:len(p)], v[:len(p)]
	c1, c2, b2, ns, bs, eps := c.c1, c.c2, c.b2, c.negStep, c.bc2s, c.eps
	for i := range p {
		gi := g[i]
		mi := m[i] + float32(c1*(gi-m[i]))
		vi := float32(v[i]*b2) + float32(float32(c2*gi)*gi)
		m[i], v[i] = mi, vi
		p[i] += float32(ns*mi) / (sqrt32(vi)/bs + eps)
	}
}

func (c *coef) denseOptax(p, g, m, v []float32) {
	g, m, v = g[:len(p)], m[:len(p)], v[:len(p)]
	if useAVX2 && len(p) >= 8 {
		kc := optaxConsts{c1: c.c1, c2: c.c2, b1: c.b1, b2: c.b2, bc1: c.bc1, bc2: c.bc2, eps: c.eps, negLR: c.negLR, owd: c.owd,
			rbc1: 1 / c.bc1, rbc2: 1 / c.bc2}
		if c.decay {
			kc.decay = 1
		}
		if k := len(p) &^ 15; useAVX512 && k > 0 {
			optaxAVX512(&p[0], &g[0], &m[0], &v[0], k, &kc)
			p, g, m, v = p[k:], g[k:], m[k:], v[k:]
		}
		if k := len(p) &^ 7; k > 0 {
			optaxAVX2(&p[0], &g[0], &m[0], &v[0], k, &kc)
			p, g, m, v = p[k:], g[k:], m[k:], v[k:]
		}
	}
	c1, c2, b1, b2, bc1, bc2, eps, nl := c.c1, c.c2, c.b1, c.b2, c.bc1, c.bc2, c.eps, c.negLR
	if c.decay {
		owd := c.owd
		for i := range p {
			gi := g[i]
			mi := ftz(float32(c1*gi) + float32(b1*m[i]))
			vi := ftz(float32(c2*float32(gi*gi)) + float32(b2*v[i]))
			m[i], v[i] = mi, vi
			u := (mi / bc1) / (sqrt32(vi/bc2) + eps)
			u += float32(owd * p[i])
			p[i] += float32(u * nl)
		}
		return
	}
	for i := range p {
		gi := g[i]
		mi := ftz(float32(c1*gi) + float32(b1*m[i]))
		vi := ftz(float32(c2*float32(gi*gi)) + float32(b2*v[i]))
		m[i], v[i] = mi, vi
		u := (mi / bc1) / (sqrt32(vi/bc2) + eps)
		p[i] += float32(u * nl)
	}
}

// denseWordAt is the number of entries of a 64-entry word to update from
// which the whole word is swept in one loop rather than entry by entry.
const denseWordAt = 24

// nonzero returns the mask of the entries of g (≤ 64) that are neither +0
// nor −0 (NaN counts as non-zero).
func nonzero(g []float32) uint64 {
	var or uint32
	for _, x := range g {
		or |= math.Float32bits(x)
	}
	if or<<1 == 0 {
		return 0
	}
	var nz uint64
	for i, x := range g {
		if x != 0 {
			nz |= 1 << uint(i)
		}
	}
	return nz
}

// nonzeroMasks writes the non-zero mask of every 64-entry word of g into
// masks (len(masks) = ⌈len(g)/64⌉).
func nonzeroMasks(g []float32, masks []uint64) {
	full := len(g) / 64
	if useAVX2 && full > 0 {
		nzMasksAVX2(&g[0], full, &masks[0])
	} else {
		for w := range full {
			masks[w] = nonzero(g[w*64 : w*64+64])
		}
	}
	if full < len(masks) {
		masks[full] = nonzero(g[full*64:])
	}
}

// wordMask is the mask of the valid entries of word w of an n-entry slot.
func wordMask(w, n int) uint64 {
	k := min(n-w*64, 64)
	return ^uint64(0) >> uint(64-k)
}

// sparse updates the part [w0, w1) (one chunk) of s with the exact skip:
// entries with zero gradient and zero moments are left alone. The result is
// bit-identical to the dense sweep for groups without weight decay.
//
// A live bit means "m or v may be non-zero". A superset is harmless (the
// update of an entry with g = m = v = 0 changes no bit), so bits are set
// generously and cleared only on the entry-by-entry path. On a machine whose
// memory streams fast, sweeping a whole chunk beats hopping between its
// scattered entries, so a chunk in which at least 1/8 of the words need an
// update is swept densely and marked live for good (moments decay over
// ~1/(1−β2) steps anyway); in sparser chunks only the words that need an
// update are touched, densely from denseWordAt entries, else entry by
// entry.
func (c *coef) sparse(s *slot, w0, w1 int) {
	ci := w0 / chunkWords
	lo, hi := w0*64, min(w1*64, len(s.p))
	if s.chunkLive[ci] {
		c.dense(s.p[lo:hi], s.g[lo:hi], s.m[lo:hi], s.v[lo:hi])
		return
	}
	var buf [chunkWords]uint64
	masks := buf[:w1-w0]
	nonzeroMasks(s.g[lo:hi], masks)
	touched := 0
	for k := range masks {
		masks[k] |= s.live[w0+k]
		if masks[k] != 0 {
			touched++
		}
	}
	if touched == 0 {
		return
	}
	if touched*8 >= len(masks) {
		c.dense(s.p[lo:hi], s.g[lo:hi], s.m[lo:hi], s.v[lo:hi])
		for w := w0; w < w1; w++ {
			s.live[w] = wordMask(w, len(s.p))
		}
		s.chunkLive[ci] = true
		return
	}
	for k, todo := range masks {
		if todo == 0 {
			continue
		}
		w := w0 + k
		wl := w * 64
		if bits.OnesCount64(todo) >= denseWordAt {
			wh := min(wl+64, len(s.p))
			c.dense(s.p[wl:wh], s.g[wl:wh], s.m[wl:wh], s.v[wl:wh])
			s.live[w] = todo
			continue
		}
		live := todo
		for todo != 0 {
			i := bits.TrailingZeros64(todo)
			todo &= todo - 1
			j := wl + i
			p, m, v := c.elem(s.p[j], s.g[j], s.m[j], s.v[j])
			s.p[j], s.m[j], s.v[j] = p, m, v
			if m == 0 && v == 0 {
				live &^= 1 << uint(i)
			}
		}
		s.live[w] = live
	}
}
