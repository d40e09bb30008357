package simgrag

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/graphops"
	"github.com/strata-retrieval/strata/graphops/plan"
	"github.com/strata-retrieval/strata/graphops/subgraph"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/registry"
)

// Config sets SimGRAG's pattern-to-subgraph retrieval. Zero values are
// the paper's MetaQA settings k(n) = k(r) = 16 (appendix), and k = 100
// subgraphs, not the paper's 3: strata ranks the targets of the k best
// subgraphs instead of handing them to an LLM, the answers of the paper's
// top 3 come first either way, and k = 3 cut MetaQA's test Recall@20 from
// 0.990 / 0.973 to 0.852 / 0.657 (2- and 3-hop) at the same Hit@1.
type Config struct {
	K       int  `json:"k"`       // subgraphs kept, default 100
	KNodes  int  `json:"k_nodes"` // candidates per known pattern node, default 16
	KRels   int  `json:"k_rels"`  // candidate relation types per pattern triple, default 16
	NoPrune bool `json:"no_prune,omitempty"`
	// NodeVectors is what a known pattern node's text is matched against:
	// "name" (the default: the node's name, as SimGRAG embeds entities) or
	// "doc" (its whole document).
	NodeVectors string `json:"node_vectors,omitempty"`
	// ONNXEncoder is the sentence encoder directory pattern texts are
	// embedded with; "" is the dense channel's (infer.TextSpace).
	ONNXEncoder string `json:"onnx_encoder,omitempty"`
}

// Node vector kinds.
const (
	NodeNames = "name"
	NodeDocs  = "doc"
)

// WithDefaults fills unset fields.
func (c Config) WithDefaults() Config {
	if c.K <= 0 {
		c.K = 100
	}
	if c.KNodes <= 0 {
		c.KNodes = 16
	}
	if c.KRels <= 0 {
		c.KRels = 16
	}
	if c.NodeVectors == "" {
		c.NodeVectors = NodeNames
	}
	return c
}

// Matcher is SimGRAG's alignment of pattern graphs with subgraphs: known
// pattern nodes and relations get candidates by L2 distance of normalised
// vectors of one text space (infer.TextSpace; nodes: their names, or documents;
// relations: their names), and subgraph.TopK finds the k matches
// of smallest Graph Semantic Distance.
type Matcher struct {
	Cfg   Config
	ws    *workspace.Workspace
	space *infer.TextSpace
	rels  *index.Matrix // one row per relation type; nil when the space cannot encode
}

// New binds SimGRAG to a workspace and a text space. A space that cannot
// encode text (imported vectors without an encoder) serves patterns whose
// known nodes a planner linked and whose relations are the schema's; a
// pattern that needs its text embedded is then an error.
func New(ws *workspace.Workspace, space *infer.TextSpace, cfg Config) (*Matcher, error) {
	cfg = cfg.WithDefaults()
	if cfg.NodeVectors != NodeNames && cfg.NodeVectors != NodeDocs {
		return nil, fmt.Errorf("SimGRAG node vectors %q: want %s or %s", cfg.NodeVectors, NodeNames, NodeDocs)
	}
	s := &Matcher{Cfg: cfg, ws: ws, space: space}
	rt := ws.SKB.Schema.RelationTypes
	if space.Enc != nil && len(rt) > 0 {
		names := make([]string, len(rt))
		for i, r := range rt {
			names[i] = RelationText(r)
		}
		v, err := space.Encode(names)
		if err != nil {
			return nil, err
		}
		s.rels = &index.Matrix{Rows: len(rt), Dim: space.Dim(), Data: v}
	}
	return s, nil
}

// Open is SimGRAG over the environment's text space named by cfg.
func Open(env *infer.Env, cfg Config) (*Matcher, error) {
	space, err := env.TextSpace(cfg.ONNXEncoder)
	if err != nil {
		return nil, err
	}
	return New(env.WS, space, cfg)
}

