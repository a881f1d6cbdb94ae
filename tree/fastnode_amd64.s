//go:build amd64 && !purego

#include "textflag.h"

// The AVX-512 loops of the fast node path (fastnode.go). A row is read as
// nv vectors of sixteen float32 columns; the last vector's lanes are those
// of the mask tail (masked loads and stores never touch the others). Lane
// l of an accumulator adds the columns l, l+16, … in turn; HSUM adds the
// lanes pairwise (l + l+8, l + l+4, l + l+2, l + l+1), the order of
// reduceLanes. Products and sums are separate instructions (no FMA), so
// the results equal the scalar Go definitions bit for bit.
// Operand order (Go assembler): VSUBPS b, a, d computes d = a − b;
// VCMPPS $p, b, a, k compares a with b.

// HSUM reduces the sixteen lanes of Z(r) into X(r) lane 0 (clobbers Y15).
#define HSUM(zr, yr, xr) \
	VEXTRACTF64X4 $1, zr, Y15 \
	VADDPS        Y15, yr, yr \
	VEXTRACTF128  $1, yr, X15 \
	VADDPS        X15, xr, xr \
	VPERMILPS     $0x4E, xr, X15 \
	VADDPS        X15, xr, xr \
	VPERMILPS     $0xB1, xr, X15 \
	VADDPS        X15, xr, xr

// func rowStatsAVX512(z *float32, nv int, tail uint32, m, tau float32) (s1, s2 float32, cnt int, amin float32)
TEXT ·rowStatsAVX512(SB), NOSPLIT, $0-52
	MOVQ         z+0(FP), SI
	MOVQ         nv+8(FP), CX
	VBROADCASTSS m+20(FP), Z10
	VBROADCASTSS tau+24(FP), Z11
	MOVL         $0x3f000000, AX
	VPBROADCASTD AX, Z12          // ½
	MOVL         $0x7f800000, AX
	VPBROADCASTD AX, Z3           // amin = +Inf
	VPXORD       Z13, Z13, Z13    // 0
	VPXORD       Z0, Z0, Z0       // Σa
	VPXORD       Z1, Z1, Z1       // Σa²
	XORQ         BX, BX           // count
	KXNORW       K1, K1, K1

rsloop:
	CMPQ   CX, $1
	JNE    rsbody
	MOVL   tail+16(FP), AX
	KMOVW  AX, K1

rsbody:
	VMOVUPS.Z (SI), K1, Z4
	VSUBPS    Z10, Z4, Z4         // z − m
	VMULPS    Z12, Z4, Z4         // u
	VSUBPS    Z11, Z4, Z4         // a = u − τ
	VCMPPS    $0x1E, Z13, Z4, K1, K2 // a > 0 (ordered), in range
	VADDPS    Z4, Z0, K2, Z0
	VMULPS    Z4, Z4, Z5
	VADDPS    Z5, Z1, K2, Z1
	VMINPS    Z4, Z3, K2, Z3
	KMOVW     K2, AX
	POPCNTL   AX, AX
	ADDQ      AX, BX
	ADDQ      $64, SI
	DECQ      CX
	JNZ       rsloop

	HSUM(Z0, Y0, X0)
	HSUM(Z1, Y1, X1)
	VEXTRACTF64X4 $1, Z3, Y15
	VMINPS        Y15, Y3, Y3
	VEXTRACTF128  $1, Y3, X15
	VMINPS        X15, X3, X3
	VPERMILPS     $0x4E, X3, X15
	VMINPS        X15, X3, X3
	VPERMILPS     $0xB1, X3, X15
	VMINPS        X15, X3, X3
	VMOVSS        X0, s1+32(FP)
	VMOVSS        X1, s2+36(FP)
	MOVQ          BX, cnt+40(FP)
	VMOVSS        X3, amin+48(FP)
	VZEROUPPER
	RET

// func scatterRowsAVX512(acc, x *float32, xo, no *int32, dl *float32, cnt, nv int, tail uint32)
//
// For i < cnt in order: acc[no[i]+c] += dl[i]·x[xo[i]+c] for the columns
// c of nv vectors of sixteen (1 ≤ nv ≤ 4), the last with the lanes of
// tail. The accumulator row of the current run of samples with the same
// no[i] stays in registers (a trained tree sends most samples down the
// same way, and a store would have to forward to the next load); rows are
// read and written in whole vectors, their lanes past the tail adding
// x = 0 (masked loads never touch x past the row).
TEXT ·scatterRowsAVX512(SB), NOSPLIT, $0-60
	MOVQ   acc+0(FP), DI
	MOVQ   x+8(FP), SI
	MOVQ   xo+16(FP), R8
	MOVQ   no+24(FP), R11
	MOVQ   dl+32(FP), R9
	MOVQ   cnt+40(FP), CX
	MOVQ   nv+48(FP), R10
	MOVL   tail+56(FP), AX
	KXNORW K1, K1, K1
	KMOVW  AX, K4
	MOVQ   $-1, R14               // the row in registers (none)
	TESTQ  CX, CX
	JZ     scdone
	CMPQ   R10, $1
	JEQ    sc1
	CMPQ   R10, $2
	JEQ    sc2
	CMPQ   R10, $3
	JEQ    sc3
	JMP    sc4

