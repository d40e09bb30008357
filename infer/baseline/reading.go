package baseline

import (
	"context"
	"errors"
	"math"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/registry"
	"github.com/strata-retrieval/strata/reranker"
)

func init() {
	registry.RegisterMethod("bm25-stem", "BM25 (the workspace's k1 and b, 1.5 and 0.75 by default) over every candidate's document and the names of up to 8 of its neighbours (those its edges point to, then those pointing to it; their other names, where an alias field has them), words stemmed (Snowball English): \"praises\" finds \"praise\", \"eagerness\" \"eager\"", func(env *infer.Env) (infer.Method, error) {
		if _, err := infer.ReadingOf(env.WS); err != nil { // built at load, not on a first request
			return nil, err
		}
		return NewBM25Stem(env.WS), nil
	})
	registry.RegisterMethod("reading", "the text channel that reads: bm25-stem, each query word's relatives among the candidates' names added at weight 0.25 (the names' words holding its stem: \"wasp\" reads \"waspish\" too), fused with dense (RRF k=60, weights 1 and 0.5; bm25-stem alone without a dense channel), its top 100 reranked by the node type the query's words suggest (a naive Bayes model of type given a node's own text); a query a planner reads as a passage (no plan fits: a definition, a description; or too long to plan) also scores each candidate by its name words' profiles (the documents of the first 20 candidates a word names, pooled), at weight 4; a passage's hits whose every name it says go below the others of its top 100, and a word it says lends its profile to none of the candidates named by it (a definition does not say the word it defines; a word in quotes is spoken of, and exempt)", func(env *infer.Env) (infer.Method, error) {
		if _, err := infer.ReadingOf(env.WS); err != nil {
			return nil, err
		}
		d, err := env.Dense()
		if errors.Is(err, infer.ErrNoDense) {
			return NewReading(env.WS, nil), nil
		}
		if err != nil {
			return nil, err
		}
		return NewReading(env.WS, d), nil
	})
}

// NewBM25Stem returns BM25 over ws's reading index (infer.Reading).
func NewBM25Stem(ws *workspace.Workspace) *BM25Stem { return &BM25Stem{ws: ws} }

// BM25Stem scores every candidate whose stemmed document or neighbour line
// matches a stemmed query term.
type BM25Stem struct{ ws *workspace.Workspace }

func (m *BM25Stem) Name() string { return "bm25-stem" }

func (m *BM25Stem) Rank(ctx context.Context, q data.Query) ([]index.Hit, error) {
	r, err := infer.ReadingOf(m.ws)
	if err != nil {
		return nil, err
	}
	hits, err := r.BM25.ScoreAllContext(ctx, q.Text, nil) // stemmed, as the index's config says
	if err != nil {
		return nil, err
	}
	return candidateNodes(m.ws, hits), nil
}

// candidateNodes turns hits on the reading index (candidate numbers) into
// hits on nodes, in place.
func candidateNodes(ws *workspace.Workspace, hits []index.Hit) []index.Hit {
	for i := range hits {
		hits[i].ID = ws.Candidates[hits[i].ID]
	}
	return hits
}

// The reading channel's settings, chosen on the 400 development
// definitions of GCIDE (scripts/robust_gcide.py SKB OUT 400 400), never on
// the held-out 400 (docs/real-data.md).
const (
	readingDenseWeight = 0.5 // the dense channel's RRF weight beside bm25-stem's 1
	readingTypeWeight  = 0.1 // lambda: a place's -ln(1+rank) against ln P(type | query)
	readingDepth       = 100 // how many fused candidates the type prior reranks
	// readingTypeFeatures is how many features (infer.TypeFeatures) a
	// text's type prior weighs at most: the longest development
	// definition's (30 words and two openings). A longer text's ln P is
	// scaled by readingTypeFeatures / its features.
	readingTypeFeatures = 32
	// readingRelativeWeight weighs a query word's relatives among the
	// names (infer.Reading.Expand) beside the query's own words' 1.
	readingRelativeWeight = 0.25
	// readingProfileWeight weighs a candidate's best name profile's
	// score beside its own document's 1 (withProfiles);
	// readingProfileNames is how many of the best profiles count.
	readingProfileWeight = 4
	readingProfileNames  = 30
)

// NewReading returns the reading channel over ws and its dense channel d
// (nil: bm25-stem alone, reranked by the type prior).
func NewReading(ws *workspace.Workspace, d *infer.DenseChannel) *Reading {
	r := &Reading{ws: ws}
	if d != nil {
		r.dense = NewDense(ws, d)
	}
	return r
}

