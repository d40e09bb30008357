package infer

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync/atomic"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/graphops"
	"github.com/strata-retrieval/strata/graphops/workspace"
)

// Method ranks candidates for a query.
type Method interface {
	Name() string
	Rank(ctx context.Context, q data.Query) ([]index.Hit, error)
}

// MethodInfo describes a method for help texts.
type MethodInfo struct {
	Name, Summary string
}

// Methods lists the methods NewMethod knows.
func Methods() []MethodInfo {
	return []MethodInfo{
		{"bm25", "BM25 (bm25s lucene, k1=1.5, b=0.75) over the whole document of every candidate"},
		{"oracle-plan", "executes the query's ground-truth plan on the graph and ranks the reached nodes by BM25 of the textual restriction (an upper bound; needs plans)"},
		{"plan-structure", "executes only the structure of the ground-truth plan: reached nodes ranked by id, no text (shows what graph-only retrieval misses)"},
		{"dense", "cosine of query and document vectors from the workspace's dense channel (strata train encoder, or imported embeddings)"},
		{"simgrag", "SimGRAG: the query's plan as a pattern graph, matched onto the graph by Graph Semantic Distance over the dense channel; the target's bindings in the top-k subgraphs ranked by GSD (needs plans and an encoder)"},
		{"bm25+dense", "reciprocal rank fusion (k=60) of bm25 and dense (bm25 alone without a dense channel)"},
		{"sage", "SAGE: the top 10 of bm25+dense, plus the 10 best of their 1-hop neighbours rescored by 0.4·dense + 0.6·BM25 over the neighbour set"},
		{"sage-sim", "SAGE expanding along the similarity graph of the candidates' text fields (95th percentile) instead of relations"},
		{"sage-plan", "SAGE with plan-based seeds (mor-traversal) and the ±Edge policy: no expansion when the plan has relational hops"},
		{"sage-plan-always", "SAGE with plan-based seeds, expanding every query (without the ±Edge policy)"},
		{"mor-traversal", "MoR's mixed structural-textual traversal with the query's plan, the pool ranked by BM25 (MoR without its reranker; needs plans)"},
		{"plan-exec", "executes the query's plan (--planner, --plans or the workspace's): the reached candidates ranked by BM25 of the target's restriction, then every other candidate by BM25 of the query"},
	}
}

// NewMethod returns the named method over ws.
func NewMethod(ws *workspace.Workspace, name string) (Method, error) {
	switch name {
	case "bm25":
		return &BM25Method{ws: ws}, nil
	case "dense":
		d, err := LoadDense(ws)
		if err != nil {
			return nil, err
		}
		return &DenseMethod{ws: ws, d: d}, nil
	case "mor-traversal":
		return &TraversalMethod{ws: ws, tm: NewWorkspaceMatcher(ws)}, nil
	case "simgrag":
		d, err := LoadDense(ws)
		if err != nil {
			return nil, err
		}
		s, err := NewSimGRAG(ws, d, SimGRAGConfig{})
		if err != nil {
			return nil, err
		}
		return &SimGRAGMethod{S: s, Patterns: PlanPatterns(ws)}, nil
	case "bm25+dense", "sage", "sage-sim", "sage-plan", "sage-plan-always":
		return newSAGEMethod(ws, name)
	case "oracle-plan", "plan-structure":
		return &PlanMethod{ws: ws, useText: name == "oracle-plan"}, nil
	case "plan-exec":
		return &PlanMethod{ws: ws, useText: true, fill: true}, nil
	}
	var names []string
	for _, m := range Methods() {
		names = append(names, m.Name)
	}
	return nil, fmt.Errorf("unknown method %q (have %s)", name, strings.Join(names, ", "))
}

// BM25Method scores every candidate whose document matches a query term.
type BM25Method struct{ ws *workspace.Workspace }

func (m *BM25Method) Name() string { return "bm25" }

