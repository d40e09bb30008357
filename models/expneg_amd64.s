//go:build !purego

#include "textflag.h"

// Constants of expNeg, each broadcast to 8 lanes.
DATA expmin<>+0(SB)/4, $0xc2aeac4f
DATA expmin<>+4(SB)/4, $0xc2aeac4f
DATA expmin<>+8(SB)/4, $0xc2aeac4f
DATA expmin<>+12(SB)/4, $0xc2aeac4f
DATA expmin<>+16(SB)/4, $0xc2aeac4f
DATA expmin<>+20(SB)/4, $0xc2aeac4f
DATA expmin<>+24(SB)/4, $0xc2aeac4f
DATA expmin<>+28(SB)/4, $0xc2aeac4f
GLOBL expmin<>(SB), RODATA|NOPTR, $32
DATA explog2e<>+0(SB)/4, $0x3fb8aa3b
DATA explog2e<>+4(SB)/4, $0x3fb8aa3b
DATA explog2e<>+8(SB)/4, $0x3fb8aa3b
DATA explog2e<>+12(SB)/4, $0x3fb8aa3b
DATA explog2e<>+16(SB)/4, $0x3fb8aa3b
DATA explog2e<>+20(SB)/4, $0x3fb8aa3b
DATA explog2e<>+24(SB)/4, $0x3fb8aa3b
DATA explog2e<>+28(SB)/4, $0x3fb8aa3b
GLOBL explog2e<>(SB), RODATA|NOPTR, $32
DATA expmagic<>+0(SB)/4, $0x4b400000
DATA expmagic<>+4(SB)/4, $0x4b400000
DATA expmagic<>+8(SB)/4, $0x4b400000
DATA expmagic<>+12(SB)/4, $0x4b400000
DATA expmagic<>+16(SB)/4, $0x4b400000
DATA expmagic<>+20(SB)/4, $0x4b400000
DATA expmagic<>+24(SB)/4, $0x4b400000
DATA expmagic<>+28(SB)/4, $0x4b400000
GLOBL expmagic<>(SB), RODATA|NOPTR, $32
DATA expc1<>+0(SB)/4, $0x3f318000
DATA expc1<>+4(SB)/4, $0x3f318000
DATA expc1<>+8(SB)/4, $0x3f318000
DATA expc1<>+12(SB)/4, $0x3f318000
DATA expc1<>+16(SB)/4, $0x3f318000
DATA expc1<>+20(SB)/4, $0x3f318000
DATA expc1<>+24(SB)/4, $0x3f318000
DATA expc1<>+28(SB)/4, $0x3f318000
GLOBL expc1<>(SB), RODATA|NOPTR, $32
DATA expc2<>+0(SB)/4, $0x395e8083
DATA expc2<>+4(SB)/4, $0x395e8083
DATA expc2<>+8(SB)/4, $0x395e8083
DATA expc2<>+12(SB)/4, $0x395e8083
DATA expc2<>+16(SB)/4, $0x395e8083
DATA expc2<>+20(SB)/4, $0x395e8083
DATA expc2<>+24(SB)/4, $0x395e8083
DATA expc2<>+28(SB)/4, $0x395e8083
GLOBL expc2<>(SB), RODATA|NOPTR, $32
DATA expp0<>+0(SB)/4, $0x39506967
DATA expp0<>+4(SB)/4, $0x39506967
DATA expp0<>+8(SB)/4, $0x39506967
DATA expp0<>+12(SB)/4, $0x39506967
DATA expp0<>+16(SB)/4, $0x39506967
DATA expp0<>+20(SB)/4, $0x39506967
DATA expp0<>+24(SB)/4, $0x39506967
DATA expp0<>+28(SB)/4, $0x39506967
GLOBL expp0<>(SB), RODATA|NOPTR, $32
DATA expp1<>+0(SB)/4, $0x3ab743ce
DATA expp1<>+4(SB)/4, $0x3ab743ce
DATA expp1<>+8(SB)/4, $0x3ab743ce
DATA expp1<>+12(SB)/4, $0x3ab743ce
DATA expp1<>+16(SB)/4, $0x3ab743ce
DATA expp1<>+20(SB)/4, $0x3ab743ce
DATA expp1<>+24(SB)/4, $0x3ab743ce
DATA expp1<>+28(SB)/4, $0x3ab743ce
GLOBL expp1<>(SB), RODATA|NOPTR, $32
DATA expp2<>+0(SB)/4, $0x3c088908
DATA expp2<>+4(SB)/4, $0x3c088908
DATA expp2<>+8(SB)/4, $0x3c088908
DATA expp2<>+12(SB)/4, $0x3c088908
DATA expp2<>+16(SB)/4, $0x3c088908
DATA expp2<>+20(SB)/4, $0x3c088908
DATA expp2<>+24(SB)/4, $0x3c088908
DATA expp2<>+28(SB)/4, $0x3c088908
GLOBL expp2<>(SB), RODATA|NOPTR, $32
DATA expp3<>+0(SB)/4, $0x3d2aa9c1
DATA expp3<>+4(SB)/4, $0x3d2aa9c1
DATA expp3<>+8(SB)/4, $0x3d2aa9c1
DATA expp3<>+12(SB)/4, $0x3d2aa9c1
DATA expp3<>+16(SB)/4, $0x3d2aa9c1
DATA expp3<>+20(SB)/4, $0x3d2aa9c1
DATA expp3<>+24(SB)/4, $0x3d2aa9c1
DATA expp3<>+28(SB)/4, $0x3d2aa9c1
GLOBL expp3<>(SB), RODATA|NOPTR, $32
DATA expp4<>+0(SB)/4, $0x3e2aaaaa
DATA expp4<>+4(SB)/4, $0x3e2aaaaa
DATA expp4<>+8(SB)/4, $0x3e2aaaaa
DATA expp4<>+12(SB)/4, $0x3e2aaaaa
DATA expp4<>+16(SB)/4, $0x3e2aaaaa
DATA expp4<>+20(SB)/4, $0x3e2aaaaa
DATA expp4<>+24(SB)/4, $0x3e2aaaaa
DATA expp4<>+28(SB)/4, $0x3e2aaaaa
GLOBL expp4<>(SB), RODATA|NOPTR, $32
DATA expp5<>+0(SB)/4, $0x3f000000
DATA expp5<>+4(SB)/4, $0x3f000000
DATA expp5<>+8(SB)/4, $0x3f000000
DATA expp5<>+12(SB)/4, $0x3f000000
DATA expp5<>+16(SB)/4, $0x3f000000
DATA expp5<>+20(SB)/4, $0x3f000000
DATA expp5<>+24(SB)/4, $0x3f000000
DATA expp5<>+28(SB)/4, $0x3f000000
GLOBL expp5<>(SB), RODATA|NOPTR, $32
DATA expone<>+0(SB)/4, $0x3f800000
DATA expone<>+4(SB)/4, $0x3f800000
DATA expone<>+8(SB)/4, $0x3f800000
DATA expone<>+12(SB)/4, $0x3f800000
DATA expone<>+16(SB)/4, $0x3f800000
DATA expone<>+20(SB)/4, $0x3f800000
DATA expone<>+24(SB)/4, $0x3f800000
DATA expone<>+28(SB)/4, $0x3f800000
GLOBL expone<>(SB), RODATA|NOPTR, $32
DATA exp127<>+0(SB)/4, $0x0000007f
DATA exp127<>+4(SB)/4, $0x0000007f
DATA exp127<>+8(SB)/4, $0x0000007f
DATA exp127<>+12(SB)/4, $0x0000007f
DATA exp127<>+16(SB)/4, $0x0000007f
DATA exp127<>+20(SB)/4, $0x0000007f
DATA exp127<>+24(SB)/4, $0x0000007f
DATA exp127<>+28(SB)/4, $0x0000007f
GLOBL exp127<>(SB), RODATA|NOPTR, $32

