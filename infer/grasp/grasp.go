package grasp

import (
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"slices"
	"sync"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/eval"
	gplan "github.com/strata-retrieval/strata/graphops/plan"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/reranker"
)

// LinkConfig is GRASP's anchor linking: per match mode, the top K nodes of
// the anchor's label whose cosine is at least τ·(top-1 cosine). Zero
// values mean GRASP's: name K 5, τ 0.95; doc K 10, τ 0.90.
type LinkConfig struct {
	NameK   int     `json:"name_k,omitempty"`
	NameTau float32 `json:"name_tau,omitempty"`
	DocK    int     `json:"doc_k,omitempty"`
	DocTau  float32 `json:"doc_tau,omitempty"`
}

func (c LinkConfig) withDefaults() LinkConfig {
	if c.NameK == 0 {
		c.NameK = 5
	}
	if c.NameTau == 0 {
		c.NameTau = 0.95
	}
	if c.DocK == 0 {
		c.DocK = 10
	}
	if c.DocTau == 0 {
		c.DocTau = 0.90
	}
	return c
}

// mode returns K and τ of a match mode.
func (c LinkConfig) mode(m string) (int, float32, bool) {
	switch m {
	case "name":
		return c.NameK, c.NameTau, true
	case "doc":
		return c.DocK, c.DocTau, true
	}
	return 0, 0, false
}

// Linker links anchor texts to nodes through two dense indexes of one text
// space (infer.TextSpace: the dense channel's, or an ONNX encoder's):
// node names only (match_mode name) and whole documents (doc); the label
// restricts the search to its type.
type Linker struct {
	cfg   LinkConfig
	ws    *workspace.Workspace
	space *infer.TextSpace
	masks [][]bool
}

// NewLinker binds linking to a text space (node names are encoded on the
// first name-mode anchor).
func NewLinker(ws *workspace.Workspace, space *infer.TextSpace, cfg LinkConfig) *Linker {
	n := len(ws.SKB.Nodes)
	l := &Linker{cfg: cfg.withDefaults(), ws: ws, space: space, masks: make([][]bool, len(ws.SKB.Schema.NodeTypes))}
	for t := range l.masks {
		l.masks[t] = make([]bool, n)
	}
	for v := range n {
		l.masks[ws.SKB.Nodes[v].Type][v] = true
	}
	return l
}

// Link returns the nodes an anchor binds to and their cosines. An anchor
// the planner already linked (a.Nodes) binds to those nodes, each with the
// cosine of the anchor text and its name, or 1 when the space cannot
// encode text (imported vectors): then every linked anchor counts alike.
func (l *Linker) Link(ctx context.Context, a data.GraspAnchor) ([]gplan.Binding, error) {
	if len(a.Nodes) > 0 {
		for _, v := range a.Nodes {
			if int(v) >= len(l.ws.SKB.Nodes) {
				return nil, fmt.Errorf("anchor %q: node %d out of range", a.Text, v)
			}
		}
		out := make([]gplan.Binding, 0, len(a.Nodes))
		if l.space.Enc == nil {
			for _, v := range a.Nodes {
				out = append(out, gplan.Binding{Node: v, Cos: 1})
			}
			return out, nil
		}
		names, err := l.space.Names(ctx)
		if err != nil {
			return nil, err
		}
		qv, err := l.space.Encode([]string{a.Text})
		if err != nil {
			return nil, err
		}
		for _, v := range a.Nodes {
			var c float32
			for j, x := range names.Row(int(v)) {
				c += x * qv[j]
			}
			out = append(out, gplan.Binding{Node: v, Cos: c})
		}
		return out, nil
	}
	t, ok := l.ws.SKB.Schema.NodeTypeID(a.Label)
	if !ok {
		return nil, fmt.Errorf("anchor label %q is not a node type", a.Label)
	}
	k, tau, ok := l.cfg.mode(a.MatchMode)
	if !ok {
		return nil, fmt.Errorf("anchor match_mode %q", a.MatchMode)
	}
	qv, err := l.space.Encode([]string{a.Text})
	if err != nil {
		return nil, fmt.Errorf("GRASP links anchor %q by its text: %w (give an ONNX export of the vectors' model with --onnx-encoder, or plans whose anchors are linked)", a.Text, err)
	}
	m := l.space.Docs
	if a.MatchMode == "name" {
		if m, err = l.space.Names(ctx); err != nil {
			return nil, err
		}
	}
	hs, err := index.SearchDense(ctx, m, &index.Matrix{Rows: 1, Dim: len(qv), Data: qv}, k, l.masks[t], index.DenseConfig{Workers: 1})
	if err != nil {
		return nil, err
	}
	var out []gplan.Binding
	for _, h := range hs[0] {
		if len(out) > 0 && h.Score < tau*out[0].Cos {
			break
		}
		out = append(out, gplan.Binding{Node: h.ID, Cos: h.Score})
	}
	return out, nil
}