// nodeVectors is the matrix known pattern nodes are matched against.
func (s *Matcher) nodeVectors(ctx context.Context) (*index.Matrix, error) {
	if s.Cfg.NodeVectors == NodeDocs {
		return s.space.Docs, nil
	}
	return s.space.Names(ctx)
}

// RelationText is a relation type's name as words ("directed_by" ->
// "directed by").
func RelationText(r string) string {
	return strings.Join(strings.FieldsFunc(r, func(c rune) bool { return c == '_' || c == '/' || c == '-' }), " ")
}

// l2 is the L2 distance of two vectors, computed from the vectors (not
// from their cosine, which loses the digits near distance 0).
func l2(a, b []float32) float32 {
	var s float64
	for i, x := range a {
		d := float64(x) - float64(b[i])
		s += d * d
	}
	return float32(math.Sqrt(s))
}

// Match computes the candidates of a pattern.
func (s *Matcher) Match(ctx context.Context, p data.Pattern) (*subgraph.Pattern, error) {
	mp := &subgraph.Pattern{Nodes: make([]subgraph.PatternNode, len(p.Nodes))}
	var known []string
	var at []int
	for i, n := range p.Nodes {
		pn := &mp.Nodes[i]
		pn.Type = -1
		if n.Unknown {
			if t, ok := s.ws.SKB.Schema.NodeTypeID(n.Type); ok {
				pn.Type = int(t)
			}
			continue
		}
		pn.Known = true
		if len(n.Nodes) > 0 {
			// Linked by a planner: those nodes, at distance 0.
			for _, v := range n.Nodes {
				if int(v) < len(s.ws.SKB.Nodes) {
					pn.Cands = append(pn.Cands, subgraph.NodeCand{ID: v})
				}
			}
			continue
		}
		known = append(known, n.Text)
		at = append(at, i)
	}
	if !slices.ContainsFunc(mp.Nodes, func(n subgraph.PatternNode) bool { return n.Known }) {
		return nil, fmt.Errorf("%w: no known node to anchor the search", subgraph.ErrPattern)
	}
	if len(known) > 0 {
		v, err := s.space.Encode(known)
		if err != nil {
			return nil, fmt.Errorf("SimGRAG matches pattern node %q by its text: %w", known[0], err)
		}
		q := &index.Matrix{Rows: len(known), Dim: s.space.Dim(), Data: v}
		nv, err := s.nodeVectors(ctx)
		if err != nil {
			return nil, err
		}
		hits, err := index.SearchDense(ctx, nv, q, s.Cfg.KNodes, nil, index.DenseConfig{})
		if err != nil {
			return nil, err
		}
		for j, hs := range hits {
			for _, h := range hs {
				mp.Nodes[at[j]].Cands = append(mp.Nodes[at[j]].Cands, subgraph.NodeCand{ID: h.ID, Dist: l2(q.Row(j), nv.Row(int(h.ID)))})
			}
		}
	}
	// Relations: a schema relation (or alternatives of them, or "*" and
	// SimGRAG's UNKNOWN relations: every relation) at distance 0; other
	// text by its k(r) nearest relation names.
	schema := &s.ws.SKB.Schema
	exact := func(rel string) ([]subgraph.RelCand, bool) {
		if rel == data.AnyRelation || data.IsUnknownRelation(rel) {
			out := make([]subgraph.RelCand, len(schema.RelationTypes))
			for r := range out {
				out[r] = subgraph.RelCand{Rel: data.RelID(r)}
			}
			return out, true
		}
		if r, ok := schema.RelationID(rel); ok {
			return []subgraph.RelCand{{Rel: r}}, true
		}
		var out []subgraph.RelCand
		for _, alt := range strings.Split(rel, "|") {
			r, ok := schema.RelationID(strings.TrimSpace(alt))
			if !ok {
				return nil, false
			}
			out = append(out, subgraph.RelCand{Rel: r})
		}
		return out, true
	}
	var texts []string
	var textAt []int
	for i, t := range p.Triples {
		e := subgraph.PatternEdge{H: t.H, T: t.T, Directed: t.Directed}
		// A single schema relation is text too (SimGRAG embeds the
		// pattern's relation), unless the space cannot embed it.
		if rs, ok := exact(t.Rel); ok && (strings.Contains(t.Rel, "|") || t.Rel == data.AnyRelation || data.IsUnknownRelation(t.Rel) || s.rels == nil) {
			e.Rels = rs
		} else {
			texts = append(texts, RelationText(t.Rel))
			textAt = append(textAt, i)
		}
		mp.Edges = append(mp.Edges, e)
	}
	if len(texts) > 0 {
		v, err := s.space.Encode(texts)
		if err != nil || s.rels == nil {
			return nil, fmt.Errorf("SimGRAG matches relation %q by its text: %w", texts[0], cmp.Or(err, infer.ErrNoEncoder))
		}
		rq := &index.Matrix{Rows: len(texts), Dim: s.space.Dim(), Data: v}
		rhits, err := index.SearchDense(ctx, s.rels, rq, s.Cfg.KRels, nil, index.DenseConfig{})
		if err != nil {
			return nil, err
		}
		for j, hs := range rhits {
			e := &mp.Edges[textAt[j]]
			for _, h := range hs {
				e.Rels = append(e.Rels, subgraph.RelCand{Rel: data.RelID(h.ID), Dist: l2(rq.Row(j), s.rels.Row(int(h.ID)))})
			}
		}
	}
	return mp, nil
}

