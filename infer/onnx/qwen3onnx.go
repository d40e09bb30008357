package onnx

import (
	"fmt"
	"math"

	"github.com/advancedclimatesystems/gonnx/onnx"
	ort "github.com/yalue/onnxruntime_go"

	"github.com/strata-retrieval/strata/infer/onnxg"
	"github.com/strata-retrieval/strata/models"
)

// Qwen3Graph builds an ONNX graph (IR 11, opset 23) of a Qwen3 reranker:
// inputs input_ids and position_ids (int64 [batch, tokens], sequences right
// padded) and last_index (int64 [batch], each sequence's last real token);
// outputs logits (float [batch, 2]: the no and yes logits at last_index)
// and score (float [batch]: softmax(logits)[yes]). It uses the opset-23
// RMSNormalization, RotaryEmbedding (halves rotated, caches indexed by
// position_ids) and Attention (causal, grouped-query) operators. Right
// padding cannot change the real tokens' states: attention is causal.
func Qwen3Graph(m *models.Qwen3, yes, no int, maxPositions int) (*onnxg.Graph, error) {
	c := m.Cfg
	if yes < 0 || yes >= c.VocabSize || no < 0 || no >= c.VocabSize {
		return nil, fmt.Errorf("Qwen3 export: yes/no ids %d/%d outside the vocabulary of %d", yes, no, c.VocabSize)
	}
	if maxPositions <= 0 {
		maxPositions = c.MaxPositions
	}
	if maxPositions <= 0 {
		return nil, fmt.Errorf("Qwen3 export: no maximum position")
	}
	H, I, hd, nh, nkv := c.HiddenSize, c.IntermediateSize, c.HeadDim, c.NumHeads, c.NumKVHeads
	g := onnxg.New("qwen3-reranker")
	ids := g.Input("input_ids", onnx.TensorProto_INT64, "batch", "tokens")
	pos := g.Input("position_ids", onnx.TensorProto_INT64, "batch", "tokens")
	last := g.Input("last_index", onnx.TensorProto_INT64, "batch")
	eps := onnxg.Attr{Name: "epsilon", Value: float32(c.RMSNormEps)}
	axis := onnxg.Attr{Name: "axis", Value: -1}
	norm := func(x, name string, w []float32) string {
		return g.Op("RMSNormalization", []string{x, g.Float(name, w, int64(len(w)))}, axis, eps)
	}
	// transposed returns Wᵀ of a [out, in] weight as an initializer [in, out].
	transposed := func(name string, w []float32, out, in int) string {
		t := make([]float32, len(w))
		for o := range out {
			for i := range in {
				t[i*out+o] = w[o*in+i]
			}
		}
		return g.Float(name, t, int64(in), int64(out))
	}
	shape := func(name string, dims ...int64) string { return g.Int64(name, dims, int64(len(dims))) }
	// Rotary caches [maxPositions, hd/2].
	half := hd / 2
	cosC, sinC := make([]float32, maxPositions*half), make([]float32, maxPositions*half)
	for p := range maxPositions {
		for i := range half {
			f := float64(p) / math.Pow(c.RopeTheta, float64(2*i)/float64(hd))
			cosC[p*half+i], sinC[p*half+i] = float32(math.Cos(f)), float32(math.Sin(f))
		}
	}
	cosN := g.Float("rope_cos", cosC, int64(maxPositions), int64(half))
	sinN := g.Float("rope_sin", sinC, int64(maxPositions), int64(half))
	perm := onnxg.Attr{Name: "perm", Value: []int64{0, 2, 1, 3}}
	heads4 := func(x string, heads int, nm string) string { // [B,T,heads·hd] -> [B,T,heads,hd]
		return g.Op("Reshape", []string{x, shape(nm, 0, 0, int64(heads), int64(hd))})
	}
	x := g.Op("Gather", []string{g.Float("embed", m.Embed, int64(c.VocabSize), int64(H)), ids}, onnxg.Attr{Name: "axis", Value: 0})
	for l, L := range m.Layers {
		p := fmt.Sprintf("l%d_", l)
		h := norm(x, p+"input_norm", L.InputNorm)
		q := heads4(g.Op("MatMul", []string{h, transposed(p+"q", L.Q, nh*hd, H)}), nh, p+"q_shape")
		k := heads4(g.Op("MatMul", []string{h, transposed(p+"k", L.K, nkv*hd, H)}), nkv, p+"k_shape")
		v := heads4(g.Op("MatMul", []string{h, transposed(p+"v", L.V, nkv*hd, H)}), nkv, p+"v_shape")
		q = g.Op("Transpose", []string{norm(q, p+"q_norm", L.QNorm)}, perm)
		k = g.Op("Transpose", []string{norm(k, p+"k_norm", L.KNorm)}, perm)
		v = g.Op("Transpose", []string{v}, perm)
		q = g.Op("RotaryEmbedding", []string{q, cosN, sinN, pos}, onnxg.Attr{Name: "interleaved", Value: 0})
		k = g.Op("RotaryEmbedding", []string{k, cosN, sinN, pos}, onnxg.Attr{Name: "interleaved", Value: 0})
		att := g.Op("Attention", []string{q, k, v},
			onnxg.Attr{Name: "is_causal", Value: 1},
			onnxg.Attr{Name: "scale", Value: float32(1 / math.Sqrt(float64(hd)))})
		att = g.Op("Reshape", []string{g.Op("Transpose", []string{att}, perm), shape(p+"att_shape", 0, 0, int64(nh*hd))})
		x = g.Op("Add", []string{x, g.Op("MatMul", []string{att, transposed(p+"o", L.O, H, nh*hd)})})
		h = norm(x, p+"post_norm", L.PostNorm)
		gate := g.Op("MatMul", []string{h, transposed(p+"gate", L.Gate, I, H)})
		up := g.Op("MatMul", []string{h, transposed(p+"up", L.Up, I, H)})
		act := g.Op("Mul", []string{g.Op("Mul", []string{gate, g.Op("Sigmoid", []string{gate})}), up})
		x = g.Op("Add", []string{x, g.Op("MatMul", []string{act, transposed(p+"down", L.Down, H, I)})})
	}
	x = norm(x, "final_norm", m.Norm)
	// The hidden state at last_index: GatherElements along tokens with the
	// index broadcast to [B, 1, H].
	idx := g.Op("Unsqueeze", []string{last, g.Int64("unsq_axes", []int64{1, 2}, 2)})
	bdim := g.Op("Slice", []string{g.Op("Shape", []string{x}), g.Int64("s0", []int64{0}, 1), g.Int64("s1", []int64{1}, 1)})
	target := g.Op("Concat", []string{bdim, g.Int64("one_h", []int64{1, int64(H)}, 2)}, onnxg.Attr{Name: "axis", Value: 0})
	hl := g.Op("GatherElements", []string{x, g.Op("Expand", []string{idx, target})}, onnxg.Attr{Name: "axis", Value: 1})
	head := m.LMHead
	if head == nil {
		head = m.Embed
	}
	yn := make([]float32, 2*H) // [no; yes] rows
	copy(yn[:H], head[no*H:(no+1)*H])
	copy(yn[H:], head[yes*H:(yes+1)*H])
	logits := g.Op("Reshape", []string{g.Op("MatMul", []string{hl, transposed("yes_no", yn, 2, H)}), shape("logit_shape", 0, 2)})
	g.Rename(logits, "logits")
	sm := g.Op("Softmax", []string{logits}, onnxg.Attr{Name: "axis", Value: -1})
	score := g.Op("Gather", []string{sm, g.Int64("yes_col", []int64{1})}, onnxg.Attr{Name: "axis", Value: 1})
	g.Rename(score, "score")
	g.Output("logits", onnx.TensorProto_FLOAT, "batch", 2)
	g.Output("score", onnx.TensorProto_FLOAT, "batch")
	return g, nil
}

