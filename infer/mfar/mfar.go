package mfar

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"

	"gonum.org/v1/gonum/blas/blas32"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/eval"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/bertenc"
	"github.com/strata-retrieval/strata/infer/onnx"
	"github.com/strata-retrieval/strata/infer/registry"
	"github.com/strata-retrieval/strata/internal/parallel"
	"github.com/strata-retrieval/strata/models"
)

// Field is one field of mFAR's document decomposition.
type Field struct {
	Name string `json:"name"`
	Kind string `json:"kind"` // "doc", "reading", "text" or "relation"
}

// Fields derives mFAR's fields from a schema: the whole document, the
// document read with its neighbours (kind "reading", "doc+neighbours": the
// names of the node's first Config.ReadingNeighbours neighbours by its own
// edges appended, each by its other names where Config.Aliases gives some,
// as the encoder reads it; the text channel "reading" reads edges in too),
// every text field, and one field
// per relation holding the names of the node's neighbours by that relation
// (both directions).
func Fields(s *data.Schema) []Field {
	out := []Field{{Name: "doc", Kind: "doc"}, {Name: "doc+neighbours", Kind: "reading"}}
	for _, f := range s.TextFields {
		out = append(out, Field{Name: f, Kind: "text"})
	}
	for _, r := range s.RelationTypes {
		out = append(out, Field{Name: r, Kind: "relation"})
	}
	return out
}

// Scorers is how many scorers every field has: a lexical one (BM25, its
// words stemmed or not, Config.Lexical) and the dense one.
const Scorers = 2

// The lexical scorers a Config names.
const (
	// LexicalBM25 reads a field's words as they are (a checkpoint without
	// a lexical key, trained before stemming was offered, means it).
	LexicalBM25 = "bm25"
	// LexicalBM25Stem reads them Snowball-stemmed (index.Config.Stem),
	// queries too: "singing" matches "sings". The default.
	LexicalBM25Stem = "bm25-stem"
)

// fieldKinds are the kinds of field FieldText reads.
var fieldKinds = []string{"doc", "reading", "text", "relation"}

// ValidLexical reports a lexical scorer name other than LexicalBM25 and
// LexicalBM25Stem ("" means LexicalBM25).
func ValidLexical(lexical string) error {
	switch lexical {
	case "", LexicalBM25, LexicalBM25Stem:
		return nil
	}
	return fmt.Errorf("mFAR: lexical scorer %q, want %s or %s", lexical, LexicalBM25Stem, LexicalBM25)
}

// Config describes a trained mFAR model.
type Config struct {
	Fields      []Field                   `json:"fields"`
	Weights     models.FieldWeightsConfig `json:"weights"`
	Temperature float64                   `json:"temperature"` // dense scores are divided by it, in training and at inference
	Neighbours  int                       `json:"max_neighbours"`
	// Lexical is every field's lexical scorer: LexicalBM25 ("" means it)
	// or LexicalBM25Stem.
	Lexical string `json:"lexical,omitempty"`
	// Aliases are the text fields a relation field names a neighbour by
	// (its other names, linking.DetectAliasFields: WordNet's lemmas, "book;
	// volume"), else by its name; none, by name alone (mFAR's, and every
	// checkpoint trained before aliases were read).
	Aliases []string `json:"alias_fields,omitempty"`
	// ReadingNeighbours is how many neighbours the "reading" field reads
	// a document with (0 means infer.ReadingNeighbors, what training sets).
	ReadingNeighbours int    `json:"reading_neighbours,omitempty"`
	K                 int    `json:"k"`                      // per (field, scorer) index at inference, and kept
	ONNXEncoder       string `json:"onnx_encoder,omitempty"` // encoder directory; "" means the dense channel's
	Dense             string `json:"dense,omitempty"`        // the dense channel's vectors hash
	// Encoder, when set, is the hashed encoder fine-tuned together with
	// the weights (mFAR's joint training): its weights are in the
	// checkpoint, and it replaces the dense channel's.
	Encoder *models.EncoderConfig `json:"encoder,omitempty"`
}