// Result is one retrieval: the target's ranking (score = −GSD) and
// the subgraphs behind it.
type Result struct {
	Hits      []index.Hit
	Subgraphs []subgraph.Match
	Pattern   *subgraph.Pattern
	Stats     subgraph.Stats
}

// Retrieve runs SimGRAG for one pattern.
func (s *Matcher) Retrieve(ctx context.Context, p data.Pattern) (*Result, error) {
	mp, err := s.Match(ctx, p)
	if err != nil {
		return nil, err
	}
	subs, st, err := subgraph.TopK(ctx, s.ws.Graph, mp, s.Cfg.K, !s.Cfg.NoPrune)
	if err != nil {
		return nil, err
	}
	res := &Result{Subgraphs: subs, Pattern: mp, Stats: st}
	for _, c := range mp.RankTargets(subs, p.Target) {
		res.Hits = append(res.Hits, index.Hit{ID: c.ID, Score: -c.Dist})
	}
	return res, nil
}

// PatternSource gives the pattern graph of a query; ok is false when it has
// none (the method then returns no ranking).
type PatternSource func(q data.Query) (p data.Pattern, ok bool, err error)

// planned is a query's pattern graph compiled from its plan, with the
// plan's expression for the answer step (nil: the plan compiled only in
// MoR's strings) and its named nodes.
type planned struct {
	pattern data.Pattern
	expr    plan.Expr
	named   []uint32
}

// planPattern compiles the query's plan (infer.PlanFor: a planner's, or
// the workspace's) to a pattern graph through the typed plan
// (plan.CompilePattern). A plan the typed algebra rejects (a relation or
// node type the schema lacks: an LLM's plan) is written as a pattern from
// its strings (data.PlanPatternResolved), whose relation texts SimGRAG
// matches semantically; it has no answer step. ok is false when the
// query has no plan or the plan no pattern.
func planPattern(ws *workspace.Workspace, q data.Query) (planned, bool) {
	pl, ok := infer.PlanFor(ws, q)
	if !ok {
		return planned{}, false
	}
	e, p, err := plan.CompilePattern(&ws.SKB.Schema, pl, ws.Graph.Resolver())
	if errors.Is(err, graphops.ErrInvalidPlan) {
		p, ok := data.PlanPatternResolved(pl, ws.Graph.Resolver())
		return planned{pattern: p}, ok
	}
	if err != nil {
		return planned{}, false
	}
	return planned{pattern: p, expr: e, named: pl.Named}, true
}

