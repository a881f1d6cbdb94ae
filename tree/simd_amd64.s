//go:build amd64 && !purego

#include "textflag.h"

// func argmaxRowsAVX2(z, t *float32, rows, ne int, feat *int32, sel, selFeat *int32, selThr *float32) bool
//
// Per row: the maximum over chunks of 8 (the last chunk ends at the row's
// end and may overlap the previous one), with an unordered compare
// collecting NaNs; the horizontal maximum broadcast to all lanes; then the
// equality mask of every chunk shifted to its element offset and OR-ed into
// one 64-bit mask whose lowest set bit c is the arg-max. It writes c,
// feat[c] and the row's t[c]. Rows of at most 16 values take a loop-free
// path over two chunks. No branch depends on the data except the (rare)
// NaN exit, which writes sel = −1 only and makes the result false.
// Operand order (Go assembler): VMAXPS b, a, d computes d = max(a, b);
// VCMPPS $p, b, a, d compares a with b.
TEXT ·argmaxRowsAVX2(SB), NOSPLIT, $8-65
	MOVQ z+0(FP), SI
	MOVQ t+8(FP), DX
	MOVQ rows+16(FP), AX
	MOVQ AX, 0(SP)          // rows left
	MOVQ ne+24(FP), CX
	MOVQ feat+32(FP), R12
	MOVQ sel+40(FP), DI
	MOVQ selFeat+48(FP), R13
	MOVQ selThr+56(FP), R11
	MOVB $1, ret+64(FP)
	TESTQ AX, AX
	JZ   done
	LEAQ -32(CX*4), R8 // byte offset of the last chunk: (ne − 8)·4
	LEAQ (CX*4), R9    // row stride in bytes
	CMPQ CX, $16
	JG   row
	SUBQ $8, CX        // shift of the second chunk's mask

small:
	VMOVUPS (SI), Y0
	VMOVUPS (SI)(R8*1), Y1
	VCMPPS  $3, Y0, Y0, Y7
	VCMPPS  $3, Y1, Y1, Y2
	VORPS   Y2, Y7, Y7
	VPTEST  Y7, Y7
	JNZ     smallnan
	VMAXPS  Y1, Y0, Y3
	VEXTRACTF128 $1, Y3, X4
	VMAXPS       X4, X3, X3
	VPERMILPS    $0x4E, X3, X4
	VMAXPS       X4, X3, X3
	VPERMILPS    $0xB1, X3, X4
	VMAXPS       X4, X3, X3
	VBROADCASTSS X3, Y3
	VCMPPS    $0, Y3, Y0, Y4
	VMOVMSKPS Y4, BX
	VCMPPS    $0, Y3, Y1, Y5
	VMOVMSKPS Y5, AX
	SHLQ      CX, AX
	ORQ       AX, BX
	BSFQ      BX, BX
	MOVL      BX, (DI)
	MOVL      (R12)(BX*4), AX
	MOVL      AX, (R13)
	MOVL      (DX)(BX*4), AX
	MOVL      AX, (R11)
	JMP       smallnext

smallnan:
	MOVL $-1, (DI)
	MOVB $0, ret+64(FP)

smallnext:
	ADDQ R9, SI
	ADDQ R9, DX
	ADDQ $4, DI
	ADDQ $4, R13
	ADDQ $4, R11
	DECQ 0(SP)
	JNZ  small
	JMP  done

row:
	VMOVUPS (SI), Y0
	VCMPPS  $3, Y0, Y0, Y7 // NaN lanes
	MOVQ    $32, AX

maxloop:
	CMPQ    AX, R8
	JGE     maxtail
	VMOVUPS (SI)(AX*1), Y1
	VMAXPS  Y1, Y0, Y0
	VCMPPS  $3, Y1, Y1, Y2
	VORPS   Y2, Y7, Y7
	ADDQ    $32, AX
	JMP     maxloop

maxtail:
	VMOVUPS (SI)(R8*1), Y1
	VMAXPS  Y1, Y0, Y0
	VCMPPS  $3, Y1, Y1, Y2
	VORPS   Y2, Y7, Y7
	VPTEST  Y7, Y7
	JNZ     nan

	// horizontal maximum in every lane
	VEXTRACTF128 $1, Y0, X1
	VMAXPS       X1, X0, X0
	VPERMILPS    $0x4E, X0, X1
	VMAXPS       X1, X0, X0
	VPERMILPS    $0xB1, X0, X1
	VMAXPS       X1, X0, X0
	VBROADCASTSS X0, Y0

	XORQ R10, R10 // equality mask
	XORQ AX, AX

