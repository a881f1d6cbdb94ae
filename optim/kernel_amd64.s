//go:build amd64 && !purego

#include "textflag.h"

// func kerasAVX2(p, grad, m, v *float32, n int, c1, c2, alpha, eps float32)
// Operand order (Go assembler): VSUBPS b, a, d computes d = a − b.
// Denormals are flushed to zero (MXCSR FTZ and DAZ, restored on return):
// first moments of entries without gradient decay by β1 every step and
// reach the denormal range after ~800 steps, where x86 arithmetic is up to
// 100× slower. GPUs (the reference's hardware) flush them too.
TEXT ·kerasAVX2(SB), NOSPLIT, $16-56
	STMXCSR 0(SP)
	MOVL    0(SP), AX
	ORL     $0x8040, AX
	MOVL    AX, 8(SP)
	LDMXCSR 8(SP)
	MOVQ p+0(FP), DI
	MOVQ grad+8(FP), SI
	MOVQ m+16(FP), R8
	MOVQ v+24(FP), R9
	MOVQ n+32(FP), CX
	VBROADCASTSS c1+40(FP), Y8
	VBROADCASTSS c2+44(FP), Y9
	VBROADCASTSS alpha+48(FP), Y10
	VBROADCASTSS eps+52(FP), Y11
	SHRQ $3, CX
	JZ   done

loop:
	VMOVUPS (SI), Y0   // g
	VMOVUPS (R8), Y1   // m
	VSUBPS  Y1, Y0, Y2 // g − m
	VMULPS  Y8, Y2, Y2 // (g − m)·c1
	VADDPS  Y2, Y1, Y1 // m + (g − m)·c1
	VMOVUPS Y1, (R8)
	VMULPS  Y0, Y0, Y3 // g·g
	VMOVUPS (R9), Y4   // v
	VSUBPS  Y4, Y3, Y3 // g·g − v
	VMULPS  Y9, Y3, Y3 // (g·g − v)·c2
	VADDPS  Y3, Y4, Y4 // v + (g·g − v)·c2
	VMOVUPS Y4, (R9)
	VSQRTPS Y4, Y5     // √v
	VADDPS  Y11, Y5, Y5 // √v + ε
	VMULPS  Y10, Y1, Y6 // m·α
	VDIVPS  Y5, Y6, Y6 // (m·α)/(√v + ε)
	VMOVUPS (DI), Y7   // p
	VSUBPS  Y6, Y7, Y7 // p − (m·α)/(√v + ε)
	VMOVUPS Y7, (DI)
	ADDQ    $32, SI
	ADDQ    $32, R8
	ADDQ    $32, R9
	ADDQ    $32, DI
	DECQ    CX
	JNZ     loop

done:
	LDMXCSR 0(SP)
	VZEROUPPER
	RET

// func nzMasksAVX2(grad *float32, words int, out *uint64)
// out[w] bit i = grad[64w+i] is neither +0 nor −0 (NaN counts as non-zero):
// VCMPPS predicate 4 is NEQ_UQ.
TEXT ·nzMasksAVX2(SB), NOSPLIT, $0-24
	MOVQ   grad+0(FP), SI
	MOVQ   words+8(FP), CX
	MOVQ   out+16(FP), DI
	VXORPS Y15, Y15, Y15
	TESTQ  CX, CX
	JZ     masksdone

maskword:
	VCMPPS    $4, (SI), Y15, Y0
	VCMPPS    $4, 32(SI), Y15, Y1
	VCMPPS    $4, 64(SI), Y15, Y2
	VCMPPS    $4, 96(SI), Y15, Y3
	VCMPPS    $4, 128(SI), Y15, Y4
	VCMPPS    $4, 160(SI), Y15, Y5
	VCMPPS    $4, 192(SI), Y15, Y6
	VCMPPS    $4, 224(SI), Y15, Y7
	VMOVMSKPS Y0, AX
	VMOVMSKPS Y1, BX
	SHLQ      $8, BX
	ORQ       BX, AX
	VMOVMSKPS Y2, BX
	SHLQ      $16, BX
	ORQ       BX, AX
	VMOVMSKPS Y3, BX
	SHLQ      $24, BX
	ORQ       BX, AX
	VMOVMSKPS Y4, BX
	SHLQ      $32, BX
	ORQ       BX, AX
	VMOVMSKPS Y5, BX
	SHLQ      $40, BX
	ORQ       BX, AX
	VMOVMSKPS Y6, BX
	SHLQ      $48, BX
	ORQ       BX, AX
	VMOVMSKPS Y7, BX
	SHLQ      $56, BX
	ORQ       BX, AX
	MOVQ      AX, (DI)
	ADDQ      $256, SI
	ADDQ      $8, DI
	DECQ      CX
	JNZ       maskword

masksdone:
	VZEROUPPER
	RET