func (m *BM25Method) Rank(_ context.Context, q data.Query) ([]index.Hit, error) {
	hits := m.ws.Doc.ScoreAll(q.Text, nil)
	for i := range hits {
		hits[i].ID = m.ws.Candidates[hits[i].ID]
	}
	return hits, nil
}

// FallbackCounter is a method that answers some queries by falling back
// to BM25 (no usable plan, no pattern). TakeFallbacks returns the count
// since the last call and resets it.
type FallbackCounter interface {
	TakeFallbacks() int64
}

var (
	_ FallbackCounter = (*PlanMethod)(nil)
	_ FallbackCounter = (*TraversalMethod)(nil)
	_ FallbackCounter = (*PlannedMethod)(nil)
	_ FallbackCounter = (*SimGRAGMethod)(nil)
	_ FallbackCounter = (*FilePlanned)(nil)
)

// PlanMethod executes a query's plan. With useText it ranks the reached
// nodes by BM25 of the target's textual restriction over their documents;
// without, it ranks them by id. With fill (plan-exec) every other
// candidate follows, ranked by BM25 of the whole query. Queries whose plan
// is missing, invalid or reaches no candidate fall back to BM25 over the
// query, as MoR does; Fallbacks counts them.
type PlanMethod struct {
	ws        *workspace.Workspace
	useText   bool
	fill      bool
	Fallbacks atomic.Int64
}

func (m *PlanMethod) Name() string {
	switch {
	case m.fill:
		return "plan-exec"
	case m.useText:
		return "oracle-plan"
	}
	return "plan-structure"
}

// TakeFallbacks implements FallbackCounter.
func (m *PlanMethod) TakeFallbacks() int64 { return m.Fallbacks.Swap(0) }

func (m *PlanMethod) Rank(ctx context.Context, q data.Query) ([]index.Hit, error) {
	plan, ok := m.ws.Plans[q.ID]
	if q.Plan != nil {
		plan, ok = *q.Plan, true
	}
	if !ok {
		m.Fallbacks.Add(1)
		return (&BM25Method{m.ws}).Rank(ctx, q)
	}
	res, err := graphops.ExecutePlan(m.ws.Graph, m.ws.Names(), plan)
	if errors.Is(err, graphops.ErrInvalidPlan) {
		m.Fallbacks.Add(1)
		return (&BM25Method{m.ws}).Rank(ctx, q)
	}
	if err != nil {
		return nil, err
	}
	if res.Reach == nil { // target type only: no structure
		m.Fallbacks.Add(1)
		return (&BM25Method{m.ws}).Rank(ctx, q)
	}
	out := make([]index.Hit, 0, len(res.Reach))
	for _, v := range res.Reach {
		if m.ws.CandMask[v] {
			out = append(out, index.Hit{ID: v})
		}
	}
	if m.fill {
		if len(out) == 0 {
			m.Fallbacks.Add(1)
			return (&BM25Method{m.ws}).Rank(ctx, q)
		}
		if len(res.TargetRestriction) > 0 {
			out = m.scoreRestriction(out, res.TargetRestriction)
		}
		return fillBelow(out, m.ws.Doc.ScoreAll(q.Text, nil), m.ws.Candidates), nil
	}
	if !m.useText || len(res.TargetRestriction) == 0 {
		return out, nil
	}
	return m.scoreRestriction(out, res.TargetRestriction), nil
}

// scoreRestriction scores the reached nodes out (ascending ids) by BM25 of
// the restriction over their documents.
func (m *PlanMethod) scoreRestriction(out []index.Hit, restriction []string) []index.Hit {
	// Score the restriction once over all documents (only those sharing a
	// term with it are returned), then look the reached nodes up.
	text := strings.Join(restriction, " ")
	matched := m.ws.Doc.ScoreAll(text, nil) // ascending doc id = ascending node id
	j := 0
	for i := range out {
		for j < len(matched) && m.ws.Candidates[matched[j].ID] < out[i].ID {
			j++
		}
		if j < len(matched) && m.ws.Candidates[matched[j].ID] == out[i].ID {
			out[i].Score = matched[j].Score
		}
	}
	return out
}