sc1:
	MOVLQSX      (R11), R13
	CMPQ         R13, R14
	JEQ          sc1same
	TESTQ        R14, R14
	JS           sc1load
	LEAQ         (DI)(R14*4), BX
	VMOVUPS      Z0, (BX)
sc1load:
	LEAQ         (DI)(R13*4), BX
	VMOVUPS      (BX), Z0
	MOVQ         R13, R14
sc1same:
	MOVLQSX      (R8), R12
	VBROADCASTSS (R9), Z8
	LEAQ         (SI)(R12*4), R12
	VMOVUPS.Z    (R12), K4, Z4
	VMULPS       Z8, Z4, Z4
	VADDPS       Z4, Z0, Z0
	ADDQ         $4, R8
	ADDQ         $4, R11
	ADDQ         $4, R9
	DECQ         CX
	JNZ          sc1
	LEAQ         (DI)(R14*4), BX
	VMOVUPS      Z0, (BX)
	JMP          scdone

sc2:
	MOVLQSX      (R11), R13
	CMPQ         R13, R14
	JEQ          sc2same
	TESTQ        R14, R14
	JS           sc2load
	LEAQ         (DI)(R14*4), BX
	VMOVUPS      Z0, (BX)
	VMOVUPS      Z1, 64(BX)
sc2load:
	LEAQ         (DI)(R13*4), BX
	VMOVUPS      (BX), Z0
	VMOVUPS      64(BX), Z1
	MOVQ         R13, R14
sc2same:
	MOVLQSX      (R8), R12
	VBROADCASTSS (R9), Z8
	LEAQ         (SI)(R12*4), R12
	VMOVUPS.Z    (R12), K1, Z4
	VMOVUPS.Z    64(R12), K4, Z5
	VMULPS       Z8, Z4, Z4
	VADDPS       Z4, Z0, Z0
	VMULPS       Z8, Z5, Z5
	VADDPS       Z5, Z1, Z1
	ADDQ         $4, R8
	ADDQ         $4, R11
	ADDQ         $4, R9
	DECQ         CX
	JNZ          sc2
	LEAQ         (DI)(R14*4), BX
	VMOVUPS      Z0, (BX)
	VMOVUPS      Z1, 64(BX)
	JMP          scdone

sc3:
	MOVLQSX      (R11), R13
	CMPQ         R13, R14
	JEQ          sc3same
	TESTQ        R14, R14
	JS           sc3load
	LEAQ         (DI)(R14*4), BX
	VMOVUPS      Z0, (BX)
	VMOVUPS      Z1, 64(BX)
	VMOVUPS      Z2, 128(BX)
sc3load:
	LEAQ         (DI)(R13*4), BX
	VMOVUPS      (BX), Z0
	VMOVUPS      64(BX), Z1
	VMOVUPS      128(BX), Z2
	MOVQ         R13, R14
sc3same:
	MOVLQSX      (R8), R12
	VBROADCASTSS (R9), Z8
	LEAQ         (SI)(R12*4), R12
	VMOVUPS.Z    (R12), K1, Z4
	VMOVUPS.Z    64(R12), K1, Z5
	VMOVUPS.Z    128(R12), K4, Z6
	VMULPS       Z8, Z4, Z4
	VADDPS       Z4, Z0, Z0
	VMULPS       Z8, Z5, Z5
	VADDPS       Z5, Z1, Z1
	VMULPS       Z8, Z6, Z6
	VADDPS       Z6, Z2, Z2
	ADDQ         $4, R8
	ADDQ         $4, R11
	ADDQ         $4, R9
	DECQ         CX
	JNZ          sc3
	LEAQ         (DI)(R14*4), BX
	VMOVUPS      Z0, (BX)
	VMOVUPS      Z1, 64(BX)
	VMOVUPS      Z2, 128(BX)
	JMP          scdone

