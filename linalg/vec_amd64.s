#include "textflag.h"

// func reluAVX2(n int, src, dst *float32)
//
// dst[i] = |src[i]| if !(src[i] <= 0) (positive or NaN) else +0, for n a
// multiple of 32: the compare NLE_UQ is true for unordered operands, and
// clearing the sign bit changes only NaNs (as Go's max does).
TEXT ·reluAVX2(SB), NOSPLIT, $0-24
	MOVQ n+0(FP), CX
	MOVQ src+8(FP), SI
	MOVQ dst+16(FP), DI
	VXORPS Y15, Y15, Y15
	VPCMPEQD Y14, Y14, Y14
	VPSRLD $1, Y14, Y14
relu32:
	VMOVUPS 0(SI), Y0
	VMOVUPS 32(SI), Y1
	VMOVUPS 64(SI), Y2
	VMOVUPS 96(SI), Y3
	VCMPPS $6, Y15, Y0, Y4
	VCMPPS $6, Y15, Y1, Y5
	VCMPPS $6, Y15, Y2, Y6
	VCMPPS $6, Y15, Y3, Y7
	VANDPS Y4, Y0, Y0
	VANDPS Y5, Y1, Y1
	VANDPS Y6, Y2, Y2
	VANDPS Y7, Y3, Y3
	VANDPS Y14, Y0, Y0
	VANDPS Y14, Y1, Y1
	VANDPS Y14, Y2, Y2
	VANDPS Y14, Y3, Y3
	VMOVUPS Y0, 0(DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	ADDQ $128, SI
	ADDQ $128, DI
	SUBQ $32, CX
	JNZ relu32
	VZEROUPPER
	RET

// func reluGradAVX2(n int, dy, x, dst *float32)
//
// dst[i] = dy[i] where the bits of x[i], read as a signed int32, are > 0,
// else +0, for n a multiple of 32.
TEXT ·reluGradAVX2(SB), NOSPLIT, $0-32
	MOVQ n+0(FP), CX
	MOVQ dy+8(FP), SI
	MOVQ x+16(FP), DX
	MOVQ dst+24(FP), DI
	VPXOR Y15, Y15, Y15
reluGrad32:
	VMOVDQU 0(DX), Y0
	VMOVDQU 32(DX), Y1
	VMOVDQU 64(DX), Y2
	VMOVDQU 96(DX), Y3
	VPCMPGTD Y15, Y0, Y0
	VPCMPGTD Y15, Y1, Y1
	VPCMPGTD Y15, Y2, Y2
	VPCMPGTD Y15, Y3, Y3
	VPAND 0(SI), Y0, Y0
	VPAND 32(SI), Y1, Y1
	VPAND 64(SI), Y2, Y2
	VPAND 96(SI), Y3, Y3
	VMOVDQU Y0, 0(DI)
	VMOVDQU Y1, 32(DI)
	VMOVDQU Y2, 64(DI)
	VMOVDQU Y3, 96(DI)
	ADDQ $128, SI
	ADDQ $128, DX
	ADDQ $128, DI
	SUBQ $32, CX
	JNZ reluGrad32
	VZEROUPPER
	RET

// func sumSquaresAVX2(n int, x *float32, acc *float64)
//
// acc[j] += Σ_{i ≡ j mod 32} x[i]² in float64 (exact squares, so fused and
// separate multiply-adds agree), for n a multiple of 32: eight independent
// chains of four lanes, Y0 holding j = 0…3, Y1 4…7, …, Y7 28…31.
TEXT ·sumSquaresAVX2(SB), NOSPLIT, $0-24
	MOVQ n+0(FP), CX
	MOVQ x+8(FP), SI
	MOVQ acc+16(FP), DI
	VMOVUPD 0(DI), Y0
	VMOVUPD 32(DI), Y1
	VMOVUPD 64(DI), Y2
	VMOVUPD 96(DI), Y3
	VMOVUPD 128(DI), Y4
	VMOVUPD 160(DI), Y5
	VMOVUPD 192(DI), Y6
	VMOVUPD 224(DI), Y7
sq32:
	VCVTPS2PD 0(SI), Y8
	VCVTPS2PD 16(SI), Y9
	VCVTPS2PD 32(SI), Y10
	VCVTPS2PD 48(SI), Y11
	VCVTPS2PD 64(SI), Y12
	VCVTPS2PD 80(SI), Y13
	VCVTPS2PD 96(SI), Y14
	VCVTPS2PD 112(SI), Y15
	VFMADD231PD Y8, Y8, Y0
	VFMADD231PD Y9, Y9, Y1
	VFMADD231PD Y10, Y10, Y2
	VFMADD231PD Y11, Y11, Y3
	VFMADD231PD Y12, Y12, Y4
	VFMADD231PD Y13, Y13, Y5
	VFMADD231PD Y14, Y14, Y6
	VFMADD231PD Y15, Y15, Y7
	ADDQ $128, SI
	SUBQ $32, CX
	JNZ sq32
	VMOVUPD Y0, 0(DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	VMOVUPD Y4, 128(DI)
	VMOVUPD Y5, 160(DI)
	VMOVUPD Y6, 192(DI)
	VMOVUPD Y7, 224(DI)
	VZEROUPPER
	RET

// func biasReluAVX2(n int, pre, post, bias *float32)
//
// pre[i] += bias[i]; post[i] = |pre[i]| if !(pre[i] <= 0) else +0 (as
// reluAVX2), for n a multiple of 32.
TEXT ·biasReluAVX2(SB), NOSPLIT, $0-32
	MOVQ n+0(FP), CX
	MOVQ pre+8(FP), SI
	MOVQ post+16(FP), DI
	MOVQ bias+24(FP), DX
	VXORPS Y15, Y15, Y15
	VPCMPEQD Y14, Y14, Y14
	VPSRLD $1, Y14, Y14
biasRelu32:
	VMOVUPS 0(SI), Y0
	VMOVUPS 32(SI), Y1
	VMOVUPS 64(SI), Y2
	VMOVUPS 96(SI), Y3
	VADDPS 0(DX), Y0, Y0
	VADDPS 32(DX), Y1, Y1
	VADDPS 64(DX), Y2, Y2
	VADDPS 96(DX), Y3, Y3
	VMOVUPS Y0, 0(SI)
	VMOVUPS Y1, 32(SI)
	VMOVUPS Y2, 64(SI)
	VMOVUPS Y3, 96(SI)
	VCMPPS $6, Y15, Y0, Y4
	VCMPPS $6, Y15, Y1, Y5
	VCMPPS $6, Y15, Y2, Y6
	VCMPPS $6, Y15, Y3, Y7
	VANDPS Y4, Y0, Y0
	VANDPS Y5, Y1, Y1
	VANDPS Y6, Y2, Y2
	VANDPS Y7, Y3, Y3
	VANDPS Y14, Y0, Y0
	VANDPS Y14, Y1, Y1
	VANDPS Y14, Y2, Y2
	VANDPS Y14, Y3, Y3
	VMOVUPS Y0, 0(DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	ADDQ $128, SI
	ADDQ $128, DI
	ADDQ $128, DX
	SUBQ $32, CX
	JNZ biasRelu32
	VZEROUPPER
	RET

// func divMulAVX2(n int, x *float32, d, m float32)
//
// x[i] = (x[i] / d) * m, both rounded, for n a multiple of 32.
TEXT ·divMulAVX2(SB), NOSPLIT, $0-24
	MOVQ n+0(FP), CX
	MOVQ x+8(FP), SI
	VBROADCASTSS d+16(FP), Y14
	VBROADCASTSS m+20(FP), Y15
divMul32:
	VMOVUPS 0(SI), Y0
	VMOVUPS 32(SI), Y1
	VMOVUPS 64(SI), Y2
	VMOVUPS 96(SI), Y3
	VDIVPS Y14, Y0, Y0
	VDIVPS Y14, Y1, Y1
	VDIVPS Y14, Y2, Y2
	VDIVPS Y14, Y3, Y3
	VMULPS Y15, Y0, Y0
	VMULPS Y15, Y1, Y1
	VMULPS Y15, Y2, Y2
	VMULPS Y15, Y3, Y3
	VMOVUPS Y0, 0(SI)
	VMOVUPS Y1, 32(SI)
	VMOVUPS Y2, 64(SI)
	VMOVUPS Y3, 96(SI)
	ADDQ $128, SI
	SUBQ $32, CX
	JNZ divMul32
	VZEROUPPER
	RET

// func orBitsAVX2(n int, x *float32, acc *uint32)
// acc[i] |= bits(x[i]) for i < n (n a positive multiple of 32).
TEXT ·orBitsAVX2(SB), NOSPLIT, $0-24
	MOVQ n+0(FP), CX
	MOVQ x+8(FP), SI
	MOVQ acc+16(FP), DI
orBits32:
	VMOVDQU 0(DI), Y0
	VMOVDQU 32(DI), Y1
	VMOVDQU 64(DI), Y2
	VMOVDQU 96(DI), Y3
	VPOR 0(SI), Y0, Y0
	VPOR 32(SI), Y1, Y1
	VPOR 64(SI), Y2, Y2
	VPOR 96(SI), Y3, Y3
	VMOVDQU Y0, 0(DI)
	VMOVDQU Y1, 32(DI)
	VMOVDQU Y2, 64(DI)
	VMOVDQU Y3, 96(DI)
	ADDQ $128, SI
	ADDQ $128, DI
	SUBQ $32, CX
	JNZ orBits32
	VZEROUPPER
	RET
