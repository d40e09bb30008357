package models

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/strata-retrieval/strata/internal/gemm"
	"github.com/strata-retrieval/strata/internal/parallel"
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

// linear computes y[T, out] = x[T, in] · W[out, in]ᵀ (y overwritten).
func linear(gc gemm.Config, x []float32, T, in int, w []float32, out int, y []float32) {
	gc.Sgemm(gemm.NoTrans, gemm.Trans, T, out, in, 1, x, in, w, in, 0, y, out)
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
	return ropeTables(0, T, hd, theta)
}

// ropeTables is RopeTables for positions pos0..pos0+T−1.
func ropeTables(pos0, T, hd int, theta float64) (cos, sin []float32) {
	cos, sin = make([]float32, T*hd), make([]float32, T*hd)
	half := hd / 2
	for t := range T {
		for i := range half {
			f := float64(pos0+t) / math.Pow(theta, float64(2*i)/float64(hd))
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
// decoder layer li on x [T, in] into y [T, out], its GEMMs on gc's
// threads; aux is what its backward pass needs (nil for the frozen base).
type linearFn func(gc gemm.Config, li, ti int, x []float32, T int, y []float32) (aux []float32)

// baseLinear is the base model's linear layer.
func (m *Qwen3) baseLinear(gc gemm.Config, li, ti int, x []float32, T int, y []float32) []float32 {
	s := m.linearShapes()[ti]
	linear(gc, x, T, s[1], m.Layers[li].weights()[ti], s[0], y)
	return nil
}

func (m *Qwen3) linearShapes() [][2]int {
	c := m.Cfg
	H, I, q, kv := c.HiddenSize, c.IntermediateSize, c.NumHeads*c.HeadDim, c.NumKVHeads*c.HeadDim
	return [][2]int{{q, H}, {kv, H}, {kv, H}, {H, q}, {I, H}, {I, H}, {H, I}}
}

func (L *Qwen3Layer) weights() [][]float32 {
	return [][]float32{L.Q, L.K, L.V, L.O, L.Gate, L.Up, L.Down}
}

// layerCache holds one decoder layer's activations over T positions: the
// forward pass's buffers (one set serves every layer when nothing is
// kept) and, kept one per layer, what the LoRA backward pass reads.
type layerCache struct {
	xin, h1, inv1, qpre, kpre, qinv, kinv, q, k, v []float32
	xa                                             [7][]float32 // each linear layer's aux
	att, lse, o, xmid, h2, inv2, gate, up, act, d  []float32
}

// newLayerCache allocates the buffers of T positions; keep adds the
// layer's inputs (xin, xmid), which only the backward pass reads.
func newLayerCache(c Qwen3Config, T int, keep bool) *layerCache {
	H, I, nh, nkv := c.HiddenSize, c.IntermediateSize, c.NumHeads, c.NumKVHeads
	qd, kd := nh*c.HeadDim, nkv*c.HeadDim
	n := T * (4*H + 3*qd + 3*kd + 3*I + 2*nh + nkv + 2)
	if keep {
		n += 2 * T * H
	}
	buf := make([]float32, n)
	f := func(n int) []float32 {
		s := buf[:n:n]
		buf = buf[n:]
		return s
	}
	cc := &layerCache{h1: f(T * H), inv1: f(T), qpre: f(T * qd), kpre: f(T * kd), qinv: f(T * nh), kinv: f(T * nkv),
		q: f(T * qd), k: f(T * kd), v: f(T * kd), att: f(T * qd), lse: f(T * nh), o: f(T * H),
		h2: f(T * H), inv2: f(T), gate: f(T * I), up: f(T * I), act: f(T * I), d: f(T * H)}
	if keep {
		cc.xin, cc.xmid = f(T*H), f(T*H)
	}
	return cc
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

// pass is one run of the decoder layers: the linear layers (the base's
// or the LoRA-adapted ones) and the threads of its GEMMs and attention
// (gc.Threads; 0 is GOMAXPROCS). The base forward, generation and the
// LoRA forward are all this one code.
type pass struct {
	m   *Qwen3
	lin linearFn
	gc  gemm.Config
}

// decode runs the decoder layers in place on the embeddings x [T, H] of
// positions pos0..pos0+T−1 (before the final norm). With kv, every
// layer's keys and values are appended to it (it holds positions
// 0..pos0−1, which the new ones attend to); without, pos0 is 0. With
// caches (one per layer), each layer's activations are kept there for the
// backward pass; without, one set of buffers serves every layer.
func (p pass) decode(x []float32, pos0, T int, kv *KVCache, caches []*layerCache) {
	c := p.m.Cfg
	cos, sin := ropeTables(pos0, T, c.HeadDim, c.RopeTheta)
	var scratch *layerCache
	if caches == nil {
		scratch = newLayerCache(c, T, false)
	}
	for li := range p.m.Layers {
		cc := scratch
		if caches != nil {
			cc = newLayerCache(c, T, true)
			caches[li] = cc
		}
		p.attention(li, x, pos0, T, cos, sin, kv, cc)
		p.mlp(li, x, T, cc)
	}
}

// attention adds layer li's attention block to x.
func (p pass) attention(li int, x []float32, pos0, T int, cos, sin []float32, kv *KVCache, cc *layerCache) {
	c, L := p.m.Cfg, &p.m.Layers[li]
	H, hd, nh, nkv := c.HiddenSize, c.HeadDim, c.NumHeads, c.NumKVHeads
	if cc.xin != nil {
		copy(cc.xin, x)
	}
	normInto(cc.h1, cc.inv1, x, H, L.InputNorm, c.RMSNormEps)
	cc.xa[0] = p.lin(p.gc, li, 0, cc.h1, T, cc.qpre)
	cc.xa[1] = p.lin(p.gc, li, 1, cc.h1, T, cc.kpre)
	cc.xa[2] = p.lin(p.gc, li, 2, cc.h1, T, cc.v)
	normInto(cc.q, cc.qinv, cc.qpre, hd, L.QNorm, c.RMSNormEps)
	normInto(cc.k, cc.kinv, cc.kpre, hd, L.KNorm, c.RMSNormEps)
	rope(cc.q, T, nh, hd, cos, sin)
	rope(cc.k, T, nkv, hd, cos, sin)
	k, v := cc.k, cc.v
	if kv != nil {
		k, v = kv.store(li, pos0, cc.k, cc.v)
	}
	attend(p.gc.Threads, attnShape{T: T, pos0: pos0, nh: nh, nkv: nkv, hd: hd}, cc.q, k, v, cc.att, cc.lse)
	cc.xa[3] = p.lin(p.gc, li, 3, cc.att, T, cc.o)
	addTo(x, cc.o)
}

// mlp adds layer li's MLP block, down(SiLU(gate(h))·up(h)), to x.
func (p pass) mlp(li int, x []float32, T int, cc *layerCache) {
	c, L := p.m.Cfg, &p.m.Layers[li]
	if cc.xmid != nil {
		copy(cc.xmid, x)
	}
	normInto(cc.h2, cc.inv2, x, c.HiddenSize, L.PostNorm, c.RMSNormEps)
	cc.xa[4] = p.lin(p.gc, li, 4, cc.h2, T, cc.gate)
	cc.xa[5] = p.lin(p.gc, li, 5, cc.h2, T, cc.up)
	parallel.Chunks(context.Background(), len(cc.gate), 16384, p.gc.Threads, func(lo, hi int) {
		for i, g := range cc.gate[lo:hi] {
			cc.act[lo+i] = g / (1 + expf(-g)) * cc.up[lo+i]
		}
	})
	cc.xa[6] = p.lin(p.gc, li, 6, cc.act, T, cc.d)
	addTo(x, cc.d)
}

// addTo adds y to x.
func addTo(x, y []float32) {
	y = y[:len(x)]
	for i := range x {
		x[i] += y[i]
	}
}

// KVCache holds one sequence's keys and values at every layer, so that
// generation runs the decoder on each new token alone. Not safe for
// concurrent use.
type KVCache struct {
	m    *Qwen3
	k, v [][]float32 // [layer][position·kv·hd]
	n    int         // positions held
}

// NewKVCache returns an empty cache with room for capacity positions
// (it grows past them).
func (m *Qwen3) NewKVCache(capacity int) *KVCache {
	kd := m.Cfg.NumKVHeads * m.Cfg.HeadDim
	c := &KVCache{m: m, k: make([][]float32, len(m.Layers)), v: make([][]float32, len(m.Layers))}
	for li := range m.Layers {
		c.k[li], c.v[li] = make([]float32, 0, capacity*kd), make([]float32, 0, capacity*kd)
	}
	return c
}

// Len is the number of positions the cache holds.
func (c *KVCache) Len() int { return c.n }

// store writes layer li's keys and values of positions pos0.. and returns
// all of the layer's keys and values.
func (c *KVCache) store(li, pos0 int, k, v []float32) ([]float32, []float32) {
	kd := c.m.Cfg.NumKVHeads * c.m.Cfg.HeadDim
	c.k[li] = append(c.k[li][:pos0*kd], k...)
	c.v[li] = append(c.v[li][:pos0*kd], v...)
	return c.k[li], c.v[li]
}

// Append runs the decoder on ids as the positions after those the cache
// holds and returns their final normalised hidden states [len(ids), H].
func (c *KVCache) Append(ids []int) ([]float32, error) {
	m := c.m
	x, err := m.embed(ids)
	if err != nil {
		return nil, err
	}
	pass{m: m, lin: m.baseLinear}.decode(x, c.n, len(ids), c, nil)
	c.n += len(ids)
	rmsNorm(x, m.Cfg.HiddenSize, m.Norm, m.Cfg.RMSNormEps)
	return x, nil
}

// Generate continues prompt greedily (the arg-max of the logits) by up to
// n tokens, stopping after any token of stop. The prompt runs through the
// decoder once, then each new token alone against the KV cache.
func (m *Qwen3) Generate(prompt []int, n int, stop ...int) ([]int, error) {
	H, V := m.Cfg.HiddenSize, m.Cfg.VocabSize
	c := m.NewKVCache(len(prompt) + n)
	x, err := c.Append(prompt)
	logits := make([]float32, V)
	var out []int
	for err == nil && len(out) < n {
		linear(gemm.Config{}, x[len(x)-H:], 1, H, m.head(), V, logits)
		next := argmax(logits)
		out = append(out, next)
		if slices.Contains(stop, next) || len(out) == n {
			break
		}
		x, err = c.Append([]int{next})
	}
	return out, err
}

func argmax(x []float32) int {
	best := 0
	for i, v := range x {
		if v > x[best] {
			best = i
		}
	}
	return best
}

// Hidden runs the decoder on one sequence of token ids and returns the
// final normalised hidden states [T, H].
func (m *Qwen3) Hidden(ids []int) ([]float32, error) {
	return m.NewKVCache(len(ids)).Append(ids)
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