// answer is SimGRAG's answer step (an LLM reading the question and the top
// subgraphs in the paper) done by the typed plan: at equal GSD, the
// target's bindings rank by the plan's own ranking of them, executed with
// soft universal steps (plan.Env.SoftEvery): the plan's named nodes first,
// then support (the fraction of a universal step's members a binding is
// related to; the anchors and paths that reach it), then the text score
// of the plan's restrictions (as plan-exec scores them). Bindings the plan
// does not reach follow in their GSD group. Scores become ranks (the
// first hit scores len(hits)), so the order survives id tie-breaks. A plan
// that does not execute (an anchor matched by its text, not by a name the
// graph has) leaves the GSD ranking as it is.
func (m *Method) answer(pl planned, hits []index.Hit) []index.Hit {
	ws := m.S.ws
	set, err := plan.Exec(plan.Env{Graph: ws.Graph, Names: ws.Names(), Text: ws, SoftEvery: true}, pl.expr)
	if err != nil || len(hits) == 0 {
		return hits
	}
	type key struct {
		named         bool
		support, text float32
	}
	keys := make(map[uint32]key, len(set.Nodes))
	for i, v := range set.Nodes {
		keys[v] = key{named: slices.Contains(pl.named, v), support: set.Support[i], text: set.Text[i]}
	}
	slices.SortStableFunc(hits, func(a, b index.Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		ka, kb := keys[a.ID], keys[b.ID]
		if ka.named != kb.named {
			if ka.named {
				return -1
			}
			return 1
		}
		return cmp.Or(cmp.Compare(kb.support, ka.support), cmp.Compare(kb.text, ka.text), cmp.Compare(a.ID, b.ID))
	})
	for i := range hits {
		hits[i].Score = float32(len(hits) - i)
	}
	return hits
}

// FilePatterns takes patterns from a patterns file (data.ReadPatterns).
func FilePatterns(ps map[int]data.Pattern) PatternSource {
	return func(q data.Query) (data.Pattern, bool, error) {
		p, ok := ps[q.ID]
		return p, ok, nil
	}
}

// Method ranks the answers of SimGRAG's top-k subgraphs. A query
// without a pattern, whose pattern cannot be matched (no known node, a
// relation that matches nothing) or matches no subgraph (nor do the
// patterns of More), falls back to BM25 and is counted.
type Method struct {
	S         *Matcher
	Fallbacks atomic.Int64
	// Patterns gives each query's pattern graph; nil: the query's plan,
	// compiled through the typed plan, with the answer step (NewPlanned).
	Patterns PatternSource
	// GSDOnly leaves out the answer step: a planned query's bindings rank
	// by GSD alone, ties by id ("simgrag-gsd", the ablation).
	GSDOnly bool
	// More, if set, gives further patterns whose targets rank after every
	// target of the main pattern: each new node at its best GSD among them,
	// score min(main) − 1 − GSD (KGQA: each topic's own path when a question
	// names several).
	More  func(q data.Query) ([]data.Pattern, error)
	Label string
}

func (m *Method) Name() string {
	if m.Label != "" {
		return m.Label
	}
	return "simgrag"
}

// TakeFallbacks implements FallbackCounter.
func (m *Method) TakeFallbacks() int64 { return m.Fallbacks.Swap(0) }

// NewPlanned is SimGRAG on each query's plan (the registry's "simgrag").
func NewPlanned(s *Matcher) *Method { return &Method{S: s} }