// RunQwen3Session runs an exported reranker on right-padded sequences and
// returns the data of each of the session's outputs (logits [B·2], score
// [B]), in the session's output order.
func RunQwen3Session(s *Session, seqs [][]int) ([][]float32, error) {
	B, T := len(seqs), 0
	for _, q := range seqs {
		T = max(T, len(q))
	}
	ids, pos, last := make([]int64, B*T), make([]int64, B*T), make([]int64, B)
	for b, q := range seqs {
		for t := range T {
			pos[b*T+t] = int64(t)
			if t < len(q) {
				ids[b*T+t] = int64(q[t])
			}
		}
		last[b] = int64(len(q) - 1)
	}
	a, err := ort.NewTensor(ort.NewShape(int64(B), int64(T)), ids)
	if err != nil {
		return nil, err
	}
	defer a.Destroy()
	p, err := ort.NewTensor(ort.NewShape(int64(B), int64(T)), pos)
	if err != nil {
		return nil, err
	}
	defer p.Destroy()
	l, err := ort.NewTensor(ort.NewShape(int64(B)), last)
	if err != nil {
		return nil, err
	}
	defer l.Destroy()
	outs, err := s.Run(a, p, l)
	if err != nil {
		return nil, err
	}
	res := make([][]float32, len(outs))
	for i, o := range outs {
		t, ok := o.(*ort.Tensor[float32])
		if !ok {
			o.Destroy()
			return nil, fmt.Errorf("output %s is not float32", s.Outputs[i])
		}
		res[i] = append([]float32(nil), t.GetData()...)
		o.Destroy()
	}
	return res, nil
}
