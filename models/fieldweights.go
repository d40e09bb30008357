package models

import (
	"fmt"
	"math"

	"github.com/nlpodyssey/spago/ag"
	"github.com/nlpodyssey/spago/mat"
)

// FieldWeightsConfig sizes mFAR's adaptive field weighting.
type FieldWeightsConfig struct {
	QueryDim int      `json:"query_dim"`
	Pairs    []string `json:"pairs"` // (field, scorer) names, e.g. "title/bm25"
}

// FieldWeights is mFAR's query-conditioned mixture: w = softmax(q·W) over
// the (field, scorer) pairs, W of shape [QueryDim, pairs] initialised to
// ones (uniform weights), no bias; a document's score is Σ_j w_j s_j.
type FieldWeights struct {
	Cfg FieldWeightsConfig
	W   NamedParam
}

// NewFieldWeights returns the weighting at its initialisation.
func NewFieldWeights(cfg FieldWeightsConfig) (*FieldWeights, error) {
	if cfg.QueryDim <= 0 || len(cfg.Pairs) == 0 {
		return nil, fmt.Errorf("models: bad field weights config (query dim %d, %d pairs)", cfg.QueryDim, len(cfg.Pairs))
	}
	P := len(cfg.Pairs)
	m := &FieldWeights{Cfg: cfg, W: NamedParam{"mfar.w", []int{cfg.QueryDim, P}, newParam(cfg.QueryDim, P)}}
	for i, w := 0, m.W.Data(); i < len(w); i++ {
		w[i] = 1
	}
	return m, nil
}

// Params lists the parameters.
func (m *FieldWeights) Params() []NamedParam { return []NamedParam{m.W} }

// Weights returns softmax(q·W).
func (m *FieldWeights) Weights(q []float32) []float32 {
	P := len(m.Cfg.Pairs)
	W := m.W.Data()
	z := make([]float64, P)
	for d, qd := range q {
		if qd == 0 {
			continue
		}
		row := W[d*P : (d+1)*P]
		for j := range P {
			z[j] += float64(qd) * float64(row[j])
		}
	}
	mx := math.Inf(-1)
	for _, v := range z {
		mx = max(mx, v)
	}
	var s float64
	for j := range z {
		z[j] = math.Exp(z[j] - mx)
		s += z[j]
	}
	w := make([]float32, P)
	for j := range z {
		w[j] = float32(z[j] / s)
	}
	return w
}

// Score is Σ_j w_j s_j for one document's pair scores s.
func Score(w, s []float32) float32 {
	var t float32
	for j, v := range s {
		t += w[j] * v
	}
	return t
}

// Op scores documents for training: qs holds B query vectors (row-major
// [B, QueryDim]), s the pair scores of each query's cols documents (row-major
// [B·cols, pairs]); the result is [B·cols].
func (m *FieldWeights) Op(qs []float32, s []float32, cols int) mat.Tensor {
	D, P := m.Cfg.QueryDim, len(m.Cfg.Pairs)
	if len(qs)%D != 0 || len(s) != len(qs)/D*cols*P {
		panic(fmt.Sprintf("models: FieldWeights.Op: %d query values, %d scores, %d cols", len(qs), len(s), cols))
	}
	return ag.NewOperator(&fieldFn{m: m, qs: qs, s: s, cols: cols}).Run()
}

type fieldFn struct {
	m    *FieldWeights
	qs   []float32
	s    []float32
	cols int
	w    [][]float32
}

func (f *fieldFn) Operands() []mat.Tensor { return []mat.Tensor{f.m.W.Param} }

func (f *fieldFn) Forward() (mat.Tensor, error) {
	D, P := f.m.Cfg.QueryDim, len(f.m.Cfg.Pairs)
	B := len(f.qs) / D
	out := make([]float32, B*f.cols)
	f.w = make([][]float32, B)
	for b := range B {
		w := f.m.Weights(f.qs[b*D : (b+1)*D])
		f.w[b] = w
		for c := range f.cols {
			out[b*f.cols+c] = Score(w, f.s[(b*f.cols+c)*P:(b*f.cols+c+1)*P])
		}
	}
	return mat.NewDense[float32](mat.WithShape(len(out)), mat.WithBacking(out)), nil
}

func (f *fieldFn) Backward(gy mat.Tensor) error {
	D, P := f.m.Cfg.QueryDim, len(f.m.Cfg.Pairs)
	B := len(f.qs) / D
	g := mat.Data[float32](gy)
	gW := make([]float32, D*P)
	gw := make([]float64, P)
	gz := make([]float64, P)
	for b := range B {
		clear(gw)
		for c := range f.cols {
			gy := float64(g[b*f.cols+c])
			if gy == 0 {
				continue
			}
			for j, v := range f.s[(b*f.cols+c)*P : (b*f.cols+c+1)*P] {
				gw[j] += gy * float64(v)
			}
		}
		// Softmax backward: gz_j = w_j (gw_j − Σ_k w_k gw_k).
		var dot float64
		for j, w := range f.w[b] {
			dot += float64(w) * gw[j]
		}
		for j, w := range f.w[b] {
			gz[j] = float64(w) * (gw[j] - dot)
		}
		for d, qd := range f.qs[b*D : (b+1)*D] {
			if qd == 0 {
				continue
			}
			row := gW[d*P : (d+1)*P]
			for j := range P {
				row[j] += float32(float64(qd) * gz[j])
			}
		}
	}
	f.m.W.Param.AccGrad(grad(gW, D, P))
	return nil
}
