package index

import (
	"context"
	"fmt"
	"math"
	"sort"
	"sync"

	"github.com/strata-retrieval/strata/internal/parallel"
)

// Config holds BM25 hyperparameters. The zero value means STaRK's BM25
// baseline defaults: k1 = 1.5, b = 0.75, tokens unstemmed.
type Config struct {
	K1 float64 `json:"k1"`
	B  float64 `json:"b"`
	// Stem reads documents and queries as StemTokens does (Snowball
	// English stems: "singing" matches "sings"), in Add and in every
	// query method; AddTokens and ScoreAllTokens take tokens as given.
	Stem bool `json:"stem,omitempty"`
}

// Tokens appends to dst the tokens an index of config c reads in s:
// Tokenize's, or StemTokens' when c.Stem.
func (c Config) Tokens(dst []string, s string) []string {
	if c.Stem {
		return StemTokens(dst, s)
	}
	return Tokenize(dst, s)
}

func (c Config) withDefaults() Config {
	if c.K1 == 0 {
		c.K1 = 1.5
	}
	if c.B == 0 {
		c.B = 0.75
	}
	return c
}

// Validate reports a configuration outside BM25's sensible range.
func (c Config) Validate() error {
	c = c.withDefaults()
	if c.K1 < 0 || math.IsNaN(c.K1) {
		return fmt.Errorf("bm25: k1 = %v, want >= 0", c.K1)
	}
	if c.B < 0 || c.B > 1 || math.IsNaN(c.B) {
		return fmt.Errorf("bm25: b = %v, want in [0, 1]", c.B)
	}
	return nil
}

// Builder accumulates documents for a BM25 index. Documents get ids
// 0, 1, 2, ... in the order added.
type Builder struct {
	cfg    Config
	vocab  map[string]uint32
	terms  []string
	docLen []uint32
	// per document: (term, tf) pairs, flattened
	docTerms []uint32
	docTFs   []uint32
	docOff   []uint64
	toks     []string
	counts   map[uint32]uint32
	order    []uint32
}

// NewBuilder returns an empty builder.
func NewBuilder(cfg Config) *Builder {
	return &Builder{cfg: cfg.withDefaults(), vocab: map[string]uint32{}, docOff: []uint64{0}, counts: map[uint32]uint32{}}
}

// Add tokenizes and adds one document.
func (b *Builder) Add(text string) {
	b.toks = b.cfg.Tokens(b.toks[:0], text)
	b.AddTokens(b.toks)
}

// AddTokens adds one document given as tokens.
func (b *Builder) AddTokens(toks []string) {
	clear(b.counts)
	b.order = b.order[:0]
	for _, t := range toks {
		id, ok := b.vocab[t]
		if !ok {
			id = uint32(len(b.terms))
			b.vocab[t] = id
			b.terms = append(b.terms, t)
		}
		if b.counts[id] == 0 {
			b.order = append(b.order, id)
		}
		b.counts[id]++
	}
	sort.Slice(b.order, func(i, j int) bool { return b.order[i] < b.order[j] })
	for _, id := range b.order {
		b.docTerms = append(b.docTerms, id)
		b.docTFs = append(b.docTFs, b.counts[id])
	}
	b.docOff = append(b.docOff, uint64(len(b.docTerms)))
	b.docLen = append(b.docLen, uint32(len(toks)))
}

// Build freezes the index. The builder must not be used afterwards.
func (b *Builder) Build() *BM25 {
	n := len(b.docLen)
	V := len(b.terms)
	ix := &BM25{cfg: b.cfg, n: n, terms: b.terms, vocab: b.vocab, docLen: b.docLen}
	var total uint64
	for _, l := range b.docLen {
		total += uint64(l)
	}
	if n > 0 {
		ix.avgdl = float64(total) / float64(n)
	}
	df := make([]uint64, V+1)
	for _, t := range b.docTerms {
		df[t+1]++
	}
	ix.off = make([]uint64, V+1)
	for i := 1; i <= V; i++ {
		ix.off[i] = ix.off[i-1] + df[i]
	}
	ix.idf = make([]float32, V)
	for t := 0; t < V; t++ {
		d := float64(ix.off[t+1] - ix.off[t])
		ix.idf[t] = float32(math.Log(1 + (float64(n)-d+0.5)/(d+0.5)))
	}
	ix.docs = make([]uint32, len(b.docTerms))
	ix.weights = make([]float32, len(b.docTerms))
	fill := make([]uint64, V)
	copy(fill, ix.off[:V])
	k1, bb := b.cfg.K1, b.cfg.B
	for d := 0; d < n; d++ {
		norm := k1 * (1 - bb + bb*float64(b.docLen[d])/ix.avgdl)
		for p := b.docOff[d]; p < b.docOff[d+1]; p++ {
			t := b.docTerms[p]
			tf := float64(b.docTFs[p])
			pos := fill[t]
			fill[t]++
			ix.docs[pos] = uint32(d)
			ix.weights[pos] = float32(float64(ix.idf[t]) * tf / (tf + norm))
		}
	}
	return ix
}

