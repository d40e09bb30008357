package models

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
)

// Qwen3Config holds the architecture numbers of a Qwen3 decoder, read from
// a Hugging Face config.json (never assumed).
type Qwen3Config struct {
	VocabSize        int     `json:"vocab_size"`
	HiddenSize       int     `json:"hidden_size"`
	IntermediateSize int     `json:"intermediate_size"`
	NumLayers        int     `json:"num_hidden_layers"`
	NumHeads         int     `json:"num_attention_heads"`
	NumKVHeads       int     `json:"num_key_value_heads"`
	HeadDim          int     `json:"head_dim"`
	RMSNormEps       float64 `json:"rms_norm_eps"`
	RopeTheta        float64 `json:"rope_theta"`
	TieEmbeddings    bool    `json:"tie_word_embeddings"`
	MaxPositions     int     `json:"max_position_embeddings"`
}

// Validate checks the numbers fit together.
func (c Qwen3Config) Validate() error {
	switch {
	case c.VocabSize <= 0, c.HiddenSize <= 0, c.IntermediateSize <= 0, c.NumLayers <= 0, c.NumHeads <= 0, c.NumKVHeads <= 0, c.HeadDim <= 0:
		return fmt.Errorf("models: Qwen3 config has a non-positive size: %+v", c)
	case c.NumHeads%c.NumKVHeads != 0:
		return fmt.Errorf("models: Qwen3 config: %d attention heads are not a multiple of %d key/value heads", c.NumHeads, c.NumKVHeads)
	case c.HeadDim%2 != 0:
		return fmt.Errorf("models: Qwen3 config: head_dim %d is odd (rotary embeddings rotate halves)", c.HeadDim)
	case c.RMSNormEps <= 0 || c.RopeTheta <= 0:
		return fmt.Errorf("models: Qwen3 config: rms_norm_eps %g, rope_theta %g", c.RMSNormEps, c.RopeTheta)
	}
	return nil
}

// Qwen3Layer is one decoder layer's weights, in Hugging Face's layouts
// (a linear layer's weight is [out, in]).
type Qwen3Layer struct {
	InputNorm, PostNorm []float32 // [H]
	Q, K, V, O          []float32 // [heads·hd, H], [kv·hd, H], [kv·hd, H], [H, heads·hd]
	QNorm, KNorm        []float32 // [hd]
	Gate, Up, Down      []float32 // [I, H], [I, H], [H, I]
}

// Qwen3 is a Qwen3 decoder's weights (float32).
type Qwen3 struct {
	Cfg    Qwen3Config
	Embed  []float32 // [V, H]
	Layers []Qwen3Layer
	Norm   []float32 // [H]
	LMHead []float32 // [V, H]; nil when tied to Embed
}

// Qwen3Shapes lists every weight of cfg with its Hugging Face name and
// shape, in loading order.
func Qwen3Shapes(cfg Qwen3Config) []NamedShape {
	H, I, hd := cfg.HiddenSize, cfg.IntermediateSize, cfg.HeadDim
	qd, kd := cfg.NumHeads*hd, cfg.NumKVHeads*hd
	out := []NamedShape{{"model.embed_tokens.weight", []int{cfg.VocabSize, H}}}
	for l := range cfg.NumLayers {
		p := fmt.Sprintf("model.layers.%d.", l)
		out = append(out,
			NamedShape{p + "input_layernorm.weight", []int{H}},
			NamedShape{p + "self_attn.q_proj.weight", []int{qd, H}},
			NamedShape{p + "self_attn.k_proj.weight", []int{kd, H}},
			NamedShape{p + "self_attn.v_proj.weight", []int{kd, H}},
			NamedShape{p + "self_attn.o_proj.weight", []int{H, qd}},
			NamedShape{p + "self_attn.q_norm.weight", []int{hd}},
			NamedShape{p + "self_attn.k_norm.weight", []int{hd}},
			NamedShape{p + "post_attention_layernorm.weight", []int{H}},
			NamedShape{p + "mlp.gate_proj.weight", []int{I, H}},
			NamedShape{p + "mlp.up_proj.weight", []int{I, H}},
			NamedShape{p + "mlp.down_proj.weight", []int{H, I}},
		)
	}
	out = append(out, NamedShape{"model.norm.weight", []int{H}})
	if !cfg.TieEmbeddings {
		out = append(out, NamedShape{"lm_head.weight", []int{cfg.VocabSize, H}})
	}
	return out
}

// NamedShape is a weight's name and shape.
type NamedShape struct {
	Name  string
	Shape []int
}

