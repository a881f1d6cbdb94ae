//go:build amd64 && !purego

#include "textflag.h"

// forwardBlockAVX512: the training forward pass of a block of samples
// for one output, leaf weights and depth ≤ 5 (fwdArgs, forwardVec), eight
// samples a lane each, in four passes over the trees in order: route and
// weight logit a_e = W[e,R_e] with the running maximum; exp(a_e − max)
// and its running sum; the division and (with a keep mask) M = Σ a over
// the kept trees; a″ and y = Σ a″·Λ[e,R] over the trees with a″ ≠ 0.
// Every float64 value is the operation of weighBlock, SoftmaxAcross and
// outputBlock, and the exponential is math.Exp's (amd64, FMA path): the
// same bits. A lane whose exponent argument is below −700 or NaN
// (math.Exp's special cases, weights that overflowed) returns false: the
// caller then runs the Go passes on the whole block.

// math.Exp's constants (math/exp_amd64.s), then −700 and the bias 1023
DATA expc<>+0(SB)/8, $1.4426950408889634073599246810018920
DATA expc<>+8(SB)/8, $0.69314718055966295651160180568695068359375
DATA expc<>+16(SB)/8, $0.28235290563031577122588448175013436025525412068e-12
DATA expc<>+24(SB)/8, $0.0625
DATA expc<>+32(SB)/8, $2.4801587301587301587e-5
DATA expc<>+40(SB)/8, $1.9841269841269841270e-4
DATA expc<>+48(SB)/8, $1.3888888888888888889e-3
DATA expc<>+56(SB)/8, $8.3333333333333333333e-3
DATA expc<>+64(SB)/8, $4.1666666666666666667e-2
DATA expc<>+72(SB)/8, $1.6666666666666666667e-1
DATA expc<>+80(SB)/8, $0.5
DATA expc<>+88(SB)/8, $1.0
DATA expc<>+96(SB)/8, $2.0
DATA expc<>+104(SB)/8, $-700.0
DATA expc<>+112(SB)/4, $1023
DATA expc<>+116(SB)/4, $0
GLOBL expc<>(SB), RODATA|NOPTR, $120

DATA lanes8<>+0(SB)/4, $0
DATA lanes8<>+4(SB)/4, $1
DATA lanes8<>+8(SB)/4, $2
DATA lanes8<>+12(SB)/4, $3
DATA lanes8<>+16(SB)/4, $4
DATA lanes8<>+20(SB)/4, $5
DATA lanes8<>+24(SB)/4, $6
DATA lanes8<>+28(SB)/4, $7
GLOBL lanes8<>(SB), RODATA|NOPTR, $32

// EXP: Z2 = exp(Z1) for −700 ≤ Z1 ≤ 0 with the operations of math.Exp's
// FMA path (clobbers Z3, Z4, Z5).
#define EXP \
	VMULPD.BCST       expc<>+0(SB), Z1, Z3 \
	VCVTPD2DQ         Z3, Y4 \
	VCVTDQ2PD         Y4, Z3 \
	VMOVAPD           Z1, Z2 \
	VFNMADD231PD.BCST expc<>+8(SB), Z3, Z2 \
	VFNMADD231PD.BCST expc<>+16(SB), Z3, Z2 \
	VMULPD.BCST       expc<>+24(SB), Z2, Z2 \
	VBROADCASTSD      expc<>+32(SB), Z5 \
	VFMADD213PD.BCST  expc<>+40(SB), Z2, Z5 \
	VFMADD213PD.BCST  expc<>+48(SB), Z2, Z5 \
	VFMADD213PD.BCST  expc<>+56(SB), Z2, Z5 \
	VFMADD213PD.BCST  expc<>+64(SB), Z2, Z5 \
	VFMADD213PD.BCST  expc<>+72(SB), Z2, Z5 \
	VFMADD213PD.BCST  expc<>+80(SB), Z2, Z5 \
	VFMADD213PD.BCST  expc<>+88(SB), Z2, Z5 \
	VMULPD            Z5, Z2, Z2 \
	VADDPD.BCST       expc<>+96(SB), Z2, Z5 \
	VMULPD            Z5, Z2, Z2 \
	VADDPD.BCST       expc<>+96(SB), Z2, Z5 \
	VMULPD            Z5, Z2, Z2 \
	VADDPD.BCST       expc<>+96(SB), Z2, Z5 \
	VMULPD            Z5, Z2, Z2 \
	VADDPD.BCST       expc<>+96(SB), Z2, Z5 \
	VFMADD213PD.BCST  expc<>+88(SB), Z5, Z2 \
	VPADDD.BCST       expc<>+112(SB), Y4, Y4 \
	VPMOVZXDQ         Y4, Z4 \
	VPSLLQ            $52, Z4, Z4 \
	VMULPD            Z4, Z2, Z2