// BM25 is an immutable BM25 index. Each posting stores its precomputed
// score contribution idf(t)·tf/(tf + k1·(1 − b + b·dl/avgdl)), so a query
// is a sum of posting weights, as in bm25s' eager scoring.
type BM25 struct {
	cfg     Config
	n       int
	avgdl   float64
	terms   []string
	vocab   map[string]uint32
	idf     []float32
	off     []uint64 // postings of term t: [off[t], off[t+1])
	docs    []uint32
	weights []float32
	docLen  []uint32
	scratch sync.Pool
}

// NumDocs returns the number of documents.
func (ix *BM25) NumDocs() int { return ix.n }

// NumTerms returns the vocabulary size.
func (ix *BM25) NumTerms() int { return len(ix.terms) }

// NumPostings returns the number of (term, document) pairs.
func (ix *BM25) NumPostings() int { return len(ix.docs) }

// AvgDocLen returns the mean document length in tokens.
func (ix *BM25) AvgDocLen() float64 { return ix.avgdl }

// Config returns the hyperparameters the index was built with.
func (ix *BM25) Config() Config { return ix.cfg }

// IDF returns the idf of a term, and false when it is not in the vocabulary.
func (ix *BM25) IDF(term string) (float32, bool) {
	t, ok := ix.vocab[term]
	if !ok {
		return 0, false
	}
	return ix.idf[t], true
}

// Postings returns the documents that hold term, ascending (nil when the
// term is not in the vocabulary). The slice is the index's own: read only.
func (ix *BM25) Postings(term string) []uint32 {
	t, ok := ix.vocab[term]
	if !ok {
		return nil
	}
	return ix.docs[ix.off[t]:ix.off[t+1]:ix.off[t+1]]
}

type scratch struct {
	acc     []float32
	touched []uint32
	seen    []bool
	toks    []string
	top     TopK
}

func (ix *BM25) getScratch() *scratch {
	if s, ok := ix.scratch.Get().(*scratch); ok {
		return s
	}
	return &scratch{acc: make([]float32, ix.n), seen: make([]bool, ix.n)}
}

// accumulate adds the query's posting weights into s.acc and records the
// touched documents. Repeated query tokens count once per occurrence, as in
// bm25s. It returns ctx.Err() (s holding part of the sums: reset it) when
// ctx ends, checked every ctxEvery query tokens and before a token once
// ctxPostings postings were read since the last look.
func (ix *BM25) accumulate(ctx context.Context, s *scratch, query string) error {
	s.toks = ix.cfg.Tokens(s.toks[:0], query)
	return ix.accumulateTokens(ctx, s, s.toks, nil)
}

// accumulateTokens is accumulate over a query given as tokens, token i
// weighted by w[i] (every token by 1 when w is nil).
func (ix *BM25) accumulateTokens(ctx context.Context, s *scratch, toks []string, w []float32) error {
	read := 0 // postings read since the last look at ctx
	for i, tok := range toks {
		if i%ctxEvery == 0 || read >= ctxPostings {
			if err := ctx.Err(); err != nil {
				return err
			}
			read = 0
		}
		t, ok := ix.vocab[tok]
		if !ok || w != nil && w[i] == 0 {
			continue
		}
		lo, hi := ix.off[t], ix.off[t+1]
		docs, ws := ix.docs[lo:hi], ix.weights[lo:hi]
		qw := float32(1)
		if w != nil {
			qw = w[i]
		}
		for j, d := range docs {
			if !s.seen[d] {
				s.seen[d] = true
				s.touched = append(s.touched, d)
			}
			s.acc[d] += qw * ws[j] // 1·x is x: unweighted sums stay bit for bit
		}
		read += len(docs)
	}
	return nil
}

// ctxEvery is how many query tokens accumulate scores between two looks
// at the context, and ctxPostings how many postings: a long query (serve
// --max-query raised to a megabyte), or one repeating a word most
// documents hold (every repeat reads its postings again, as in bm25s),
// stops within a few milliseconds of its request's end.
const (
	ctxEvery    = 1024
	ctxPostings = 1 << 16
)

func (s *scratch) reset() {
	for _, d := range s.touched {
		s.acc[d] = 0
		s.seen[d] = false
	}
	s.touched = s.touched[:0]
}

// Search returns the k best documents for query, best first, ties broken by
// ascending id. When allow is not nil only documents d with allow[d] are
// considered. Documents that match no query term are never returned.
func (ix *BM25) Search(query string, k int, allow []bool) []Hit {
	s := ix.getScratch()
	defer ix.scratch.Put(s)
	ix.accumulate(context.Background(), s, query)
	s.top.Reset(k)
	for _, d := range s.touched {
		if allow != nil && !allow[d] {
			continue
		}
		s.top.Push(Hit{ID: d, Score: s.acc[d]})
	}
	s.reset()
	return s.top.Sorted(nil)
}

// ScoreAll returns every matching document (score > 0 or matched a term)
// with its score, in ascending id order; allow filters as in Search.
func (ix *BM25) ScoreAll(query string, allow []bool) []Hit {
	out, _ := ix.ScoreAllContext(context.Background(), query, allow)
	return out
}

