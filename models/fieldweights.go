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

// FieldWeightsShapes lists the tensor of field weights of cfg (for
// CheckShapes before NewFieldWeights).
func FieldWeightsShapes(cfg FieldWeightsConfig) []NamedShape {
	return []NamedShape{{"mfar.w", []int{cfg.QueryDim, len(cfg.Pairs)}}}
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

// JointBatch is a training batch of mFAR with its encoder fine-tuned: B
// queries each scoring the same Cols documents, every document split into
// Fields fields with a BM25 and a dense scorer each (pairs f/bm25, f/dense
// in field order, as Cfg.Pairs).
type JointBatch struct {
	B, Cols, Fields int
	// Lex is BM25 of query b and document c in field f, at
	// (b·Cols + c)·Fields + f.
	Lex []float32
	// Field is the row of the vectors x holding document c's field f, at
	// c·Fields + f; −1 for an empty field (dense score 0). Rows 0..B−1 of
	// x are the queries.
	Field []int32
	// InvTemp scales the dense scores (1/temperature).
	InvTemp float32
}

// JointOp scores a batch whose query and field vectors x [B + n, QueryDim]
// come from an encoder being trained, so gradients flow into x as well as
// W: with q_b = x[b] and w_b = softmax(q_b·W),
//
//	score(b, c) = Σ_f w_b[2f]·Lex(b, c, f) + w_b[2f+1]·InvTemp·(q_b · x[Field(c, f)])
//
// The result is [B·Cols]. One fused operator; x is its only operand
// besides W, so an encoder feeding it has one consumer and its backward
// pass runs in a fixed order.
func (m *FieldWeights) JointOp(x mat.Tensor, jb *JointBatch) mat.Tensor {
	D, P := m.Cfg.QueryDim, len(m.Cfg.Pairs)
	sh := x.Value().Shape()
	rows := x.Value().Size() / max(1, D)
	switch {
	case P != 2*jb.Fields:
		panic(fmt.Sprintf("models: FieldWeights.JointOp: %d pairs for %d fields", P, jb.Fields))
	case len(sh) != 2 || sh[1] != D || rows < jb.B:
		panic(fmt.Sprintf("models: FieldWeights.JointOp: vectors of shape %v, want [>= %d, %d]", sh, jb.B, D))
	case len(jb.Lex) != jb.B*jb.Cols*jb.Fields || len(jb.Field) != jb.Cols*jb.Fields:
		panic(fmt.Sprintf("models: FieldWeights.JointOp: %d lexical scores and %d field rows for %d queries, %d documents, %d fields", len(jb.Lex), len(jb.Field), jb.B, jb.Cols, jb.Fields))
	}
	for _, r := range jb.Field {
		if int(r) >= rows || r < -1 || (r >= 0 && int(r) < jb.B) {
			panic(fmt.Sprintf("models: FieldWeights.JointOp: field row %d outside [%d, %d)", r, jb.B, rows))
		}
	}
	return ag.NewOperator(&jointFn{m: m, x: x, jb: jb}).Run()
}

type jointFn struct {
	m     *FieldWeights
	x     mat.Tensor
	jb    *JointBatch
	w     [][]float32
	dense []float32 // InvTemp·(q_b · x[Field(c, f)]) at (b·Cols + c)·Fields + f
}

func (f *jointFn) Operands() []mat.Tensor { return []mat.Tensor{f.m.W.Param, f.x} }

func (f *jointFn) row(x []float32, r int32) []float32 {
	D := f.m.Cfg.QueryDim
	return x[int(r)*D : (int(r)+1)*D]
}

func (f *jointFn) Forward() (mat.Tensor, error) {
	jb := f.jb
	x := mat.Data[float32](f.x.Value())
	out := make([]float32, jb.B*jb.Cols)
	f.w = make([][]float32, jb.B)
	f.dense = make([]float32, len(jb.Lex))
	for b := range jb.B {
		q := f.row(x, int32(b))
		w := f.m.Weights(q)
		f.w[b] = w
		for c := range jb.Cols {
			var s float32
			for k := range jb.Fields {
				i := (b*jb.Cols+c)*jb.Fields + k
				var d float32
				if r := jb.Field[c*jb.Fields+k]; r >= 0 {
					var dot float32
					for j, v := range f.row(x, r) {
						dot += q[j] * v
					}
					d = dot * jb.InvTemp
				}
				f.dense[i] = d
				s += w[2*k] * jb.Lex[i]
				s += w[2*k+1] * d
			}
			out[b*jb.Cols+c] = s
		}
	}
	return mat.NewDense[float32](mat.WithShape(len(out)), mat.WithBacking(out)), nil
}

func (f *jointFn) Backward(gy mat.Tensor) error {
	jb := f.jb
	D, P := f.m.Cfg.QueryDim, len(f.m.Cfg.Pairs)
	x := mat.Data[float32](f.x.Value())
	W := f.m.W.Data()
	g := mat.Data[float32](gy)
	gW := make([]float32, D*P)
	gx := make([]float32, len(x))
	gw := make([]float64, P)
	for b := range jb.B {
		q := f.row(x, int32(b))
		gq := gx[b*D : (b+1)*D]
		w := f.w[b]
		clear(gw)
		for c := range jb.Cols {
			gbc := g[b*jb.Cols+c]
			if gbc == 0 {
				continue
			}
			for k := range jb.Fields {
				i := (b*jb.Cols+c)*jb.Fields + k
				gw[2*k] += float64(gbc) * float64(jb.Lex[i])
				gw[2*k+1] += float64(gbc) * float64(f.dense[i])
				r := jb.Field[c*jb.Fields+k]
				if r < 0 {
					continue
				}
				// d score / d q = w·InvTemp·x_r, d score / d x_r = w·InvTemp·q.
				coef := gbc * w[2*k+1] * jb.InvTemp
				xr, gr := f.row(x, r), f.row(gx, r)
				for j := range D {
					gq[j] += coef * xr[j]
					gr[j] += coef * q[j]
				}
			}
		}
		// Softmax backward: gz_j = w_j (gw_j − Σ_k w_k gw_k); z = q·W.
		var dot float64
		for j, v := range w {
			dot += float64(v) * gw[j]
		}
		for j, v := range w {
			gz := float32(float64(v) * (gw[j] - dot))
			for d := range D {
				gW[d*P+j] += q[d] * gz
				gq[d] += W[d*P+j] * gz
			}
		}
	}
	f.m.W.Param.AccGrad(grad(gW, D, P))
	if f.x.RequiresGrad() {
		f.x.AccGrad(mat.NewDense[float32](mat.WithShape(f.x.Value().Shape()...), mat.WithBacking(gx)))
	}
	return nil
}