// NewQwen3 assembles a model from weights looked up by Hugging Face name;
// a missing or misshapen tensor is an error naming it.
func NewQwen3(cfg Qwen3Config, get func(name string) (shape []int, data []float32, ok bool)) (*Qwen3, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	// The sizes and the layer count are compared with the tensors first:
	// a config with absurd numbers is an error, not a huge shape list.
	if err := CheckShapes([]NamedShape{{"model.embed_tokens.weight", []int{cfg.VocabSize, cfg.HiddenSize}}}, get); err != nil {
		return nil, fmt.Errorf("models: Qwen3: %w", err)
	}
	layer := func(l int) bool {
		_, _, ok := get(fmt.Sprintf("model.layers.%d.input_layernorm.weight", l))
		return ok
	}
	if !layer(cfg.NumLayers-1) || layer(cfg.NumLayers) {
		return nil, fmt.Errorf("models: Qwen3: the config has %d layers, the checkpoint's model.layers.N.input_layernorm.weight tensors do not end at N = %d", cfg.NumLayers, cfg.NumLayers-1)
	}
	w := map[string][]float32{}
	for _, ns := range Qwen3Shapes(cfg) {
		shape, data, ok := get(ns.Name)
		if !ok {
			return nil, fmt.Errorf("models: Qwen3: tensor %s is missing", ns.Name)
		}
		if !sameShape(shape, ns.Shape) {
			return nil, fmt.Errorf("models: Qwen3: tensor %s has shape %v, the config implies %v", ns.Name, shape, ns.Shape)
		}
		w[ns.Name] = data
	}
	m := &Qwen3{Cfg: cfg, Embed: w["model.embed_tokens.weight"], Norm: w["model.norm.weight"], LMHead: w["lm_head.weight"]}
	for l := range cfg.NumLayers {
		p := fmt.Sprintf("model.layers.%d.", l)
		m.Layers = append(m.Layers, Qwen3Layer{
			InputNorm: w[p+"input_layernorm.weight"], PostNorm: w[p+"post_attention_layernorm.weight"],
			Q: w[p+"self_attn.q_proj.weight"], K: w[p+"self_attn.k_proj.weight"], V: w[p+"self_attn.v_proj.weight"], O: w[p+"self_attn.o_proj.weight"],
			QNorm: w[p+"self_attn.q_norm.weight"], KNorm: w[p+"self_attn.k_norm.weight"],
			Gate: w[p+"mlp.gate_proj.weight"], Up: w[p+"mlp.up_proj.weight"], Down: w[p+"mlp.down_proj.weight"],
		})
	}
	return m, nil
}

// linear computes y[T, out] = x[T, in] · W[out, in]ᵀ.
func linear(x []float32, T, in int, w []float32, out int) []float32 {
	y := make([]float32, T*out)
	blas32.Gemm(blas.NoTrans, blas.Trans, 1,
		blas32.General{Rows: T, Cols: in, Stride: in, Data: x},
		blas32.General{Rows: out, Cols: in, Stride: in, Data: w},
		0, blas32.General{Rows: T, Cols: out, Stride: out, Data: y})
	return y
}

// rmsNorm normalises each row of x (width n) in place: x / sqrt(mean(x²) +
// eps) · w, accumulated in float64.
func rmsNorm(x []float32, n int, w []float32, eps float64) {
	for r := 0; r < len(x); r += n {
		row := x[r : r+n]
		var ss float64
		for _, v := range row {
			ss += float64(v) * float64(v)
		}
		inv := float32(1 / math.Sqrt(ss/float64(n)+eps))
		for i := range row {
			row[i] = row[i] * inv * w[i]
		}
	}
}

// RopeTables returns cos and sin [T, hd] for positions 0..T-1, Hugging
// Face's layout (the half frequencies repeated).
func RopeTables(T, hd int, theta float64) (cos, sin []float32) {
	cos, sin = make([]float32, T*hd), make([]float32, T*hd)
	half := hd / 2
	for t := range T {
		for i := range half {
			f := float64(t) / math.Pow(theta, float64(2*i)/float64(hd))
			c, s := float32(math.Cos(f)), float32(math.Sin(f))
			cos[t*hd+i], cos[t*hd+half+i] = c, c
			sin[t*hd+i], sin[t*hd+half+i] = s, s
		}
	}
	return cos, sin
}

