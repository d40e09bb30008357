package models

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/nlpodyssey/spago/ag"
	"github.com/nlpodyssey/spago/mat"
)

// TestJointOpHandWorked pins JointOp on numbers worked by hand: one field
// (pairs bm25, dense), W = ones, so w = softmax(q·W) = (.5, .5) for any q.
// The query q = (1, 0); document 0's field vector is (.6, .8) with BM25 2,
// document 1's field is empty with BM25 4; InvTemp = 20.
//
//	score(0) = .5·2 + .5·20·(1·.6 + 0·.8) = 1 + 6 = 7
//	score(1) = .5·4 + .5·0                = 2
//
// With upstream gradient (1, 0): d/dw = (2, 12), Σ w·(d/dw) = 7, so
// d/dz = w ⊙ (d/dw − 7) = (−2.5, 2.5) and d/dW = q ⊗ d/dz =
// [[−2.5, 2.5], [0, 0]]; the softmax sends W·d/dz = 0 back to q; the dense
// score sends .5·20·(.6, .8) = (6, 8) to q and .5·20·q = (10, 0) to the
// field vector.
func TestJointOpHandWorked(t *testing.T) {
	fw, err := NewFieldWeights(FieldWeightsConfig{QueryDim: 2, Pairs: []string{"f/bm25", "f/dense"}})
	if err != nil {
		t.Fatal(err)
	}
	x := mat.NewDense[float32](mat.WithShape(2, 2), mat.WithBacking([]float32{1, 0, .6, .8}), mat.WithGrad(true))
	jb := &JointBatch{B: 1, Cols: 2, Fields: 1, Lex: []float32{2, 4}, Field: []int32{1, -1}, InvTemp: 20}
	out := fw.JointOp(x, jb)
	if got := mat.Data[float32](out.Value()); math.Abs(float64(got[0]-7)) > 1e-5 || math.Abs(float64(got[1]-2)) > 1e-5 {
		t.Fatalf("scores %v, want [7 2]", got)
	}
	out.AccGrad(mat.NewDense[float32](mat.WithShape(2), mat.WithBacking([]float32{1, 0})))
	if err := ag.Backward(out); err != nil {
		t.Fatal(err)
	}
	near := func(got, want []float32) bool {
		for i := range want {
			if math.Abs(float64(got[i]-want[i])) > 1e-5 {
				return false
			}
		}
		return true
	}
	if gW := mat.Data[float32](fw.W.Param.Grad()); !near(gW, []float32{-2.5, 2.5, 0, 0}) {
		t.Errorf("dW = %v, want [-2.5 2.5 0 0]", gW)
	}
	if gx := mat.Data[float32](x.Grad()); !near(gx, []float32{6, 8, 10, 0}) {
		t.Errorf("dx = %v, want [6 8 10 0]", gx)
	}
}

// TestJointGradients checks mFAR's joint objective end to end against
// central differences: the hashed encoder encodes the queries and every
// field of the documents, JointOp scores them, and the gradient of
// L = Σ gy ⊙ score with respect to W and the encoder's embeddings and
// projection matches.
func TestJointGradients(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	enc, _ := NewEncoder(EncoderConfig{Buckets: 48, EmbDim: 4, OutDim: 3}, r)
	queries := []string{"red wool scarf", "blue cotton"}
	fields := [][]string{ // document c: field 0, field 1 ("" is empty)
		{"wool scarf red", "brand acme"},
		{"cotton shirt", ""},
		{"blue scarf", "brand zeta"},
	}
	var texts []string
	texts = append(texts, queries...)
	jb := &JointBatch{B: 2, Cols: 3, Fields: 2, InvTemp: 1 / 0.5}
	for _, fs := range fields {
		for _, s := range fs {
			if s == "" {
				jb.Field = append(jb.Field, -1)
				continue
			}
			jb.Field = append(jb.Field, int32(len(texts)))
			texts = append(texts, s)
		}
	}
	for range 2 * 3 * 2 {
		jb.Lex = append(jb.Lex, float32(r.Float64()*3))
	}
	feats := make([][]uint32, len(texts))
	for i, s := range texts {
		feats[i] = enc.Features(s)
	}
	enc.FitIDF(feats)
	fw, _ := NewFieldWeights(FieldWeightsConfig{QueryDim: 3, Pairs: []string{"a/bm25", "a/dense", "b/bm25", "b/dense"}})
	for i, w := 0, fw.W.Data(); i < len(w); i++ {
		w[i] = float32(r.NormFloat64())
	}
	gy := []float32{1.2, -0.4, 0.7, -1, 0.3, 0.9}
	// The reference: encode, then weights and scores by the plain formula.
	loss := func() float64 {
		z := enc.Encode(feats)
		row := func(i int) []float32 { return z[i*3 : (i+1)*3] }
		var s float64
		for b := range 2 {
			w := fw.Weights(row(b))
			for c := range 3 {
				var sc float64
				for k := range 2 {
					var d float64
					if fr := jb.Field[c*2+k]; fr >= 0 {
						for j := range 3 {
							d += float64(row(b)[j]) * float64(row(int(fr))[j])
						}
						d *= float64(jb.InvTemp)
					}
					sc += float64(w[2*k])*float64(jb.Lex[(b*3+c)*2+k]) + float64(w[2*k+1])*d
				}
				s += sc * float64(gy[b*3+c])
			}
		}
		return s
	}
	out := fw.JointOp(enc.Op(feats), jb)
	got := mat.Data[float32](out.Value())
	var l float64
	for i, v := range got {
		l += float64(v) * float64(gy[i])
	}
	if ref := loss(); math.Abs(l-ref) > 1e-4*math.Max(1, math.Abs(ref)) {
		t.Fatalf("Σ gy·score = %.6g, reference %.6g", l, ref)
	}
	out.AccGrad(mat.NewDense[float32](mat.WithShape(len(gy)), mat.WithBacking(slices.Clone(gy))))
	if err := ag.Backward(out); err != nil {
		t.Fatal(err)
	}
	for _, p := range []NamedParam{fw.W, enc.Emb, enc.Proj} {
		an := slices.Clone(mat.Data[float32](p.Param.Grad()))
		d := p.Data()
		for j := range d {
			orig := d[j]
			d[j] = orig + 2e-3
			up := loss()
			d[j] = orig - 2e-3
			down := loss()
			d[j] = orig
			fd := (up - down) / 4e-3
			if math.Abs(fd-float64(an[j])) > 5e-3*math.Max(1, math.Abs(fd)) {
				t.Errorf("%s[%d]: analytic %.6g, finite difference %.6g", p.Name, j, an[j], fd)
			}
		}
	}
}
