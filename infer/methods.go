package infer

import (
	"context"
	"errors"
	"fmt"
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
		{"mor-traversal", "MoR's mixed structural-textual traversal with the query's plan, the pool ranked by BM25 (MoR without its reranker; needs plans)"},
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
	case "oracle-plan", "plan-structure":
		return &PlanMethod{ws: ws, useText: name == "oracle-plan"}, nil
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

// PlanMethod executes a query's plan. With useText it ranks the reached
// nodes by BM25 of the target's textual restriction over their documents;
// without, it ranks them by id. Queries whose plan is missing or invalid
// fall back to BM25 over the query, as MoR does; Fallbacks counts them.
type PlanMethod struct {
	ws        *workspace.Workspace
	useText   bool
	Fallbacks atomic.Int64
}

func (m *PlanMethod) Name() string {
	if m.useText {
		return "oracle-plan"
	}
	return "plan-structure"
}

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
	if !m.useText || len(res.TargetRestriction) == 0 {
		return out, nil
	}
	// Score the restriction once over all documents (only those sharing a
	// term with it are returned), then look the reached nodes up.
	text := strings.Join(res.TargetRestriction, " ")
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
	return out, nil
}
