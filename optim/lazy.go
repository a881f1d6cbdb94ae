package optim

import (
	"math"
	"math/bits"
)

// The exact lazy sweep of the Keras rule (groups without weight decay).
//
// Under flush-to-zero the first moment of an entry without gradient does
// not decay to zero: m ← m + (0 − m)·(1−β1) stops changing once m·(1−β1)
// is below the smallest normal float32 (|m| ≲ 1.2e−37 for β1 = 0.9), and
// so does v ← v + (0 − v)·(1−β2), at |v| ≲ 1.2e−35. Once m has reached its
// fixed point, a step with a ±0 gradient leaves m as it is and moves θ by
// (m·α)/(√v + ε) = ±0, since m·α flushes to zero whenever α ≤ 1−β1 (then
// |m·α| ≤ |m·(1−β1)|); θ − (±0) = θ bit for bit, except θ = −0 with m < 0,
// which would turn into +0. Only v still changes, v ← v − v·(1−β2) with
// every operation rounded to float32 and flushed as in the dense loop.
//
// Such a "cold" entry (m at its fixed point, v finite, not θ = −0 with
// m < 0) is skipped while its gradient is ±0 and α ≤ 1−β1; the optimiser
// remembers when its v was last brought up to date and, before the entry
// is updated again (or the state is read), replays the skipped decays one
// by one with the same float32 operations (stopping at v's fixed point),
// which gives the dense sweep's bits. A step with α > 1−β1 (a very large
// learning rate) brings every entry up to date and updates all of them.
//
// Per slot the lazy sweep keeps, for every 64-entry word, the mask of its
// "hot" (not cold) entries, which are updated every step, the group step at
// which every entry of the word was last current (wlast) and, per entry,
// the group step of its last entry-by-entry update (elast); an entry is
// current at max(wlast, elast). A word with many entries to update whose
// entries are all current goes through the vectorised loop (which also
// returns the new hot mask); otherwise the entries to update are replayed
// and updated one by one. Timestamps count the group's own non-frozen
// steps, so frozen steps decay nothing, as in the dense sweep.

// lazyMaxLen is the largest tensor that runs the lazy sweep. Skipping and
// updating single entries pays off while the tensor's p, g, m and v stay
// in the caches (GradTree: ~14,000 entries per tensor); in much larger
// tensors (GRANDE: millions) nearly every 64-entry word holds an entry that
// needs an update, and hopping between them costs as much as streaming
// the whole tensor, which the plain sweep (skip of entries with m = v = 0)
// does.
const lazyMaxLen = 1 << 18

// lazyDenseAt is the number of entries of a current word to update from
// which the word is swept in the vectorised loop.
const lazyDenseAt = 16

// lazyRecheck is the period (in steps) at which the hot masks of a part
// whose entries are all hot are recomputed.
const lazyRecheck = 16

// lazyStaleDenseAt is the same for a word with stale entries (which are
// replayed first).
const lazyStaleDenseAt = 48

// lazyState is the bookkeeping of the lazy sweep of one slot.
type lazyState struct {
	hot   []uint64 // per word: entries updated every step
	wlast []int32  // per word: group step at which all entries were current
	elast []int32  // per entry: group step of its last single update
	// touched holds per word the entries the sweep of Adam step touchedAt
	// updated (a superset of the entries whose value changed; the others
	// were cold with a ±0 gradient, which leaves θ's bits as they were).
	touched   []uint64
	touchedAt int64
}

func newLazyState(n int) *lazyState {
	nw := (n + 63) / 64
	return &lazyState{hot: make([]uint64, nw), wlast: make([]int32, nw), elast: make([]int32, n),
		touched: make([]uint64, nw)}
}

// decayV returns v after k Keras steps with zero gradient and m = +0:
// v ← ftz(v − ftz(v·c2)), the dense loop's operations for g = 0 (there
// g·g − v is −v exactly and (−v)·c2 = −(v·c2)). It stops at a fixed point.
func decayV(v, c2 float32, k int64) float32 {
	for ; k > 0; k-- {
		nv := ftz(v - ftz(float32(v*c2)))
		if nv == v {
			break
		}
		v = nv
	}
	return v
}

// coldEntry reports whether an entry after its update may be skipped from
// now on while its gradient is ±0 (see above): m·c1 flushes to zero, v is
// finite and not θ = ±0 with m < 0 (only θ = −0 matters; ±0 is the cheaper
// test).
func coldEntry(p, m, v, c1 float32) bool {
	return ftz(float32(m*c1)) == 0 && math.Float32bits(v)&0x7f800000 != 0x7f800000 &&
		!(p == 0 && math.Signbit(float64(m)))
}

// hotMask returns the mask of the entries of p, m, v (at most 64) that are
// not cold.
func hotMask(p, m, v []float32, c1 float32) uint64 {
	var h uint64
	for i := range m {
		if !coldEntry(p[i], m[i], v[i], c1) {
			h |= 1 << uint(i)
		}
	}
	return h
}

// catchUp replays the skipped decays of the entries of word w of s that are
// not current at group step t.
func (ls *lazyState) catchUp(s *slot, w int, t int32, c2 float32) {
	wl := ls.wlast[w]
	if wl >= t {
		return
	}
	lo, hi := w*64, min(w*64+64, len(s.p))
	for j := lo; j < hi; j++ {
		eff := max(wl, ls.elast[j])
		if eff < t {
			s.v[j] = decayV(s.v[j], c2, int64(t-eff))
		}
	}
	ls.wlast[w] = t
}

// sync brings every entry of s up to group step t.
func (ls *lazyState) sync(s *slot, t int32, c2 float32) {
	for w := range ls.wlast {
		ls.catchUp(s, w, t, c2)
	}
}

