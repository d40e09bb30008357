package models

import (
	"fmt"
	"math"
	"strings"

	"github.com/strata-retrieval/strata/internal/gemm"
)

// BertConfig is the part of a Hugging Face BERT-family config.json the
// encoder reads (BertModel and the sentence encoders built on it:
// contriever, MiniLM, E5, BGE, ...).
type BertConfig struct {
	ModelType    string  `json:"model_type"`
	VocabSize    int     `json:"vocab_size"`
	HiddenSize   int     `json:"hidden_size"`
	NumLayers    int     `json:"num_hidden_layers"`
	NumHeads     int     `json:"num_attention_heads"`
	Intermediate int     `json:"intermediate_size"`
	HiddenAct    string  `json:"hidden_act"`
	MaxPositions int     `json:"max_position_embeddings"`
	TypeVocab    int     `json:"type_vocab_size"`
	LayerNormEps float64 `json:"layer_norm_eps"`
	// PositionEmbeddingType must be "absolute" (or empty): relative and
	// rotary variants are other architectures.
	PositionEmbeddingType string `json:"position_embedding_type"`
}

// Validate reports a config the encoder cannot run, naming the field.
func (c BertConfig) Validate() error {
	switch {
	case c.ModelType != "" && c.ModelType != "bert":
		return fmt.Errorf("model_type %q: only \"bert\" is supported", c.ModelType)
	case c.HiddenAct != "gelu" && c.HiddenAct != "":
		return fmt.Errorf("hidden_act %q: only \"gelu\" (exact, erf) is supported", c.HiddenAct)
	case c.PositionEmbeddingType != "" && c.PositionEmbeddingType != "absolute":
		return fmt.Errorf("position_embedding_type %q: only \"absolute\" is supported", c.PositionEmbeddingType)
	case c.VocabSize <= 0 || c.HiddenSize <= 0 || c.NumLayers <= 0 || c.NumHeads <= 0 || c.Intermediate <= 0 || c.MaxPositions <= 0:
		return fmt.Errorf("vocab_size, hidden_size, num_hidden_layers, num_attention_heads, intermediate_size and max_position_embeddings must be positive (got %d, %d, %d, %d, %d, %d)",
			c.VocabSize, c.HiddenSize, c.NumLayers, c.NumHeads, c.Intermediate, c.MaxPositions)
	case c.HiddenSize%c.NumHeads != 0:
		return fmt.Errorf("hidden_size %d is not a multiple of num_attention_heads %d", c.HiddenSize, c.NumHeads)
	case c.VocabSize > 1<<22 || c.HiddenSize > 1<<14 || c.NumLayers > 256 || c.Intermediate > 1<<16 || c.MaxPositions > 1<<16 || c.TypeVocab > 1<<10:
		return fmt.Errorf("sizes past any BERT-family model (vocab %d, hidden %d, layers %d, intermediate %d, positions %d, types %d)",
			c.VocabSize, c.HiddenSize, c.NumLayers, c.Intermediate, c.MaxPositions, c.TypeVocab)
	}
	return nil
}

// BertShapes are the tensors a BertModel checkpoint holds, by Hugging
// Face's names (without the "bert." prefix some checkpoints add).
func BertShapes(c BertConfig) []NamedShape {
	H, I := c.HiddenSize, c.Intermediate
	types := max(c.TypeVocab, 1)
	out := []NamedShape{
		{"embeddings.word_embeddings.weight", []int{c.VocabSize, H}},
		{"embeddings.position_embeddings.weight", []int{c.MaxPositions, H}},
		{"embeddings.token_type_embeddings.weight", []int{types, H}},
		{"embeddings.LayerNorm.weight", []int{H}},
		{"embeddings.LayerNorm.bias", []int{H}},
	}
	for l := range c.NumLayers {
		p := fmt.Sprintf("encoder.layer.%d.", l)
		for _, n := range []string{"attention.self.query", "attention.self.key", "attention.self.value", "attention.output.dense"} {
			out = append(out, NamedShape{p + n + ".weight", []int{H, H}}, NamedShape{p + n + ".bias", []int{H}})
		}
		out = append(out,
			NamedShape{p + "attention.output.LayerNorm.weight", []int{H}}, NamedShape{p + "attention.output.LayerNorm.bias", []int{H}},
			NamedShape{p + "intermediate.dense.weight", []int{I, H}}, NamedShape{p + "intermediate.dense.bias", []int{I}},
			NamedShape{p + "output.dense.weight", []int{H, I}}, NamedShape{p + "output.dense.bias", []int{H}},
			NamedShape{p + "output.LayerNorm.weight", []int{H}}, NamedShape{p + "output.LayerNorm.bias", []int{H}})
	}
	return out
}