findloop:
	CMPQ      AX, R8
	JGE       findtail
	VCMPPS    $0, (SI)(AX*1), Y0, Y1
	VMOVMSKPS Y1, BX
	MOVQ      AX, CX
	SHRQ      $2, CX
	SHLQ      CX, BX
	ORQ       BX, R10
	ADDQ      $32, AX
	JMP       findloop

findtail:
	VCMPPS    $0, (SI)(R8*1), Y0, Y1
	VMOVMSKPS Y1, BX
	MOVQ      R8, CX
	SHRQ      $2, CX
	SHLQ      CX, BX
	ORQ       BX, R10
	BSFQ      R10, BX
	MOVL      BX, (DI)
	MOVL      (R12)(BX*4), AX
	MOVL      AX, (R13)
	MOVL      (DX)(BX*4), AX
	MOVL      AX, (R11)
	JMP       next

nan:
	MOVL $-1, (DI)
	MOVB $0, ret+64(FP)

next:
	ADDQ R9, SI
	ADDQ R9, DX
	ADDQ $4, DI
	ADDQ $4, R13
	ADDQ $4, R11
	DECQ 0(SP)
	JNZ  row

done:
	VZEROUPPER
	RET

// func sigmoidSlopesAVX2(d, z *float64, n int, c *[18]float64) bool
//
// Four lanes of sigmoidSlope/expNonPositive at a time, with the same
// operations in the same order (no FMA): x = −|z|; t = x·c0 + c1;
// nf = t − c1; r = (x − nf·c2) − nf·c3; Horner p = c_i + r·p over c5…c17;
// e = bits(p) + bits(t)<<52; d ·= e/((1+e)·(1+e)). Lanes with !(x ≥ c4)
// keep d and clear the returned flag.
TEXT ·sigmoidSlopesAVX2(SB), NOSPLIT, $0-33
	MOVQ d+0(FP), DI
	MOVQ z+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ c+24(FP), DX
	VPCMPEQQ     Y15, Y15, Y15
	VPSLLQ       $63, Y15, Y14     // sign bit
	VBROADCASTSD 0(DX), Y13        // 1/ln2
	VBROADCASTSD 8(DX), Y12        // shifter
	VBROADCASTSD 16(DX), Y11       // ln2Hi
	VBROADCASTSD 24(DX), Y10       // ln2Lo
	VBROADCASTSD 32(DX), Y9        // −700
	VBROADCASTSD 136(DX), Y8       // 1 (the last coefficient)
	VMOVDQU      Y15, Y7           // AND of the lane masks
	SHRQ         $2, CX
	JZ           sdone

sloop:
	VMOVUPD (SI), Y0
	VORPD   Y14, Y0, Y0        // x = −|z|
	VCMPPD  $0x1D, Y9, Y0, Y1  // x ≥ −700 (ordered)
	VANDPD  Y1, Y7, Y7
	VMULPD  Y13, Y0, Y2
	VADDPD  Y12, Y2, Y2        // t
	VSUBPD  Y12, Y2, Y3        // nf
	VPSLLQ  $52, Y2, Y2        // bits(t)<<52
	VMULPD  Y11, Y3, Y4
	VSUBPD  Y4, Y0, Y4         // x − nf·ln2Hi
	VMULPD  Y10, Y3, Y3
	VSUBPD  Y3, Y4, Y4         // r
	// Horner: p = c5, then p = c_i + r·p for c6 … c17
	VBROADCASTSD 40(DX), Y5
	VBROADCASTSD 48(DX), Y6
	VMULPD       Y4, Y5, Y5
	VADDPD       Y6, Y5, Y5
	VBROADCASTSD 56(DX), Y6
	VMULPD       Y4, Y5, Y5
	VADDPD       Y6, Y5, Y5
	VBROADCASTSD 64(DX), Y6
	VMULPD       Y4, Y5, Y5
	VADDPD       Y6, Y5, Y5
	VBROADCASTSD 72(DX), Y6
	VMULPD       Y4, Y5, Y5
	VADDPD       Y6, Y5, Y5
	VBROADCASTSD 80(DX), Y6
	VMULPD       Y4, Y5, Y5
	VADDPD       Y6, Y5, Y5
	VBROADCASTSD 88(DX), Y6
	VMULPD       Y4, Y5, Y5
	VADDPD       Y6, Y5, Y5
	VBROADCASTSD 96(DX), Y6
	VMULPD       Y4, Y5, Y5
	VADDPD       Y6, Y5, Y5
	VBROADCASTSD 104(DX), Y6
	VMULPD       Y4, Y5, Y5
	VADDPD       Y6, Y5, Y5
	VBROADCASTSD 112(DX), Y6
	VMULPD       Y4, Y5, Y5
	VADDPD       Y6, Y5, Y5
	VBROADCASTSD 120(DX), Y6
	VMULPD       Y4, Y5, Y5
	VADDPD       Y6, Y5, Y5
	VBROADCASTSD 128(DX), Y6
	VMULPD       Y4, Y5, Y5
	VADDPD       Y6, Y5, Y5
	VMULPD       Y4, Y5, Y5
	VADDPD       Y8, Y5, Y5    // p
	VPADDQ       Y2, Y5, Y5    // e = 2^k·p
	VADDPD       Y8, Y5, Y6    // 1 + e
	VMULPD       Y6, Y6, Y6    // (1+e)·(1+e)
	VDIVPD       Y6, Y5, Y6    // e/((1+e)·(1+e))
	VMOVUPD      (DI), Y0
	VMULPD       Y6, Y0, Y6    // d·slope
	VBLENDVPD    Y1, Y6, Y0, Y0
	VMOVUPD      Y0, (DI)
	ADDQ         $32, SI
	ADDQ         $32, DI
	DECQ         CX
	JNZ          sloop

