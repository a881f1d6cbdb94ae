//go:build amd64 && !purego

#include "textflag.h"

// treeDeltasAVX512: γ and the path-node δ of one tree for every sample,
// sixteen samples per iteration (deltas.go). Go operand order: VSUBPD b,
// a, d computes d = a − b; VCMPPD $p, b, a, k compares a with b;
// VPERMI2D hi, lo, idx replaces idx by the entries of the 32-entry table
// (lo, hi); VBLENDMPD t, f, k, d takes t where k is set, else f.
//
// Frame: the sample vectors of every depth j (64 bytes each, d ≤ 6 rows
// of 384 bytes): CF counterfactual node (then leaf), XS the path node's
// input value, TS its threshold, LC and WC the counterfactual leaf's
// value and weight logit; then LR and WR, the reached leaf's value and
// weight logit, and RR the reached leaf; NI holds I = 2^d − 1.
//
// Depth 6 has tables of 63 and 64 entries: entries 32… are in a second
// pair of vectors (Z8…Z15, loaded per group of samples since the float64
// part uses those registers), and L64 looks an index up in both pairs.

DATA c32<>+0(SB)/4, $32
GLOBL c32<>(SB), RODATA|NOPTR, $4

// L64 writes into dst the entries of the table (lo0, lo1; hi0, hi1) at
// the indices idx (tmp clobbered; the second pair only at depth 6, R10).
#define L64(idx, lo0, lo1, hi0, hi1, dst, tmp) \
	VMOVDQA32 idx, dst \
	VPERMI2D  lo1, lo0, dst \
	CMPQ      R10, $6 \
	JLT       5(PC) \
	VMOVDQA32 idx, tmp \
	VPERMI2D  hi1, hi0, tmp \
	VPTESTMD.BCST c32<>(SB), idx, K6 \
	VMOVDQA32 tmp, K6, dst
#define CF 0
#define XS 384
#define TS 768
#define LC 1152
#define WC 1536
#define LR 1920
#define WR 1984
#define RR 2048
#define NI 2112

DATA iota16<>+0(SB)/4, $0
DATA iota16<>+4(SB)/4, $1
DATA iota16<>+8(SB)/4, $2
DATA iota16<>+12(SB)/4, $3
DATA iota16<>+16(SB)/4, $4
DATA iota16<>+20(SB)/4, $5
DATA iota16<>+24(SB)/4, $6
DATA iota16<>+28(SB)/4, $7
DATA iota16<>+32(SB)/4, $8
DATA iota16<>+36(SB)/4, $9
DATA iota16<>+40(SB)/4, $10
DATA iota16<>+44(SB)/4, $11
DATA iota16<>+48(SB)/4, $12
DATA iota16<>+52(SB)/4, $13
DATA iota16<>+56(SB)/4, $14
DATA iota16<>+60(SB)/4, $15
GLOBL iota16<>(SB), RODATA|NOPTR, $64