// func expNegSubAVX2(dst, src *float32, n int, mx float32, sums *[8]float32)
// dst[i] = expNeg(src[i] - mx) for i < n (n a multiple of 8), with the
// same float32 operations in the same order as expNeg (no FMA), and
// sums[l] = the sum of lane l of the results.
TEXT ·expNegSubAVX2(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSS mx+24(FP), Y15
	MOVQ sums+32(FP), DX
	VXORPS Y14, Y14, Y14
loop:
	CMPQ CX, $8
	JL done
	VMOVUPS (SI), Y0
	VSUBPS Y15, Y0, Y0
	VMAXPS expmin<>(SB), Y0, Y0
	VMULPS explog2e<>(SB), Y0, Y1
	VADDPS expmagic<>(SB), Y1, Y1
	VSUBPS expmagic<>(SB), Y1, Y2
	VPSUBD expmagic<>(SB), Y1, Y1
	VMULPS expc1<>(SB), Y2, Y3
	VSUBPS Y3, Y0, Y3
	VMULPS expc2<>(SB), Y2, Y5
	VADDPS Y5, Y3, Y3
	VMOVUPS expp0<>(SB), Y4
	VMULPS Y3, Y4, Y4
	VADDPS expp1<>(SB), Y4, Y4
	VMULPS Y3, Y4, Y4
	VADDPS expp2<>(SB), Y4, Y4
	VMULPS Y3, Y4, Y4
	VADDPS expp3<>(SB), Y4, Y4
	VMULPS Y3, Y4, Y4
	VADDPS expp4<>(SB), Y4, Y4
	VMULPS Y3, Y4, Y4
	VADDPS expp5<>(SB), Y4, Y4
	VMULPS Y3, Y4, Y4
	VMULPS Y3, Y4, Y4
	VADDPS Y3, Y4, Y4
	VADDPS expone<>(SB), Y4, Y4
	VPADDD exp127<>(SB), Y1, Y1
	VPSLLD $23, Y1, Y1
	VMULPS Y1, Y4, Y4
	VMOVUPS Y4, (DI)
	VADDPS Y4, Y14, Y14
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JMP loop
done:
	VMOVUPS Y14, (DX)
	VZEROUPPER
	RET