// Reading is the text channel that reads: bm25-stem fused with the dense
// channel by reciprocal rank fusion, and the fused top readingDepth
// reranked by the node type the query's words suggest: candidate x at
// place i (from 0) scores -ln(1+i) + readingTypeWeight * ln P(type(x) |
// query) under the reading's type prior (scaled down past
// readingTypeFeatures features). "To conquer; to subdue" is a
// verb's definition, "One who praises" a person's. Below the top
// readingDepth the fused order is kept. A passage (data.Query.Passage: a
// planner read it as text no plan fits, or too long to plan) adds the
// candidates' name profiles to the lexical scores (bm25-stem with the
// query's relatives; withProfiles): a definition defines a word, any of
// its senses, and a word's profile reads what all of them say. A
// question is not read so: it asks for one sense (WordNet's val MRR fell
// 0.5844 -> 0.5024 when every query was). A definition does not say the
// word it defines either, so a word a passage says lends its profile to
// none of the candidates named by it (withProfiles), and its hits whose
// every name it says go below the others of the top readingDepth
// (demoteSaid); a word in quotes is spoken of, not used, and says nothing
// (infer.PassageWords). A passage that opens with an infinitive defines a
// verb (infer.DefinesVerb), and its hits of the node types that name
// verbs go above the others of the top readingDepth first (verbsFirst).
type Reading struct {
	ws    *workspace.Workspace
	dense *DenseMethod
}

func (m *Reading) Name() string { return "reading" }

func (m *Reading) Rank(ctx context.Context, q data.Query) ([]index.Hit, error) {
	r, err := infer.ReadingOf(m.ws)
	if err != nil {
		return nil, err
	}
	toks, w, err := r.Expand(ctx, q.Text, readingRelativeWeight)
	if err != nil {
		return nil, err
	}
	a, err := r.BM25.ScoreAllWeighted(ctx, toks, w, nil)
	if err != nil {
		return nil, err
	}
	var said []string // the passage's words (infer.PassageWords)
	if q.Passage {
		said = infer.PassageWords(q.Text)
		if a, err = withProfiles(ctx, r, m.ws, said, toks, w, a); err != nil {
			return nil, err
		}
	}
	a = candidateNodes(m.ws, a)
	infer.SortHits(a)
	fused := a
	if m.dense != nil {
		b, err := m.dense.Rank(ctx, q)
		if err != nil {
			return nil, err
		}
		infer.SortHits(b)
		fused = reranker.FuseRRF([][]index.Hit{a, b}, []float64{1, readingDenseWeight}, 60)
	}
	if r.Prior != nil && len(fused) > 0 {
		fused = typeRerank(fused, r, m.ws, q.Text)
	}
	if q.Passage {
		if infer.DefinesVerb(said) {
			fused = verbsFirst(fused, r, m.ws)
		}
		fused = demoteSaid(fused, r, m.ws, said)
	}
	return fused, nil
}

// verbsFirst moves the hits among the first readingDepth of a sorted list
// whose node type names verbs (infer.Reading.NamesVerb) above the others
// of those, each group in its order (firstTop). A passage that opens with
// an infinitive defines a verb (infer.DefinesVerb): "To restore to one's
// own country" is repatriate, not compatriot.
func verbsFirst(hits []index.Hit, r *infer.Reading, ws *workspace.Workspace) []index.Hit {
	return firstTop(hits, func(h index.Hit) bool {
		d, ok := ws.DocOf(h.ID)
		return ok && r.NamesVerb(int(d))
	})
}

// firstTop moves the hits among the first readingDepth of a sorted list
// for which first holds above the others of those, each group in its
// order, and lays the scores from the first of the others down in whole
// steps (no float32 ties), below the last hit first holds for (or the
// list's first, when it holds for none). Where it holds for every one of
// them the list is as it was.
func firstTop(hits []index.Hit, first func(index.Hit) bool) []index.Hit {
	top := min(readingDepth, len(hits))
	var lead, rest []index.Hit
	for _, h := range hits[:top] {
		if first(h) {
			lead = append(lead, h)
		} else {
			rest = append(rest, h)
		}
	}
	if len(rest) == 0 {
		return hits
	}
	base := hits[0].Score + 1 // first holds for none of the top
	if len(lead) > 0 {
		base = lead[len(lead)-1].Score
	}
	copy(hits, lead)
	copy(hits[len(lead):], rest)
	for i := len(lead); i < len(hits); i++ {
		hits[i].Score = base - float32(i-len(lead)+1) // whole steps: no float32 ties
	}
	return hits
}

