package models

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/nlpodyssey/spago/mat"
)

func TestEncoderFeatures(t *testing.T) {
	e, err := NewEncoder(EncoderConfig{Buckets: 1000, EmbDim: 4, OutDim: 3}, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	a, b := e.Features("Red shoe"), e.Features("red SHOE!")
	if !slices.Equal(a, b) {
		t.Errorf("case and punctuation change features: %v vs %v", a, b)
	}
	// "red": 1 word + "<red>" has 3 trigrams and 2 four-grams; "shoe": 1 word
	// + 1 bigram + "<shoe>" 4 trigrams + 3 four-grams: 5 + 9 = 15... counted below.
	if len(a) != (1+3+2)+(1+1+4+3) {
		t.Errorf("%d features for %q", len(a), "Red shoe")
	}
	if len(e.Features("")) != 0 {
		t.Error("empty text has features")
	}
	z := e.EncodeTexts([]string{"red shoe", ""})
	var s float64
	for _, v := range z[:3] {
		s += float64(v) * float64(v)
	}
	if math.Abs(s-1) > 1e-6 || z[3] != 0 || z[4] != 0 || z[5] != 0 {
		t.Errorf("outputs %v: first row norm² %v, empty row must be zero", z, s)
	}
}

// TestEncoderGradients checks the fused backward pass against central
// differences of L = Σ gy ⊙ z.
func TestEncoderGradients(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	e, _ := NewEncoder(EncoderConfig{Buckets: 40, EmbDim: 5, OutDim: 4}, r)
	feats := [][]uint32{e.Features("alpha beta"), e.Features("gamma"), e.Features("beta gamma delta")}
	e.FitIDF(feats)
	gy := make([]float32, 3*4)
	for i := range gy {
		gy[i] = float32(r.NormFloat64())
	}
	fn := &encoderFn{e: e, feats: feats}
	fn.Forward()
	if err := fn.Backward(grad(slices.Clone(gy), 3, 4)); err != nil {
		t.Fatal(err)
	}
	loss := func() float64 {
		z := e.Encode(feats)
		var s float64
		for i := range z {
			s += float64(z[i]) * float64(gy[i])
		}
		return s
	}
	if e.Weight.Param.HasGrad() {
		t.Error("the fixed pooling weights received a gradient")
	}
	for _, p := range []NamedParam{e.Emb, e.Proj} {
		an := slices.Clone(mat.Data[float32](p.Param.Grad()))
		d := p.Data()
		for j := range d {
			orig := d[j]
			d[j] = orig + 1e-2
			up := loss()
			d[j] = orig - 1e-2
			down := loss()
			d[j] = orig
			fd := (up - down) / 2e-2
			if math.Abs(fd-float64(an[j])) > 3e-3*math.Max(1, math.Abs(fd)) {
				t.Errorf("%s[%d]: analytic %.6g, finite difference %.6g", p.Name, j, an[j], fd)
			}
		}
	}
}