sdone:
	VMOVMSKPD Y7, AX
	CMPL      AX, $15
	SETEQ     ret+32(FP)
	VZEROUPPER
	RET

// func axpyAVX2(acc *float64, x *float32, n int, a float64)
//
// acc[i] += a·float64(x[i]) for i < n (n a multiple of 4), four lanes at a
// time: convert, multiply, then add to acc (acc the first operand, as the
// scalar acc += a·x), each operation rounded on its own (no FMA).
TEXT ·axpyAVX2(SB), NOSPLIT, $0-32
	MOVQ         acc+0(FP), DI
	MOVQ         x+8(FP), SI
	MOVQ         n+16(FP), CX
	VBROADCASTSD a+24(FP), Y1
	SHRQ         $2, CX
	JZ           axpydone

axpyloop:
	VCVTPS2PD (SI), Y0
	VMULPD    Y1, Y0, Y0
	VMOVUPD   (DI), Y2
	VADDPD    Y0, Y2, Y2
	VMOVUPD   Y2, (DI)
	ADDQ      $16, SI
	ADDQ      $32, DI
	DECQ      CX
	JNZ       axpyloop

axpydone:
	VZEROUPPER
	RET

// func cfRoutesAVX2(feat *int32, thr *float32, x *float32, off *int32, cf *int32, d int)
//
// Routes eight samples (row offsets off[0…7] into x) down counterfactual
// subtrees: cf holds d−1 rows of eight node indices; at step t = 1…d−1 every
// row j < d−t moves its eight nodes c one level down, to 2c + 1 + [x[off +
// feat[c]] ≥ thr[c] or unordered] (the scalar !(x < thr)), with three
// gathers. The rows of one step are independent, so their gathers overlap.
TEXT ·cfRoutesAVX2(SB), NOSPLIT, $0-48
	MOVQ feat+0(FP), SI
	MOVQ thr+8(FP), DX
	MOVQ x+16(FP), R8
	MOVQ off+24(FP), AX
	MOVQ cf+32(FP), DI
	MOVQ d+40(FP), CX
	VMOVDQU  (AX), Y8       // row offsets
	VPCMPEQD Y9, Y9, Y9     // −1 in every lane
	VPSRLD   $31, Y9, Y10   // 1 in every lane
	MOVQ     $1, BX         // t

tloop:
	CMPQ BX, CX
	JGE  rdone
	MOVQ CX, R9
	SUBQ BX, R9             // rows d − t
	MOVQ DI, R10

jloop:
	VMOVDQU    (R10), Y0
	VMOVDQA    Y9, Y1
	VPGATHERDD Y1, (SI)(Y0*4), Y2  // feat[c]
	VPADDD     Y8, Y2, Y2          // off + feat[c]
	VMOVDQA    Y9, Y3
	VGATHERDPS Y3, (R8)(Y2*4), Y4  // x
	VMOVDQA    Y9, Y5
	VGATHERDPS Y5, (DX)(Y0*4), Y6  // thr[c]
	VCMPPS     $5, Y6, Y4, Y7      // !(x < thr): −1 where true
	VPADDD     Y0, Y0, Y0
	VPSUBD     Y7, Y0, Y0
	VPADDD     Y10, Y0, Y0         // 2c + 1 + bit
	VMOVDQU    Y0, (R10)
	ADDQ       $32, R10
	DECQ       R9
	JNZ        jloop
	INCQ       BX
	JMP        tloop