// demoteSaid moves the hits among the first readingDepth of a sorted list
// whose every name the passage's words ts (infer.PassageWords) say
// (infer.Reading.SaysEveryName) below
// the others of those, each group in its order, and lays the scores from
// there down in whole steps. A passage describes something it does not
// name: "Swiftness rapidity velocity celerity speed" defines none of the
// synsets {speed, velocity} and {rapidity}, which it names whole.
func demoteSaid(hits []index.Hit, r *infer.Reading, ws *workspace.Workspace, ts []string) []index.Hit {
	return firstTop(hits, func(h index.Hit) bool {
		return int(h.ID) >= len(ws.SKB.Nodes) || !r.SaysEveryName(ws.SKB, h.ID, ts)
	})
}

// withProfiles adds to each candidate's lexical score in lex (candidate
// numbers) readingProfileWeight times its best name word's profile score
// (infer.Reading.Profiles) among the readingProfileNames best profiles
// for the weighted query toks, w; a candidate whose own document matched
// no term joins with that alone, after the others (the caller sorts the
// hits: index.Sort is a total order). The best profiles list at most
// infer.MaxProfileNamed candidates each. A profile whose stem is a word
// of the passage (its words: infer.PassageWords) lifts none of its candidates whose
// names' words of that stem the passage all says
// (infer.Reading.NameSaysStem): "Abounding in mud" lifts neither mud nor
// mud pie by the profile of "mud", and muddy by its own.
func withProfiles(ctx context.Context, r *infer.Reading, ws *workspace.Workspace, passage []string, toks []string, w []float32, lex []index.Hit) ([]index.Hit, error) {
	ph, err := r.Profiles.ScoreAllWeighted(ctx, toks, w, nil)
	if err != nil {
		return nil, err
	}
	top := index.NewTopK(readingProfileNames)
	for _, h := range ph {
		top.Push(h)
	}
	said := map[string]bool{}
	for _, x := range passage {
		said[x] = true
	}
	saidProfile := r.SaidProfiles(said)
	best := map[uint32]float32{}
	for _, h := range top.Sorted(nil) {
		stem, isSaid := saidProfile[int32(h.ID)]
		for _, d := range r.ProfileDocs[h.ID] {
			if isSaid && r.NameSaysStem(ws.SKB, ws.Candidates[d], stem, said) {
				continue // a word the passage says lends its profile to none it names
			}
			best[uint32(d)] = max(best[uint32(d)], h.Score)
		}
	}
	for i := range lex {
		if s, ok := best[lex[i].ID]; ok {
			lex[i].Score += readingProfileWeight * s
			delete(best, lex[i].ID)
		}
	}
	for d, s := range best {
		lex = append(lex, index.Hit{ID: d, Score: readingProfileWeight * s})
	}
	return lex, nil
}

// typeRerank reranks the first readingDepth hits of a sorted list by place
// and type prior (Reading's doc) and keeps the rest below them in order.
func typeRerank(hits []index.Hit, r *infer.Reading, ws *workspace.Workspace, text string) []index.Hit {
	lp := make([]float64, r.Prior.Labels())
	feats := infer.TypeFeatures(text)
	r.Prior.LogPosterior(feats, lp)
	// A type the prior learned nothing of (no candidate of it has text
	// besides its name: -Inf) is no evidence against its candidates: they
	// take the most probable learned type's ln P, and their place among
	// that type's candidates.
	best := math.Inf(-1)
	for _, v := range lp {
		if !math.IsNaN(v) && !math.IsInf(v, -1) {
			best = max(best, v)
		}
	}
	// Naive Bayes adds a term per feature, so a long text's ln P runs
	// far past what readingTypeWeight was chosen on: scaled to
	// readingTypeFeatures' worth, a pasted page keeps its lexical order
	// and its type still counts.
	scale := 1.0
	if len(feats) > readingTypeFeatures {
		scale = float64(readingTypeFeatures) / float64(len(feats))
	}
	for y, v := range lp {
		if math.IsNaN(v) || math.IsInf(v, -1) {
			v = best
		}
		lp[y] = scale * v
	}
	top := min(readingDepth, len(hits))
	low := math.Inf(1)
	for i := range top {
		s, l := -math.Log1p(float64(i)), minLogPrior // a hit that is no candidate: the floor
		if d, ok := ws.DocOf(hits[i].ID); ok && !math.IsInf(lp[r.Label[d]], -1) {
			l = max(lp[r.Label[d]], minLogPrior)
		}
		s += readingTypeWeight * l
		hits[i].Score = float32(s)
		low = min(low, s)
	}
	for i := top; i < len(hits); i++ {
		hits[i].Score = float32(low - float64(i-top+1)) // whole steps: no float32 ties
	}
	infer.SortHits(hits[:top])
	return hits
}

// minLogPrior floors ln P(type | query) so that a type the query's
// words make all but impossible still gets a finite score that sorts; a
// hit that is no candidate gets it.
const minLogPrior = -1000.0