// DefaultConfig is strata's mFAR setup for a schema: Fields(s), stemmed
// lexical scorers (SetLexical and DropReadingField, with no aliases, give
// mFAR's own).
func DefaultConfig(s *data.Schema, queryDim int) Config {
	c := Config{Fields: Fields(s), Temperature: 0.05, Neighbours: 50, K: 100, ReadingNeighbours: infer.ReadingNeighbors}
	c.Weights.QueryDim = queryDim
	c.SetLexical(LexicalBM25Stem)
	return c
}

// SetLexical sets the lexical scorer and names the weights' pairs after
// it ("doc/bm25-stem", "doc/dense", ...).
func (c *Config) SetLexical(lexical string) {
	c.Lexical = lexical
	c.namePairs()
}

// DropReadingField removes the "reading" field (mFAR's fields) and its
// weights' pairs.
func (c *Config) DropReadingField() {
	c.Fields = slices.DeleteFunc(slices.Clone(c.Fields), func(f Field) bool { return f.Kind == "reading" })
	c.ReadingNeighbours = 0
	c.namePairs()
}

// namePairs names the weights' pairs after the fields and the lexical
// scorer, in a new slice (a copy of a Config keeps its own).
func (c *Config) namePairs() {
	pairs := make([]string, 0, Scorers*len(c.Fields))
	for _, f := range c.Fields {
		pairs = append(pairs, f.Name+"/"+cmp.Or(c.Lexical, LexicalBM25), f.Name+"/dense")
	}
	c.Weights.Pairs = pairs
}

// check reports a config New cannot serve: an unknown lexical scorer or
// field kind, or weights' pairs that are not two per field.
func (c *Config) check() error {
	if err := ValidLexical(c.Lexical); err != nil {
		return err
	}
	for _, f := range c.Fields {
		if !slices.Contains(fieldKinds, f.Kind) {
			return fmt.Errorf("mFAR: field %q of kind %q, want one of %q", f.Name, f.Kind, fieldKinds)
		}
	}
	if len(c.Weights.Pairs) != Scorers*len(c.Fields) {
		return fmt.Errorf("mFAR: %d weight pairs for %d fields, want %d", len(c.Weights.Pairs), len(c.Fields), Scorers*len(c.Fields))
	}
	return nil
}

// bm25Config is the BM25 configuration of every field's lexical index.
func (c *Config) bm25Config(ws *workspace.Workspace) index.Config {
	bc := ws.Config.BM25
	bc.Stem = c.Lexical == LexicalBM25Stem
	return bc
}

// Method is multi-field adaptive retrieval: per field a BM25 index and the
// encoder's vectors of the field's text, weighted per query.
type Method struct {
	Cfg   Config
	Model *models.FieldWeights
	Enc   infer.TextEncoder
	// Tuned is the hashed encoder fine-tuned with the weights (Cfg.Encoder
	// set), also Enc; nil for a frozen encoder.
	Tuned *models.Encoder
	ws    *workspace.Workspace
	bm25  []*index.BM25   // per field, document i = candidate i
	emb   []*index.Matrix // per field, row i = candidate i (zero for empty text)
	// aliases are Cfg.Aliases as indexes into the schema's text fields.
	aliases []int
	// line is a node's neighbour line (infer.NeighborAliasLine), for the
	// "reading" field.
	line func(uint32) string
	// lex is every field's BM25 configuration (stemmed or not).
	lex   index.Config
	label string
}

// Params lists the trained parameters: the field weights, then the
// fine-tuned encoder's.
func (m *Method) Params() []models.NamedParam {
	out := m.Model.Params()
	if m.Tuned != nil {
		out = append(out, m.Tuned.Params()...)
	}
	return out
}

