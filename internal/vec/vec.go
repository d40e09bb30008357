package vec

import "math"

// Relu sets every negative value of h to +0, and −0 to +0, without a branch
// (the signs of a fresh layer's values are random, and a mispredicted branch
// per value cost more than the GEMM that made them).
func Relu(h []float32) {
	n := reluVec(h)
	reluGo(h[n:])
}

func reluGo(h []float32) {
	for i, v := range h {
		u := math.Float32bits(v)
		h[i] = math.Float32frombits(u &^ uint32(int32(u)>>31))
	}
}

// ReluBackward zeroes g[i] where h[i] is +0; h is Relu's output, so its
// sign bits are clear (a positive NaN keeps its gradient, as h > 0 would
// not, but as the branch h <= 0 did). g must be at least as long as h.
func ReluBackward(g, h []float32) {
	g = g[:len(h)]
	n := reluBackwardVec(g, h)
	reluBackwardGo(g[n:], h[n:])
}

func reluBackwardGo(g, h []float32) {
	g = g[:len(h)]
	for i, v := range h {
		u := math.Float32bits(v)
		g[i] = math.Float32frombits(math.Float32bits(g[i]) & uint32(int32(-u)>>31))
	}
}

// AddTo adds src to dst value by value; dst must be at least as long.
func AddTo(dst, src []float32) {
	dst = dst[:len(src)]
	n := addToVec(dst, src)
	for i := n; i < len(src); i++ {
		dst[i] += src[i]
	}
}

// ColSums returns the sums of the columns of a [rows, cols] row-major
// matrix, adding the rows in order.
func ColSums(x []float32, rows, cols int) []float32 {
	out := make([]float32, cols)
	for r := 0; r < rows; r++ {
		AddTo(out, x[r*cols:(r+1)*cols])
	}
	return out
}

// Adam holds one AdamW update's constants, each already rounded to
// float32: B1 = β1, C1 = 1 − β1, B2 = β2, C2 = 1 − β2, Eps = ε, Lambda = λ
// (used only when Decay), Alpha = the step size.
type Adam struct {
	B1, C1, B2, C2, Eps, Lambda, Alpha float32
	Decay                              bool
}

// AdamStep updates w, its first moments m1 and second moments m2 from the
// gradient g (all of one length):
//
//	m1 = m1·B1 + g·C1
//	m2 = m2·B2 + (g·g)·C2
//	w  = w − (m1 / (√m2 + Eps) [+ w·Lambda])·Alpha
//
// every product rounded to float32 before it is added (no fused
// multiply-add), which is spago's optimizers/adam operation by operation.
func AdamStep(w, g, m1, m2 []float32, k Adam) {
	g, m1, m2 = g[:len(w)], m1[:len(w)], m2[:len(w)]
	n := adamVec(w, g, m1, m2, &k)
	adamGo(w[n:], g[n:], m1[n:], m2[n:], k)
}

func adamGo(w, g, m1, m2 []float32, k Adam) {
	g, m1, m2 = g[:len(w)], m1[:len(w)], m2[:len(w)]
	for i, gi := range g {
		a := float32(m1[i]*k.B1) + float32(gi*k.C1)
		b := float32(m2[i]*k.B2) + float32(float32(gi*gi)*k.C2)
		m1[i], m2[i] = a, b
		u := a / (float32(math.Sqrt(float64(b))) + k.Eps)
		if k.Decay {
			u += float32(w[i] * k.Lambda)
		}
		w[i] -= float32(u * k.Alpha)
	}
}