// ScoreAllContext is ScoreAll that stops with ctx.Err() when ctx ends.
func (ix *BM25) ScoreAllContext(ctx context.Context, query string, allow []bool) ([]Hit, error) {
	s := ix.getScratch()
	defer ix.scratch.Put(s)
	s.toks = ix.cfg.Tokens(s.toks[:0], query)
	return ix.scoreAll(ctx, s, s.toks, nil, allow)
}

// ScoreAllTokens is ScoreAllContext over a query already tokenized as the
// index's documents were (an index built with Builder.AddTokens: stemmed
// tokens, StemTokens).
func (ix *BM25) ScoreAllTokens(ctx context.Context, toks []string, allow []bool) ([]Hit, error) {
	s := ix.getScratch()
	defer ix.scratch.Put(s)
	return ix.scoreAll(ctx, s, toks, nil, allow)
}

// ScoreAllWeighted is ScoreAllTokens with token i's scores multiplied by
// w[i] (a weighted query: Σ_i w[i]·BM25(toks[i], d)); w must be as long
// as toks. A token of weight 0 matches nothing; weights are not checked
// otherwise (the caller's are finite and positive).
func (ix *BM25) ScoreAllWeighted(ctx context.Context, toks []string, w []float32, allow []bool) ([]Hit, error) {
	if len(w) != len(toks) {
		return nil, fmt.Errorf("index: %d query weights for %d tokens", len(w), len(toks))
	}
	s := ix.getScratch()
	defer ix.scratch.Put(s)
	return ix.scoreAll(ctx, s, toks, w, allow)
}

func (ix *BM25) scoreAll(ctx context.Context, s *scratch, toks []string, w []float32, allow []bool) ([]Hit, error) {
	if err := ix.accumulateTokens(ctx, s, toks, w); err != nil {
		s.reset()
		return nil, err
	}
	out := make([]Hit, 0, len(s.touched))
	for _, d := range s.touched {
		if allow != nil && !allow[d] {
			continue
		}
		out = append(out, Hit{ID: d, Score: s.acc[d]})
	}
	s.reset()
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// Score returns the BM25 score of one document for query.
func (ix *BM25) Score(query string, doc uint32) float32 {
	return ix.ScoreTokens(ix.cfg.Tokens(nil, query), doc)
}

// ScoreTokens is Score over a query already tokenized as the index reads
// text (Config.Tokens): for scoring one query against many documents
// without tokenizing (and stemming) it again each time.
func (ix *BM25) ScoreTokens(toks []string, doc uint32) float32 {
	var sum float32
	for _, tok := range toks {
		t, ok := ix.vocab[tok]
		if !ok {
			continue
		}
		docs := ix.docs[ix.off[t]:ix.off[t+1]]
		i := sort.Search(len(docs), func(i int) bool { return docs[i] >= doc })
		if i < len(docs) && docs[i] == doc {
			sum += ix.weights[int(ix.off[t])+i]
		}
	}
	return sum
}

// longQueryTerms is how many known query terms make Scorer score every
// document at once.
const longQueryTerms = 64

// Scorer returns a function giving the BM25 score of one document for
// query, as Score does, with the query tokenized once: for scoring a few
// documents chosen elsewhere (a plan's reached nodes) without touching the
// whole postings of common terms. It is safe for concurrent use.
func (ix *BM25) Scorer(query string) func(doc uint32) float32 {
	type term struct {
		docs []uint32
		ws   []float32
	}
	var terms []term
	for _, tok := range ix.cfg.Tokens(nil, query) {
		if t, ok := ix.vocab[tok]; ok {
			lo, hi := ix.off[t], ix.off[t+1]
			terms = append(terms, term{ix.docs[lo:hi], ix.weights[lo:hi]})
		}
	}
	if len(terms) > longQueryTerms {
		// A long query: every document's score once, from the postings,
		// on first use (added term by term in query order, as below, so
		// the sums are the same bits), instead of a search per term per
		// document.
		var once sync.Once
		var acc []float32
		return func(doc uint32) float32 {
			once.Do(func() {
				acc = make([]float32, ix.n)
				for _, t := range terms {
					for i, d := range t.docs {
						acc[d] += t.ws[i]
					}
				}
			})
			if int(doc) >= len(acc) {
				return 0
			}
			return acc[doc]
		}
	}
	return func(doc uint32) float32 {
		var sum float32
		for _, t := range terms {
			i := sort.Search(len(t.docs), func(i int) bool { return t.docs[i] >= doc })
			if i < len(t.docs) && t.docs[i] == doc {
				sum += t.ws[i]
			}
		}
		return sum
	}
}

// SearchBatch runs Search for every query using all cores; results are in
// query order. It stops early, returning ctx.Err(), when ctx is cancelled.
func (ix *BM25) SearchBatch(ctx context.Context, queries []string, k int, allow []bool) ([][]Hit, error) {
	out := make([][]Hit, len(queries))
	err := parallel.Chunks(ctx, len(queries), 16, 0, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			out[i] = ix.Search(queries[i], k, allow)
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