// func treeDeltasAVX512(p *deltaArgs)
TEXT ·treeDeltasAVX512(SB), 0, $2120-8
	MOVQ p+0(FP), DI
	// the tables: features, thresholds (nodes), values, weight logits
	// (leaves), each in two vectors of sixteen lanes
	MOVQ        144(DI), AX
	KMOVW       AX, K2
	MOVQ        152(DI), AX
	KMOVW       AX, K3
	MOVQ        80(DI), SI
	VMOVDQU32.Z (SI), K2, Z16
	VMOVDQU32.Z 64(SI), K3, Z17
	MOVQ        88(DI), SI
	VMOVUPS.Z   (SI), K2, Z18
	VMOVUPS.Z   64(SI), K3, Z19
	MOVQ        160(DI), AX
	KMOVW       AX, K2
	MOVQ        168(DI), AX
	KMOVW       AX, K3
	MOVQ        64(DI), SI
	VMOVUPS.Z   (SI), K2, Z20
	VMOVUPS.Z   64(SI), K3, Z21
	MOVQ        72(DI), SI
	VMOVUPS.Z   (SI), K2, Z22
	VMOVUPS.Z   64(SI), K3, Z23

	MOVL         $1, AX
	VPBROADCASTD AX, Z24          // 1 (int32)
	MOVQ         120(DI), R11     // n
	VPBROADCASTD R11, Z25
	VPMULLD      iota16<>(SB), Z25, Z25 // row offsets l·n of the lanes
	MOVQ         R11, AX
	SHLQ         $4, AX
	VPBROADCASTD AX, Z26          // 16·n
	VPXORQ       Z27, Z27, Z27    // 0
	MOVQ         $0x3FF0000000000000, AX
	VPBROADCASTQ AX, Z28          // 1.0
	MOVQ         $0xBFF0000000000000, AX
	VPBROADCASTQ AX, Z29          // −1.0
	MOVQ         $0x4000000000000000, AX
	VPBROADCASTQ AX, Z30          // 2.0
	MOVQ         $0x7FFFFFFFFFFFFFFF, AX
	VPBROADCASTQ AX, Z31          // |·| mask
	MOVQ         128(DI), R10     // d
	MOVQ         R10, CX
	MOVL         $1, AX
	SHLL         CX, AX
	DECL         AX
	MOVQ         AX, NI(SP)       // I = 2^d − 1
	MOVQ         136(DI), R9      // B
	MOVQ         R9, DX
	SHLQ         $3, DX           // B·8: a row of td
	XORQ         R8, R8           // b

group:
	CMPQ R8, R9
	JGE  done
	MOVQ R9, CX
	SUBQ R8, CX
	MOVL $0xFFFF, BX
	CMPQ CX, $16
	JGE  full
	MOVL $1, BX
	SHLL CX, BX
	DECL BX

full:
	KMOVW BX, K1                  // the lanes of samples b…b+15 below B
	CMPQ  R10, $6
	JLT   tables5
	// depth 6: the tables' entries 32…
	MOVQ        176(DI), AX
	KMOVW       AX, K2
	MOVQ        184(DI), AX
	KMOVW       AX, K3
	MOVQ        80(DI), SI
	VMOVDQU32.Z 128(SI), K2, Z8
	VMOVDQU32.Z 192(SI), K3, Z9
	MOVQ        88(DI), SI
	VMOVDQU32.Z 128(SI), K2, Z10
	VMOVDQU32.Z 192(SI), K3, Z11
	MOVQ        192(DI), AX
	KMOVW       AX, K2
	MOVQ        200(DI), AX
	KMOVW       AX, K3
	MOVQ        64(DI), SI
	VMOVDQU32.Z 128(SI), K2, Z12
	VMOVDQU32.Z 192(SI), K3, Z13
	MOVQ        72(DI), SI
	VMOVDQU32.Z 128(SI), K2, Z14
	VMOVDQU32.Z 192(SI), K3, Z15

tables5:

	// R, and the reached leaf's value and weight logit
	MOVQ        0(DI), SI
	VMOVDQU32.Z (SI)(R8*4), K1, Z0
	VMOVDQU32   Z0, RR(SP)
	L64(Z0, Z20, Z21, Z12, Z13, Z1, Z2)
	VMOVUPS     Z1, LR(SP)
	L64(Z0, Z22, Z23, Z14, Z15, Z1, Z2)
	VMOVUPS     Z1, WR(SP)

	// the path: node j, its input value and threshold, the counterfactual
	// start 2·node + 2 − right
	MOVQ   96(DI), SI             // x
	VPXORD Z1, Z1, Z1             // node
	MOVQ   R10, CX
	DECQ   CX                     // d − 1 − j
	LEAQ   0(SP), BX

