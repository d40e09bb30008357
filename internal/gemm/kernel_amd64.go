//go:build !purego

package gemm

import "golang.org/x/sys/cpu"

// The assembly micro-kernels (micro_*_amd64.s, written by gen_kernels.go).

//go:noescape
func microAVX2(kc int, a, b, c *float32, ldc int, alpha, beta float32, flags int)

//go:noescape
func microAVX512(kc int, a, b, c *float32, ldc int, alpha, beta float32, flags int)

// archKernels lists the assembly kernels this CPU runs, best first.
func archKernels() []*kernel {
	var ks []*kernel
	if cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL {
		ks = append(ks, &kernel{name: "avx512", mr: 12, nr: 32, kc: 256, mc: 384, micro: microAVX512, trans8: transpose8})
	}
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		ks = append(ks, &kernel{name: "avx2", mr: 6, nr: 16, kc: 256, mc: 384, micro: microAVX2, trans8: transpose8})
	}
	return ks
}

// transpose8 sets dst[p*ldd+r] = src[r*lds+p] for r < 8, p < kc&^7 (AVX).
//
//go:noescape
func transpose8(dst *float32, ldd int, src *float32, lds int, kc int)
