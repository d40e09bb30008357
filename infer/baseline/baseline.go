package baseline

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/graphops"
	"github.com/strata-retrieval/strata/graphops/plan"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/registry"
	"github.com/strata-retrieval/strata/models"
	"github.com/strata-retrieval/strata/reranker"
)

func init() {
	registry.RegisterMethod("bm25", "BM25 (bm25s lucene; the workspace's k1 and b, 1.5 and 0.75 by default) over the whole document of every candidate", func(env *infer.Env) (infer.Method, error) {
		return NewBM25(env.WS), nil
	})
	registry.RegisterMethod("oracle-plan", "executes the query's ground-truth plan on the graph and ranks the reached nodes by the textual restriction as plan-exec does (an upper bound; needs plans)", func(env *infer.Env) (infer.Method, error) {
		return &PlanMethod{ws: env.WS, useText: true}, nil
	})
	registry.RegisterMethod("plan-structure", "executes only the structure of the ground-truth plan: reached nodes ranked by id, no text (shows what graph-only retrieval misses)", func(env *infer.Env) (infer.Method, error) {
		return &PlanMethod{ws: env.WS}, nil
	})
	registry.RegisterMethod("dense", "cosine of query and document vectors from the workspace's dense channel (strata train encoder, or imported embeddings)", func(env *infer.Env) (infer.Method, error) {
		d, err := env.Dense()
		if err != nil {
			return nil, err
		}
		return NewDense(env.WS, d), nil
	})
	registry.Register(infer.KindEncoder, loadEncoder)
	registry.RegisterMethod("bm25+dense", "reciprocal rank fusion (k=60) of bm25 and dense (bm25 alone without a dense channel)", func(env *infer.Env) (infer.Method, error) {
		return NewBM25Dense(env)
	})
	registry.RegisterMethod("plan-exec", "executes the query's plan (--planner, --plans or the workspace's): the reached candidates ranked by the target's restriction (BM25, plus the idf of its adjacent word pairs a document says together), then every other candidate by BM25 of the query", func(env *infer.Env) (infer.Method, error) {
		return NewPlanExec(env.WS), nil
	})
}

var (
	_ infer.Method          = (*BM25Method)(nil)
	_ infer.Method          = (*DenseMethod)(nil)
	_ infer.Method          = (*Fused)(nil)
	_ infer.FallbackCounter = (*PlanMethod)(nil)
)

// NewBM25 returns BM25 over the whole documents of ws's candidates.
func NewBM25(ws *workspace.Workspace) *BM25Method { return &BM25Method{ws} }

// BM25Method scores every candidate whose document matches a query term.
type BM25Method struct{ ws *workspace.Workspace }

func (m *BM25Method) Name() string { return "bm25" }

func (m *BM25Method) Rank(ctx context.Context, q data.Query) ([]index.Hit, error) {
	hits, err := m.ws.Doc.ScoreAllContext(ctx, q.Text, nil)
	if err != nil {
		return nil, err
	}
	for i := range hits {
		hits[i].ID = m.ws.Candidates[hits[i].ID]
	}
	return hits, nil
}

// NewDense returns the dense method over a channel.
func NewDense(ws *workspace.Workspace, d *infer.DenseChannel) *DenseMethod {
	return &DenseMethod{ws: ws, d: d}
}

// DenseMethod ranks every candidate by the cosine of its document vector
// with the query's.
type DenseMethod struct {
	ws *workspace.Workspace
	d  *infer.DenseChannel
}

func (m *DenseMethod) Name() string { return "dense" }

func (m *DenseMethod) Rank(_ context.Context, q data.Query) ([]index.Hit, error) {
	v, err := m.d.QueryVector(q)
	if err != nil {
		return nil, err
	}
	scores := index.ScoreRows(m.d.Docs, v, m.ws.Candidates)
	out := make([]index.Hit, len(scores))
	for i, s := range scores {
		out[i] = index.Hit{ID: m.ws.Candidates[i], Score: s}
	}
	return out, nil
}