// PlanSource gives a query's GRASP plan and the planner's confidence in
// it; a negative confidence means the plan declares its own risk level
// (an LLM's plans file), else stage 2 calibrates the level from the
// confidence.
type PlanSource func(ctx context.Context, q data.Query) (data.GraspPlan, float64, error)

// Declared is the confidence of a plan whose risk level is its own.
const Declared = -1.0

// PlansFromFile serves plans read by data.ReadGraspPlans, with the risk
// levels they declare; queries without one are no_trade.
func PlansFromFile(ps map[int]data.GraspPlan) PlanSource {
	return func(_ context.Context, q data.Query) (data.GraspPlan, float64, error) {
		if p, ok := ps[q.ID]; ok {
			return p, Declared, nil
		}
		return data.GraspPlan{RiskLevel: data.RiskNoTrade}, Declared, nil
	}
}

// PlansFromPlanner converts the native planner's plans (MoR planning
// graphs) with its confidence (infer.Planner); stage 2 turns the
// confidence into a risk level by cuts calibrated on validation. A plan
// that cannot be converted is no_trade.
func PlansFromPlanner(p infer.Planner) PlanSource {
	return func(ctx context.Context, q data.Query) (data.GraspPlan, float64, error) {
		pred, err := p.Predict(ctx, q)
		if err != nil {
			return data.GraspPlan{}, 0, err
		}
		return data.PlanToGrasp(pred.Plan, data.RiskNormal, p.Workspace().Graph.Resolver()), float64(pred.Conf), nil
	}
}

// Graph is GRASP's graph branch: plan execution on the graph, the
// target's candidates ranked by their anchor score plus, when the plan has
// a relevance text, its cosine with the candidate's document.
type Graph struct {
	ws    *workspace.Workspace
	L     *Linker
	Plans PlanSource

	mu    sync.Mutex
	cache map[int]Result // by query id, when Memoize was called
}

// Memoize makes Retrieve remember each query's result by id, for fitting
// and evaluating several fusions over the same queries.
func (m *Graph) Memoize() {
	m.mu.Lock()
	m.cache = map[int]Result{}
	m.mu.Unlock()
}

// NewGraph builds the graph branch over a text space.
func NewGraph(ws *workspace.Workspace, space *infer.TextSpace, plans PlanSource, link LinkConfig) *Graph {
	return &Graph{ws: ws, L: NewLinker(ws, space, link), Plans: plans}
}

// Result is one query's graph branch: its ranking and what stage 2 needs
// to know of the plan (n_cand, the declared risk level or the planner's
// confidence).
type Result struct {
	Hits []index.Hit
	Meta reranker.PlanMeta
}

