//go:build amd64 && !purego

#include "textflag.h"

// func weightSumsAVX512(p *sumArgs)
//
// weightSums for one output, eight samples at a time: per sample the sums
// over the trees in tree order, h_e = 0 + g·Λ[e,R_e], h̄ = Σ a″_e·h_e,
// r̄ = Σ a_e·r_e with r_e = (h_e − h̄)/M where M > 0 and tree e is kept,
// else 0 (the operations of weightSums, so the same bits).
TEXT ·weightSumsAVX512(SB), NOSPLIT, $0-8
	MOVQ         p+0(FP), DI
	MOVQ         96(DI), R8       // b
	MOVQ         104(DI), R9      // hi
	MOVQ         80(DI), R10      // B
	MOVQ         72(DI), R11      // E
	MOVQ         88(DI), R12      // L
	MOVQ         40(DI), R14      // Λ
	VPXORQ       Z27, Z27, Z27
	MOVQ         $0x3FF0000000000000, AX
	VPBROADCASTQ AX, Z28          // 1.0

group:
	CMPQ R8, R9
	JGE  done
	MOVQ R9, CX
	SUBQ R8, CX
	MOVL $0xFF, BX
	CMPQ CX, $8
	JGE  full
	MOVL $1, BX
	SHLL CX, BX
	DECL BX

full:
	KMOVW     BX, K1
	MOVQ      32(DI), SI
	VMOVUPS.Z (SI)(R8*4), K1, Y8
	VCVTPS2PD Y8, Z8              // g

	// h̄
	VPXORQ Z1, Z1, Z1
	MOVQ   0(DI), SI
	LEAQ   (SI)(R8*4), SI         // R of tree e
	MOVQ   16(DI), R13
	LEAQ   (R13)(R8*8), R13       // a″ of tree e
	MOVQ   R11, CX
	XORQ   AX, AX                 // e·L

hbar:
	VMOVDQU32.Z  (SI), K1, Y2
	VPBROADCASTD AX, Y3
	VPADDD       Y3, Y2, Y2
	KMOVW        K1, K2
	VXORPS       Y4, Y4, Y4
	VGATHERDPS   (R14)(Y2*4), K2, Y4
	VCVTPS2PD    Y4, Z4
	VMULPD       Z4, Z8, Z4
	VADDPD       Z4, Z27, Z4      // h
	VMOVUPD.Z    (R13), K1, Z5
	VMULPD       Z4, Z5, Z5
	VADDPD       Z5, Z1, Z1
	LEAQ         (SI)(R10*4), SI
	LEAQ         (R13)(R10*8), R13
	ADDQ         R12, AX
	DECQ         CX
	JNZ          hbar
	MOVQ         48(DI), SI
	VMOVUPD      Z1, K1, (SI)(R8*8)

	// M: 1 without a keep mask (written), else Forward's
	MOVQ      56(DI), SI
	MOVQ      24(DI), R15
	TESTQ     R15, R15
	JNZ       msum
	VMOVAPD   Z28, Z6
	VMOVUPD   Z6, K1, (SI)(R8*8)
	KMOVW     K1, K3
	JMP       rbar0

msum:
	VMOVUPD.Z (SI)(R8*8), K1, Z6
	ADDQ      R8, R15             // keep of tree e

rbar0:
	VPXORQ Z7, Z7, Z7
	MOVQ   0(DI), SI
	LEAQ   (SI)(R8*4), SI
	MOVQ   8(DI), R13
	LEAQ   (R13)(R8*8), R13       // a of tree e
	MOVQ   R11, CX
	XORQ   AX, AX

rbar:
	VMOVDQU32.Z  (SI), K1, Y2
	VPBROADCASTD AX, Y3
	VPADDD       Y3, Y2, Y2
	KMOVW        K1, K2
	VXORPS       Y4, Y4, Y4
	VGATHERDPS   (R14)(Y2*4), K2, Y4
	VCVTPS2PD    Y4, Z4
	VMULPD       Z4, Z8, Z4
	VADDPD       Z4, Z27, Z4      // h
	TESTQ        R15, R15
	JZ           allkept
	VMOVDQU8.Z   (R15), K1, X9
	VPTESTMB     X9, X9, K3
	ADDQ         R10, R15

allkept:
	VCMPPD    $0x1E, Z27, Z6, K3, K4 // M > 0, kept
	VSUBPD    Z1, Z4, Z9
	VDIVPD.Z  Z6, Z9, K4, Z9      // r
	VMOVUPD.Z (R13), K1, Z10
	VMULPD    Z9, Z10, Z10
	VADDPD    Z10, Z7, Z7
	LEAQ      (SI)(R10*4), SI
	LEAQ      (R13)(R10*8), R13
	ADDQ      R12, AX
	DECQ      CX
	JNZ       rbar
	MOVQ      64(DI), SI
	VMOVUPD   Z7, K1, (SI)(R8*8)

	ADDQ $8, R8
	JMP  group

done:
	VZEROUPPER
	RET
