#include "textflag.h"

// func gatherAVX512(n int, src *float32, idx *int32, dst *float32)
// dst[t] = src[idx[t]] for t < n (n a positive multiple of 16).
TEXT ·gatherAVX512(SB), NOSPLIT, $0-32
	MOVQ n+0(FP), CX
	MOVQ src+8(FP), SI
	MOVQ idx+16(FP), DX
	MOVQ dst+24(FP), DI
gather16:
	VMOVDQU32 0(DX), Z1
	KXNORW K1, K1, K1
	VGATHERDPS (SI)(Z1*4), K1, Z0
	VMOVUPS Z0, 0(DI)
	ADDQ $64, DX
	ADDQ $64, DI
	SUBQ $16, CX
	JNZ gather16
	VZEROUPPER
	RET

// func scatterAVX512(n int, src *float32, idx *int32, dst *float32)
// dst[idx[t]] = src[t] for t < n (n a positive multiple of 16).
TEXT ·scatterAVX512(SB), NOSPLIT, $0-32
	MOVQ n+0(FP), CX
	MOVQ src+8(FP), SI
	MOVQ idx+16(FP), DX
	MOVQ dst+24(FP), DI
scatter16:
	VMOVDQU32 0(DX), Z1
	VMOVUPS 0(SI), Z0
	KXNORW K1, K1, K1
	VSCATTERDPS Z0, K1, (DI)(Z1*4)
	ADDQ $64, DX
	ADDQ $64, SI
	SUBQ $16, CX
	JNZ scatter16
	VZEROUPPER
	RET
