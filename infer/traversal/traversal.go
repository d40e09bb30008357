// Package traversal is MoR's mixed structural-textual traversal (MoR §3.2)
// over a workspace, ranked by the first-stage BM25: MoR without its
// reranker (infer/mor adds the reranker). Deviations from MoR: the pool is
// ranked by BM25 where MoR's ablation uses Ada-002 cosine; a plan with
// linked anchors seeds the first layer with them instead of the top 5
// textual matches; relation steps may be directed and positions untyped
// (MoR's relations are undirected and its positions typed). The plan is
// compiled to strata's typed algebra (graphops/plan.MixedTraversal), so a
// universal step and attribute filters take part in the walk.
package traversal

import (
	"context"
	"errors"
	"sync/atomic"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/graphops"
	gplan "github.com/strata-retrieval/strata/graphops/plan"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/registry"
)

func init() {
	registry.RegisterMethod("mor-traversal", "MoR's mixed structural-textual traversal with the query's plan, the pool ranked by BM25 (MoR without its reranker; needs plans)", func(env *infer.Env) (infer.Method, error) {
		return New(env.WS), nil
	})
}

// New returns MoR's traversal over ws ranked by BM25.
func New(ws *workspace.Workspace) *Method {
	return &Method{ws: ws, tm: workspace.NewTypeMatcher(ws)}
}

var _ infer.FallbackCounter = (*Method)(nil)

// Method runs MoR's mixed traversal with the query's plan (its own,
// or the workspace's for its id) and ranks the pool by the first-stage BM25
// score: MoR without its reranker. Queries without a usable plan fall back
// to BM25, as MoR does, and are counted.
type Method struct {
	ws        *workspace.Workspace
	tm        *workspace.TypeMatcher
	Config    gplan.TraversalConfig
	Fallbacks atomic.Int64
}

func (m *Method) Name() string { return "mor-traversal" }

// TakeFallbacks implements FallbackCounter.
func (m *Method) TakeFallbacks() int64 { return m.Fallbacks.Swap(0) }

func (m *Method) Rank(ctx context.Context, q data.Query) ([]index.Hit, error) {
	plan, ok := infer.PlanFor(m.ws, q)
	first := m.ws.SearchDoc(q.Text, max(m.Config.PoolSize, 100))
	if !ok {
		infer.CountFallback(ctx, &m.Fallbacks)
		return first, nil
	}
	res, err := gplan.MixedTraversal(m.ws.Graph, m.tm, q.Text, plan, m.Config, first)
	if errors.Is(err, graphops.ErrInvalidPlan) {
		infer.CountFallback(ctx, &m.Fallbacks)
		return first, nil
	}
	if err != nil {
		return nil, err
	}
	out := make([]index.Hit, 0, len(res.Pool))
	for i, h := range res.Pool {
		if m.ws.CandMask[h.ID] {
			out = append(out, index.Hit{ID: h.ID, Score: float32(len(res.Pool) - i)})
		}
	}
	return out, nil
}
