//go:build !purego

#include "textflag.h"

// func reluAVX2(h *float32, n int); n is a positive multiple of 8.
// h = h AND NOT (h >> 31, arithmetic): the sign decides, as reluGo.
TEXT ·reluAVX2(SB), NOSPLIT, $0-16
	MOVQ h+0(FP), DI
	MOVQ n+8(FP), CX
	SHRQ $3, CX
relu_loop:
	VMOVUPS (DI), Y0
	VPSRAD  $31, Y0, Y1
	VPANDN  Y0, Y1, Y0
	VMOVUPS Y0, (DI)
	ADDQ    $32, DI
	DECQ    CX
	JNZ     relu_loop
	VZEROUPPER
	RET

// func reluBackwardAVX2(grad, h *float32, n int); n is a positive multiple of 8.
// g = g AND ((0 − h) >> 31, arithmetic): kept where h's bits are non-zero.
TEXT ·reluBackwardAVX2(SB), NOSPLIT, $0-24
	MOVQ   grad+0(FP), DI
	MOVQ   h+8(FP), SI
	MOVQ   n+16(FP), CX
	SHRQ   $3, CX
	VPXOR  Y7, Y7, Y7
rb_loop:
	VMOVUPS (SI), Y0
	VPSUBD  Y0, Y7, Y1
	VPSRAD  $31, Y1, Y1
	VPAND   (DI), Y1, Y1
	VMOVUPS Y1, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	DECQ    CX
	JNZ     rb_loop
	VZEROUPPER
	RET

// func addToAVX2(dst, src *float32, n int); n is a positive multiple of 8.
TEXT ·addToAVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $3, CX
add_loop:
	VMOVUPS (DI), Y0
	VADDPS  (SI), Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	DECQ    CX
	JNZ     add_loop
	VZEROUPPER
	RET

// func adamAVX2(w, grad, m1, m2 *float32, n int, k *Adam); n is a positive
// multiple of 8. Adam's fields: B1 0, C1 4, B2 8, C2 12, Eps 16, Lambda 20,
// Alpha 24, Decay 28. The same operations in the same order as adamGo.
TEXT ·adamAVX2(SB), NOSPLIT, $0-48
	MOVQ w+0(FP), DI
	MOVQ grad+8(FP), SI
	MOVQ m1+16(FP), R8
	MOVQ m2+24(FP), R9
	MOVQ n+32(FP), CX
	MOVQ k+40(FP), AX
	SHRQ $3, CX
	VBROADCASTSS 0(AX), Y8   // B1
	VBROADCASTSS 4(AX), Y9   // C1
	VBROADCASTSS 8(AX), Y10  // B2
	VBROADCASTSS 12(AX), Y11 // C2
	VBROADCASTSS 16(AX), Y12 // Eps
	VBROADCASTSS 20(AX), Y13 // Lambda
	VBROADCASTSS 24(AX), Y14 // Alpha
	MOVBLZX 28(AX), DX       // Decay
adam_loop:
	VMOVUPS (SI), Y0         // g
	VMULPS  (R8), Y8, Y1     // m1·B1
	VMULPS  Y0, Y9, Y2       // g·C1
	VADDPS  Y2, Y1, Y1       // a
	VMOVUPS Y1, (R8)
	VMULPS  Y0, Y0, Y3       // g·g
	VMULPS  Y11, Y3, Y3      // ·C2
	VMULPS  (R9), Y10, Y4    // m2·B2
	VADDPS  Y3, Y4, Y4       // b
	VMOVUPS Y4, (R9)
	VSQRTPS Y4, Y5
	VADDPS  Y12, Y5, Y5      // √b + Eps
	VDIVPS  Y5, Y1, Y6       // a / (√b + Eps)
	VMOVUPS (DI), Y7         // w
	TESTQ   DX, DX
	JZ      adam_nodecay
	VMULPS  Y13, Y7, Y2      // w·Lambda
	VADDPS  Y2, Y6, Y6
adam_nodecay:
	VMULPS  Y14, Y6, Y6      // ·Alpha
	VSUBPS  Y6, Y7, Y7       // w − u
	VMOVUPS Y7, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	ADDQ    $32, R8
	ADDQ    $32, R9
	DECQ    CX
	JNZ     adam_loop
	VZEROUPPER
	RET