rdone:
	VZEROUPPER
	RET

// func sigmoidSlopesAVX512(d, z *float64, n int, c *[18]float64) bool
//
// sigmoidSlopesAVX2 with eight lanes (n a multiple of 8): the same
// operations in the same order; the lanes outside the range keep d by a
// merge-masked multiply.
TEXT ·sigmoidSlopesAVX512(SB), NOSPLIT, $0-33
	MOVQ d+0(FP), DI
	MOVQ z+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ c+24(FP), DX
	VPTERNLOGQ   $0xff, Z15, Z15, Z15
	VPSLLQ       $63, Z15, Z14     // sign bit
	VBROADCASTSD 0(DX), Z13        // 1/ln2
	VBROADCASTSD 8(DX), Z12        // shifter
	VBROADCASTSD 16(DX), Z11       // ln2Hi
	VBROADCASTSD 24(DX), Z10       // ln2Lo
	VBROADCASTSD 32(DX), Z9        // −700
	VBROADCASTSD 136(DX), Z8       // 1 (the last coefficient)
	KXNORW       K7, K7, K7        // AND of the lane masks
	SHRQ         $3, CX
	JZ           zdone

zloop:
	VMOVUPD (SI), Z0
	VPORQ   Z14, Z0, Z0        // x = −|z|
	VCMPPD  $0x1D, Z9, Z0, K1  // x ≥ −700 (ordered)
	KANDW   K1, K7, K7
	VMULPD  Z13, Z0, Z2
	VADDPD  Z12, Z2, Z2        // t
	VSUBPD  Z12, Z2, Z3        // nf
	VPSLLQ  $52, Z2, Z2        // bits(t)<<52
	VMULPD  Z11, Z3, Z4
	VSUBPD  Z4, Z0, Z4         // x − nf·ln2Hi
	VMULPD  Z10, Z3, Z3
	VSUBPD  Z3, Z4, Z4         // r
	// Horner: p = c5, then p = c_i + r·p for c6 … c17
	VBROADCASTSD 40(DX), Z5
	VBROADCASTSD 48(DX), Z6
	VMULPD       Z4, Z5, Z5
	VADDPD       Z6, Z5, Z5
	VBROADCASTSD 56(DX), Z6
	VMULPD       Z4, Z5, Z5
	VADDPD       Z6, Z5, Z5
	VBROADCASTSD 64(DX), Z6
	VMULPD       Z4, Z5, Z5
	VADDPD       Z6, Z5, Z5
	VBROADCASTSD 72(DX), Z6
	VMULPD       Z4, Z5, Z5
	VADDPD       Z6, Z5, Z5
	VBROADCASTSD 80(DX), Z6
	VMULPD       Z4, Z5, Z5
	VADDPD       Z6, Z5, Z5
	VBROADCASTSD 88(DX), Z6
	VMULPD       Z4, Z5, Z5
	VADDPD       Z6, Z5, Z5
	VBROADCASTSD 96(DX), Z6
	VMULPD       Z4, Z5, Z5
	VADDPD       Z6, Z5, Z5
	VBROADCASTSD 104(DX), Z6
	VMULPD       Z4, Z5, Z5
	VADDPD       Z6, Z5, Z5
	VBROADCASTSD 112(DX), Z6
	VMULPD       Z4, Z5, Z5
	VADDPD       Z6, Z5, Z5
	VBROADCASTSD 120(DX), Z6
	VMULPD       Z4, Z5, Z5
	VADDPD       Z6, Z5, Z5
	VBROADCASTSD 128(DX), Z6
	VMULPD       Z4, Z5, Z5
	VADDPD       Z6, Z5, Z5
	VMULPD       Z4, Z5, Z5
	VADDPD       Z8, Z5, Z5    // p
	VPADDQ       Z2, Z5, Z5    // e = 2^k·p
	VADDPD       Z8, Z5, Z6    // 1 + e
	VMULPD       Z6, Z6, Z6    // (1+e)·(1+e)
	VDIVPD       Z6, Z5, Z6    // e/((1+e)·(1+e))
	VMOVUPD      (DI), Z0
	VMULPD       Z6, Z0, K1, Z0 // d·slope where in range
	VMOVUPD      Z0, (DI)
	ADDQ         $64, SI
	ADDQ         $64, DI
	DECQ         CX
	JNZ          zloop

zdone:
	KMOVW     K7, AX
	ANDL      $0xff, AX
	CMPL      AX, $0xff
	SETEQ     ret+32(FP)
	VZEROUPPER
	RET
