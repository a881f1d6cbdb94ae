//go:build amd64 && !purego

#include "textflag.h"

// ROUTE16 moves the sixteen rows of node vector n one level down a
// complete tree: f = feature of node n and t = its threshold, looked up in
// the two-register tables (flo, fhi) and (tlo, thi) at index n − k (k =
// 0, or 31 with the constant in Z23 for the sixth level), v = x[off + f]
// (one gather), n = 2n + 1 + [!(v < t)] (VCMPPS predicate 5, NLT_US: true
// when v ≥ t or unordered, so a NaN goes right as in GoesLeft).
#define ROUTE16(n, off, f, v, t, flo, fhi, tlo, thi) \
	VMOVDQA32  n, f \
	VMOVDQA32  n, t \
	VPERMI2D   fhi, flo, f \
	VPERMI2PS  thi, tlo, t \
	VPADDD     off, f, f \
	KXNORW     K2, K2, K2 \
	VPXORD     v, v, v \
	VGATHERDPS (R8)(f*4), K2, v \
	VCMPPS     $5, t, v, K4 \
	VPADDD     n, n, n \
	VPADDD     Z10, n, n \
	VPADDD     Z10, n, K4, n

// SHIFT subtracts (add = false: adds back) 31 from the four node vectors.
#define SUB31 \
	VPSUBD Z23, Z0, Z0 \
	VPSUBD Z23, Z1, Z1 \
	VPSUBD Z23, Z2, Z2 \
	VPSUBD Z23, Z3, Z3

#define ADD31 \
	VPADDD Z23, Z0, Z0 \
	VPADDD Z23, Z1, Z1 \
	VPADDD Z23, Z2, Z2 \
	VPADDD Z23, Z3, Z3

// func routeAVX512(tabF *int32, tabT *float32, x *float32, off *int32, leaf *int32, trees, depth int, base, step int32)
//
// Routes 64 rows (row r starts at x + off[r], in floats) down trees
// complete trees of depth 1…6 and writes, tree after tree, the 64 reached
// leaves as leaf rows: node − (2^depth − 1) + base, base growing by step
// per tree. Every tree has 64 features at tabF and 64 thresholds at tabT:
// those of its nodes 0…31, then of its nodes 31…62 (the sixth level).
TEXT ·routeAVX512(SB), NOSPLIT, $0-64
	MOVQ         tabF+0(FP), SI
	MOVQ         tabT+8(FP), DX
	MOVQ         x+16(FP), R8
	MOVQ         off+24(FP), AX
	MOVQ         leaf+32(FP), DI
	MOVQ         trees+40(FP), CX
	MOVQ         depth+48(FP), BX
	MOVL         base+56(FP), R10
	VPBROADCASTD R10, Z20
	MOVL         step+60(FP), R10
	VPBROADCASTD R10, Z21
	VMOVDQU32    0(AX), Z16
	VMOVDQU32    64(AX), Z17
	VMOVDQU32    128(AX), Z18
	VMOVDQU32    192(AX), Z19
	VPTERNLOGD   $0xff, Z10, Z10, Z10
	VPSRLD       $31, Z10, Z10     // 1 in every lane
	MOVL         $31, R10
	VPBROADCASTD R10, Z23          // 31 in every lane
	MOVQ         BX, R9            // levels with the first tables: min(depth, 5)
	CMPQ         R9, $5
	JLE          levels
	MOVQ         $5, R9

levels:
	TESTQ CX, CX
	JZ    done

tree:
	VMOVDQU32 0(SI), Z24           // features of nodes 0…15
	VMOVDQU32 64(SI), Z25          // 16…31
	VMOVUPS   0(DX), Z26           // thresholds of nodes 0…15
	VMOVUPS   64(DX), Z27          // 16…31
	VPXORD    Z0, Z0, Z0
	VPXORD    Z1, Z1, Z1
	VPXORD    Z2, Z2, Z2
	VPXORD    Z3, Z3, Z3
	MOVQ      R9, R11

level:
	ROUTE16(Z0, Z16, Z4, Z5, Z6, Z24, Z25, Z26, Z27)
	ROUTE16(Z1, Z17, Z7, Z8, Z9, Z24, Z25, Z26, Z27)
	ROUTE16(Z2, Z18, Z11, Z12, Z13, Z24, Z25, Z26, Z27)
	ROUTE16(Z3, Z19, Z14, Z15, Z22, Z24, Z25, Z26, Z27)
	DECQ R11
	JNZ  level

	CMPQ BX, $6
	JNE  store
	VMOVDQU32 128(SI), Z28         // features of nodes 31…46
	VMOVDQU32 192(SI), Z29         // 47…62
	VMOVUPS   128(DX), Z30         // thresholds of nodes 31…46
	VMOVUPS   192(DX), Z31         // 47…62
	SUB31
	ROUTE16(Z0, Z16, Z4, Z5, Z6, Z28, Z29, Z30, Z31)
	ROUTE16(Z1, Z17, Z7, Z8, Z9, Z28, Z29, Z30, Z31)
	ROUTE16(Z2, Z18, Z11, Z12, Z13, Z28, Z29, Z30, Z31)
	ROUTE16(Z3, Z19, Z14, Z15, Z22, Z28, Z29, Z30, Z31)
	// n was 2(n' − 31) + 1 + bit = node − 31 − 31: add 62 back
	ADD31
	ADD31

