package sage

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/graphops/simgraph"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/registry"
	"github.com/strata-retrieval/strata/internal/parallel"
)

// Config sets SAGE's seed → expand → prune retrieval.
type Config struct {
	Seeds int // k: seeds kept, default 10
	Add   int // k′: neighbours added, default 10
	// Relations restricts expansion to these relation types (nil: all).
	Relations []string
	// Similarity expands along the similarity graph instead of relations.
	Similarity bool
	// EdgePolicy is SAGE's ±Edge policy: no expansion when the query's plan
	// already has explicit relational hops.
	EdgePolicy bool
	// Alpha weighs max-normalised BM25 against the dense cosine in SAGE's
	// linear fusion (Fuse), default 0.6 (SAGE's α = 0.6 for BM25, β = 0.4
	// for embeddings).
	Alpha float64
}

// DefaultAlpha is SAGE's BM25 weight in its linear fusion (appendix E:
// α = 0.6 for BM25, β = 0.4 for embeddings).
const DefaultAlpha = 0.6

// Fuse is SAGE's linear fusion of sparse and dense scores over one set of
// documents: s_i = α·lex_i / max_j lex_j + (1 − α)·dense_i, written into
// dst (reallocated when short). BM25 is divided by its maximum over the
// set (0 when no document matches); the dense scores are cosines, already
// in [−1, 1]. With dense nil the dense term is 0. SAGE states α and β but
// not a normalisation; dividing BM25 by its maximum is SAGE's released
// code's and keeps both terms on the cosine's scale.
func Fuse(dst, lex, dense []float32, alpha float64) []float32 {
	if dense != nil && len(dense) != len(lex) {
		panic(fmt.Sprintf("sage: Fuse: %d lexical and %d dense scores", len(lex), len(dense)))
	}
	if cap(dst) < len(lex) {
		dst = make([]float32, len(lex))
	}
	dst = dst[:len(lex)]
	var mx float32
	for _, v := range lex {
		mx = max(mx, v)
	}
	a := float32(alpha)
	for i, v := range lex {
		var s float32
		if mx > 0 {
			s = a * (v / mx)
		}
		if dense != nil {
			s += (1 - a) * dense[i]
		}
		dst[i] = s
	}
	return dst
}

// Hybrid is SAGE's hybrid seed retriever: every candidate ranked by Fuse
// of its whole-document BM25 and the cosine of its dense vector with the
// query's (BM25 alone without a dense channel).
type Hybrid struct {
	ws    *workspace.Workspace
	d     *infer.DenseChannel
	Alpha float64
}

// NewHybrid returns SAGE's hybrid retriever over ws (d may be nil).
func NewHybrid(ws *workspace.Workspace, d *infer.DenseChannel, alpha float64) *Hybrid {
	if alpha == 0 {
		alpha = DefaultAlpha
	}
	return &Hybrid{ws: ws, d: d, Alpha: alpha}
}

func (h *Hybrid) Name() string { return "sage-hybrid" }

func (h *Hybrid) Rank(_ context.Context, q data.Query) ([]index.Hit, error) {
	cands := h.ws.Candidates
	lex := make([]float32, len(cands))
	for _, x := range h.ws.Doc.ScoreAll(q.Text, nil) { // document i is candidate i
		lex[x.ID] = x.Score
	}
	var dense []float32
	if h.d != nil {
		qv, err := h.d.QueryVector(q)
		if err != nil {
			return nil, err
		}
		dense = index.ScoreRows(h.d.Docs, qv, cands)
	}
	s := Fuse(nil, lex, dense, h.Alpha)
	out := make([]index.Hit, len(cands))
	for i, v := range cands {
		out[i] = index.Hit{ID: v, Score: s[i]}
	}
	return out, nil
}

// Method expands the top seeds of another method by their 1-hop
// neighbours, rescores the neighbours and adds the best. Its ranking is the
// k seeds, then the k′ added neighbours, then the rest of the seed ranking,
// so Recall@(k+k′) compares with the seed method's at the same depth.
type Method struct {
	Seed  infer.Method
	Cfg   Config
	Sim   *simgraph.Graph
	ws    *workspace.Workspace
	d     *infer.DenseChannel
	rels  []data.RelID
	label string
	cand  []bool
}