// tunedEncoder adapts a fine-tuned hashed encoder to infer.TextEncoder.
type tunedEncoder struct{ e *models.Encoder }

func (t tunedEncoder) EncodeTexts(texts []string) ([]float32, error) {
	return t.e.EncodeTexts(texts), nil
}
func (t tunedEncoder) Dim() int { return t.e.Dim() }

// NewTuned is New with a hashed encoder trained together with the weights:
// enc is used as it is (clone it first to leave the original alone), and
// cfg.Encoder records its shape.
func NewTuned(ctx context.Context, ws *workspace.Workspace, enc *models.Encoder, cfg Config, model *models.FieldWeights) (*Method, error) {
	ec := enc.Config
	cfg.Encoder = &ec
	cfg.ONNXEncoder, cfg.Dense = "", ""
	m, err := New(ctx, ws, tunedEncoder{enc}, cfg, model)
	if err != nil {
		return nil, err
	}
	m.Tuned = enc
	return m, nil
}

// FieldText is the text of field f of node v.
func (m *Method) FieldText(f Field, v uint32) string {
	skb := m.ws.SKB
	switch f.Kind {
	case "doc":
		return skb.Document(v)
	case "text":
		return skb.Field(v, f.Name)
	case "reading":
		return skb.Document(v) + m.line(v)
	}
	r, ok := skb.Schema.RelationID(f.Name)
	if !ok {
		return ""
	}
	nb := m.ws.Graph.NeighborsByRel(v, r)
	var b strings.Builder
	for i, u := range nb[:min(len(nb), m.Cfg.Neighbours)] {
		if i > 0 {
			b.WriteString("; ")
		}
		infer.WriteNames(&b, &skb.Nodes[u], m.aliases)
	}
	return b.String()
}

// New indexes every field of the workspace's candidates: BM25 and the
// encoder's vectors, read from the workspace's CacheDir when an earlier
// load with the same encoder, fields and data wrote them (the dense
// channel's encoder, named by its vectors' hash, or an ONNX encoder).
func New(ctx context.Context, ws *workspace.Workspace, enc infer.TextEncoder, cfg Config, model *models.FieldWeights) (*Method, error) {
	if enc.Dim() != cfg.Weights.QueryDim {
		return nil, fmt.Errorf("mFAR: encoder dimension %d, weights expect %d", enc.Dim(), cfg.Weights.QueryDim)
	}
	if err := cfg.check(); err != nil {
		return nil, err
	}
	m := &Method{Cfg: cfg, Model: model, Enc: enc, ws: ws, label: "mfar", lex: cfg.bm25Config(ws)}
	m.aliases = infer.FieldIndexes(&ws.SKB.Schema, cfg.Aliases)
	if len(m.aliases) != len(cfg.Aliases) {
		return nil, fmt.Errorf("mFAR: alias fields %q, not all among the workspace's text fields %q", cfg.Aliases, ws.SKB.Schema.TextFields)
	}
	m.line = func(uint32) string { return "" }
	if slices.ContainsFunc(cfg.Fields, func(f Field) bool { return f.Kind == "reading" }) {
		m.line = infer.NeighborAliasLine(ws.SKB, cmp.Or(cfg.ReadingNeighbours, infer.ReadingNeighbors), cfg.Aliases)
	}
	n := len(ws.Candidates)
	toks := make([][]string, n)
	for _, f := range cfg.Fields {
		// Tokens (stems) on all cores, then the index in candidate order.
		if err := parallel.Chunks(ctx, n, 1024, 0, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				toks[i] = m.lex.Tokens(toks[i][:0], m.FieldText(f, ws.Candidates[i]))
			}
		}); err != nil {
			return nil, err
		}
		b := index.NewBuilder(m.lex)
		for _, t := range toks {
			b.AddTokens(t)
		}
		m.bm25 = append(m.bm25, b.Build())
		m.emb = append(m.emb, index.NewMatrix(n, enc.Dim()))
	}
	// The field vectors are kept in the workspace (CacheDir), so a later
	// load reads them instead of encoding every field again.
	key := m.cacheKey()
	if key != "" && m.loadCache(key) {
		return m, nil
	}
	if err := m.Reencode(ctx); err != nil {
		return nil, err
	}
	if key != "" {
		_ = m.saveCache(key) // a workspace that cannot be written only loses the cache
	}
	return m, nil
}