// loadEncoder serves an encoder checkpoint (strata train encoder's run) as
// the dense method over its own vectors, the row the encoder's checkpoints
// are selected by: the workspace's dense channel when this encoder made it
// (the same weights, bit for bit), else every node encoded now.
func loadEncoder(env *infer.Env, ck *registry.Checkpoint) (infer.Method, error) {
	var cfg models.EncoderConfig
	if err := ck.DecodeConfig("encoder", &cfg); err != nil {
		return nil, err
	}
	if err := ck.CheckShapes(models.EncoderShapes(cfg)); err != nil {
		return nil, err
	}
	enc, err := models.NewEncoder(cfg, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ck.Dir, err)
	}
	if err := ck.LoadParams(enc.Params()); err != nil {
		return nil, err
	}
	d, err := env.Dense()
	if err != nil && !errors.Is(err, infer.ErrNoDense) {
		return nil, err
	}
	if err == nil && d.Encoder != nil && sameParams(d.Encoder.Params(), enc.Params()) {
		return NewDense(env.WS, d), nil
	}
	docs, err := infer.EncodeNodes(env.Ctx, env.WS.SKB, enc)
	if err != nil {
		return nil, err
	}
	return NewDense(env.WS, &infer.DenseChannel{Docs: docs, Encoder: enc}), nil
}

// sameParams reports whether two parameter lists hold the same names,
// shapes and float32 bits.
func sameParams(a, b []models.NamedParam) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || !slices.Equal(a[i].Shape, b[i].Shape) {
			return false
		}
		x, y := a[i].Data(), b[i].Data()
		if len(x) != len(y) {
			return false
		}
		for j := range x {
			if math.Float32bits(x[j]) != math.Float32bits(y[j]) {
				return false
			}
		}
	}
	return true
}

// Fused is the weighted reciprocal rank fusion (reranker.FuseRRF) of
// methods' rankings.
type Fused struct {
	Label   string
	Methods []infer.Method
	Weights []float64
	K       float64 // default 60
}

func (m *Fused) Name() string { return m.Label }

func (m *Fused) Rank(ctx context.Context, q data.Query) ([]index.Hit, error) {
	lists := make([][]index.Hit, len(m.Methods))
	for i, mm := range m.Methods {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		hs, err := mm.Rank(ctx, q)
		if err != nil {
			return nil, err
		}
		infer.SortHits(hs)
		lists[i] = hs
	}
	k := m.K
	if k == 0 {
		k = 60
	}
	return reranker.FuseRRF(lists, m.Weights, k), nil
}

// NewBM25Dense is bm25+dense: RRF (k = 60) of BM25 and the dense channel,
// or BM25 alone when the workspace has no dense channel.
func NewBM25Dense(env *infer.Env) (infer.Method, error) {
	d, err := env.Dense()
	if errors.Is(err, infer.ErrNoDense) {
		return &Fused{Label: "bm25+dense", Methods: []infer.Method{NewBM25(env.WS)}, Weights: []float64{1}}, nil
	}
	if err != nil {
		return nil, err
	}
	return NewBM25DenseOf(env.WS, d), nil
}

// NewBM25DenseOf is bm25+dense over the dense channel d.
func NewBM25DenseOf(ws *workspace.Workspace, d *infer.DenseChannel) *Fused {
	return &Fused{Label: "bm25+dense", Methods: []infer.Method{NewBM25(ws), NewDense(ws, d)}, Weights: []float64{1, 1}}
}

// NewPlanExec returns plan-exec over ws.
func NewPlanExec(ws *workspace.Workspace) *PlanMethod {
	return &PlanMethod{ws: ws, useText: true, fill: true}
}

// PlanMethod executes a query's plan. With useText it ranks the reached
// nodes by BM25 of the target's textual restriction over their documents;
// without, it ranks them by id. With fill (plan-exec) every other
// candidate follows, ranked by BM25 of the whole query. Queries whose plan
// is missing, invalid or reaches no candidate fall back to the text
// channel over the query (BM25, as MoR does, unless WithText gave
// another); Fallbacks counts them.
type PlanMethod struct {
	ws        *workspace.Workspace
	useText   bool
	fill      bool
	text      infer.Method // the fallback; nil is BM25
	Fallbacks atomic.Int64
}

var _ infer.TextFallback = (*PlanMethod)(nil)

// WithText implements infer.TextFallback: the same method (a new
// fallback count) answering its fallbacks with t.
func (m *PlanMethod) WithText(t infer.Method) infer.Method {
	return &PlanMethod{ws: m.ws, useText: m.useText, fill: m.fill, text: t}
}

// FallbackText names the text channel of the fallbacks
// (infer.FallbackText).
func (m *PlanMethod) FallbackText() string { return m.textMethod().Name() }