store:
	VPADDD    Z20, Z0, Z0
	VPADDD    Z20, Z1, Z1
	VPADDD    Z20, Z2, Z2
	VPADDD    Z20, Z3, Z3
	VMOVDQU32 Z0, 0(DI)
	VMOVDQU32 Z1, 64(DI)
	VMOVDQU32 Z2, 128(DI)
	VMOVDQU32 Z3, 192(DI)
	VPADDD    Z21, Z20, Z20
	ADDQ      $256, SI
	ADDQ      $256, DX
	ADDQ      $256, DI
	DECQ      CX
	JNZ       tree

done:
	VZEROUPPER
	RET

// ACC8 adds, for the eight rows whose leaf rows are at SI + off, their
// leaves' expW into s and value into a (two gathers of eight float64).
#define ACC8(off, s, a) \
	VMOVDQU32  off(SI), Y16 \
	KXNORB     K1, K1, K1 \
	VPXORQ     Z17, Z17, Z17 \
	VGATHERDPD (DX)(Y16*8), K1, Z17 \
	KXNORB     K2, K2, K2 \
	VPXORQ     Z18, Z18, Z18 \
	VGATHERDPD (R8)(Y16*8), K2, Z18 \
	VADDPD     Z17, s, s \
	VADDPD     Z18, a, a

// func accumAVX512(leaf *int32, expW, value, sum, acc *float64, trees int)
//
// For trees trees (Block leaf rows each, tree after tree from leaf) adds
// every row's expW[leaf] into sum[row] and value[leaf] into acc[row]
// (Block rows, one output), tree after tree: the additions of the Go loop
// in the same order, eight rows per vector.
TEXT ·accumAVX512(SB), NOSPLIT, $0-48
	MOVQ      leaf+0(FP), SI
	MOVQ      expW+8(FP), DX
	MOVQ      value+16(FP), R8
	MOVQ      sum+24(FP), AX
	MOVQ      acc+32(FP), DI
	MOVQ      trees+40(FP), CX
	VMOVUPD   0(AX), Z0
	VMOVUPD   64(AX), Z1
	VMOVUPD   128(AX), Z2
	VMOVUPD   192(AX), Z3
	VMOVUPD   256(AX), Z4
	VMOVUPD   320(AX), Z5
	VMOVUPD   384(AX), Z6
	VMOVUPD   448(AX), Z7
	VMOVUPD   0(DI), Z8
	VMOVUPD   64(DI), Z9
	VMOVUPD   128(DI), Z10
	VMOVUPD   192(DI), Z11
	VMOVUPD   256(DI), Z12
	VMOVUPD   320(DI), Z13
	VMOVUPD   384(DI), Z14
	VMOVUPD   448(DI), Z15
	TESTQ     CX, CX
	JZ        accstore

acctree:
	ACC8(0, Z0, Z8)
	ACC8(32, Z1, Z9)
	ACC8(64, Z2, Z10)
	ACC8(96, Z3, Z11)
	ACC8(128, Z4, Z12)
	ACC8(160, Z5, Z13)
	ACC8(192, Z6, Z14)
	ACC8(224, Z7, Z15)
	ADDQ $256, SI
	DECQ CX
	JNZ  acctree

accstore:
	VMOVUPD Z0, 0(AX)
	VMOVUPD Z1, 64(AX)
	VMOVUPD Z2, 128(AX)
	VMOVUPD Z3, 192(AX)
	VMOVUPD Z4, 256(AX)
	VMOVUPD Z5, 320(AX)
	VMOVUPD Z6, 384(AX)
	VMOVUPD Z7, 448(AX)
	VMOVUPD Z8, 0(DI)
	VMOVUPD Z9, 64(DI)
	VMOVUPD Z10, 128(DI)
	VMOVUPD Z11, 192(DI)
	VMOVUPD Z12, 256(DI)
	VMOVUPD Z13, 320(DI)
	VMOVUPD Z14, 384(DI)
	VMOVUPD Z15, 448(DI)
	VZEROUPPER
	RET