sc4:
	MOVLQSX      (R11), R13
	CMPQ         R13, R14
	JEQ          sc4same
	TESTQ        R14, R14
	JS           sc4load
	LEAQ         (DI)(R14*4), BX
	VMOVUPS      Z0, (BX)
	VMOVUPS      Z1, 64(BX)
	VMOVUPS      Z2, 128(BX)
	VMOVUPS      Z3, 192(BX)
sc4load:
	LEAQ         (DI)(R13*4), BX
	VMOVUPS      (BX), Z0
	VMOVUPS      64(BX), Z1
	VMOVUPS      128(BX), Z2
	VMOVUPS      192(BX), Z3
	MOVQ         R13, R14
sc4same:
	MOVLQSX      (R8), R12
	VBROADCASTSS (R9), Z8
	LEAQ         (SI)(R12*4), R12
	VMOVUPS.Z    (R12), K1, Z4
	VMOVUPS.Z    64(R12), K1, Z5
	VMOVUPS.Z    128(R12), K1, Z6
	VMOVUPS.Z    192(R12), K4, Z7
	VMULPS       Z8, Z4, Z4
	VADDPS       Z4, Z0, Z0
	VMULPS       Z8, Z5, Z5
	VADDPS       Z5, Z1, Z1
	VMULPS       Z8, Z6, Z6
	VADDPS       Z6, Z2, Z2
	VMULPS       Z8, Z7, Z7
	VADDPS       Z7, Z3, Z3
	ADDQ         $4, R8
	ADDQ         $4, R11
	ADDQ         $4, R9
	DECQ         CX
	JNZ          sc4
	LEAQ         (DI)(R14*4), BX
	VMOVUPS      Z0, (BX)
	VMOVUPS      Z1, 64(BX)
	VMOVUPS      Z2, 128(BX)
	VMOVUPS      Z3, 192(BX)
	JMP          scdone

scdone:
	VZEROUPPER
	RET

// DISC computes from X0 (Σa), X1 (Σa²), BX (count) a1 = float64(Σa) in
// X4, f = float64(Σa²) − 1 in X5 and disc = a1·a1 − n·f in X7 (X6 = 1).
#define DISC \
	VCVTSS2SD X0, X4, X4 \
	VCVTSS2SD X1, X5, X5 \
	VSUBSD    X6, X5, X5 \
	VMULSD    X4, X4, X7 \
	VCVTSI2SDQ BX, X8, X8 \
	VMULSD    X5, X8, X8 \
	VSUBSD    X8, X7, X7

// func entmaxFirstAVX512(z *float32, nv int, tail uint32, m float32) (tau float32, ok bool)
//
// entmaxFirstGo: the first Newton iterate (τ = −1) of the entmax-1.5
// threshold search and, if its closed-form root is accepted, the
// refinement at that root.
TEXT ·entmaxFirstAVX512(SB), NOSPLIT, $0-29
	MOVQ         z+0(FP), R8
	MOVQ         nv+8(FP), R9
	MOVL         tail+16(FP), R10
	VBROADCASTSS m+20(FP), Z10
	MOVL         $0x3f000000, AX
	VPBROADCASTD AX, Z12
	VPXORD       Z13, Z13, Z13
	MOVL         $0xbf800000, AX
	VPBROADCASTD AX, Z11          // τ = −1
	MOVQ         $0x3ff0000000000000, AX
	VMOVQ        AX, X6           // 1.0
	// the sums at τ (rowStatsAVX512's loop, row at R8, R9 vectors, tail R10)
	MOVQ         R8, SI
	MOVQ         R9, CX
	MOVL         $0x7f800000, AX
	VPBROADCASTD AX, Z3
	VPXORD       Z0, Z0, Z0
	VPXORD       Z1, Z1, Z1
	XORQ         BX, BX
	KXNORW       K1, K1, K1

firstloop:
	CMPQ  CX, $1
	JNE   firstbody
	KMOVW R10, K1