// Bert is a BERT-family encoder's forward pass on the native kernels:
// word, position and token-type embeddings, LayerNorm, then post-LayerNorm
// blocks of bidirectional multi-head attention and a GELU feed-forward
// layer. It is read-only after NewBert and safe for concurrent use.
type Bert struct {
	Cfg BertConfig
	w   map[string][]float32
}

// NewBert builds the encoder from a checkpoint's tensors; get looks a
// tensor up by name and may find it with or without a "bert." prefix.
func NewBert(cfg BertConfig, get func(name string) (shape []int, data []float32, ok bool)) (*Bert, error) {
	if cfg.LayerNormEps == 0 {
		cfg.LayerNormEps = 1e-12
	}
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("models: BERT config: %w", err)
	}
	prefixed := func(name string) ([]int, []float32, bool) {
		if s, d, ok := get(name); ok {
			return s, d, ok
		}
		return get("bert." + name)
	}
	if err := CheckShapes(BertShapes(cfg)[:1], prefixed); err != nil {
		return nil, fmt.Errorf("BERT: %w", err)
	}
	if _, _, ok := prefixed(fmt.Sprintf("encoder.layer.%d.output.LayerNorm.weight", cfg.NumLayers)); ok {
		return nil, fmt.Errorf("models: BERT: the config has %d layers, the checkpoint more", cfg.NumLayers)
	}
	shapes := BertShapes(cfg)
	if err := CheckShapes(shapes, prefixed); err != nil {
		return nil, fmt.Errorf("BERT: %w", err)
	}
	b := &Bert{Cfg: cfg, w: map[string][]float32{}}
	for _, ns := range shapes {
		_, d, _ := prefixed(ns.Name)
		b.w[ns.Name] = d
	}
	return b, nil
}

// Weight is a tensor of the model by its Hugging Face name (BertShapes),
// nil when it has none; callers must not modify it.
func (b *Bert) Weight(name string) []float32 { return b.w[name] }

// Hidden returns the last hidden states [T, hidden] of one sequence of
// token ids (types nil: all type 0). Ids and types are checked against
// the vocabulary and the positions.
func (b *Bert) Hidden(ids, types []int) ([]float32, error) {
	c := b.Cfg
	T, H := len(ids), c.HiddenSize
	if T == 0 || T > c.MaxPositions {
		return nil, fmt.Errorf("models: BERT: %d tokens (1 to %d)", T, c.MaxPositions)
	}
	if types != nil && len(types) != T {
		return nil, fmt.Errorf("models: BERT: %d token types for %d tokens", len(types), T)
	}
	x := make([]float32, T*H)
	we, pe, te := b.w["embeddings.word_embeddings.weight"], b.w["embeddings.position_embeddings.weight"], b.w["embeddings.token_type_embeddings.weight"]
	for t, id := range ids {
		if id < 0 || id >= c.VocabSize {
			return nil, fmt.Errorf("models: BERT: token id %d outside the vocabulary (%d)", id, c.VocabSize)
		}
		ty := 0
		if types != nil {
			ty = types[t]
		}
		if ty < 0 || ty*H >= len(te) {
			return nil, fmt.Errorf("models: BERT: token type %d outside type_vocab_size %d", ty, len(te)/H)
		}
		row := x[t*H : (t+1)*H]
		for j := range H {
			row[j] = we[id*H+j] + pe[t*H+j] + te[ty*H+j]
		}
	}
	layerNorm(x, H, b.w["embeddings.LayerNorm.weight"], b.w["embeddings.LayerNorm.bias"], c.LayerNormEps)
	var gc gemm.Config
	nh, hd := c.NumHeads, H/c.NumHeads
	q, k, v := make([]float32, T*H), make([]float32, T*H), make([]float32, T*H)
	att, tmp := make([]float32, T*H), make([]float32, T*H)
	inter := make([]float32, T*c.Intermediate)
	scores := make([]float32, T*T)
	scale := float32(1 / math.Sqrt(float64(hd)))
	for l := range c.NumLayers {
		p := fmt.Sprintf("encoder.layer.%d.", l)
		b.dense(gc, x, T, H, p+"attention.self.query", H, q)
		b.dense(gc, x, T, H, p+"attention.self.key", H, k)
		b.dense(gc, x, T, H, p+"attention.self.value", H, v)
		for h := range nh {
			// scores = Q_h K_h^T / sqrt(hd), softmax by row, att_h = P V_h.
			gc.Sgemm(gemm.NoTrans, gemm.Trans, T, T, hd, scale, q[h*hd:], H, k[h*hd:], H, 0, scores, T)
			for i := range T {
				softmax(scores[i*T : (i+1)*T])
			}
			gc.Sgemm(gemm.NoTrans, gemm.NoTrans, T, hd, T, 1, scores, T, v[h*hd:], H, 0, att[h*hd:], H)
		}
		b.dense(gc, att, T, H, p+"attention.output.dense", H, tmp)
		addTo(tmp, x)
		layerNorm(tmp, H, b.w[p+"attention.output.LayerNorm.weight"], b.w[p+"attention.output.LayerNorm.bias"], c.LayerNormEps)
		copy(x, tmp)
		b.dense(gc, x, T, H, p+"intermediate.dense", c.Intermediate, inter)
		for i, u := range inter {
			inter[i] = float32(0.5 * float64(u) * (1 + math.Erf(float64(u)/math.Sqrt2)))
		}
		b.dense(gc, inter, T, c.Intermediate, p+"output.dense", H, tmp)
		addTo(tmp, x)
		layerNorm(tmp, H, b.w[p+"output.LayerNorm.weight"], b.w[p+"output.LayerNorm.bias"], c.LayerNormEps)
		copy(x, tmp)
	}
	return x, nil
}

