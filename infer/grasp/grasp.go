package infer

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/graphops"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/reranker"
)

// GRASP's anchor linking: per match mode, the top K nodes of the anchor's
// label whose cosine is at least τ·(top-1 cosine).
var graspLink = map[string]struct {
	K   int
	Tau float32
}{"name": {5, 0.95}, "doc": {10, 0.90}}

// GraspLinker links anchor texts to nodes through two dense indexes: node
// names only (match_mode name) and whole documents (doc), both encoded with
// the dense channel's encoder; the label restricts the search to its type.
type GraspLinker struct {
	ws    *workspace.Workspace
	enc   TextEncoder
	names *index.Matrix
	docs  *index.Matrix
	masks [][]bool
}

// NewGraspLinker encodes every node's name (documents come from the dense
// channel).
func NewGraspLinker(ctx context.Context, ws *workspace.Workspace, d *DenseChannel) (*GraspLinker, error) {
	enc, err := DenseTextEncoder(d)
	if err != nil {
		return nil, err
	}
	n := len(ws.SKB.Nodes)
	names := index.NewMatrix(n, enc.Dim())
	for lo := 0; lo < n; lo += 4096 {
		hi := min(lo+4096, n)
		texts := make([]string, hi-lo)
		for i := range texts {
			texts[i] = ws.SKB.Nodes[lo+i].Name
		}
		v, err := enc.EncodeTexts(texts)
		if err != nil {
			return nil, err
		}
		copy(names.Data[lo*names.Dim:], v)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	l := &GraspLinker{ws: ws, enc: enc, names: names, docs: d.Docs, masks: make([][]bool, len(ws.SKB.Schema.NodeTypes))}
	for t := range l.masks {
		l.masks[t] = make([]bool, n)
	}
	for v := range n {
		l.masks[ws.SKB.Nodes[v].Type][v] = true
	}
	return l, nil
}

// Link returns the nodes an anchor binds to and their cosines. An anchor
// the planner already linked (a.Nodes) binds to those nodes, each with the
// cosine of the anchor text and its name.
func (l *GraspLinker) Link(ctx context.Context, a data.GraspAnchor) ([]graphops.GraspBinding, error) {
	if len(a.Nodes) > 0 {
		qv, err := l.enc.EncodeTexts([]string{a.Text})
		if err != nil {
			return nil, err
		}
		out := make([]graphops.GraspBinding, 0, len(a.Nodes))
		for _, v := range a.Nodes {
			if int(v) >= l.names.Rows {
				return nil, fmt.Errorf("anchor %q: node %d out of range", a.Text, v)
			}
			var c float32
			for j, x := range l.names.Row(int(v)) {
				c += x * qv[j]
			}
			out = append(out, graphops.GraspBinding{Node: v, Cos: c})
		}
		return out, nil
	}
	t, ok := l.ws.SKB.Schema.NodeTypeID(a.Label)
	if !ok {
		return nil, fmt.Errorf("anchor label %q is not a node type", a.Label)
	}
	cfg, ok := graspLink[a.MatchMode]
	if !ok {
		return nil, fmt.Errorf("anchor match_mode %q", a.MatchMode)
	}
	m := l.names
	if a.MatchMode == "doc" {
		m = l.docs
	}
	qv, err := l.enc.EncodeTexts([]string{a.Text})
	if err != nil {
		return nil, err
	}
	hs, err := index.SearchDense(ctx, m, &index.Matrix{Rows: 1, Dim: len(qv), Data: qv}, cfg.K, l.masks[t], index.DenseConfig{Workers: 1})
	if err != nil {
		return nil, err
	}
	var out []graphops.GraspBinding
	for _, h := range hs[0] {
		if len(out) > 0 && h.Score < cfg.Tau*out[0].Cos {
			break
		}
		out = append(out, graphops.GraspBinding{Node: h.ID, Cos: h.Score})
	}
	return out, nil
}

// GraspPlanSource gives a query's GRASP plan.
type GraspPlanSource func(q data.Query) (data.GraspPlan, error)

// GraspPlansFromFile serves plans read by data.ReadGraspPlans; queries
// without one are no_trade.
func GraspPlansFromFile(ps map[int]data.GraspPlan) GraspPlanSource {
	return func(q data.Query) (data.GraspPlan, error) {
		if p, ok := ps[q.ID]; ok {
			return p, nil
		}
		return data.GraspPlan{RiskLevel: data.RiskNoTrade}, nil
	}
}

// GraspPlansFromPlanner converts the native planner's plans (MoR planning
// graphs). The risk level comes from the planner's confidence in its
// template: below 0.5 weak, below 0.9 normal, else aggressive.
func GraspPlansFromPlanner(p *Planner) GraspPlanSource {
	return func(q data.Query) (data.GraspPlan, error) {
		plan, prob, err := p.Predict(q)
		if err != nil {
			return data.GraspPlan{}, err
		}
		risk := data.RiskAggressive
		switch {
		case prob < 0.5:
			risk = data.RiskWeak
		case prob < 0.9:
			risk = data.RiskNormal
		}
		return data.PlanToGrasp(plan, risk, p.ws.Graph.Resolver()), nil
	}
}

// GraspGraph is GRASP's graph branch: plan execution on the graph, the
// target's candidates ranked by their anchor score plus, when the plan has
// a relevance text, its cosine with the candidate's document.
type GraspGraph struct {
	ws    *workspace.Workspace
	d     *DenseChannel
	L     *GraspLinker
	Plans GraspPlanSource

	mu    sync.Mutex
	cache map[int]GraspResult // by query id, when Memoize was called
}

// Memoize makes Retrieve remember each query's result by id, for fitting
// and evaluating several fusions over the same queries.
func (m *GraspGraph) Memoize() {
	m.mu.Lock()
	m.cache = map[int]GraspResult{}
	m.mu.Unlock()
}

// NewGraspGraph builds the graph branch.
func NewGraspGraph(ctx context.Context, ws *workspace.Workspace, d *DenseChannel, plans GraspPlanSource) (*GraspGraph, error) {
	l, err := NewGraspLinker(ctx, ws, d)
	if err != nil {
		return nil, err
	}
	return &GraspGraph{ws: ws, d: d, L: l, Plans: plans}, nil
}

// GraspResult is one query's graph branch.
type GraspResult struct {
	Hits  []index.Hit
	NCand int
	Risk  string
}

// Retrieve runs the plan of q.
func (m *GraspGraph) Retrieve(ctx context.Context, q data.Query) (GraspResult, error) {
	keyed := q.ID >= 0 && q.Plan == nil
	m.mu.Lock()
	r, ok := m.cache[q.ID] // a nil map: not memoizing
	memo := m.cache != nil
	m.mu.Unlock()
	if ok && keyed {
		return r, nil
	}
	r, err := m.retrievePlan(ctx, q)
	if err == nil && memo && keyed {
		m.mu.Lock()
		m.cache[q.ID] = r
		m.mu.Unlock()
	}
	return r, err
}

func (m *GraspGraph) retrievePlan(ctx context.Context, q data.Query) (GraspResult, error) {
	p, err := m.Plans(q)
	if err != nil {
		return GraspResult{}, err
	}
	if p.RiskLevel == data.RiskNoTrade || p.Validate(&m.ws.SKB.Schema) != nil {
		return GraspResult{Risk: data.RiskNoTrade}, nil
	}
	anchors := map[string][]graphops.GraspBinding{}
	for _, a := range p.Anchors {
		if anchors[a.Var], err = m.L.Link(ctx, a); err != nil {
			return GraspResult{}, err
		}
	}
	scores, err := graphops.ExecuteGrasp(m.ws.Graph, &p, anchors)
	if err != nil {
		return GraspResult{}, err
	}
	var rel []float32
	if p.Target.RelevanceText != "" {
		v, err := m.L.enc.EncodeTexts([]string{p.Target.RelevanceText})
		if err != nil {
			return GraspResult{}, err
		}
		rel = v
	}
	res := GraspResult{NCand: len(scores), Risk: p.RiskLevel}
	for v, s := range scores {
		if !m.ws.CandMask[v] {
			continue
		}
		if rel != nil {
			var c float32
			for j, x := range m.d.Docs.Row(int(v)) {
				c += x * rel[j]
			}
			s += c
		}
		res.Hits = append(res.Hits, index.Hit{ID: v, Score: s})
	}
	slices.SortFunc(res.Hits, func(a, b index.Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return res, nil
}

func (m *GraspGraph) Name() string { return "grasp-graph" }

func (m *GraspGraph) Rank(ctx context.Context, q data.Query) ([]index.Hit, error) {
	r, err := m.Retrieve(ctx, q)
	return r.Hits, err
}

// GraspFused is GRASP's stage 2: the graph branch fused with a text
// ranking (mFAR) by RRF, statically or conditioned on the plan.
type GraspFused struct {
	G      *GraspGraph
	Text   Method
	Choice reranker.FusionChoice
	Label  string
	// Stage3, when set, is a reranker whose ranking is fused with stage 2's
	// by static RRF (Stage3Choice: w on the reranker).
	Stage3       Method
	Stage3Choice reranker.FusionChoice
}

func (m *GraspFused) Name() string { return cmp.Or(m.Label, "grasp") }

func (m *GraspFused) Rank(ctx context.Context, q data.Query) ([]index.Hit, error) {
	g, err := m.G.Retrieve(ctx, q)
	if err != nil {
		return nil, err
	}
	t, err := m.Text.Rank(ctx, q)
	if err != nil {
		return nil, err
	}
	sortHits(t)
	fused := reranker.RRF(g.Hits, t, m.Choice.Weight(g.NCand, g.Risk), m.Choice.K)
	if m.Stage3 == nil {
		return fused, nil
	}
	r, err := m.Stage3.Rank(ctx, q)
	if err != nil {
		return nil, err
	}
	sortHits(r)
	return reranker.RRF(r, fused, m.Stage3Choice.W, m.Stage3Choice.K), nil
}

// Branch is what FusionExamples fuses: the GRASP graph branch, or any
// method through RankerBranch.
type Branch interface {
	retrieve(ctx context.Context, q data.Query) (GraspResult, error)
}

func (m *GraspGraph) retrieve(ctx context.Context, q data.Query) (GraspResult, error) {
	return m.Retrieve(ctx, q)
}

// FusionExamples runs both branches on queries for the grid search.
func FusionExamples(ctx context.Context, g Branch, text Method, qs []data.Query) ([]reranker.FusionExample, error) {
	out := make([]reranker.FusionExample, 0, len(qs))
	for _, q := range qs {
		r, err := g.retrieve(ctx, q)
		if err != nil {
			return nil, err
		}
		t, err := text.Rank(ctx, q)
		if err != nil {
			return nil, err
		}
		sortHits(t)
		out = append(out, reranker.FusionExample{Graph: r.Hits, Text: t, NCand: r.NCand, Risk: r.Risk, Gold: q.Answers})
	}
	return out, nil
}

// Memo remembers a method's rankings by query id (queries given with their
// own plan, or without an id, are not remembered).
type Memo struct {
	M     Method
	mu    sync.Mutex
	cache map[int][]index.Hit
}

func (m *Memo) Name() string { return m.M.Name() }

func (m *Memo) Rank(ctx context.Context, q data.Query) ([]index.Hit, error) {
	if q.ID < 0 || q.Plan != nil {
		return m.M.Rank(ctx, q)
	}
	m.mu.Lock()
	h, ok := m.cache[q.ID]
	m.mu.Unlock()
	if ok {
		return slices.Clone(h), nil
	}
	h, err := m.M.Rank(ctx, q)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	if m.cache == nil {
		m.cache = map[int][]index.Hit{}
	}
	m.cache[q.ID] = slices.Clone(h)
	m.mu.Unlock()
	return h, nil
}

// RankerBranch makes any method a graph branch for FusionExamples (its
// ranking, no candidate count, risk normal).
type RankerBranch struct{ M Method }

func (b *RankerBranch) retrieve(ctx context.Context, q data.Query) (GraspResult, error) {
	h, err := b.M.Rank(ctx, q)
	sortHits(h)
	return GraspResult{Hits: h, NCand: len(h), Risk: data.RiskNormal}, err
}