func (m *Method) Rank(ctx context.Context, q data.Query) ([]index.Hit, error) {
	var pl planned
	var ok bool
	if m.Patterns == nil {
		pl, ok = planPattern(m.S.ws, q)
	} else {
		var err error
		if pl.pattern, ok, err = m.Patterns(q); err != nil {
			return nil, err
		}
	}
	p := pl.pattern
	if !ok {
		infer.CountFallback(ctx, &m.Fallbacks)
		return m.S.ws.SearchDoc(q.Text, 100), nil
	}
	res, err := m.S.Retrieve(ctx, p)
	if errors.Is(err, subgraph.ErrPattern) {
		infer.CountFallback(ctx, &m.Fallbacks)
		return m.S.ws.SearchDoc(q.Text, 100), nil
	}
	if err != nil {
		return nil, fmt.Errorf("query %d: %w", q.ID, err)
	}
	if len(res.Hits) == 0 && m.More == nil {
		// No subgraph matches the pattern: BM25, counted, as for a query
		// without a pattern (KGQA's topic patterns may still rank).
		infer.CountFallback(ctx, &m.Fallbacks)
		return m.S.ws.SearchDoc(q.Text, 100), nil
	}
	if pl.expr != nil && !m.GSDOnly {
		return m.answer(pl, res.Hits), nil
	}
	if m.More == nil {
		return res.Hits, nil
	}
	more, err := m.More(q)
	if err != nil {
		return nil, fmt.Errorf("query %d: %w", q.ID, err)
	}
	floor := float32(0)
	seen := map[uint32]bool{}
	for _, h := range res.Hits {
		floor = min(floor, h.Score)
		seen[h.ID] = true
	}
	best := map[uint32]float32{}
	for _, p := range more {
		r, err := m.S.Retrieve(ctx, p)
		if err != nil {
			return nil, fmt.Errorf("query %d: %w", q.ID, err)
		}
		for _, h := range r.Hits {
			if s, ok := best[h.ID]; !seen[h.ID] && (!ok || h.Score > s) {
				best[h.ID] = h.Score
			}
		}
	}
	tail := make([]index.Hit, 0, len(best))
	for v, s := range best {
		tail = append(tail, index.Hit{ID: v, Score: floor - 1 + s})
	}
	index.Sort(tail)
	out := append(res.Hits, tail...)
	if len(out) == 0 {
		// Neither the main pattern nor the further ones match a subgraph
		// (KGQA: the joint pattern nor any topic's own path).
		infer.CountFallback(ctx, &m.Fallbacks)
		return m.S.ws.SearchDoc(q.Text, 100), nil
	}
	return out, nil
}

var (
	_ infer.Method          = (*Method)(nil)
	_ infer.FallbackCounter = (*Method)(nil)
)

func init() {
	registry.RegisterMethod("simgrag", "SimGRAG: the query's plan as a pattern graph, matched onto the graph by Graph Semantic Distance in a text space that can embed the pattern's text (the dense channel's encoder, or an ONNX sentence encoder with --onnx-encoder); the target's bindings in the top-k subgraphs ranked by GSD, ties by the typed plan (named nodes, a universal step's share of members, the restriction's BM25) (needs plans)", func(env *infer.Env) (infer.Method, error) {
		s, err := Open(env, Config{ONNXEncoder: env.ONNXEncoder})
		if err != nil {
			return nil, err
		}
		return NewPlanned(s), nil
	})
	registry.RegisterMethod("simgrag-gsd", "SimGRAG without the answer step: the query's plan as a pattern graph, the target's bindings ranked by GSD alone, ties by node id (the ablation of simgrag's ranking by the plan)", func(env *infer.Env) (infer.Method, error) {
		s, err := Open(env, Config{ONNXEncoder: env.ONNXEncoder})
		if err != nil {
			return nil, err
		}
		return &Method{S: s, GSDOnly: true, Label: "simgrag-gsd"}, nil
	})
}

// FromFile is SimGRAG with the pattern graphs of a patterns file
// (data.ReadPatterns), labelled by the file's name.
func FromFile(env *infer.Env, path string) (*Method, error) {
	ps, err := data.ReadPatterns(path)
	if err != nil {
		return nil, err
	}
	s, err := Open(env, Config{ONNXEncoder: env.ONNXEncoder})
	if err != nil {
		return nil, err
	}
	return &Method{S: s, Patterns: FilePatterns(ps), Label: "simgrag:" + filepath.Base(path)}, nil
}
