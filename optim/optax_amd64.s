//go:build amd64 && !purego

#include "textflag.h"

DATA optaxAbs<>+0(SB)/4, $0x7fffffff
GLOBL optaxAbs<>(SB), RODATA|NOPTR, $4
DATA optaxSign<>+0(SB)/4, $0x80000000
GLOBL optaxSign<>(SB), RODATA|NOPTR, $4
DATA optaxMinNormal<>+0(SB)/4, $0x00800000
GLOBL optaxMinNormal<>(SB), RODATA|NOPTR, $4

// func optaxAVX2(p, grad, m, v *float32, n int, k *optaxConsts)
// Operand order (Go assembler): VDIVPS b, a, d computes d = a / b.
// No FMA: every product is rounded before the sum, as in the scalar code.
// ftz(x) = x where |x| ≥ 2⁻¹²⁶ (compared as integers), else x's sign bit.
TEXT ·optaxAVX2(SB), NOSPLIT, $0-48
	MOVQ p+0(FP), DI
	MOVQ grad+8(FP), SI
	MOVQ m+16(FP), R8
	MOVQ v+24(FP), R9
	MOVQ n+32(FP), CX
	MOVQ k+40(FP), AX
	VBROADCASTSS 0(AX), Y8   // c1
	VBROADCASTSS 4(AX), Y9   // c2
	VBROADCASTSS 8(AX), Y10  // b1
	VBROADCASTSS 12(AX), Y11 // b2
	VBROADCASTSS 16(AX), Y12 // bc1
	VBROADCASTSS 20(AX), Y13 // bc2
	VBROADCASTSS 24(AX), Y14 // eps
	VBROADCASTSS 28(AX), Y15 // negLR
	MOVL 36(AX), DX          // decay
	SHRQ $3, CX
	JZ   done

loop:
	VMOVUPS (SI), Y0           // g
	VMULPS  Y8, Y0, Y1         // c1·g
	VMOVUPS (R8), Y2           // m
	VMULPS  Y10, Y2, Y2        // b1·m
	VADDPS  Y2, Y1, Y1         // m' = c1·g + b1·m
	VBROADCASTSS optaxAbs<>(SB), Y5
	VANDPS  Y5, Y1, Y3         // |m'| bits
	VBROADCASTSS optaxMinNormal<>(SB), Y6
	VPCMPGTD Y3, Y6, Y3        // minNormal > |m'|  → flush
	VBROADCASTSS optaxSign<>(SB), Y7
	VANDPS  Y7, Y1, Y4         // sign of m'
	VBLENDVPS Y3, Y4, Y1, Y1   // m' = flush ? sign : m'
	VMOVUPS Y1, (R8)

	VMULPS  Y0, Y0, Y2         // g·g
	VMULPS  Y9, Y2, Y2         // c2·(g·g)
	VMOVUPS (R9), Y3           // v
	VMULPS  Y11, Y3, Y3        // b2·v
	VADDPS  Y3, Y2, Y2         // v' = c2·g² + b2·v
	VANDPS  Y5, Y2, Y3
	VPCMPGTD Y3, Y6, Y3
	VANDPS  Y7, Y2, Y4
	VBLENDVPS Y3, Y4, Y2, Y2   // flush v'
	VMOVUPS Y2, (R9)

	VDIVPS  Y12, Y1, Y1        // m'/bc1
	VDIVPS  Y13, Y2, Y2        // v'/bc2
	VSQRTPS Y2, Y2             // √(v'/bc2)
	VADDPS  Y14, Y2, Y2        // + ε
	VDIVPS  Y2, Y1, Y1         // u
	VMOVUPS (DI), Y0           // p
	TESTL   DX, DX
	JZ      nodecay
	VBROADCASTSS 32(AX), Y3    // owd
	VMULPS  Y0, Y3, Y3         // owd·p
	VADDPS  Y3, Y1, Y1         // u + owd·p

nodecay:
	VMULPS  Y15, Y1, Y1        // u·negLR
	VADDPS  Y1, Y0, Y0         // p + u·negLR
	VMOVUPS Y0, (DI)

	ADDQ $32, DI
	ADDQ $32, SI
	ADDQ $32, R8
	ADDQ $32, R9
	DECQ CX
	JNZ  loop

done:
	VZEROUPPER
	RET