// func kerasHotAVX2(p, grad, m, v *float32, words int, c1, c2, alpha, eps float32, hot *uint64)
// The loop of kerasAVX2 over 64-entry words (same operations, same MXCSR
// mode); hot[w] bit i = entry 64w+i is not cold after its update (cold: its
// new m·c1 flushes to zero, its new v is finite and not θ = ±0 with m < 0;
// see lazy.go).
TEXT ·kerasHotAVX2(SB), NOSPLIT, $16-64
	STMXCSR 0(SP)
	MOVL    0(SP), AX
	ORL     $0x8040, AX
	MOVL    AX, 8(SP)
	LDMXCSR 8(SP)
	MOVQ p+0(FP), DI
	MOVQ grad+8(FP), SI
	MOVQ m+16(FP), R8
	MOVQ v+24(FP), R9
	MOVQ words+32(FP), R11
	MOVQ hot+56(FP), R10
	VBROADCASTSS c1+40(FP), Y8
	VBROADCASTSS c2+44(FP), Y9
	VBROADCASTSS alpha+48(FP), Y10
	VBROADCASTSS eps+52(FP), Y11
	MOVL $0x7f800000, AX
	MOVL AX, 8(SP)
	VBROADCASTSS 8(SP), Y14 // exponent mask
	VPXOR Y15, Y15, Y15
	TESTQ R11, R11
	JZ    hotdone

hotword:
	XORQ R12, R12 // cold bits of the word
	XORQ CX, CX   // lane offset (shift count)

hotlane:
	VMOVUPS (SI), Y0
	VMOVUPS (R8), Y1
	VSUBPS  Y1, Y0, Y2
	VMULPS  Y8, Y2, Y2
	VADDPS  Y2, Y1, Y1
	VMOVUPS Y1, (R8)
	VMULPS  Y0, Y0, Y3
	VMOVUPS (R9), Y4
	VSUBPS  Y4, Y3, Y3
	VMULPS  Y9, Y3, Y3
	VADDPS  Y3, Y4, Y4
	VMOVUPS Y4, (R9)
	VSQRTPS Y4, Y5
	VADDPS  Y11, Y5, Y5
	VMULPS  Y10, Y1, Y6
	VDIVPS  Y5, Y6, Y6
	VMOVUPS (DI), Y7
	VSUBPS  Y6, Y7, Y7
	VMOVUPS Y7, (DI)
	VMULPS   Y8, Y1, Y12   // m·c1 (flushed)
	VCMPPS   $0, Y15, Y12, Y12 // m·c1 == ±0: m is at its fixed point
	VPAND    Y14, Y4, Y13
	VPCMPEQD Y14, Y13, Y13 // v not finite
	VPANDN   Y12, Y13, Y12 // and v finite
	VCMPPS   $0, Y15, Y7, Y13 // θ == ±0
	VPSRAD   $31, Y1, Y0   // m < 0 (sign)
	VPAND    Y0, Y13, Y13
	VPANDN   Y12, Y13, Y12 // and not (θ = ±0 with m < 0)
	VMOVMSKPS Y12, AX
	SHLQ    CL, AX
	ORQ     AX, R12
	ADDQ    $32, SI
	ADDQ    $32, R8
	ADDQ    $32, R9
	ADDQ    $32, DI
	ADDQ    $8, CX
	CMPQ    CX, $64
	JNE     hotlane
	NOTQ    R12
	MOVQ    R12, (R10)
	ADDQ    $8, R10
	DECQ    R11
	JNZ     hotword

hotdone:
	LDMXCSR 0(SP)
	VZEROUPPER
	RET

// func kerasListAVX(p, grad, m, v *float32, idx *int32, n int, c1, c2, alpha, eps float32)
// The Keras update of the n entries idx[0…n−1] (scalar VEX operations in
// the order of kerasAVX2, with the same MXCSR mode).
TEXT ·kerasListAVX(SB), NOSPLIT, $16-64
	STMXCSR 0(SP)
	MOVL    0(SP), AX
	ORL     $0x8040, AX
	MOVL    AX, 8(SP)
	LDMXCSR 8(SP)
	MOVQ p+0(FP), DI
	MOVQ grad+8(FP), SI
	MOVQ m+16(FP), R8
	MOVQ v+24(FP), R9
	MOVQ idx+32(FP), R10
	MOVQ n+40(FP), CX
	MOVSS c1+48(FP), X8
	MOVSS c2+52(FP), X9
	MOVSS alpha+56(FP), X10
	MOVSS eps+60(FP), X11
	TESTQ CX, CX
	JZ    listdone

listloop:
	MOVLQSX (R10), BX
	VMOVSS  (SI)(BX*4), X0        // g
	VMOVSS  (R8)(BX*4), X1        // m
	VSUBSS  X1, X0, X2            // g − m
	VMULSS  X8, X2, X2            // ·c1
	VADDSS  X2, X1, X1            // m'
	VMOVSS  X1, (R8)(BX*4)
	VMULSS  X0, X0, X3            // g·g
	VMOVSS  (R9)(BX*4), X4        // v
	VSUBSS  X4, X3, X3
	VMULSS  X9, X3, X3
	VADDSS  X3, X4, X4            // v'
	VMOVSS  X4, (R9)(BX*4)
	VSQRTSS X4, X4, X5
	VADDSS  X11, X5, X5
	VMULSS  X10, X1, X6
	VDIVSS  X5, X6, X6
	VMOVSS  (DI)(BX*4), X7
	VSUBSS  X6, X7, X7
	VMOVSS  X7, (DI)(BX*4)
	ADDQ    $4, R10
	DECQ    CX
	JNZ     listloop

listdone:
	LDMXCSR 0(SP)
	VZEROUPPER
	RET