// rope rotates each head (width hd) of x [T, heads·hd] in place:
// x·cos + rotate_half(x)·sin, rotate_half(a, b) = (−b, a).
func rope(x []float32, T, heads, hd int, cos, sin []float32) {
	half := hd / 2
	tmp := make([]float32, hd)
	for t := range T {
		c, s := cos[t*hd:(t+1)*hd], sin[t*hd:(t+1)*hd]
		for h := range heads {
			v := x[(t*heads+h)*hd : (t*heads+h+1)*hd]
			for i := range half {
				tmp[i] = v[i]*c[i] - v[half+i]*s[i]
				tmp[half+i] = v[half+i]*c[half+i] + v[i]*s[half+i]
			}
			copy(v, tmp)
		}
	}
}

// linearFn computes linear layer ti (q, k, v, o, gate, up, down) of
// decoder layer li on x [T, in]; aux is what its backward needs (nil for
// the frozen base).
type linearFn func(li, ti int, x []float32, T int) (y, aux []float32)

// baseLinear is the base model's linear layer.
func (m *Qwen3) baseLinear(li, ti int, x []float32, T int) ([]float32, []float32) {
	s := m.linearShapes()[ti]
	return linear(x, T, s[1], m.Layers[li].weights()[ti], s[0]), nil
}

func (m *Qwen3) linearShapes() [][2]int {
	c := m.Cfg
	H, I, q, kv := c.HiddenSize, c.IntermediateSize, c.NumHeads*c.HeadDim, c.NumKVHeads*c.HeadDim
	return [][2]int{{q, H}, {kv, H}, {kv, H}, {H, q}, {I, H}, {I, H}, {H, I}}
}

func (L *Qwen3Layer) weights() [][]float32 {
	return [][]float32{L.Q, L.K, L.V, L.O, L.Gate, L.Up, L.Down}
}

// layerCache holds one layer's activations for the LoRA backward pass.
type layerCache struct {
	xin, h1, inv1, qpre, kpre, qinv, kinv, q, k, v []float32
	xa                                             [7][]float32 // each linear layer's aux
	att, xmid, h2, inv2, gate, up, act             []float32
	p                                              [][]float32 // [t·nh+head][s]
}

// embed checks ids and looks up their embeddings [T, H].
func (m *Qwen3) embed(ids []int) ([]float32, error) {
	c := m.Cfg
	if len(ids) == 0 {
		return nil, fmt.Errorf("models: Qwen3: empty sequence")
	}
	H := c.HiddenSize
	x := make([]float32, len(ids)*H)
	for t, id := range ids {
		if id < 0 || id >= c.VocabSize {
			return nil, fmt.Errorf("models: Qwen3: token id %d outside the vocabulary of %d", id, c.VocabSize)
		}
		copy(x[t*H:(t+1)*H], m.Embed[id*H:(id+1)*H])
	}
	return x, nil
}

// decode runs the decoder layers on embeddings x [T, H] in place (before
// the final norm), with lin for every linear layer; when caches is not nil
// it records each layer's activations there. The base forward and the
// LoRA forward are this one function.
func (m *Qwen3) decode(x []float32, T int, lin linearFn, caches []layerCache) {
	c := m.Cfg
	H, hd, nh, nkv := c.HiddenSize, c.HeadDim, c.NumHeads, c.NumKVHeads
	group := nh / nkv
	scale := float32(1 / math.Sqrt(float64(hd)))
	cos, sin := RopeTables(T, hd, c.RopeTheta)
	for li, L := range m.Layers {
		var cc layerCache
		if caches != nil {
			cc.xin = append([]float32(nil), x...)
		}
		h1, inv1 := normFwd(x, H, L.InputNorm, c.RMSNormEps)
		qpre, xaQ := lin(li, 0, h1, T)
		kpre, xaK := lin(li, 1, h1, T)
		v, xaV := lin(li, 2, h1, T)
		q, qinv := normFwd(qpre, hd, L.QNorm, c.RMSNormEps)
		k, kinv := normFwd(kpre, hd, L.KNorm, c.RMSNormEps)
		rope(q, T, nh, hd, cos, sin)
		rope(k, T, nkv, hd, cos, sin)
		att := make([]float32, T*nh*hd)
		var probs [][]float32
		if caches != nil {
			probs = make([][]float32, T*nh)
		}
		for head := range nh {
			kh := head / group
			for t := range T {
				qv := q[(t*nh+head)*hd : (t*nh+head+1)*hd]
				p := make([]float32, t+1) // causal: positions 0..t
				mx := float32(math.Inf(-1))
				for s := range p {
					kv := k[(s*nkv+kh)*hd : (s*nkv+kh+1)*hd]
					var d float32
					for i := range hd {
						d += qv[i] * kv[i]
					}
					p[s] = d * scale
					mx = max(mx, p[s])
				}
				var z float32
				for s := range p {
					p[s] = float32(math.Exp(float64(p[s] - mx)))
					z += p[s]
				}
				out := att[(t*nh+head)*hd : (t*nh+head+1)*hd]
				for s := range p {
					p[s] /= z
					vv := v[(s*nkv+kh)*hd : (s*nkv+kh+1)*hd]
					for i := range hd {
						out[i] += p[s] * vv[i]
					}
				}
				if probs != nil {
					probs[t*nh+head] = p
				}
			}
		}
		o, xaO := lin(li, 3, att, T)
		for i := range x {
			x[i] += o[i]
		}
		var xmid []float32
		if caches != nil {
			xmid = append([]float32(nil), x...)
		}
		h2, inv2 := normFwd(x, H, L.PostNorm, c.RMSNormEps)
		gate, xaG := lin(li, 4, h2, T)
		up, xaU := lin(li, 5, h2, T)
		act := make([]float32, len(gate))
		for i, g := range gate {
			act[i] = g / (1 + float32(math.Exp(float64(-g)))) * up[i] // SiLU(gate)·up
		}
		d, xaD := lin(li, 6, act, T)
		for i := range x {
			x[i] += d[i]
		}
		if caches != nil {
			cc.h1, cc.inv1, cc.qpre, cc.kpre, cc.qinv, cc.kinv, cc.q, cc.k, cc.v = h1, inv1, qpre, kpre, qinv, kinv, q, k, v
			cc.xa = [7][]float32{xaQ, xaK, xaV, xaO, xaG, xaU, xaD}
			cc.att, cc.xmid, cc.h2, cc.inv2, cc.gate, cc.up, cc.act, cc.p = att, xmid, h2, inv2, gate, up, act, probs
			caches[li] = cc
		}
	}
}