// Reencode encodes every field of every candidate with the encoder (again,
// after the fine-tuned encoder changed), on all cores.
func (m *Method) Reencode(ctx context.Context) error {
	n := len(m.ws.Candidates)
	for fi, f := range m.Cfg.Fields {
		x := m.emb[fi]
		var mu sync.Mutex
		var encErr error
		err := parallel.Chunks(ctx, n, 1024, 0, func(lo, hi int) {
			var todo []string
			var at []int
			for i := lo; i < hi; i++ {
				clear(x.Row(i))
				if t := m.FieldText(f, m.ws.Candidates[i]); t != "" {
					todo = append(todo, t)
					at = append(at, i)
				}
			}
			if len(todo) == 0 {
				return
			}
			vecs, err := m.Enc.EncodeTexts(todo)
			if err != nil {
				mu.Lock()
				encErr = cmp.Or(encErr, err)
				mu.Unlock()
				return
			}
			for j, i := range at {
				copy(x.Row(i), vecs[j*x.Dim:(j+1)*x.Dim])
			}
		})
		if err = cmp.Or(err, encErr); err != nil {
			return fmt.Errorf("mFAR: encoding field %s: %w", f.Name, err)
		}
	}
	return nil
}

// Lexical returns the lexical score (BM25, stemmed as Cfg.Lexical says) of
// query in field f of candidate i (by position).
func (m *Method) Lexical(f int, query string, i int) float32 {
	return m.LexicalTokens(f, m.QueryTokens(query), i)
}

// QueryTokens returns a query's tokens as the lexical scorers read them
// (stemmed with bm25-stem), for LexicalTokens and PairScores.
func (m *Method) QueryTokens(query string) []string { return m.lex.Tokens(nil, query) }

// LexicalTokens is Lexical over the query's QueryTokens.
func (m *Method) LexicalTokens(f int, toks []string, i int) float32 {
	return m.bm25[f].ScoreTokens(toks, uint32(i))
}

func (m *Method) Name() string { return m.label }

// candIndex is v's position among the candidates.
func (m *Method) candIndex(v uint32) (int, bool) {
	return slices.BinarySearch(m.ws.Candidates, v)
}

// dot is the dot product of a field vector and a query vector (gonum's
// SIMD kernel; PairScores and Rank share it, so training and inference
// score alike).
func dot(x, q []float32) float32 {
	return blas32.Dot(blas32.Vector{N: len(x), Inc: 1, Data: x}, blas32.Vector{N: len(q), Inc: 1, Data: q})
}

// PairScores appends to dst the scores of candidate i (by position) for a
// query (its QueryTokens and vector): per field, the lexical score then the
// dense one (q · e / temperature).
func (m *Method) PairScores(dst []float32, toks []string, qv []float32, i int) []float32 {
	inv := float32(1 / m.Cfg.Temperature)
	for f := range m.Cfg.Fields {
		dst = append(dst, m.bm25[f].ScoreTokens(toks, uint32(i)), dot(m.emb[f].Row(i), qv)*inv)
	}
	return dst
}

// QueryVector encodes a query.
func (m *Method) QueryVector(text string) ([]float32, error) {
	return m.Enc.EncodeTexts([]string{text})
}