// KEPT: K5 = the lanes of K1 whose keep byte of tree e is set, read from
// the sample-major mask as the aligned dwords (base R15, aligned down)
// that hold the bytes at offsets Z22 (clobbers Z6, Z7, K6).
#define KEPT \
	VPSRLD     $2, Z22, Z6 \
	KMOVW      K1, K6 \
	VPXORD     Z7, Z7, Z7 \
	VPGATHERDD (R15)(Y6*4), K6, Y7 \
	VPSLLD     $3, Z22, Z6 \
	VPANDD     Z29, Z6, Z6 \
	VPSRLVD    Z6, Z7, Z7 \
	VPTESTMD   Z30, Z7, K1, K5

// func forwardBlockAVX512(p *fwdArgs) bool
TEXT ·forwardBlockAVX512(SB), 0, $16-9
	MOVQ         p+0(FP), DI
	MOVL         $1, AX
	VPBROADCASTD AX, Z23          // 1 (int32)
	MOVL         $24, AX
	VPBROADCASTD AX, Z29
	MOVL         $0xFF, AX
	VPBROADCASTD AX, Z30
	VPXORQ       Z31, Z31, Z31    // 0
	MOVQ         104(DI), CX      // d
	MOVL         $1, AX
	SHLL         CX, AX
	MOVQ         AX, l-16(SP)     // L
	DECL         AX
	MOVQ         AX, i-8(SP)      // I
	VPBROADCASTD AX, Z15
	MOVQ         144(DI), AX
	KMOVW        AX, K2
	MOVQ         152(DI), AX
	KMOVW        AX, K3
	MOVQ         160(DI), AX
	KMOVW        AX, K4
	MOVQ         168(DI), AX
	KMOVW        AX, K7
	MOVQ         128(DI), R8      // b
	MOVQ         120(DI), R9      // B
	MOVQ         112(DI), R10     // E

group:
	CMPQ R8, 136(DI)
	JGE  ok
	MOVQ 136(DI), CX
	SUBQ R8, CX
	MOVL $0xFF, BX
	CMPQ CX, $8
	JGE  full
	MOVL $1, BX
	SHLL CX, BX
	DECL BX

full:
	KMOVW        BX, K1
	MOVQ         R8, AX
	VPBROADCASTD AX, Y6
	VPADDD       lanes8<>(SB), Y6, Y6 // b + l
	MOVQ         96(DI), AX
	VPBROADCASTD AX, Y14
	VPMULLD      Y6, Y14, Y14     // x row offsets (b + l)·n
	MOVQ         8(DI), R15       // keep
	TESTQ        R15, R15
	JZ           pass1
	MOVQ         R15, AX
	ANDQ         $3, AX
	ANDQ         $-4, R15
	VPBROADCASTD R10, Y22
	VPMULLD      Y6, Y22, Y22
	VPBROADCASTD AX, Y6
	VPADDD       Y6, Y22, Y22     // keep byte offsets (p & 3) + (b + l)·E

pass1:
	MOVQ         $0xFFF0000000000000, AX
	VPBROADCASTQ AX, Z10          // maximum: −Inf
	XORQ         R11, R11         // e·I
	XORQ         R12, R12         // e·L
	MOVQ         48(DI), R13
	LEAQ         (R13)(R8*4), R13 // R of tree e
	MOVQ         56(DI), R14
	LEAQ         (R14)(R8*8), R14 // a of tree e
	MOVQ         R10, DX

p1:
	MOVQ        16(DI), SI
	VMOVDQU32.Z (SI)(R11*4), K2, Z16
	VMOVDQU32.Z 64(SI)(R11*4), K3, Z17
	MOVQ        24(DI), SI
	VMOVUPS.Z   (SI)(R11*4), K2, Z18
	VMOVUPS.Z   64(SI)(R11*4), K3, Z19
	MOVQ        32(DI), SI
	VMOVUPS.Z   (SI)(R12*4), K4, Z20
	VMOVUPS.Z   64(SI)(R12*4), K7, Z21
	MOVQ        0(DI), SI         // x
	VPXORD      Z0, Z0, Z0        // node
	MOVQ        104(DI), CX