// reset marks every entry current at group step t and recomputes the hot
// masks (after a state was loaded).
func (ls *lazyState) reset(s *slot, t int32, c1 float32) {
	for w := range ls.wlast {
		lo, hi := w*64, min(w*64+64, len(s.p))
		ls.hot[w] = hotMask(s.p[lo:hi], s.m[lo:hi], s.v[lo:hi], c1)
		ls.wlast[w] = t
	}
	clear(ls.elast)
}

// lazy updates the part [w0, w1) of s at group step t (≥ 1) with the exact
// lazy skip (Keras rule without weight decay); buf is the part's buffer.
func (c *coef) lazy(s *slot, w0, w1 int, t int32, buf *[]int32) {
	ls := s.lazy
	lo, hi := w0*64, min(w1*64, len(s.p))
	// with α > 1−β1 a cold m could move θ: update every entry
	force := !(c.alpha <= c.c1)
	if !force && hi == w1*64 && c.allHot(ls, w0, w1, t) {
		// every entry is updated: one vectorised sweep, no gradient masks;
		// the hot masks (a superset is harmless: updating a cold entry is
		// exact) are recomputed every lazyRecheck steps only
		if (int(t)+w0/chunkWords)%lazyRecheck == 0 {
			c.denseKerasHot(s.p[lo:hi], s.g[lo:hi], s.m[lo:hi], s.v[lo:hi], ls.hot[w0:w1])
		} else {
			c.denseKeras(s.p[lo:hi], s.g[lo:hi], s.m[lo:hi], s.v[lo:hi])
		}
		for w := w0; w < w1; w++ {
			ls.wlast[w] = t
			ls.touched[w] = ^uint64(0)
		}
		return
	}
	var mbuf [chunkWords]uint64
	masks := mbuf[:w1-w0]
	if s.useHint {
		copy(masks, s.hint[w0:w1])
		if last := len(ls.hot) - 1; w1-1 == last {
			masks[last-w0] &= wordMask(last, len(s.p))
		}
	} else {
		nonzeroMasks(s.g[lo:hi], masks)
	}
	full := len(s.p) / 64 // words before full are complete
	run := -1             // first word of a pending run of vectorised words
	list := (*buf)[:0]    // entries updated one by one
	flush := func(end int) {
		if run >= 0 {
			a, b := run*64, end*64
			c.denseKerasHot(s.p[a:b], s.g[a:b], s.m[a:b], s.v[a:b], ls.hot[run:end])
			run = -1
		}
	}
	for k := range masks {
		w := w0 + k
		todo := masks[k] | ls.hot[w]
		if force {
			todo = wordMask(w, len(s.p))
		}
		ls.touched[w] = todo
		if todo == 0 {
			flush(w)
			continue
		}
		n := bits.OnesCount64(todo)
		current := ls.wlast[w] == t-1
		if w < full && (n >= lazyStaleDenseAt || current && n >= lazyDenseAt) {
			if !current {
				ls.catchUp(s, w, t-1, c.c2)
			}
			ls.wlast[w] = t
			if run < 0 {
				run = w
			}
			continue
		}
		flush(w)
		// entry by entry: replay the skipped decays, list the entries
		wl := ls.wlast[w]
		base := w * 64
		for todo != 0 {
			i := bits.TrailingZeros64(todo)
			todo &= todo - 1
			j := base + i
			if eff := max(wl, ls.elast[j]); eff < t-1 {
				s.v[j] = decayV(s.v[j], c.c2, int64(t-1-eff))
			}
			ls.elast[j] = t
			list = append(list, int32(j))
		}
		ls.hot[w] = 0 // set from the listed entries below
	}
	flush(w1)
	c.updateList(s, list)
	for _, j := range list {
		if !coldEntry(s.p[j], s.m[j], s.v[j], c.c1) {
			ls.hot[j>>6] |= 1 << uint(j&63)
		}
	}
	*buf = list[:0]
}

// allHot reports whether every entry of the complete words [w0, w1) is hot
// and current at group step t−1.
func (c *coef) allHot(ls *lazyState, w0, w1 int, t int32) bool {
	for w := w0; w < w1; w++ {
		if ls.hot[w] != ^uint64(0) || ls.wlast[w] != t-1 {
			return false
		}
	}
	return true
}

// updateList runs the Keras update on the entries list of s.
func (c *coef) updateList(s *slot, list []int32) {
	if len(list) == 0 {
		return
	}
	if useAVX2 {
		kerasListAVX(&s.p[0], &s.g[0], &s.m[0], &s.v[0], &list[0], len(list), c.c1, c.c2, c.alpha, c.eps)
		return
	}
	for _, j := range list {
		s.p[j], s.m[j], s.v[j] = kerasFTZ(s.p[j], s.g[j], s.m[j], s.v[j], c.c1, c.c2, c.alpha, c.eps)
	}
}

// denseKerasHot is denseKeras over whole words (len(p) a multiple of 64)
// that also writes every word's new hot mask.
func (c *coef) denseKerasHot(p, g, m, v []float32, hot []uint64) {
	if useAVX2 {
		kerasHotAVX2(&p[0], &g[0], &m[0], &v[0], len(hot), c.c1, c.c2, c.alpha, c.eps, &hot[0])
		return
	}
	c1, c2, alpha, eps := c.c1, c.c2, c.alpha, c.eps
	for w := range hot {
		lo, hi := w*64, w*64+64
		for i := lo; i < hi; i++ {
			p[i], m[i], v[i] = kerasFTZ(p[i], g[i], m[i], v[i], c1, c2, alpha, eps)
		}
		hot[w] = hotMask(p[lo:hi], m[lo:hi], v[lo:hi], c1)
	}
}
