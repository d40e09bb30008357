package models

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/nlpodyssey/spago/mat"
)

// refFieldScores is the float64 reference of FieldWeights' scores.
func refFieldScores(W, q, s []float64, B, D, P, cols int) []float64 {
	out := make([]float64, B*cols)
	for b := range B {
		z := make([]float64, P)
		for d := range D {
			for j := range P {
				z[j] += q[b*D+d] * W[d*P+j]
			}
		}
		mx := math.Inf(-1)
		for _, v := range z {
			mx = math.Max(mx, v)
		}
		var sum float64
		for j := range z {
			z[j] = math.Exp(z[j] - mx)
			sum += z[j]
		}
		for c := range cols {
			for j := range P {
				out[b*cols+c] += z[j] / sum * s[(b*cols+c)*P+j]
			}
		}
	}
	return out
}

// TestFieldWeightsGradients checks the fused backward pass against central
// differences of L = Σ gy ⊙ score in float64, and that the initial weights
// are uniform.
func TestFieldWeightsGradients(t *testing.T) {
	const B, D, P, cols = 3, 5, 4, 6
	r := rand.New(rand.NewPCG(8, 9))
	m, err := NewFieldWeights(FieldWeightsConfig{QueryDim: D, Pairs: []string{"a/bm25", "a/dense", "b/bm25", "b/dense"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range m.Weights([]float32{0.3, -1, 2, 0, 0.5}) {
		if math.Abs(float64(w)-0.25) > 1e-7 {
			t.Fatalf("initial weights not uniform: %v", w)
		}
	}
	for i, w := 0, m.W.Data(); i < len(w); i++ {
		w[i] = float32(r.NormFloat64())
	}
	q := make([]float32, B*D)
	s := make([]float32, B*cols*P)
	gy := make([]float32, B*cols)
	for i := range q {
		q[i] = float32(r.NormFloat64())
	}
	for i := range s {
		s[i] = float32(r.Float64() * 10)
	}
	for i := range gy {
		gy[i] = float32(r.NormFloat64())
	}
	fn := &fieldFn{m: m, qs: q, s: s, cols: cols}
	out, _ := fn.Forward()
	if err := fn.Backward(grad(append([]float32(nil), gy...), B*cols)); err != nil {
		t.Fatal(err)
	}
	an := mat.Data[float32](m.W.Param.Grad())
	W, q64, s64, gy64 := f64(m.W.Data()), f64(q), f64(s), f64(gy)
	ref := refFieldScores(W, q64, s64, B, D, P, cols)
	for i, v := range mat.Data[float32](out) {
		if math.Abs(float64(v)-ref[i]) > 1e-5 {
			t.Fatalf("score %d = %v, reference %v", i, v, ref[i])
		}
	}
	loss := func() float64 {
		var l float64
		for i, v := range refFieldScores(W, q64, s64, B, D, P, cols) {
			l += v * gy64[i]
		}
		return l
	}
	const eps = 1e-6
	for j := range W {
		orig := W[j]
		W[j] = orig + eps
		up := loss()
		W[j] = orig - eps
		down := loss()
		W[j] = orig
		fd := (up - down) / (2 * eps)
		if math.Abs(fd-float64(an[j])) > 1e-4*math.Max(1, math.Abs(fd)) {
			t.Errorf("W[%d]: analytic %.7g, finite difference %.7g", j, an[j], fd)
		}
	}
}