path:
	VPBROADCASTD CX, Z2
	VPSRLVD      Z2, Z0, Z3
	VPANDD       Z24, Z3, Z3      // right
	VPADDD       Z1, Z1, Z4
	VPADDD       Z24, Z4, Z4
	VPADDD       Z24, Z4, Z4
	VPSUBD       Z3, Z4, Z4
	VMOVDQU32    Z4, CF(BX)
	L64(Z1, Z16, Z17, Z8, Z9, Z5, Z2) // feat[node]
	VPADDD       Z25, Z5, Z5
	KMOVW        K1, K2
	VPXORD       Z6, Z6, Z6
	VGATHERDPS   (SI)(Z5*4), K2, Z6
	VMOVUPS      Z6, XS(BX)
	L64(Z1, Z18, Z19, Z10, Z11, Z7, Z2) // thr[node]
	VMOVUPS      Z7, TS(BX)
	VPADDD       Z1, Z1, Z1
	VPADDD       Z24, Z1, Z1
	VPADDD       Z3, Z1, Z1       // 2·node + 1 + right
	ADDQ         $64, BX
	DECQ         CX
	JGE          path

	// the counterfactual descents, one level of every row at a time:
	// c ← 2c + 1 + !(x[feat[c]] < thr[c])
	MOVQ $1, R12                  // t

cfstep:
	CMPQ R12, R10
	JGE  cfleaves
	MOVQ R10, R13
	SUBQ R12, R13                 // rows d − t
	LEAQ 0(SP), BX

cfrow:
	VMOVDQU32  CF(BX), Z1
	L64(Z1, Z16, Z17, Z8, Z9, Z5, Z2)
	VPADDD     Z25, Z5, Z5
	KMOVW      K1, K2
	VPXORD     Z6, Z6, Z6
	VGATHERDPS (SI)(Z5*4), K2, Z6
	L64(Z1, Z18, Z19, Z10, Z11, Z7, Z2)
	VCMPPS     $0x15, Z7, Z6, K3  // !(x < thr), NaN too
	VPADDD     Z1, Z1, Z1
	VPADDD     Z24, Z1, Z1
	VPADDD     Z24, Z1, K3, Z1
	VMOVDQU32  Z1, CF(BX)
	ADDQ       $64, BX
	DECQ       R13
	JNZ        cfrow
	INCQ       R12
	JMP        cfstep

cfleaves:
	// the counterfactual leaves' values and weight logits
	MOVQ R10, CX
	LEAQ 0(SP), BX

cfleaf:
	VMOVDQU32 CF(BX), Z1
	VPBROADCASTD NI(SP), Z4
	VPSUBD    Z4, Z1, Z1
	L64(Z1, Z20, Z21, Z12, Z13, Z2, Z5)
	VMOVUPS   Z2, LC(BX)
	L64(Z1, Z22, Z23, Z14, Z15, Z3, Z5)
	VMOVUPS   Z3, WC(BX)
	ADDQ      $64, BX
	DECQ      CX
	JNZ       cfleaf

	// float64, eight samples at a time (R12 = 0, 8)
	XORQ R12, R12

half:
	KMOVW K1, AX
	MOVQ  R12, CX
	SHRL  CX, AX
	ANDL  $0xFF, AX
	JZ    halfnext
	KMOVW AX, K4                  // the half's lanes
	LEAQ  (R8)(R12*1), R13        // its first sample

	MOVQ       56(DI), SI
	VMOVUPS.Z  (SI)(R13*4), K4, Y8
	VCVTPS2PD  Y8, Z8             // g = dL/dy
	MOVQ       16(DI), SI
	VMOVUPD.Z  (SI)(R13*8), K4, Z9  // a″
	MOVQ       8(DI), SI
	VMOVUPD.Z  (SI)(R13*8), K4, Z10 // a
	MOVQ       24(DI), SI
	VMOVUPD.Z  (SI)(R13*8), K4, Z11 // M
	MOVQ       32(DI), SI
	VMOVUPD.Z  (SI)(R13*8), K4, Z12 // h̄
	MOVQ       40(DI), SI
	VMOVUPD.Z  (SI)(R13*8), K4, Z13 // r̄
	LEAQ       LR(SP), SI
	VCVTPS2PD  (SI)(R12*4), Z14
	VMULPD     Z14, Z8, Z14
	VADDPD     Z14, Z27, Z14      // h = 0 + g·Λ[R]

	// γ = a·(r − r̄), r = (h − h̄)/M where M > 0 and the tree is kept, else 0
	MOVQ       48(DI), SI
	TESTQ      SI, SI
	JZ         allkept
	VMOVDQU8.Z (SI)(R13*1), K4, X2
	VPTESTMB   X2, X2, K5
	JMP        kept