firstbody:
	VMOVUPS.Z (SI), K1, Z4
	VSUBPS    Z10, Z4, Z4
	VMULPS    Z12, Z4, Z4
	VSUBPS    Z11, Z4, Z4
	VCMPPS    $0x1E, Z13, Z4, K1, K2
	VADDPS    Z4, Z0, K2, Z0
	VMULPS    Z4, Z4, Z5
	VADDPS    Z5, Z1, K2, Z1
	VMINPS    Z4, Z3, K2, Z3
	KMOVW     K2, AX
	POPCNTL   AX, AX
	ADDQ      AX, BX
	ADDQ      $64, SI
	DECQ      CX
	JNZ       firstloop

	HSUM(Z0, Y0, X0)
	HSUM(Z1, Y1, X1)
	VEXTRACTF64X4 $1, Z3, Y15
	VMINPS        Y15, Y3, Y3
	VEXTRACTF128  $1, Y3, X15
	VMINPS        X15, X3, X3
	VPERMILPS     $0x4E, X3, X15
	VMINPS        X15, X3, X3
	VPERMILPS     $0xB1, X3, X15
	VMINPS        X15, X3, X3
	TESTQ        BX, BX
	JZ           efail
	DISC
	VXORPD       X9, X9, X9
	VUCOMISD     X9, X7           // disc ≥ 0 (ordered)?
	JCS          efail
	VSQRTSD      X7, X7, X7
	VADDSD       X7, X4, X7
	VDIVSD       X7, X5, X7       // c = f/(a1 + √disc)
	VCVTSS2SD    X3, X3, X3       // amin
	VUCOMISD     X3, X7           // c ≤ amin (ordered)?
	JHI          efail
	JPS          efail
	VSUBSD       X6, X7, X14      // t = c − 1 (= −1 + c)
	VCVTSD2SS    X14, X11, X11
	VBROADCASTSS X11, Z11
	MOVQ         R8, SI
	MOVQ         R9, CX
	MOVL         $0x7f800000, AX
	VPBROADCASTD AX, Z3
	VPXORD       Z0, Z0, Z0
	VPXORD       Z1, Z1, Z1
	XORQ         BX, BX
	KXNORW       K1, K1, K1

refineloop:
	CMPQ  CX, $1
	JNE   refinebody
	KMOVW R10, K1

refinebody:
	VMOVUPS.Z (SI), K1, Z4
	VSUBPS    Z10, Z4, Z4
	VMULPS    Z12, Z4, Z4
	VSUBPS    Z11, Z4, Z4
	VCMPPS    $0x1E, Z13, Z4, K1, K2
	VADDPS    Z4, Z0, K2, Z0
	VMULPS    Z4, Z4, Z5
	VADDPS    Z5, Z1, K2, Z1
	VMINPS    Z4, Z3, K2, Z3
	KMOVW     K2, AX
	POPCNTL   AX, AX
	ADDQ      AX, BX
	ADDQ      $64, SI
	DECQ      CX
	JNZ       refineloop

	HSUM(Z0, Y0, X0)
	HSUM(Z1, Y1, X1)
	VEXTRACTF64X4 $1, Z3, Y15
	VMINPS        Y15, Y3, Y3
	VEXTRACTF128  $1, Y3, X15
	VMINPS        X15, X3, X3
	VPERMILPS     $0x4E, X3, X15
	VMINPS        X15, X3, X3
	VPERMILPS     $0xB1, X3, X15
	VMINPS        X15, X3, X3
	TESTQ        BX, BX
	JZ           efail
	DISC
	VXORPD       X9, X9, X9
	VUCOMISD     X9, X7
	JCC          ekeep
	VMOVAPD      X9, X7           // disc < 0 or NaN: 0
ekeep:
	VSQRTSD      X7, X7, X7
	VADDSD       X7, X4, X7
	VDIVSD       X7, X5, X7
	VADDSD       X7, X14, X14     // t += f/(a1 + √disc)
	VCVTSD2SS    X14, X0, X0
	VMOVSS       X0, tau+24(FP)
	MOVB         $1, ok+28(FP)
	VZEROUPPER
	RET
efail:
	MOVL $0, tau+24(FP)
	MOVB $0, ok+28(FP)
	VZEROUPPER
	RET

// func vjpAVX512(z, t, acc *float32, idx *int32, dz *float32, nv int, tail uint32, m, tau, D float32) uint64
//
// vjpGo: Σs and Σs·A with X gathered from acc by idx (kept in the frame:
// nv ≤ 4), then (if Σs > 0) dz = s·(A − Σs·A/Σs) on the support and 0
// elsewhere; the mask of the non-zero dz (columns below 64).
TEXT ·vjpAVX512(SB), NOSPLIT, $256-72
	MOVQ         z+0(FP), SI
	MOVQ         t+8(FP), DI
	MOVQ         acc+16(FP), R8
	MOVQ         idx+24(FP), R11
	MOVQ         nv+40(FP), CX
	MOVL         tail+48(FP), R10
	VBROADCASTSS m+52(FP), Z10
	VBROADCASTSS tau+56(FP), Z11
	VBROADCASTSS D+60(FP), Z14
	MOVL         $0x3f000000, AX
	VPBROADCASTD AX, Z12
	VPXORD       Z13, Z13, Z13
	VPXORD       Z0, Z0, Z0
	VPXORD       Z1, Z1, Z1
	KXNORW       K1, K1, K1
	LEAQ         0(SP), R12       // the gathered X, one vector per 64 bytes

