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

DATA optaxTiny<>+0(SB)/4, $0x0d800000
GLOBL optaxTiny<>(SB), RODATA|NOPTR, $4
DATA optaxInf<>+0(SB)/4, $0x7f800000
GLOBL optaxInf<>(SB), RODATA|NOPTR, $4

// func optaxAVX512(p, grad, m, v *float32, n int, k *optaxConsts)
//
// optaxAVX2 on 16 entries at a time, bit for bit, with the two divisions
// by the per-step constants bc1 and bc2 done without the divider: with
// y = RN(1/b) (rbc1, rbc2), q = RN(x·y) and two correction steps
// e = RN(x − q·b) (exact), q = RN(q + e·y) (Markstein's theorem: the
// result is RN(x/b)) when every entry of the vector has 2⁻¹⁰⁰ ≤ |x| and a
// finite quotient (so no intermediate underflows, overflows or is ±0);
// otherwise the vector is divided with VDIVPS. The third division (by
// √(v/bc2)+ε, different per entry) and the square root stay IEEE
// instructions. Operand order (Go assembler) as above; VPCMPUD $p, b, a, K
// sets K = a p b (1: <, 5: ≥); "Op x, y, K, d" merges into d under mask K.
TEXT ·optaxAVX512(SB), NOSPLIT, $0-48
	MOVQ p+0(FP), DI
	MOVQ grad+8(FP), SI
	MOVQ m+16(FP), R8
	MOVQ v+24(FP), R9
	MOVQ n+32(FP), CX
	MOVQ k+40(FP), AX
	VBROADCASTSS 0(AX), Z8   // c1
	VBROADCASTSS 4(AX), Z9   // c2
	VBROADCASTSS 8(AX), Z10  // b1
	VBROADCASTSS 12(AX), Z11 // b2
	VBROADCASTSS 16(AX), Z12 // bc1
	VBROADCASTSS 20(AX), Z13 // bc2
	VBROADCASTSS 24(AX), Z14 // eps
	VBROADCASTSS 28(AX), Z15 // negLR
	VBROADCASTSS 32(AX), Z16 // owd
	MOVL 36(AX), DX          // decay
	VBROADCASTSS 40(AX), Z17 // rbc1 = RN(1/bc1)
	VBROADCASTSS 44(AX), Z18 // rbc2 = RN(1/bc2)
	VBROADCASTSS optaxAbs<>(SB), Z19
	VBROADCASTSS optaxMinNormal<>(SB), Z20
	VBROADCASTSS optaxSign<>(SB), Z21
	VBROADCASTSS optaxTiny<>(SB), Z22
	VBROADCASTSS optaxInf<>(SB), Z23
	SHRQ $4, CX
	JZ   done512

loop512:
	VMOVUPS (SI), Z0           // g
	VMULPS  Z8, Z0, Z1         // c1·g
	VMOVUPS (R8), Z2           // m
	VMULPS  Z10, Z2, Z2        // b1·m
	VADDPS  Z2, Z1, Z1         // m' = c1·g + b1·m
	VPANDD  Z19, Z1, Z3        // |m'| bits
	VPCMPUD $1, Z20, Z3, K1    // |m'| < minNormal → flush
	VPANDD  Z21, Z1, K1, Z1    // m' = flush ? sign : m'
	VMOVUPS Z1, (R8)

	VMULPS  Z0, Z0, Z2         // g·g
	VMULPS  Z9, Z2, Z2         // c2·(g·g)
	VMOVUPS (R9), Z3           // v
	VMULPS  Z11, Z3, Z3        // b2·v
	VADDPS  Z3, Z2, Z2         // v' = c2·g² + b2·v
	VPANDD  Z19, Z2, Z3
	VPCMPUD $1, Z20, Z3, K2
	VPANDD  Z21, Z2, K2, Z2    // flush v'
	VMOVUPS Z2, (R9)

	// Z4 = m'/bc1.
	VMULPS  Z17, Z1, Z4        // q = m'·rbc1
	VMOVAPS Z1, Z6
	VFNMADD231PS Z12, Z4, Z6   // e = m' − q·bc1
	VFMADD231PS Z17, Z6, Z4    // q += e·rbc1
	VMOVAPS Z1, Z6
	VFNMADD231PS Z12, Z4, Z6
	VFMADD231PS Z17, Z6, Z4
	VPANDD  Z19, Z1, Z3
	VPCMPUD $5, Z22, Z3, K3    // |m'| ≥ 2⁻¹⁰⁰
	VPANDD  Z19, Z4, Z3
	VPCMPUD $1, Z23, Z3, K4    // |q| < ∞ (not NaN)
	KANDW   K3, K4, K3
	KMOVW   K3, BX
	CMPL    BX, $0xffff
	JEQ     mok
	VDIVPS  Z12, Z1, Z4        // m'/bc1

mok:
	// Z5 = v'/bc2.
	VMULPS  Z18, Z2, Z5
	VMOVAPS Z2, Z6
	VFNMADD231PS Z13, Z5, Z6
	VFMADD231PS Z18, Z6, Z5
	VMOVAPS Z2, Z6
	VFNMADD231PS Z13, Z5, Z6
	VFMADD231PS Z18, Z6, Z5
	VPANDD  Z19, Z2, Z3
	VPCMPUD $5, Z22, Z3, K3
	VPANDD  Z19, Z5, Z3
	VPCMPUD $1, Z23, Z3, K4
	KANDW   K3, K4, K3
	KMOVW   K3, BX
	CMPL    BX, $0xffff
	JEQ     vok
	VDIVPS  Z13, Z2, Z5        // v'/bc2

vok:
	VSQRTPS Z5, Z5             // √(v'/bc2)
	VADDPS  Z14, Z5, Z5        // + ε
	VDIVPS  Z5, Z4, Z4         // u
	VMOVUPS (DI), Z0           // p
	TESTL   DX, DX
	JZ      nodecay512
	VMULPS  Z0, Z16, Z3        // owd·p
	VADDPS  Z3, Z4, Z4         // u + owd·p

nodecay512:
	VMULPS  Z15, Z4, Z4        // u·negLR
	VADDPS  Z4, Z0, Z0         // p + u·negLR
	VMOVUPS Z0, (DI)

	ADDQ $64, DI
	ADDQ $64, SI
	ADDQ $64, R8
	ADDQ $64, R9
	DECQ CX
	JNZ  loop512

done512:
	VZEROUPPER
	RET