lvl:
	VMOVDQA32  Z0, Z1
	VPERMI2D   Z17, Z16, Z1
	VPADDD     Y14, Y1, Y1
	KMOVW      K1, K5
	VXORPS     Y2, Y2, Y2
	VGATHERDPS (SI)(Y1*4), K5, Y2
	VMOVDQA32  Z0, Z3
	VPERMI2PS  Z19, Z18, Z3
	VCMPPS     $0x15, Y3, Y2, K5  // !(x < thr), NaN too
	VPADDD     Z0, Z0, Z0
	VPADDD     Z23, Z0, Z0
	VPADDD     Z23, Z0, K5, Z0
	DECQ       CX
	JNZ        lvl

	VPSUBD    Z15, Z0, Z0         // R
	VMOVDQU32 Y0, K1, (R13)
	VPERMI2PS Z21, Z20, Z0
	VCVTPS2PD Y0, Z1              // a = W[e,R]
	VMOVUPD   Z1, K1, (R14)
	VMAXPD    Z1, Z10, Z10
	LEAQ      (R13)(R9*4), R13
	LEAQ      (R14)(R9*8), R14
	ADDQ      i-8(SP), R11
	ADDQ      l-16(SP), R12
	DECQ      DX
	JNZ       p1

	// pass 2: a = exp(a − max), the running sum
	VPXORQ Z11, Z11, Z11
	MOVQ   56(DI), R14
	LEAQ   (R14)(R8*8), R14
	MOVQ   R10, DX

p2:
	VMOVUPD.Z        (R14), K1, Z1
	VSUBPD           Z10, Z1, Z1
	VCMPPD.BCST      $0x19, expc<>+104(SB), Z1, K1, K5 // !(x ≥ −700)
	KORTESTW         K5, K5
	JNZ              fail
	EXP
	VMOVUPD          Z2, K1, (R14)
	VADDPD           Z2, Z11, Z11
	LEAQ             (R14)(R9*8), R14
	DECQ             DX
	JNZ              p2

	// pass 3: a /= sum; M += a over the kept trees, the mask tree-major
	VPXORQ Z12, Z12, Z12
	MOVQ   56(DI), R14
	LEAQ   (R14)(R8*8), R14
	MOVQ   80(DI), SI
	ADDQ   R8, SI                 // keepT of tree e
	MOVQ   R10, DX

p3:
	VMOVUPD.Z (R14), K1, Z1
	VDIVPD    Z11, Z1, Z1
	VMOVUPD   Z1, K1, (R14)
	TESTQ     R15, R15
	JZ        p3next
	KEPT
	VADDPD    Z1, Z12, K5, Z12
	VPMOVM2B  K5, X6
	VPABSB    X6, X6
	VMOVDQU8  X6, K1, (SI)
	ADDQ      R9, SI
	VPADDD    Z23, Z22, Z22

p3next:
	LEAQ (R14)(R9*8), R14
	DECQ DX
	JNZ  p3
	TESTQ R15, R15
	JZ    pass4
	MOVQ  72(DI), AX
	VMOVUPD Z12, K1, (AX)(R8*8)

pass4:
	// a″ = a/M where kept and M > 0 (else 0; a without a keep mask),
	// y = Σ a″·Λ[e,R] over a″ ≠ 0
	VPXORQ Z13, Z13, Z13
	XORQ   R12, R12
	MOVQ   48(DI), R13
	LEAQ   (R13)(R8*4), R13
	MOVQ   56(DI), R14
	LEAQ   (R14)(R8*8), R14
	MOVQ   64(DI), BX
	LEAQ   (BX)(R8*8), BX         // a″ of tree e
	MOVQ   80(DI), SI
	ADDQ   R8, SI
	MOVQ   R10, DX

p4:
	MOVQ       40(DI), AX
	VMOVUPS.Z  (AX)(R12*4), K4, Z20
	VMOVUPS.Z  64(AX)(R12*4), K7, Z21
	VMOVUPD.Z  (R14), K1, Z1
	TESTQ      R15, R15
	JZ         p4store
	VMOVDQU8.Z (SI), K1, X6
	VPTESTMB   X6, X6, K5
	VCMPPD     $0x1E, Z31, Z12, K5, K5 // kept and M > 0
	VDIVPD.Z   Z12, Z1, K5, Z1
	ADDQ       R9, SI

p4store:
	VMOVUPD     Z1, K1, (BX)
	VMOVDQU32.Z (R13), K1, Y0
	VPERMI2PS   Z21, Z20, Z0
	VCVTPS2PD   Y0, Z0
	VMULPD      Z0, Z1, Z0
	VCMPPD      $4, Z31, Z1, K1, K5 // a″ ≠ 0 (NaN too)
	VADDPD      Z0, Z13, K5, Z13
	ADDQ        l-16(SP), R12
	LEAQ        (R13)(R9*4), R13
	LEAQ        (R14)(R9*8), R14
	LEAQ        (BX)(R9*8), BX
	DECQ        DX
	JNZ         p4

	VCVTPD2PS Z13, Y13
	MOVQ      88(DI), AX
	VMOVUPS   Y13, K1, (AX)(R8*4)
	ADDQ      $8, R8
	JMP       group

ok:
	MOVB $1, ret+8(FP)
	VZEROUPPER
	RET

fail:
	MOVB $0, ret+8(FP)
	VZEROUPPER
	RET
