package models

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strings"
	"unicode"

	"github.com/nlpodyssey/spago/ag"
	"github.com/nlpodyssey/spago/mat"

	"github.com/strata-retrieval/strata/internal/gemm"
	"github.com/strata-retrieval/strata/internal/parallel"
)

// EncoderConfig shapes the hashed n-gram text encoder. Zero values mean the
// defaults.
type EncoderConfig struct {
	Buckets int  `json:"buckets"`  // hash table rows, default 131072
	EmbDim  int  `json:"emb_dim"`  // table width, default 128
	OutDim  int  `json:"out_dim"`  // output dimension, default 128
	MinChar int  `json:"min_char"` // smallest character n-gram, default 3
	MaxChar int  `json:"max_char"` // largest character n-gram, default 4
	NoChars bool `json:"no_chars"` // words and word bigrams only
	// Neighbors: a node's document is read with the names of up to this
	// many of the nodes its stored edges point to (infer.NodeTexts: a
	// synset with its hypernym, a product with its brand); 0 reads the
	// node's own text only, as encoders saved before it did.
	Neighbors int `json:"neighbors,omitempty"`
	// NeighborAliases are the text fields that name a neighbour by its
	// other names (infer.NeighborAliasLine: WordNet's lemmas, "book;
	// volume"); none, by its name alone, as encoders saved before it did.
	NeighborAliases []string `json:"neighbor_aliases,omitempty"`
	Seed            uint64   `json:"hash_seed"`
}

func (c EncoderConfig) withDefaults() EncoderConfig {
	if c.Buckets == 0 {
		c.Buckets = 1 << 17
	}
	if c.EmbDim == 0 {
		c.EmbDim = 128
	}
	if c.OutDim == 0 {
		c.OutDim = 128
	}
	if c.MinChar == 0 {
		c.MinChar = 3
	}
	if c.MaxChar == 0 {
		c.MaxChar = 4
	}
	return c
}

// Encoder maps text to an L2-normalised vector: word unigrams and bigrams
// and the character n-grams of every word (with < > boundary marks) are
// hashed into a table of embeddings, mean-pooled, projected and normalised.
// It needs no download and trains with in-batch contrastive loss.
type Encoder struct {
	Config EncoderConfig
	Emb    NamedParam // [Buckets, EmbDim]
	Proj   NamedParam // [OutDim, EmbDim]
	// Weight is a fixed (untrained) weight per bucket used by the pooling;
	// FitIDF sets it to the inverse document frequency of each feature, so
	// rare n-grams count more, as in BM25. All ones until fitted.
	Weight NamedParam // [Buckets]
}

// NewEncoder returns an encoder with small random embeddings and a
// Glorot-uniform projection drawn from r; with a nil r the weights are zero
// (to be loaded from a checkpoint).
// EncoderShapes lists the tensors of an encoder of cfg, as Params orders
// them (for CheckShapes before NewEncoder).
func EncoderShapes(cfg EncoderConfig) []NamedShape {
	cfg = cfg.withDefaults()
	return []NamedShape{{"encoder.emb", []int{cfg.Buckets, cfg.EmbDim}}, {"encoder.proj", []int{cfg.OutDim, cfg.EmbDim}}, {"encoder.weight", []int{cfg.Buckets}}}
}

func NewEncoder(cfg EncoderConfig, r *rand.Rand) (*Encoder, error) {
	cfg = cfg.withDefaults()
	if cfg.Buckets < 1 || cfg.EmbDim < 1 || cfg.OutDim < 1 || cfg.MinChar < 1 || cfg.MaxChar < cfg.MinChar {
		return nil, fmt.Errorf("models: bad encoder config %+v", cfg)
	}
	e := &Encoder{Config: cfg,
		Emb:    NamedParam{"encoder.emb", []int{cfg.Buckets, cfg.EmbDim}, newParam(cfg.Buckets, cfg.EmbDim)},
		Proj:   NamedParam{"encoder.proj", []int{cfg.OutDim, cfg.EmbDim}, newParam(cfg.OutDim, cfg.EmbDim)},
		Weight: NamedParam{"encoder.weight", []int{cfg.Buckets}, newParam(cfg.Buckets)},
	}
	for i, w := 0, e.Weight.Data(); i < len(w); i++ {
		w[i] = 1
	}
	if r != nil {
		for i, d := 0, e.Emb.Data(); i < len(d); i++ {
			d[i] = float32(r.NormFloat64() * 0.1)
		}
		xavier(r, e.Proj.Data(), cfg.EmbDim, cfg.OutDim)
	}
	return e, nil
}