// Rank takes the top K of every (field, scorer) index, merges them,
// rescores every candidate with all scorers and the query's weights, and
// keeps the top K. Each field's BM25 is accumulated once per query.
func (m *Method) Rank(ctx context.Context, q data.Query) ([]index.Hit, error) {
	qv, err := m.QueryVector(q.Text)
	if err != nil {
		return nil, err
	}
	qm := &index.Matrix{Rows: 1, Dim: len(qv), Data: qv}
	return m.rank(q.Text, qv, func(f int) ([]index.Hit, error) {
		hs, err := index.SearchDense(ctx, m.emb[f], qm, m.Cfg.K, nil, index.DenseConfig{Workers: 1})
		if err != nil {
			return nil, err
		}
		return hs[0], nil
	})
}

// RankBatch implements eval.BatchRanker: every field's dense top K of all
// the queries comes from one search (one GEMM per block of documents, on
// all cores), the rest is Rank's, query by query in parallel. The
// rankings are Rank's (the GEMM computes each score the same way whatever
// the number of queries).
func (m *Method) RankBatch(ctx context.Context, qs []data.Query) ([][]index.Hit, error) {
	n, dim := len(qs), m.Enc.Dim()
	qm := index.NewMatrix(n, dim)
	errs := make([]error, n)
	err := parallel.Chunks(ctx, n, 8, 0, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			v, err := m.QueryVector(qs[i].Text)
			if err == nil && len(v) != dim {
				err = fmt.Errorf("mFAR: the encoder returned %d values for a %d-dimensional query", len(v), dim)
			}
			if errs[i] = err; err == nil {
				copy(qm.Row(i), v)
			}
		}
	})
	if err = cmp.Or(err, errors.Join(errs...)); err != nil {
		return nil, err
	}
	dense := make([][][]index.Hit, len(m.Cfg.Fields))
	for f := range dense {
		if dense[f], err = index.SearchDense(ctx, m.emb[f], qm, m.Cfg.K, nil, index.DenseConfig{}); err != nil {
			return nil, err
		}
	}
	out := make([][]index.Hit, n)
	err = parallel.Chunks(ctx, n, 4, 0, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			out[i], errs[i] = m.rank(qs[i].Text, qm.Row(i), func(f int) ([]index.Hit, error) { return dense[f][i], nil })
		}
	})
	if err = cmp.Or(err, errors.Join(errs...)); err != nil {
		return nil, err
	}
	return out, nil
}

// rank is Rank over a query's text and vector, its dense top K of field f
// given by denseTop.
func (m *Method) rank(text string, qv []float32, denseTop func(f int) ([]index.Hit, error)) ([]index.Hit, error) {
	F := len(m.Cfg.Fields)
	pool := map[uint32]bool{}
	lex := make([]map[uint32]float32, F)
	var top index.TopK
	toks := m.QueryTokens(text)
	for f := range F {
		all, err := m.bm25[f].ScoreAllTokens(context.Background(), toks, nil)
		if err != nil {
			return nil, err
		}
		lex[f] = make(map[uint32]float32, len(all))
		top.Reset(m.Cfg.K)
		for _, h := range all {
			lex[f][h.ID] = h.Score
			top.Push(h)
		}
		for _, h := range top.Sorted(nil) {
			pool[h.ID] = true
		}
		hs, err := denseTop(f)
		if err != nil {
			return nil, err
		}
		for _, h := range hs {
			pool[h.ID] = true
		}
	}
	w := m.Model.Weights(qv)
	inv := float32(1 / m.Cfg.Temperature)
	hits := make([]index.Hit, 0, len(pool))
	for i := range pool {
		var score float32
		for f := range F {
			// The same operations in the same order as Score(w, PairScores).
			score += w[2*f] * lex[f][i]
			score += w[2*f+1] * (dot(m.emb[f].Row(int(i)), qv) * inv)
		}
		hits = append(hits, index.Hit{ID: m.ws.Candidates[i], Score: score})
	}
	index.Sort(hits)
	return hits[:min(len(hits), m.Cfg.K)], nil
}