// Retrieve runs the plan of q.
func (m *Graph) Retrieve(ctx context.Context, q data.Query) (Result, error) {
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

func (m *Graph) retrievePlan(ctx context.Context, q data.Query) (Result, error) {
	p, conf, err := m.Plans(ctx, q)
	if err != nil {
		return Result{}, err
	}
	if p.RiskLevel == data.RiskNoTrade || p.Validate(&m.ws.SKB.Schema) != nil {
		return Result{Meta: reranker.PlanMeta{Risk: data.RiskNoTrade}}, nil
	}
	meta := reranker.PlanMeta{Risk: p.RiskLevel, Conf: conf}
	if conf >= 0 {
		meta.Risk = ""
	}
	anchors := map[string][]gplan.Binding{}
	for _, a := range p.Anchors {
		if anchors[a.Var], err = m.L.Link(ctx, a); err != nil {
			return Result{}, err
		}
	}
	expr, err := gplan.CompileGrasp(&m.ws.SKB.Schema, &p, anchors)
	if err != nil {
		return Result{}, err
	}
	set, err := gplan.Exec(gplan.Env{Graph: m.ws.Graph}, expr)
	if err != nil {
		return Result{}, err
	}
	nodes, scores := gplan.GraspTargets(m.ws.Graph, set, p.Target.Labels)
	// The relevance text's vector; a space that cannot encode text
	// (imported vectors) uses the query's own imported vector instead.
	var rel []float32
	if p.Target.RelevanceText != "" {
		space := m.L.space
		if space.Enc != nil {
			rel, err = space.Encode([]string{p.Target.RelevanceText})
		} else {
			rel, err = space.QueryVector(q)
		}
		if err != nil {
			return Result{}, err
		}
	}
	meta.NCand = len(nodes)
	res := Result{Meta: meta}
	for i, v := range nodes {
		s := scores[i]
		if !m.ws.CandMask[v] {
			continue
		}
		if rel != nil {
			var c float32
			for j, x := range m.L.space.Docs.Row(int(v)) {
				c += x * rel[j]
			}
			s += c
		}
		res.Hits = append(res.Hits, index.Hit{ID: v, Score: s})
	}
	index.Sort(res.Hits)
	return res, nil
}

func (m *Graph) Name() string { return "grasp-graph" }

func (m *Graph) Rank(ctx context.Context, q data.Query) ([]index.Hit, error) {
	r, err := m.Retrieve(ctx, q)
	return r.Hits, err
}

// Stage-3 modes: rerank stage 2's pool (GRASP's), or fuse a ranking the
// stage-3 model makes on its own.
const (
	Stage3Rerank      = "rerank"
	Stage3Independent = "independent"
)

// Fused is GRASP's stage 2, the graph branch fused with a text ranking
// (mFAR) by RRF, statically or conditioned on the plan, and optionally
// stage 3.
type Fused struct {
	G      *Graph
	Text   infer.Method
	Choice reranker.FusionChoice
	Label  string
	// Stage3, when set, reranks stage 2's top Stage3Pool (default 100;
	// Stage3Mode rerank, which needs an infer.Reranker) or ranks on its own
	// (independent); its ranking is fused with stage 2's by static RRF
	// (Stage3Choice: w on the stage-3 ranking).
	Stage3       infer.Method
	Stage3Mode   string
	Stage3Pool   int
	Stage3Choice reranker.FusionChoice
}

// DefaultStage3Pool is how many of stage 2's candidates stage 3 reranks
// (GRASP's top 100).
const DefaultStage3Pool = 100

func (m *Fused) Name() string { return cmp.Or(m.Label, "grasp") }

// Stage2 is stage 2's ranking of q.
func (m *Fused) Stage2(ctx context.Context, q data.Query) ([]index.Hit, error) {
	g, err := m.G.Retrieve(ctx, q)
	if err != nil {
		return nil, err
	}
	t, err := m.Text.Rank(ctx, q)
	if err != nil {
		return nil, err
	}
	infer.SortHits(t)
	return m.Choice.Fuse(g.Hits, t, g.Meta), nil
}

func (m *Fused) Rank(ctx context.Context, q data.Query) ([]index.Hit, error) {
	fused, err := m.Stage2(ctx, q)
	if err != nil || m.Stage3 == nil {
		return fused, err
	}
	r, err := Stage3Ranking(ctx, m.Stage3, m.Stage3Mode, m.Stage3Pool, q, fused)
	if err != nil {
		return nil, err
	}
	return reranker.RRF(r, fused, m.Stage3Choice.W, m.Stage3Choice.K), nil
}

// Stage3Ranking is the stage-3 model's ranking of q given stage 2's: its
// rerank of stage 2's top pool (mode rerank), or its own ranking
// (independent).
func Stage3Ranking(ctx context.Context, s3 infer.Method, mode string, pool int, q data.Query, stage2 []index.Hit) ([]index.Hit, error) {
	if mode == Stage3Rerank {
		rr, ok := s3.(infer.Reranker)
		if m, memo := s3.(*Memo); memo && !m.CanRerank() {
			ok = false
		}
		if !ok {
			return nil, fmt.Errorf("GRASP's stage 3 %s cannot rerank a pool (use stage-3 mode independent)", s3.Name())
		}
		return rr.Rerank(ctx, q, stage2[:min(cmp.Or(pool, DefaultStage3Pool), len(stage2))])
	}
	r, err := s3.Rank(ctx, q)
	infer.SortHits(r)
	return r, err
}

// Branch is what FusionExamples fuses: the GRASP graph branch, or any
// method through RankerBranch.
type Branch interface {
	retrieve(ctx context.Context, q data.Query) (Result, error)
}

func (m *Graph) retrieve(ctx context.Context, q data.Query) (Result, error) {
	return m.Retrieve(ctx, q)
}

// FusionExamples runs both branches on queries for the grid search.
func FusionExamples(ctx context.Context, g Branch, text infer.Method, qs []data.Query) ([]reranker.FusionExample, error) {
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
		infer.SortHits(t)
		out = append(out, reranker.FusionExample{Graph: r.Hits, Text: t, Meta: r.Meta, Gold: q.Answers})
	}
	return out, nil
}

// Memo remembers a method's rankings by query id (queries given with their
// own plan, or without an id, are not remembered), and its reranking of a
// pool by query id and pool when the method can rerank.
type Memo struct {
	M     infer.Method
	mu    sync.Mutex
	cache map[memoKey][]index.Hit
}

type memoKey struct {
	q    int
	pool uint64 // FNV-1a of the pool's ids; 0 for Rank
}