// New wraps a seed method. d may be nil (BM25 alone rescores).
func New(ws *workspace.Workspace, d *infer.DenseChannel, seed infer.Method, cfg Config, sim *simgraph.Graph, label string) (*Method, error) {
	if cfg.Seeds <= 0 {
		cfg.Seeds = 10
	}
	if cfg.Add <= 0 {
		cfg.Add = 10
	}
	if cfg.Alpha == 0 {
		cfg.Alpha = DefaultAlpha
	}
	if cfg.Similarity && sim == nil {
		return nil, fmt.Errorf("SAGE: similarity expansion needs the similarity graph")
	}
	m := &Method{Seed: seed, Cfg: cfg, Sim: sim, ws: ws, d: d, label: label, cand: make([]bool, len(ws.SKB.Nodes))}
	for _, c := range ws.Candidates {
		m.cand[c] = true
	}
	for _, r := range cfg.Relations {
		id, ok := ws.SKB.Schema.RelationID(r)
		if !ok {
			return nil, fmt.Errorf("SAGE: unknown relation %q", r)
		}
		m.rels = append(m.rels, id)
	}
	return m, nil
}

func (m *Method) Name() string { return m.label }

// HasHops reports whether a plan has an explicit relational hop.
func HasHops(p *data.Plan) bool {
	if p == nil {
		return false
	}
	for _, path := range p.Paths {
		if path.Hops() > 0 {
			return true
		}
	}
	return false
}

func (m *Method) Rank(ctx context.Context, q data.Query) ([]index.Hit, error) {
	seeds, err := m.Seed.Rank(ctx, q)
	if err != nil {
		return nil, err
	}
	infer.SortHits(seeds)
	if m.Cfg.EdgePolicy {
		if plan, ok := infer.PlanFor(m.ws, q); ok && HasHops(&plan) {
			return seeds, nil
		}
	}
	k := min(m.Cfg.Seeds, len(seeds))
	top := make([]uint32, k)
	for i := range top {
		top[i] = seeds[i].ID
	}
	o := ExpandOptions{Relations: m.rels}
	if m.Cfg.Similarity {
		o = ExpandOptions{NoGraph: true, Sim: m.Sim}
	}
	nbrs := slices.DeleteFunc(Expand(m.ws.Graph, top, o), func(v uint32) bool { return !m.cand[v] })
	added, err := m.prune(q, nbrs)
	if err != nil {
		return nil, err
	}
	// Seeds, then the added neighbours, then the rest, as descending scores.
	out := make([]index.Hit, 0, len(seeds)+len(added))
	seen := map[uint32]bool{}
	push := func(v uint32) {
		if !seen[v] {
			seen[v] = true
			out = append(out, index.Hit{ID: v, Score: float32(-len(out))})
		}
	}
	for _, v := range top {
		push(v)
	}
	for _, h := range added {
		push(h.ID)
	}
	for _, h := range seeds[k:] {
		push(h.ID)
	}
	return out, nil
}

// prune rescores the neighbours by Fuse of BM25 computed over the
// neighbour set alone (as SAGE's code) and the dense cosine, and keeps the
// top k′.
func (m *Method) prune(q data.Query, nbrs []uint32) ([]index.Hit, error) {
	if len(nbrs) == 0 {
		return nil, nil
	}
	b := index.NewBuilder(m.ws.Config.BM25)
	for _, v := range nbrs {
		b.Add(m.ws.SKB.Document(v))
	}
	lex := make([]float32, len(nbrs))
	for _, h := range b.Build().ScoreAll(q.Text, nil) {
		lex[h.ID] = h.Score
	}
	var dense []float32
	if m.d != nil {
		qv, err := m.d.QueryVector(q)
		if err != nil {
			return nil, err
		}
		dense = index.ScoreRows(m.d.Docs, qv, nbrs)
	}
	s := Fuse(nil, lex, dense, m.Cfg.Alpha)
	hits := make([]index.Hit, len(nbrs))
	for i, v := range nbrs {
		hits[i] = index.Hit{ID: v, Score: s[i]}
	}
	index.Sort(hits)
	return hits[:min(m.Cfg.Add, len(hits))], nil
}