// Clone returns an encoder with a copy of e's weights, to be trained apart
// from e.
func (e *Encoder) Clone() *Encoder {
	c, err := NewEncoder(e.Config, nil)
	if err != nil {
		panic("models: Encoder.Clone: " + err.Error()) // e's config was valid
	}
	for i, p := range c.Params() {
		copy(p.Data(), e.Params()[i].Data())
	}
	return c
}

// Params lists the encoder's parameters; Weight is included (it is saved
// with checkpoints) but never receives a gradient.
func (e *Encoder) Params() []NamedParam { return []NamedParam{e.Emb, e.Proj, e.Weight} }

// FitIDF sets the pooling weights to ln(1 + (N − df + 0.5)/(df + 0.5)) over
// the feature lists of a corpus (df counts documents holding the feature).
func (e *Encoder) FitIDF(docs [][]uint32) {
	df := make([]int32, e.Config.Buckets)
	seen := make([]int32, e.Config.Buckets)
	for i := range seen {
		seen[i] = -1
	}
	for d, fs := range docs {
		for _, f := range fs {
			if seen[f] != int32(d) {
				seen[f] = int32(d)
				df[f]++
			}
		}
	}
	n := float64(len(docs))
	w := e.Weight.Data()
	for i := range w {
		w[i] = float32(math.Log(1 + (n-float64(df[i])+0.5)/(float64(df[i])+0.5)))
	}
}

// Dim returns the output dimension.
func (e *Encoder) Dim() int { return e.Config.OutDim }

// Features returns the hashed feature ids of a text (with repeats; the
// pooling is a mean over them). An empty text has no features.
func (e *Encoder) Features(text string) []uint32 {
	c := e.Config
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) })
	out := make([]uint32, 0, len(words)*6)
	h := fnv.New64a()
	id := func(kind byte, parts ...string) uint32 {
		h.Reset()
		var seed [9]byte
		seed[0] = kind
		for i := 0; i < 8; i++ {
			seed[1+i] = byte(c.Seed >> (8 * i))
		}
		h.Write(seed[:])
		for _, p := range parts {
			h.Write([]byte(p))
			h.Write([]byte{0})
		}
		return uint32(h.Sum64() % uint64(c.Buckets))
	}
	for i, w := range words {
		out = append(out, id('w', w))
		if i > 0 {
			out = append(out, id('b', words[i-1], w))
		}
		if c.NoChars {
			continue
		}
		rs := []rune("<" + w + ">")
		for n := c.MinChar; n <= c.MaxChar; n++ {
			for s := 0; s+n <= len(rs); s++ {
				out = append(out, id('c', string(rs[s:s+n])))
			}
		}
	}
	return out
}

// forward computes the pooled vectors pooled [n, EmbDim], the projections
// y [n, OutDim] and the normalised outputs z [n, OutDim].
func (e *Encoder) forward(feats [][]uint32, pooled, y, z []float32) {
	c := e.Config
	// Each text's pooled row is its own: rows are split across cores and
	// every row sums its features in order, whatever the split.
	parallel.Chunks(context.Background(), len(feats), 256, 0, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			e.pool(feats[i], pooled[i*c.EmbDim:(i+1)*c.EmbDim])
		}
	})
	n := len(feats)
	gemm.Sgemm(gemm.NoTrans, gemm.Trans, n, c.OutDim, c.EmbDim, 1, pooled, c.EmbDim, e.Proj.Data(), c.EmbDim, 0, y, c.OutDim)
	for i := 0; i < n; i++ {
		yi, zi := y[i*c.OutDim:(i+1)*c.OutDim], z[i*c.OutDim:(i+1)*c.OutDim]
		var s float64
		for _, v := range yi {
			s += float64(v) * float64(v)
		}
		norm := float32(math.Sqrt(s))
		for j, v := range yi {
			if norm > 0 {
				zi[j] = v / norm
			} else {
				zi[j] = 0
			}
		}
	}
}

// pool writes into p the weighted mean of the embedding rows of fs.
func (e *Encoder) pool(fs []uint32, p []float32) {
	c := e.Config
	emb, wt := e.Emb.Data(), e.Weight.Data()
	clear(p)
	total := e.weightSum(fs)
	if total == 0 {
		return
	}
	for _, f := range fs {
		row := emb[int(f)*c.EmbDim : (int(f)+1)*c.EmbDim]
		w := wt[f] / total
		for j, v := range row {
			p[j] += w * v
		}
	}
}