// fillBelow returns first followed by the candidates of rest (document
// hits of the whole-document index, mapped through cands) that first does
// not hold, each scored below every score of first, in rest's order.
func fillBelow(first, rest []index.Hit, cands []uint32) []index.Hit {
	in := make(map[uint32]bool, len(first))
	lo := float32(math.Inf(1))
	for _, h := range first {
		in[h.ID] = true
		lo = min(lo, h.Score)
	}
	var hi float32
	for _, h := range rest {
		hi = max(hi, h.Score)
	}
	out := first
	for _, h := range rest {
		v := cands[h.ID]
		if !in[v] {
			out = append(out, index.Hit{ID: v, Score: lo - 1 - (hi - h.Score)})
		}
	}
	return out
}

// PlannedMethod runs a method with the plans of a planner: each query's
// plan is predicted and passed on (q.Plan), so any method that follows a
// query's plan (plan-exec, mor-traversal, simgrag, sage-plan, MoR) plans
// with it.
type PlannedMethod struct {
	P *Planner
	M Method
}

func (m *PlannedMethod) Name() string { return "planner+" + m.M.Name() }

func (m *PlannedMethod) Rank(ctx context.Context, q data.Query) ([]index.Hit, error) {
	plan, _, err := m.P.Predict(q)
	if err != nil {
		return nil, err
	}
	q.Plan = &plan // an empty plan when none was found: never the workspace's
	return m.M.Rank(ctx, q)
}

// TakeFallbacks implements FallbackCounter (the wrapped method's count).
func (m *PlannedMethod) TakeFallbacks() int64 {
	if f, ok := m.M.(FallbackCounter); ok {
		return f.TakeFallbacks()
	}
	return 0
}

// newSAGEMethod builds bm25+dense and the SAGE variants.
func newSAGEMethod(ws *workspace.Workspace, name string) (Method, error) {
	d, err := LoadDense(ws)
	if errors.Is(err, ErrNoDense) {
		d, err = nil, nil
	}
	if err != nil {
		return nil, err
	}
	var seed Method
	cfg := SAGEConfig{}
	switch name {
	case "sage-plan", "sage-plan-always":
		seed = &TraversalMethod{ws: ws, tm: NewWorkspaceMatcher(ws)}
		cfg.EdgePolicy = name == "sage-plan"
	default:
		p := &Pipeline{Format: PipelineFormat, Name: "bm25+dense", Scorers: []Stage{{Method: "bm25"}}}
		if d != nil {
			p.Scorers = append(p.Scorers, Stage{Method: "dense"})
			p.Fusion = &FusionSpec{Kind: "rrf"}
		}
		if seed, err = p.Compile(ws); err != nil {
			return nil, err
		}
		if name == "bm25+dense" {
			return seed, nil
		}
	}
	var sim *graphops.SimGraph
	if name == "sage-sim" {
		cfg.Similarity = true
		if sim, _, _, err = BuildSimilarityGraph(context.Background(), ws, d, graphops.SimGraphConfig{}); err != nil {
			return nil, err
		}
	}
	return NewSAGE(ws, d, seed, cfg, sim, name)
}

// FilePlanned runs a method with the plans of a plans file: each query's
// plan (an empty one for queries the file lacks) is passed on as q.Plan.
type FilePlanned struct {
	Plans map[int]data.Plan
	M     Method
	Label string
}

func (m *FilePlanned) Name() string { return cmp.Or(m.Label, m.M.Name()) }

func (m *FilePlanned) Rank(ctx context.Context, q data.Query) ([]index.Hit, error) {
	plan := m.Plans[q.ID]
	q.Plan = &plan
	return m.M.Rank(ctx, q)
}

// TakeFallbacks implements FallbackCounter (the wrapped method's count).
func (m *FilePlanned) TakeFallbacks() int64 {
	if f, ok := m.M.(FallbackCounter); ok {
		return f.TakeFallbacks()
	}
	return 0
}
