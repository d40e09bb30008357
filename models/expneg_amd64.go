//go:build !purego

package models

import "golang.org/x/sys/cpu"

//go:noescape
func expNegSubAVX2(dst, src *float32, n int, mx float32, sums *[8]float32)

var hasExpAVX2 = cpu.X86.HasAVX2

// expNegSubVec writes expNeg(src[i] − mx) to dst[i] for the first n8 = a
// multiple of 8 values with AVX2 (bit-identical to expNeg) and returns n8
// and the lane sums; n8 is 0 without AVX2.
func expNegSubVec(dst, src []float32, mx float32) (int, [8]float32) {
	var sums [8]float32
	n8 := len(src) &^ 7
	if !hasExpAVX2 || n8 == 0 {
		return 0, sums
	}
	_ = dst[n8-1]
	expNegSubAVX2(&dst[0], &src[0], n8, mx, &sums)
	return n8, sums
}

// ExpImpl names the code behind the softmax's exponentials: "avx2", or
// "go" on CPUs without AVX2.
func ExpImpl() string {
	if hasExpAVX2 {
		return "avx2"
	}
	return "go"
}