func (e *Encoder) weightSum(fs []uint32) float32 {
	wt := e.Weight.Data()
	var s float32
	for _, f := range fs {
		s += wt[f]
	}
	return s
}

// Encode returns the normalised vectors [n, OutDim] of the feature lists.
func (e *Encoder) Encode(feats [][]uint32) []float32 {
	c := e.Config
	n := len(feats)
	pooled := make([]float32, n*c.EmbDim)
	y := make([]float32, n*c.OutDim)
	z := make([]float32, n*c.OutDim)
	e.forward(feats, pooled, y, z)
	return z
}

// EncodeTexts encodes texts.
func (e *Encoder) EncodeTexts(texts []string) []float32 {
	feats := make([][]uint32, len(texts))
	for i, t := range texts {
		feats[i] = e.Features(t)
	}
	return e.Encode(feats)
}

// Op returns a differentiable node computing the normalised vectors
// [n, OutDim] of the feature lists, as one fused operator.
func (e *Encoder) Op(feats [][]uint32) mat.Tensor {
	for i, fs := range feats {
		for _, f := range fs {
			if int(f) >= e.Config.Buckets {
				panic(fmt.Sprintf("models: Encoder.Op: text %d has feature %d >= %d buckets", i, f, e.Config.Buckets))
			}
		}
	}
	return ag.NewOperator(&encoderFn{e: e, feats: feats}).Run()
}

type encoderFn struct {
	e         *Encoder
	feats     [][]uint32
	pooled, y []float32
	z         []float32
}

func (f *encoderFn) Operands() []mat.Tensor { return []mat.Tensor{f.e.Emb.Param, f.e.Proj.Param} }

func (f *encoderFn) Forward() (mat.Tensor, error) {
	c := f.e.Config
	n := len(f.feats)
	f.pooled = make([]float32, n*c.EmbDim)
	f.y = make([]float32, n*c.OutDim)
	f.z = make([]float32, n*c.OutDim)
	f.e.forward(f.feats, f.pooled, f.y, f.z)
	return mat.NewDense[float32](mat.WithShape(n, c.OutDim), mat.WithBacking(append([]float32(nil), f.z...))), nil
}

func (f *encoderFn) Backward(gy mat.Tensor) error {
	c := f.e.Config
	n := len(f.feats)
	gz := mat.Data[float32](gy)
	// Normalisation: gy_pre = (gz − z (z·gz)) / |y|.
	gyp := make([]float32, n*c.OutDim)
	for i := 0; i < n; i++ {
		yi := f.y[i*c.OutDim : (i+1)*c.OutDim]
		zi := f.z[i*c.OutDim : (i+1)*c.OutDim]
		gi := gz[i*c.OutDim : (i+1)*c.OutDim]
		var s, dot float64
		for j := range yi {
			s += float64(yi[j]) * float64(yi[j])
			dot += float64(zi[j]) * float64(gi[j])
		}
		norm := math.Sqrt(s)
		if norm == 0 {
			continue
		}
		for j := range yi {
			gyp[i*c.OutDim+j] = float32((float64(gi[j]) - float64(zi[j])*dot) / norm)
		}
	}
	gProj := make([]float32, c.OutDim*c.EmbDim)
	gemm.Sgemm(gemm.Trans, gemm.NoTrans, c.OutDim, c.EmbDim, n, 1, gyp, c.OutDim, f.pooled, c.EmbDim, 0, gProj, c.EmbDim)
	gp := make([]float32, n*c.EmbDim)
	gemm.Sgemm(gemm.NoTrans, gemm.NoTrans, n, c.EmbDim, c.OutDim, 1, gyp, c.OutDim, f.e.Proj.Data(), c.EmbDim, 0, gp, c.EmbDim)
	gEmb := make([]float32, c.Buckets*c.EmbDim)
	wt := f.e.Weight.Data()
	for i, fs := range f.feats {
		total := f.e.weightSum(fs)
		if total == 0 {
			continue
		}
		gi := gp[i*c.EmbDim : (i+1)*c.EmbDim]
		for _, ft := range fs {
			row := gEmb[int(ft)*c.EmbDim : (int(ft)+1)*c.EmbDim]
			w := wt[ft] / total
			for j, v := range gi {
				row[j] += v * w
			}
		}
	}
	f.e.Emb.Param.AccGrad(grad(gEmb, c.Buckets, c.EmbDim))
	f.e.Proj.Param.AccGrad(grad(gProj, c.OutDim, c.EmbDim))
	return nil
}
