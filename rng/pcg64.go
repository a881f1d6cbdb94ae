package rng

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
)

// PCG64 is numpy's default bit generator as numpy.random.Generator uses it:
// PCG64 (128-bit LCG with XSL-RR output) seeded through a SeedSequence, the
// generator gymnasium.utils.seeding.np_random(seed) builds. It reproduces
// numpy's stream bit for bit for the draws implemented here (raw 64-bit
// outputs, next_double, Generator.uniform and Generator.integers), so a
// seed gives the same MiniGrid layout or LunarLander terrain as the Python
// environments give for that seed.
type PCG64 struct {
	hi, lo       uint64 // state
	incHi, incLo uint64 // increment (odd)
	hasUint32    bool   // a buffered upper half of a 64-bit draw
	uinteger     uint32
}

// SeedSequence constants (numpy/random/bit_generator.pyx).
const (
	ssInitA    uint32 = 0x43b0d7e5
	ssMultA    uint32 = 0x931e8875
	ssInitB    uint32 = 0x8b51f9dd
	ssMultB    uint32 = 0x58f38ded
	ssMixMultL uint32 = 0xca01f9dd
	ssMixMultR uint32 = 0x4973f715
	ssXShift          = 16
	ssPoolSize        = 4
)

// PCG's default 128-bit multiplier.
const (
	pcgMultHi uint64 = 0x2360ed051fc65da4
	pcgMultLo uint64 = 0x4385df649fccf645
)

// seedSequenceState returns numpy's SeedSequence(seed).generate_state(4,
// np.uint64) for a non-negative integer seed without spawn key.
func seedSequenceState(seed uint64) [4]uint64 {
	// The integer entropy as little-endian 32-bit words (0 is one zero word).
	var entropy [2]uint32
	n := 1
	entropy[0] = uint32(seed)
	if seed>>32 != 0 {
		entropy[1] = uint32(seed >> 32)
		n = 2
	}
	hashConst := ssInitA
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
	// generate_state(4, uint64): 8 uint32 words read as little-endian pairs.
	var words [8]uint32
	hc := ssInitB
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

// NewPCG64 returns numpy.random.Generator(PCG64(SeedSequence(seed))).
func NewPCG64(seed uint64) *PCG64 {
	p := new(PCG64)
	p.Seed(seed)
	return p
}

// Seed resets the generator as PCG64(SeedSequence(seed)) would.
func (p *PCG64) Seed(seed uint64) {
	v := seedSequenceState(seed)
	// pcg64_set_seed: state = (v0 << 64) | v1, seq = (v2 << 64) | v3;
	// inc = seq << 1 | 1; state = 0; step; state += initstate; step.
	p.incHi = v[2]<<1 | v[3]>>63
	p.incLo = v[3]<<1 | 1
	p.hi, p.lo = 0, 0
	p.step()
	var c uint64
	p.lo, c = bits.Add64(p.lo, v[1], 0)
	p.hi, _ = bits.Add64(p.hi, v[0], c)
	p.step()
	p.hasUint32, p.uinteger = false, 0
}

// step advances the LCG: state = state·mult + inc (mod 2¹²⁸).
func (p *PCG64) step() {
	hi, lo := bits.Mul64(p.lo, pcgMultLo)
	hi += p.hi*pcgMultLo + p.lo*pcgMultHi
	var c uint64
	p.lo, c = bits.Add64(lo, p.incLo, 0)
	p.hi, _ = bits.Add64(hi, p.incHi, c)
}

// Uint64 returns the next raw 64-bit output (numpy's random_raw).
func (p *PCG64) Uint64() uint64 {
	p.step()
	return bits.RotateLeft64(p.hi^p.lo, -int(p.hi>>58))
}

// Uint32 returns the next 32-bit draw: numpy splits a 64-bit output into
// two, low half first.
func (p *PCG64) Uint32() uint32 {
	if p.hasUint32 {
		p.hasUint32 = false
		return p.uinteger
	}
	v := p.Uint64()
	p.hasUint32 = true
	p.uinteger = uint32(v >> 32)
	return uint32(v)
}

// Float64 returns a uniform double in [0, 1) as numpy's next_double.
func (p *PCG64) Float64() float64 {
	return float64(p.Uint64()>>11) * (1.0 / 9007199254740992.0)
}

// Uniform returns numpy's Generator.uniform(low, high) for one draw.
func (p *PCG64) Uniform(low, high float64) float64 {
	return low + (high-low)*p.Float64()
}

// Integers returns Generator.integers(low, high) (high exclusive) for
// high > low with high − low ≤ 2³² − 1: numpy's Lemire rejection on 32-bit
// draws; a range of one value draws nothing.
func (p *PCG64) Integers(low, high int) int {
	rng := uint32(high - low - 1) // inclusive range
	if rng == 0 {
		return low
	}
	excl := rng + 1
	m := uint64(p.Uint32()) * uint64(excl)
	left := uint32(m)
	if left < excl {
		threshold := (^uint32(0) - rng) % excl
		for left < threshold {
			m = uint64(p.Uint32()) * uint64(excl)
			left = uint32(m)
		}
	}
	return low + int(m>>32)
}

// pcg64StateLen is the length of PCG64's binary state (AppendBinary).
const pcg64StateLen = 4 + 4*8 + 1 + 4

// AppendBinary appends the generator's state (41 bytes: a "pcg6" tag, the
// 128-bit state and increment, the buffered 32-bit half) to b; it
// allocates only when b lacks the capacity. UnmarshalBinary restores it.
func (p *PCG64) AppendBinary(b []byte) ([]byte, error) {
	b = append(b, "pcg6"...)
	b = binary.LittleEndian.AppendUint64(b, p.hi)
	b = binary.LittleEndian.AppendUint64(b, p.lo)
	b = binary.LittleEndian.AppendUint64(b, p.incHi)
	b = binary.LittleEndian.AppendUint64(b, p.incLo)
	h := byte(0)
	if p.hasUint32 {
		h = 1
	}
	b = append(b, h)
	return binary.LittleEndian.AppendUint32(b, p.uinteger), nil
}

// UnmarshalBinary sets the generator's state from what AppendBinary
// wrote; anything else (wrong length or tag, an even increment, a flag
// other than 0 or 1) is an error and leaves the generator unchanged.
func (p *PCG64) UnmarshalBinary(b []byte) error {
	if len(b) != pcg64StateLen || string(b[:4]) != "pcg6" {
		return fmt.Errorf("PCG64 state: %d bytes, want %d starting with \"pcg6\"", len(b), pcg64StateLen)
	}
	incLo := binary.LittleEndian.Uint64(b[28:])
	if incLo&1 == 0 {
		return errors.New("PCG64 state: even increment (PCG's increment is odd)")
	}
	if b[36] > 1 {
		return fmt.Errorf("PCG64 state: buffered-half flag %d, want 0 or 1", b[36])
	}
	p.hi = binary.LittleEndian.Uint64(b[4:])
	p.lo = binary.LittleEndian.Uint64(b[12:])
	p.incHi = binary.LittleEndian.Uint64(b[20:])
	p.incLo = incLo
	p.hasUint32 = b[36] == 1
	p.uinteger = binary.LittleEndian.Uint32(b[37:])
	return nil
}