vjloop:
	CMPQ      CX, $1
	JNE       vjbody
	KMOVW     R10, K1

vjbody:
	VMOVUPS.Z  (SI), K1, Z4
	VSUBPS     Z10, Z4, Z4
	VMULPS     Z12, Z4, Z4
	VSUBPS     Z11, Z4, Z4         // s
	VCMPPS     $0x1E, Z13, Z4, K1, K2
	VMOVUPS.Z  (DI), K1, Z5
	VMULPS     Z14, Z5, Z5         // T·D
	VMOVDQU32.Z (R11), K1, Z8      // column indices
	KMOVW      K1, K3
	VPXORD     Z6, Z6, Z6
	VGATHERDPS (R8)(Z8*4), K3, Z6  // X
	VMOVUPS    Z6, (R12)
	VSUBPS     Z6, Z5, Z5          // A
	VADDPS     Z4, Z0, K2, Z0
	VMULPS     Z5, Z4, Z7
	VADDPS     Z7, Z1, K2, Z1
	ADDQ       $64, SI
	ADDQ       $64, DI
	ADDQ       $64, R12
	ADDQ       $64, R11
	DECQ       CX
	JNZ        vjloop

	HSUM(Z0, Y0, X0)
	HSUM(Z1, Y1, X1)
	XORQ     BX, BX
	VXORPS   X9, X9, X9
	VUCOMISS X9, X0               // Σs > 0?
	JLS      vjdone
	VDIVSS   X0, X1, X1           // mean = Σs·A / Σs
	VBROADCASTSS X1, Z9

	MOVQ   z+0(FP), SI
	MOVQ   t+8(FP), DI
	LEAQ   0(SP), R12
	MOVQ   dz+32(FP), R9
	MOVQ   nv+40(FP), CX
	KXNORW K1, K1, K1
	XORQ   DX, DX                 // shift of the mask (16 per vector)

vwloop2:
	CMPQ  CX, $1
	JNE   vwbody2
	KMOVW R10, K1

vwbody2:
	VMOVUPS.Z  (SI), K1, Z4
	VSUBPS     Z10, Z4, Z4
	VMULPS     Z12, Z4, Z4
	VSUBPS     Z11, Z4, Z4
	VCMPPS     $0x1E, Z13, Z4, K1, K2
	VMOVUPS.Z  (DI), K1, Z5
	VMULPS     Z14, Z5, Z5
	VMOVUPS    (R12), Z6           // X
	VSUBPS     Z6, Z5, Z5          // A
	VSUBPS     Z9, Z5, Z5          // A − mean
	VMULPS.Z   Z5, Z4, K2, Z7
	VMOVUPS    Z7, K1, (R9)
	VCMPPS     $4, Z13, Z7, K1, K3
	CMPQ       DX, $64
	JAE        vwnext2
	KMOVW      K3, AX
	SHLXQ      DX, AX, AX
	ORQ        AX, BX

vwnext2:
	ADDQ $16, DX
	ADDQ $64, SI
	ADDQ $64, DI
	ADDQ $64, R12
	ADDQ $64, R9
	DECQ CX
	JNZ  vwloop2

vjdone:
	MOVQ BX, ret+64(FP)
	VZEROUPPER
	RET

// func prefetchRows(z, t *float32, rows *int32, n, ne int)
// Prefetches into L1 the ne-value rows rows[0…n−1] of z and of t.
TEXT ·prefetchRows(SB), NOSPLIT, $0-40
	MOVQ z+0(FP), SI
	MOVQ t+8(FP), DI
	MOVQ rows+16(FP), R8
	MOVQ n+24(FP), CX
	MOVQ ne+32(FP), R9
	SHLQ $2, R9               // row bytes
	TESTQ CX, CX
	JZ   prdone
prrow:
	MOVLQSX (R8), AX
	IMULQ   R9, AX
	LEAQ    (SI)(AX*1), R10
	LEAQ    (DI)(AX*1), R11
	LEAQ    -1(R10)(R9*1), R12    // last byte of the z row
	MOVQ    R10, BX
prline:
	PREFETCHT0 (BX)
	PREFETCHT0 (R11)
	ADDQ       $64, BX
	ADDQ       $64, R11
	CMPQ       BX, R12
	JBE        prline
	PREFETCHT0 (R12)
	ADDQ $4, R8
	DECQ CX
	JNZ  prrow
prdone:
	RET
