package minigrid

import "math/bits"

// MiniGrid draws its layouts from numpy's Generator: PCG64 seeded through a
// SeedSequence (what gymnasium.utils.seeding.np_random(seed) builds), and
// minigrid's _rand_int(low, high) is Generator.integers(low, high). This
// file reproduces that stream bit for bit so that a seed gives the layout the
// reference Python environment gives for the same seed.

// SeedSequence constants (numpy/random/bit_generator.pyx).
const (
	ssPoolSize = 4
	ssInitA    = 0x43b0d7e5
	ssMultA    = 0x931e8875
	ssInitB    = 0x8b51f9dd
	ssMultB    = 0x58f38ded
	ssMixMultL = 0xca01f9dd
	ssMixMultR = 0x4973f715
	ssXShift   = 16
)

// PCG64 default 128-bit multiplier, high and low words.
const (
	pcgMultHi = 0x2360ed051fc65da4
	pcgMultLo = 0x4385df649fccf645
)

// numpyGen is numpy.random.Generator(PCG64(SeedSequence(seed))) restricted
// to what MiniGrid uses: scalar integers(low, high).
type numpyGen struct {
	stateHi, stateLo uint64
	incHi, incLo     uint64
	hasUint32        bool
	uinteger         uint32
}

// seedSequenceState returns SeedSequence(seed).generate_state(4, uint64).
func seedSequenceState(seed uint64) [4]uint64 {
	// SeedSequence entropy: the integer as little-endian 32-bit words
	// (0 is one zero word).
	var entropy [2]uint32
	n := 1
	entropy[0] = uint32(seed)
	if seed>>32 != 0 {
		entropy[1] = uint32(seed >> 32)
		n = 2
	}

	// mix_entropy into a pool of 4 words.
	hashConst := uint32(ssInitA)
	hashmix := func(v uint32) uint32 {
		v ^= hashConst
		hashConst *= ssMultA
		v *= hashConst
		v ^= v >> ssXShift
		return v
	}
	mix := func(x, y uint32) uint32 {
		r := ssMixMultL*x - ssMixMultR*y
		r ^= r >> ssXShift
		return r
	}
	var pool [ssPoolSize]uint32
	for i := range pool {
		if i < n {
			pool[i] = hashmix(entropy[i])
		} else {
			pool[i] = hashmix(0)
		}
	}
	for src := range pool {
		for dst := range pool {
			if src != dst {
				pool[dst] = mix(pool[dst], hashmix(pool[src]))
			}
		}
	}

	// generate_state(4, uint64) = 8 uint32 words read as little-endian pairs.
	var words [8]uint32
	hc := uint32(ssInitB)
	for i := range words {
		v := pool[i%ssPoolSize]
		v ^= hc
		hc *= ssMultB
		v *= hc
		v ^= v >> ssXShift
		words[i] = v
	}
	var st [4]uint64
	for i := range st {
		st[i] = uint64(words[2*i]) | uint64(words[2*i+1])<<32
	}
	return st
}

// seed resets the generator as Generator(PCG64(SeedSequence(seed))) would.
func (g *numpyGen) seed(seed uint64) {
	st := seedSequenceState(seed)

	// pcg64_set_seed: initstate = (st[0] high, st[1] low),
	// initseq = (st[2] high, st[3] low); PCG setseq srandom.
	g.incHi = st[2]<<1 | st[3]>>63
	g.incLo = st[3]<<1 | 1
	g.stateHi, g.stateLo = 0, 0
	g.step()
	lo, carry := bits.Add64(g.stateLo, st[1], 0)
	g.stateHi, _ = bits.Add64(g.stateHi, st[0], carry)
	g.stateLo = lo
	g.step()
	g.hasUint32 = false
	g.uinteger = 0
}

// step advances the 128-bit LCG: state = state·mult + inc (mod 2^128).
func (g *numpyGen) step() {
	hi, lo := bits.Mul64(g.stateLo, pcgMultLo)
	hi += g.stateHi*pcgMultLo + g.stateLo*pcgMultHi
	var carry uint64
	lo, carry = bits.Add64(lo, g.incLo, 0)
	hi, _ = bits.Add64(hi, g.incHi, carry)
	g.stateHi, g.stateLo = hi, lo
}

// next64 is PCG64's raw output (XSL-RR of the advanced state).
func (g *numpyGen) next64() uint64 {
	g.step()
	return bits.RotateLeft64(g.stateHi^g.stateLo, -int(g.stateHi>>58))
}

// next32 splits a 64-bit output into two 32-bit draws, low half first.
func (g *numpyGen) next32() uint32 {
	if g.hasUint32 {
		g.hasUint32 = false
		return g.uinteger
	}
	v := g.next64()
	g.hasUint32 = true
	g.uinteger = uint32(v >> 32)
	return uint32(v)
}

// integers returns Generator.integers(low, high) for high > low with
// high − low ≤ 2^32 − 1 (numpy's Lemire rejection on 32-bit draws; a range
// of one value draws nothing).
func (g *numpyGen) integers(low, high int) int {
	rng := uint32(high - low - 1) // inclusive range
	if rng == 0 {
		return low
	}
	excl := rng + 1
	m := uint64(g.next32()) * uint64(excl)
	left := uint32(m)
	if left < excl {
		threshold := (^uint32(0) - rng) % excl
		for left < threshold {
			m = uint64(g.next32()) * uint64(excl)
			left = uint32(m)
		}
	}
	return low + int(m>>32)
}