func (m *PlanMethod) textMethod() infer.Method {
	if m.text != nil {
		return m.text
	}
	return &BM25Method{m.ws}
}

// fallback answers q with the text channel and counts it.
func (m *PlanMethod) fallback(ctx context.Context, q data.Query) ([]index.Hit, error) {
	infer.CountFallback(ctx, &m.Fallbacks)
	return m.textMethod().Rank(ctx, q)
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
	pl, ok := infer.PlanFor(m.ws, q)
	if !ok {
		return m.fallback(ctx, q)
	}
	if q.Plan != nil && q.Reach != nil { // executed by whoever chose the plan
		return m.rankReach(q, q.Reach), nil
	}
	var text plan.TextScorer
	if pl.HasRankMarks() && m.useText {
		text = m.ws // a ranked middle position: the algebra scores the restriction
	}
	res, scores, err := plan.ExecuteRanked(m.ws.Graph, m.ws.Names(), pl, text)
	if errors.Is(err, graphops.ErrInvalidPlan) {
		return m.fallback(ctx, q)
	}
	if err != nil {
		return nil, err
	}
	if res.Reach == nil { // target type only: no structure
		return m.fallback(ctx, q)
	}
	out := make([]index.Hit, 0, len(res.Reach))
	for i, v := range res.Reach {
		if m.ws.CandMask[v] {
			h := index.Hit{ID: v}
			if scores != nil {
				h.Score = scores[i]
			}
			out = append(out, h)
		}
	}
	if m.fill {
		if len(out) == 0 {
			return m.fallback(ctx, q)
		}
		if len(res.TargetRestriction) > 0 && scores == nil {
			out = m.scoreRestriction(out, res.TargetRestriction)
		}
		return fillBelow(namedFirst(returnedLast(out, pl), pl.Named), m.ws.Doc.ScoreAll(q.Text, nil), m.ws.Candidates), nil
	}
	if !m.useText {
		return returnedLast(out, pl), nil
	}
	if len(res.TargetRestriction) > 0 && scores == nil {
		out = m.scoreRestriction(out, res.TargetRestriction)
	}
	return namedFirst(returnedLast(out, pl), pl.Named), nil
}

// returnedLast ranks the anchors a path of pl walks straight back to
// below every other node (plan.ReturnedLast).
func returnedLast(out []index.Hit, pl data.Plan) []index.Hit {
	if len(plan.Returned(pl)) == 0 {
		return out
	}
	return rescored(out, func(ids []uint32, scores []float32) { plan.ReturnedLast(pl, ids, scores) })
}

// namedFirst ranks the plan's named nodes first (plan.NamedFirst).
func namedFirst(out []index.Hit, named []uint32) []index.Hit {
	if len(named) == 0 {
		return out
	}
	return rescored(out, func(ids []uint32, scores []float32) { plan.NamedFirst(ids, scores, named) })
}

// rescored hands out's ids and scores to adjust (the plan package's
// rankings work on aligned slices) and writes the scores back.
func rescored(out []index.Hit, adjust func(ids []uint32, scores []float32)) []index.Hit {
	ids := make([]uint32, len(out))
	scores := make([]float32, len(out))
	for i, h := range out {
		ids[i], scores[i] = h.ID, h.Score
	}
	adjust(ids, scores)
	for i := range out {
		out[i].Score = scores[i]
	}
	return out
}

// rankReach ranks a plan's executed reach (q.Reach: never empty, with its
// restriction's scores) exactly as Rank ranks the plan it executes.
func (m *PlanMethod) rankReach(q data.Query, r *data.PlanReach) []index.Hit {
	out := make([]index.Hit, len(r.Nodes))
	for i, v := range r.Nodes {
		out[i].ID = v
		if m.useText {
			out[i].Score = r.Scores[i]
		}
	}
	if m.fill {
		return fillBelow(out, m.ws.Doc.ScoreAll(q.Text, nil), m.ws.Candidates)
	}
	return out
}

// scoreRestriction scores the reached nodes out by the restriction over
// their documents, as the plan algebra's restrictions and the planner score
// it (workspace.TextScorer: BM25 and the restriction's phrases).
func (m *PlanMethod) scoreRestriction(out []index.Hit, restriction []string) []index.Hit {
	score := m.ws.TextScorer(strings.Join(restriction, " "))
	for i := range out {
		out[i].Score = score(out[i].ID)
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