// BuildSimilarityGraph builds SAGE's offline similarity graph over the
// workspace's candidates from their text fields, each encoded with the
// dense channel's encoder.
func BuildSimilarityGraph(ctx context.Context, ws *workspace.Workspace, d *infer.DenseChannel, cfg simgraph.Config) (*simgraph.Graph, *simgraph.Stats, []string, error) {
	if d == nil || d.Encoder == nil {
		return nil, nil, nil, fmt.Errorf("the similarity graph encodes text fields, so it needs a dense channel with an encoder (strata train encoder)")
	}
	nodes := ws.Candidates
	var fields []*index.Matrix
	var present [][]bool
	var names []string
	for _, name := range ws.SKB.Schema.TextFields {
		texts := make([]string, len(nodes))
		pr := make([]bool, len(nodes))
		some := false
		for i, v := range nodes {
			if t := ws.SKB.Field(v, name); t != "" {
				texts[i], pr[i], some = t, true, true
			}
		}
		if !some {
			continue
		}
		x := index.NewMatrix(len(nodes), d.Encoder.Dim())
		err := parallel.Chunks(ctx, len(nodes), 1024, 0, func(lo, hi int) {
			copy(x.Data[lo*x.Dim:hi*x.Dim], d.Encoder.EncodeTexts(texts[lo:hi]))
		})
		if err != nil {
			return nil, nil, nil, err
		}
		fields = append(fields, x)
		present = append(present, pr)
		names = append(names, name)
	}
	sg, st, err := simgraph.Build(ctx, len(ws.SKB.Nodes), nodes, fields, present, cfg)
	return sg, st, names, err
}

func init() {
	for _, v := range []struct{ name, summary string }{
		{"sage", "SAGE: the top 10 of sage-hybrid, plus the 10 best of their 1-hop neighbours rescored by 0.6·BM25/max + 0.4·cosine over the neighbour set"},
		{"sage-sim", "SAGE expanding along the similarity graph of the candidates' text fields (each node's 10 nearest per field above the 95th percentile of random pairs) instead of relations"},
		{"sage-hybrid", "SAGE's hybrid seeds alone: every candidate by 0.6·BM25/max + 0.4·cosine (SAGE's linear fusion)"},
		{"sage-plan", "SAGE with plan-based seeds (mor-traversal) and the ±Edge policy: no expansion when the plan has relational hops"},
		{"sage-plan-always", "SAGE with plan-based seeds, expanding every query (without the ±Edge policy)"},
	} {
		name := v.name
		registry.RegisterMethod(name, v.summary, func(env *infer.Env) (infer.Method, error) {
			if name == "sage-hybrid" {
				d, err := optionalDense(env)
				if err != nil {
					return nil, err
				}
				return NewHybrid(env.WS, d, DefaultAlpha), nil
			}
			return NewNamed(env, name)
		})
	}
}

var (
	_ infer.Method = (*Method)(nil)
	_ infer.Method = (*Hybrid)(nil)
)

// NewNamed builds the named SAGE variant: sage and sage-sim seed with
// sage-hybrid, SAGE's linear fusion (expanding along relations, or along the similarity graph),
// sage-plan and sage-plan-always with MoR's traversal of the query's plan
// (with and without the ±Edge policy).
func NewNamed(env *infer.Env, name string) (*Method, error) {
	d, err := optionalDense(env)
	if err != nil {
		return nil, err
	}
	var seed infer.Method
	cfg := Config{}
	switch name {
	case "sage-plan", "sage-plan-always":
		// MoR's traversal (infer/traversal), by its registered name.
		if seed, err = registry.NewMethod(env, "mor-traversal"); err != nil {
			return nil, err
		}
		cfg.EdgePolicy = name == "sage-plan"
	default:
		seed = NewHybrid(env.WS, d, DefaultAlpha)
	}
	var sim *simgraph.Graph
	if name == "sage-sim" {
		cfg.Similarity = true
		if sim, _, _, err = BuildSimilarityGraph(env.Ctx, env.WS, d, simgraph.Config{}); err != nil {
			return nil, err
		}
	}
	return New(env.WS, d, seed, cfg, sim, name)
}

// optionalDense is the workspace's dense channel, nil when it has none.
func optionalDense(env *infer.Env) (*infer.DenseChannel, error) {
	d, err := env.Dense()
	if errors.Is(err, infer.ErrNoDense) {
		return nil, nil
	}
	return d, err
}
