//go:build !purego

package vec

import "golang.org/x/sys/cpu"

var hasAVX2 = cpu.X86.HasAVX2

//go:noescape
func reluAVX2(h *float32, n int)

//go:noescape
func reluBackwardAVX2(grad, h *float32, n int)

//go:noescape
func addToAVX2(dst, src *float32, n int)

//go:noescape
func adamAVX2(w, grad, m1, m2 *float32, n int, k *Adam)

// Each xxxVec runs the first multiple of 8 values with AVX2 and returns how
// many it did (0 without AVX2); the callers finish the rest in Go.

func reluVec(h []float32) int {
	n := len(h) &^ 7
	if !hasAVX2 || n == 0 {
		return 0
	}
	reluAVX2(&h[0], n)
	return n
}

func reluBackwardVec(g, h []float32) int {
	n := len(h) &^ 7
	if !hasAVX2 || n == 0 {
		return 0
	}
	_ = g[n-1]
	reluBackwardAVX2(&g[0], &h[0], n)
	return n
}

func addToVec(dst, src []float32) int {
	n := len(src) &^ 7
	if !hasAVX2 || n == 0 {
		return 0
	}
	_ = dst[n-1]
	addToAVX2(&dst[0], &src[0], n)
	return n
}

func adamVec(w, g, m1, m2 []float32, k *Adam) int {
	n := len(w) &^ 7
	if !hasAVX2 || n == 0 {
		return 0
	}
	_, _, _ = g[n-1], m1[n-1], m2[n-1]
	adamAVX2(&w[0], &g[0], &m1[0], &m2[0], n, k)
	return n
}

// Impl names the vector code in use: "avx2", or "go" on CPUs without AVX2.
func Impl() string {
	if hasAVX2 {
		return "avx2"
	}
	return "go"
}
