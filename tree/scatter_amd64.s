//go:build amd64 && !purego

#include "textflag.h"

// scatterTreeAVX512: a tree's node sums from its depth-major δ (see
// scatterArgs and accumulateTreeVec). For every sample in order, every
// depth j with δ ≠ 0 (NaN included): D[node] += δ (float64) and the
// node's row of acc += float32(δ)·x (sixteen float32 lanes per vector,
// product and sum rounded separately, as scatterRowsGo), where node =
// 2^j − 1 + R >> (d − j). The x row is read once per sample (nv vectors,
// the last with the lanes of tail); rows of acc are read and written in
// whole vectors (lanes past the tail add ±0).

// ROWADDn adds Z8·(Z0 … Zn−1) into the row at BX.
#define ROWADD1 \
	VMULPS  Z0, Z8, Z4 \
	VADDPS  (BX), Z4, Z4 \
	VMOVUPS Z4, (BX)

#define ROWADD2 \
	ROWADD1 \
	VMULPS  Z1, Z8, Z5 \
	VADDPS  64(BX), Z5, Z5 \
	VMOVUPS Z5, 64(BX)

#define ROWADD3 \
	ROWADD2 \
	VMULPS  Z2, Z8, Z6 \
	VADDPS  128(BX), Z6, Z6 \
	VMOVUPS Z6, 128(BX)

#define ROWADD4 \
	ROWADD3 \
	VMULPS  Z3, Z8, Z7 \
	VADDPS  192(BX), Z7, Z7 \
	VMOVUPS Z7, 192(BX)

// LOADn loads the x row at SI into Z0 … Zn−1 (the last with mask K4).
#define LOAD1 \
	VMOVUPS.Z (SI), K4, Z0

#define LOAD2 \
	VMOVUPS   (SI), Z0 \
	VMOVUPS.Z 64(SI), K4, Z1

#define LOAD3 \
	VMOVUPS   (SI), Z0 \
	VMOVUPS   64(SI), Z1 \
	VMOVUPS.Z 128(SI), K4, Z2

#define LOAD4 \
	VMOVUPS   (SI), Z0 \
	VMOVUPS   64(SI), Z1 \
	VMOVUPS   128(SI), Z2 \
	VMOVUPS.Z 192(SI), K4, Z3

// SCATTER is the loop over the samples (R8 left) for one row width.
#define SCATTER(LOAD, ROWADD, sample, depth, skip) \
sample: \
	MOVL   (R12), R10 \
	LOAD \
	MOVQ   R13, R9 \
	XORQ   AX, AX \
	MOVQ   d-16(SP), CX \
depth: \
	VMOVSD   (R9), X8 \
	VUCOMISD X9, X8 \
	JNE      3(PC) \
	JPS      2(PC) \
	JMP      skip \
	MOVL     R10, BX \
	SHRL     CX, BX \
	ADDL     AX, BX \
	VADDSD   (R14)(BX*8), X8, X10 \
	VMOVSD   X10, (R14)(BX*8) \
	BTSQ     BX, R15 \
	VCVTSD2SS X8, X8, X8 \
	VBROADCASTSS X8, Z8 \
	IMULQ    R11, BX \
	ADDQ     DX, BX \
	ROWADD \
skip: \
	LEAQ 1(AX)(AX*1), AX \
	ADDQ DI, R9 \
	DECQ CX \
	JNZ  depth \
	ADDQ $4, R12 \
	ADDQ $8, R13 \
	ADDQ n4-8(SP), SI \
	DECQ R8 \
	JNZ  sample

// func scatterTreeAVX512(p *scatterArgs) uint64
TEXT ·scatterTreeAVX512(SB), NOSPLIT, $16-16
	MOVQ   p+0(FP), AX
	MOVQ   0(AX), R13             // td: δ of depth 0 of the current sample
	MOVQ   8(AX), R12             // leaf
	MOVQ   16(AX), SI             // x row
	MOVQ   24(AX), DX             // acc
	MOVQ   32(AX), R14            // D
	MOVQ   48(AX), BX
	MOVQ   BX, d-16(SP)           // d
	MOVQ   56(AX), R8             // B: samples left
	MOVQ   R8, DI
	SHLQ   $3, DI                 // a row of td (bytes)
	MOVQ   64(AX), R11
	SHLQ   $2, R11                // a row of acc (bytes)
	MOVQ   80(AX), BX
	KMOVW  BX, K4
	MOVQ   72(AX), CX             // nv
	MOVQ   40(AX), BX
	SHLQ   $2, BX
	MOVQ   BX, n4-8(SP)           // a row of x (bytes)
	VXORPD X9, X9, X9
	XORQ   R15, R15               // touched nodes
	TESTQ  R8, R8
	JZ     done
	CMPQ   CX, $1
	JEQ    w1
	CMPQ   CX, $2
	JEQ    w2
	CMPQ   CX, $3
	JEQ    w3
	JMP    w4

w1:
	SCATTER(LOAD1, ROWADD1, s1, d1, k1)
	JMP done

w2:
	SCATTER(LOAD2, ROWADD2, s2, d2, k2)
	JMP done

w3:
	SCATTER(LOAD3, ROWADD3, s3, d3, k3)
	JMP done

w4:
	SCATTER(LOAD4, ROWADD4, s4, d4, k4)

done:
	MOVQ R15, ret+8(FP)
	VZEROUPPER
	RET
