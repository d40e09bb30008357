//go:build !purego

#include "textflag.h"

// func scanGEAVX2(row *float32, n int, thr float32) int
// The first j < n (n a multiple of 8) with !(row[j] < thr), or n.
TEXT ·scanGEAVX2(SB), NOSPLIT, $0-32
	MOVQ row+0(FP), SI
	MOVQ n+8(FP), CX
	VBROADCASTSS thr+16(FP), Y15
	XORQ AX, AX
loop:
	CMPQ AX, CX
	JGE notfound
	VMOVUPS (SI)(AX*4), Y0
	VCMPPS $5, Y15, Y0, Y1
	VMOVMSKPS Y1, DX
	TESTL DX, DX
	JNZ found
	ADDQ $8, AX
	JMP loop
found:
	BSFL DX, DX
	ADDQ DX, AX
	MOVQ AX, ret+24(FP)
	VZEROUPPER
	RET
notfound:
	MOVQ CX, ret+24(FP)
	VZEROUPPER
	RET