func (m *Memo) Name() string { return m.M.Name() }

func (m *Memo) Rank(ctx context.Context, q data.Query) ([]index.Hit, error) {
	return m.remember(q, 0, func() ([]index.Hit, error) { return m.M.Rank(ctx, q) })
}

// Prefetch ranks the queries Rank would remember and has not, in batches of
// 256 when the method ranks batches (mFAR's dense searches become one GEMM
// per field); otherwise it does nothing and Rank ranks them as they come.
func (m *Memo) Prefetch(ctx context.Context, qs []data.Query) error {
	br, ok := m.M.(eval.BatchRanker)
	if !ok {
		return nil
	}
	var todo []data.Query
	seen := map[int]bool{}
	m.mu.Lock()
	for _, q := range qs {
		if _, done := m.cache[memoKey{q.ID, 0}]; !done && !seen[q.ID] && q.ID >= 0 && q.Plan == nil {
			todo = append(todo, q)
			seen[q.ID] = true
		}
	}
	m.mu.Unlock()
	for lo := 0; lo < len(todo); lo += 256 {
		batch := todo[lo:min(lo+256, len(todo))]
		rankings, err := br.RankBatch(ctx, batch)
		if err != nil {
			return err
		}
		if len(rankings) != len(batch) {
			return fmt.Errorf("%s: %d rankings for %d queries", m.M.Name(), len(rankings), len(batch))
		}
		m.mu.Lock()
		if m.cache == nil {
			m.cache = map[memoKey][]index.Hit{}
		}
		for i, q := range batch {
			m.cache[memoKey{q.ID, 0}] = rankings[i]
		}
		m.mu.Unlock()
	}
	return nil
}

// CanRerank tells whether the method can rerank a pool.
func (m *Memo) CanRerank() bool {
	_, ok := m.M.(infer.Reranker)
	return ok
}

// Rerank implements infer.Reranker for a method that can.
func (m *Memo) Rerank(ctx context.Context, q data.Query, pool []index.Hit) ([]index.Hit, error) {
	rr, ok := m.M.(infer.Reranker)
	if !ok {
		return nil, fmt.Errorf("%s cannot rerank a pool", m.M.Name())
	}
	h := fnv.New64a()
	var b [4]byte
	for _, p := range pool {
		binary.LittleEndian.PutUint32(b[:], p.ID)
		h.Write(b[:])
	}
	return m.remember(q, h.Sum64()|1, func() ([]index.Hit, error) { return rr.Rerank(ctx, q, pool) })
}

func (m *Memo) remember(q data.Query, pool uint64, f func() ([]index.Hit, error)) ([]index.Hit, error) {
	if q.ID < 0 || q.Plan != nil {
		return f()
	}
	key := memoKey{q.ID, pool}
	m.mu.Lock()
	h, ok := m.cache[key]
	m.mu.Unlock()
	if ok {
		return slices.Clone(h), nil
	}
	h, err := f()
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	if m.cache == nil {
		m.cache = map[memoKey][]index.Hit{}
	}
	m.cache[key] = slices.Clone(h)
	m.mu.Unlock()
	return h, nil
}

// RankerBranch makes any method a graph branch for FusionExamples (its
// ranking, no candidate count, risk normal).
type RankerBranch struct{ M infer.Method }

func (b *RankerBranch) retrieve(ctx context.Context, q data.Query) (Result, error) {
	h, err := b.M.Rank(ctx, q)
	infer.SortHits(h)
	return Result{Hits: h, Meta: reranker.PlanMeta{NCand: len(h), Risk: data.RiskNormal}}, err
}

// Stage3Branch is stage 3 as the branch fused with stage 2 (for fitting
// that fusion): the stage-3 ranking of stage 2's.
type Stage3Branch struct {
	Stage2 *Fused
	S3     infer.Method
	Mode   string
	Pool   int
}

func (b *Stage3Branch) Name() string { return "stage3-" + b.S3.Name() }

// Rank is the stage-3 ranking by itself (the reranked pool, or the
// model's own ranking).
func (b *Stage3Branch) Rank(ctx context.Context, q data.Query) ([]index.Hit, error) {
	r, err := b.retrieve(ctx, q)
	return r.Hits, err
}

func (b *Stage3Branch) retrieve(ctx context.Context, q data.Query) (Result, error) {
	s2, err := b.Stage2.Stage2(ctx, q)
	if err != nil {
		return Result{}, err
	}
	h, err := Stage3Ranking(ctx, b.S3, b.Mode, b.Pool, q, s2)
	return Result{Hits: h, Meta: reranker.PlanMeta{NCand: len(h), Risk: data.RiskNormal}}, err
}
