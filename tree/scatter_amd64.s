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

// ROOTADDn adds Z8·(Z0 … Zn−1) into the root's row in Z20 … Z20+n−1;
// ROOTSTOREn stores that row at DX.
#define ROOTADD1 \
	VMULPS Z0, Z8, Z4 \
	VADDPS Z4, Z20, Z20

#define ROOTADD2 \
	ROOTADD1 \
	VMULPS Z1, Z8, Z5 \
	VADDPS Z5, Z21, Z21

#define ROOTADD3 \
	ROOTADD2 \
	VMULPS Z2, Z8, Z6 \
	VADDPS Z6, Z22, Z22

#define ROOTADD4 \
	ROOTADD3 \
	VMULPS Z3, Z8, Z7 \
	VADDPS Z7, Z23, Z23

#define ROOTSTORE1 \
	VMOVUPS Z20, (DX)

#define ROOTSTORE2 \
	ROOTSTORE1 \
	VMOVUPS Z21, 64(DX)

#define ROOTSTORE3 \
	ROOTSTORE2 \
	VMOVUPS Z22, 128(DX)

#define ROOTSTORE4 \
	ROOTSTORE3 \
	VMOVUPS Z23, 192(DX)

// SCATTER is the loop over the samples (R8 left) for one row width: the
// root's sums in registers (Z20…, X11: every sample passes it), the other
// nodes' in memory.
#define SCATTER(LOAD, ROWADD, ROOTADD, ROOTSTORE, sample, root, deeper, depth, skip, next) \
sample: \
	MOVL   (R12), R10 \
	LOAD \
	VMOVSD   (R13), X8 \
	VUCOMISD X9, X8 \
	JNE      3(PC) \
	JPS      2(PC) \
	JMP      root \
	VADDSD   X8, X11, X11 \
	ORQ      $1, R15 \
	VCVTSD2SS X8, X8, X8 \
	VBROADCASTSS X8, Z8 \
	ROOTADD \
root: \
	MOVQ   d-16(SP), CX \
	DECQ   CX \
	JZ     next \
	LEAQ   (R13)(DI*1), R9 \
	MOVQ   $1, AX \
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
next: \
	ADDQ $4, R12 \
	ADDQ $8, R13 \
	ADDQ n4-8(SP), SI \
	DECQ R8 \
	JNZ  sample \
	ROOTSTORE \
	VMOVSD X11, (R14)

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
	VXORPD X11, X11, X11          // the root's Σδ
	VPXORD Z20, Z20, Z20          // and its row
	VPXORD Z21, Z21, Z21
	VPXORD Z22, Z22, Z22
	VPXORD Z23, Z23, Z23
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
	SCATTER(LOAD1, ROWADD1, ROOTADD1, ROOTSTORE1, s1, r1, e1, d1, k1, n1)
	JMP done

w2:
	SCATTER(LOAD2, ROWADD2, ROOTADD2, ROOTSTORE2, s2, r2, e2, d2, k2, n2)
	JMP done

w3:
	SCATTER(LOAD3, ROWADD3, ROOTADD3, ROOTSTORE3, s3, r3, e3, d3, k3, n3)
	JMP done

w4:
	SCATTER(LOAD4, ROWADD4, ROOTADD4, ROOTSTORE4, s4, r4, e4, d4, k4, n4)

done:
	MOVQ R15, ret+8(FP)
	VZEROUPPER
	RET