// dense is y = x·Wᵀ + bias for the linear layer name ([out, in] weights).
func (b *Bert) dense(gc gemm.Config, x []float32, T, in int, name string, out int, y []float32) {
	linear(gc, x, T, in, b.w[name+".weight"], out, y)
	bias := b.w[name+".bias"]
	for t := range T {
		row := y[t*out : (t+1)*out]
		for j := range row {
			row[j] += bias[j]
		}
	}
}

// layerNorm normalises each row of x (width n) in place to zero mean and
// unit variance (eps inside the square root, accumulated in float64),
// then scales by w and shifts by bias.
func layerNorm(x []float32, n int, w, bias []float32, eps float64) {
	for r := 0; r+n <= len(x); r += n {
		row := x[r : r+n]
		var mean float64
		for _, v := range row {
			mean += float64(v)
		}
		mean /= float64(n)
		var vr float64
		for _, v := range row {
			d := float64(v) - mean
			vr += d * d
		}
		inv := 1 / math.Sqrt(vr/float64(n)+eps)
		for j, v := range row {
			row[j] = float32((float64(v)-mean)*inv)*w[j] + bias[j]
		}
	}
}

// softmax normalises a row in place (max subtracted, float64 sum).
func softmax(row []float32) {
	mx := row[0]
	for _, v := range row[1:] {
		mx = max(mx, v)
	}
	var s float64
	for i, v := range row {
		e := math.Exp(float64(v - mx))
		row[i] = float32(e)
		s += e
	}
	for i := range row {
		row[i] = float32(float64(row[i]) / s)
	}
}

// Pooling is how a sentence encoder turns hidden states into one vector.
type Pooling string

// The poolings sentence-transformers' 1_Pooling/config.json can ask for
// that the encoder supports.
const (
	PoolMean Pooling = "mean"
	PoolCLS  Pooling = "cls"
)

// ParsePooling reads a pooling name ("mean", "cls"; case-insensitive).
func ParsePooling(s string) (Pooling, error) {
	switch p := Pooling(strings.ToLower(s)); p {
	case PoolMean, PoolCLS:
		return p, nil
	}
	return "", fmt.Errorf("pooling %q: want mean or cls", s)
}

// Pool returns the sentence vector of hidden states [T, n]: their mean or
// the first ([CLS]) row.
func Pool(hidden []float32, n int, p Pooling) []float32 {
	out := make([]float32, n)
	if p == PoolCLS {
		copy(out, hidden[:n])
		return out
	}
	T := len(hidden) / n
	sum := make([]float64, n)
	for t := range T {
		for j := range n {
			sum[j] += float64(hidden[t*n+j])
		}
	}
	for j := range n {
		out[j] = float32(sum[j] / float64(T))
	}
	return out
}
