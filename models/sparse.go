package models

import (
	"fmt"
	"math"
)

// SparseLinear scores a bag of hashed binary features: s = Σ w[f] over the
// feature indices f (repeats count). It is the planner's anchor scorer.
type SparseLinear struct {
	Dim int
	W   NamedParam // [Dim]
}

// NewSparseLinear returns a zero-initialised scorer over dim features.
func NewSparseLinear(dim int, name string) (*SparseLinear, error) {
	if dim <= 0 {
		return nil, fmt.Errorf("models: sparse linear dimension %d must be positive", dim)
	}
	return &SparseLinear{Dim: dim, W: paramOf(SparseLinearShapes(dim, name)[0])}, nil
}

// SparseLinearShapes lists the parameter of a scorer over dim features
// (for CheckShapes before NewSparseLinear).
func SparseLinearShapes(dim int, name string) []NamedShape {
	return []NamedShape{{name, []int{dim}}}
}

// Params lists the scorer's parameters.
func (m *SparseLinear) Params() []NamedParam { return []NamedParam{m.W} }

// Score returns Σ w[f].
func (m *SparseLinear) Score(feats []uint32) float32 {
	w := m.W.Data()
	var s float32
	for _, f := range feats {
		if int(f) >= len(w) {
			panic(fmt.Sprintf("models: SparseLinear.Score: feature %d >= dimension %d", f, len(w)))
		}
		s += w[f]
	}
	return s
}

// ListwiseGrad adds to g the gradient of the listwise softmax loss
// −log softmax(s)[gold] over candidates with features feats, and returns
// the loss. g has the scorer's dimension.
func (m *SparseLinear) ListwiseGrad(feats [][]uint32, gold int, g []float32) float64 {
	if gold < 0 || gold >= len(feats) {
		panic(fmt.Sprintf("models: SparseLinear.ListwiseGrad: gold %d of %d candidates", gold, len(feats)))
	}
	s := make([]float64, len(feats))
	mx := math.Inf(-1)
	for i, f := range feats {
		s[i] = float64(m.Score(f))
		mx = math.Max(mx, s[i])
	}
	var z float64
	for i := range s {
		s[i] = math.Exp(s[i] - mx)
		z += s[i]
	}
	for i, f := range feats {
		p := s[i] / z
		if i == gold {
			p--
		}
		for _, k := range f {
			g[k] += float32(p)
		}
	}
	return -math.Log(s[gold] / z)
}

// ListwiseGradSet is ListwiseGrad with several gold candidates: the
// target is uniform over gold, the loss −Σ_g log softmax(s)[g] / |gold|.
func (m *SparseLinear) ListwiseGradSet(feats [][]uint32, gold []int, g []float32) float64 {
	if len(gold) == 0 {
		panic("models: SparseLinear.ListwiseGradSet: no gold candidate")
	}
	s := make([]float64, len(feats))
	mx := math.Inf(-1)
	for i, f := range feats {
		s[i] = float64(m.Score(f))
		mx = math.Max(mx, s[i])
	}
	var z float64
	for i := range s {
		s[i] = math.Exp(s[i] - mx)
		z += s[i]
	}
	t := make([]float64, len(feats))
	for _, i := range gold {
		if i < 0 || i >= len(feats) {
			panic(fmt.Sprintf("models: SparseLinear.ListwiseGradSet: gold %d of %d candidates", i, len(feats)))
		}
		t[i] += 1 / float64(len(gold))
	}
	var loss float64
	for i, f := range feats {
		p := s[i] / z
		if t[i] > 0 {
			loss -= t[i] * math.Log(p)
		}
		for _, k := range f {
			g[k] += float32(p - t[i])
		}
	}
	return loss
}