allkept:
	KMOVW K4, K5

kept:
	VCMPPD   $0x1E, Z27, Z11, K5, K6 // M > 0
	VSUBPD   Z12, Z14, Z2
	VDIVPD.Z Z11, Z2, K6, Z2
	VSUBPD   Z13, Z2, Z2
	VMULPD   Z2, Z10, Z2          // γ
	MOVQ     104(DI), SI
	VMOVUPD  Z2, K4, (SI)(R13*8)

	// the active samples: a″ ≠ 0 or γ ≠ 0 (δ = 0 elsewhere)
	VCMPPD $0x00, Z27, Z9, K4, K2
	VCMPPD $0x00, Z27, Z2, K2, K2
	KANDNW K4, K2, K3

	// G_R = a″·h + γ·W[R]
	VMULPD    Z14, Z9, Z3
	LEAQ      WR(SP), SI
	VCVTPS2PD (SI)(R12*4), Z4
	VMULPD    Z4, Z2, Z4
	VADDPD    Z4, Z3, Z3

	LEAQ      RR(SP), SI
	VMOVDQU32 (SI)(R12*4), Y5     // R
	MOVQ      112(DI), R14
	LEAQ      (R14)(R13*8), R15   // td[j·B + b]
	LEAQ      0(SP), BX
	MOVQ      R10, CX
	DECQ      CX                  // d − 1 − j

depth:
	MOVL         $1, AX
	SHLL         CX, AX
	VPBROADCASTD AX, Y6
	VPTESTMD     Y6, Y5, K2       // a right turn at depth j
	VBLENDMPD    Z29, Z28, K2, Z7 // its sign
	VCVTPS2PD    LC(BX)(R12*4), Z10
	VMULPD       Z10, Z8, Z10
	VMULPD       Z10, Z9, Z10     // a″·(g·Λ[C])
	VCVTPS2PD    WC(BX)(R12*4), Z11
	VMULPD       Z11, Z2, Z11
	VADDPD       Z11, Z10, Z10    // G_C
	VSUBPD       Z10, Z3, Z10
	VMULPD       Z7, Z10, Z10     // ±(G_R − G_C)
	VCVTPS2PD    TS(BX)(R12*4), Z11
	VCVTPS2PD    XS(BX)(R12*4), Z12
	VSUBPD       Z12, Z11, Z11    // z = thr − x
	VANDPD       Z31, Z11, Z11
	VADDPD       Z28, Z11, Z11    // 1 + |z|
	VMULPD       Z30, Z11, Z12
	VMULPD       Z11, Z12, Z12
	VDIVPD       Z12, Z28, Z12    // 1/(2·a·a)
	VMULPD       Z12, Z10, Z10    // δ
	VMOVAPD.Z    Z10, K3, Z10
	VMOVUPD      Z10, K4, (R15)
	ADDQ         DX, R15
	ADDQ         $64, BX
	DECQ         CX
	JGE          depth

halfnext:
	ADDQ $8, R12
	CMPQ R12, $16
	JLT  half

	ADDQ   $16, R8
	VPADDD Z26, Z25, Z25
	JMP    group

done:
	VZEROUPPER
	RET