// FieldWeight is one (field, scorer) weight of a query.
type FieldWeight struct {
	Pair   string  `json:"pair"`
	Weight float32 `json:"weight"`
}

// Explanation is a query's field weights, largest first.
type Explanation struct {
	Weights []FieldWeight `json:"weights"`
}

// Explain implements infer.Explainer: the query's weights.
func (m *Method) Explain(_ context.Context, q data.Query, _ int) (infer.Explanation, error) {
	w, err := m.Weights(q.Text)
	if err != nil {
		return nil, err
	}
	return &Explanation{Weights: w}, nil
}

// WriteText implements infer.Explanation.
func (e *Explanation) WriteText(out io.Writer, _ *workspace.Workspace) error {
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "field/scorer\tweight")
	for _, x := range e.Weights {
		fmt.Fprintf(w, "%s\t%.4f\n", x.Pair, x.Weight)
	}
	return w.Flush()
}

// Weights returns the query's weights, largest first.
func (m *Method) Weights(text string) ([]FieldWeight, error) {
	qv, err := m.QueryVector(text)
	if err != nil {
		return nil, err
	}
	w := m.Model.Weights(qv)
	out := make([]FieldWeight, len(w))
	for j, v := range w {
		out[j] = FieldWeight{Pair: m.Cfg.Weights.Pairs[j], Weight: v}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Weight > out[b].Weight })
	return out, nil
}

// Kind is the checkpoint kind of an mFAR model.
const Kind = infer.KindMFAR

var (
	_ infer.Method     = (*Method)(nil)
	_ infer.Explainer  = (*Method)(nil)
	_ eval.BatchRanker = (*Method)(nil)
)

func init() {
	registry.Register(Kind, func(env *infer.Env, ck *registry.Checkpoint) (infer.Method, error) {
		var cfg Config
		if err := ck.DecodeConfig("mFAR", &cfg); err != nil {
			return nil, err
		}
		want := models.FieldWeightsShapes(cfg.Weights)
		if cfg.Encoder != nil {
			want = append(want, models.EncoderShapes(*cfg.Encoder)...)
		}
		if err := ck.CheckShapes(want); err != nil {
			return nil, err
		}
		fw, err := models.NewFieldWeights(cfg.Weights)
		if err != nil {
			return nil, err
		}
		if err := ck.LoadParams(fw.Params()); err != nil {
			return nil, err
		}
		if cfg.Encoder != nil {
			enc, err := models.NewEncoder(*cfg.Encoder, nil)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", ck.Dir, err)
			}
			if err := ck.LoadParams(enc.Params()); err != nil {
				return nil, err
			}
			return NewTuned(env.Ctx, env.WS, enc, cfg, fw)
		}
		var enc infer.TextEncoder
		if cfg.ONNXEncoder != "" {
			dir, err := env.Path(cfg.ONNXEncoder)
			if err != nil {
				return nil, fmt.Errorf("%s: its sentence encoder: %w", ck.Dir, err)
			}
			if bertenc.Is(dir) {
				enc, err = bertenc.Load(dir)
			} else {
				enc, err = onnx.LoadEncoder(dir, onnx.EncoderConfig{})
			}
			if err != nil {
				return nil, fmt.Errorf("%s: its sentence encoder: %w", ck.Dir, err)
			}
		} else {
			d, err := env.Dense()
			if err != nil {
				return nil, err
			}
			if err := ck.CheckDense(env, d, cfg.Dense); err != nil {
				return nil, err
			}
			if enc, err = infer.DenseTextEncoder(d); err != nil {
				return nil, fmt.Errorf("mFAR encodes every field, so it needs a text encoder: the dense channel's (strata train encoder) or an ONNX encoder (--onnx-encoder DIR): %w", err)
			}
		}
		return New(env.Ctx, env.WS, enc, cfg, fw)
	})
}