// Hidden runs the decoder on one sequence of token ids and returns the
// final normalised hidden states [T, H].
func (m *Qwen3) Hidden(ids []int) ([]float32, error) {
	x, err := m.embed(ids)
	if err != nil {
		return nil, err
	}
	m.decode(x, len(ids), m.baseLinear, nil)
	rmsNorm(x, m.Cfg.HiddenSize, m.Norm, m.Cfg.RMSNormEps)
	return x, nil
}

// head is the output embedding: lm_head, or the input embedding when tied.
func (m *Qwen3) head() []float32 {
	if m.LMHead != nil {
		return m.LMHead
	}
	return m.Embed
}

// Logits returns the logits of the given vocabulary rows at the last
// position (only those rows are computed).
func (m *Qwen3) Logits(ids []int, rows []int) ([]float32, error) {
	x, err := m.Hidden(ids)
	if err != nil {
		return nil, err
	}
	H := m.Cfg.HiddenSize
	last := x[(len(ids)-1)*H:]
	W := m.head()
	out := make([]float32, len(rows))
	for j, r := range rows {
		if r < 0 || r >= m.Cfg.VocabSize {
			return nil, fmt.Errorf("models: Qwen3: vocabulary row %d of %d", r, m.Cfg.VocabSize)
		}
		var s float32
		for i, v := range W[r*H : (r+1)*H] {
			s += v * last[i]
		}
		out[j] = s
	}
	return out, nil
}

// RerankScore is Qwen3-Reranker's score of a tokenized prompt:
// softmax([logit_no, logit_yes])[yes] at the last position.
func (m *Qwen3) RerankScore(ids []int, yes, no int) (float32, error) {
	l, err := m.Logits(ids, []int{no, yes})
	if err != nil {
		return 0, err
	}
	return float32(1 / (1 + math.Exp(float64(l[0]-l[1])))), nil
}

// RandomQwen3 draws a Qwen3 of cfg: every matrix N(0, std²), every norm
// weight 1 + N(0, normStd²) (exactly 1 when normStd is 0), drawn in
// Qwen3Shapes order. It is the base `strata init-qwen3` writes and the
// tests' model.
func RandomQwen3(cfg Qwen3Config, r *rand.Rand, std, normStd float64) (*Qwen3, error) {
	w := map[string][]float32{}
	shapes := map[string][]int{}
	for _, ns := range Qwen3Shapes(cfg) {
		n := 1
		for _, d := range ns.Shape {
			n *= d
		}
		d := make([]float32, n)
		for i := range d {
			switch {
			case len(ns.Shape) > 1:
				d[i] = float32(r.NormFloat64() * std)
			case normStd == 0:
				d[i] = 1
			default:
				d[i] = float32(r.NormFloat64()*normStd) + 1
			}
		}
		w[ns.Name], shapes[ns.Name] = d, ns.Shape
	}
	return NewQwen3(cfg, func(n string) ([]int, []float32, bool) { d, ok := w[n]; return shapes[n], d, ok })
}
