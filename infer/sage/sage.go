package sage

import (
	"context"
	"errors"
	"fmt"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/baseline"
	"github.com/strata-retrieval/strata/infer/planner"
	"github.com/strata-retrieval/strata/infer/registry"
	"slices"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/graphops"
	"github.com/strata-retrieval/strata/graphops/workspace"
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
	// DenseWeight weighs the dense score against max-normalised BM25 over
	// the neighbour set, default 0.4 (SAGE's 0.4·dense + 0.6·BM25).
	DenseWeight float64
}

// Method expands the top seeds of another method by their 1-hop
// neighbours, rescores the neighbours and adds the best. Its ranking is the
// k seeds, then the k′ added neighbours, then the rest of the seed ranking,
// so Recall@(k+k′) compares with the seed method's at the same depth.
type Method struct {
	Seed  infer.Method
	Cfg   Config
	Sim   *graphops.SimGraph
	ws    *workspace.Workspace
	d     *infer.DenseChannel
	rels  []data.RelID
	label string
	cand  []bool
}

// New wraps a seed method. d may be nil (BM25 alone rescores).
func New(ws *workspace.Workspace, d *infer.DenseChannel, seed infer.Method, cfg Config, sim *graphops.SimGraph, label string) (*Method, error) {
	if cfg.Seeds <= 0 {
		cfg.Seeds = 10
	}
	if cfg.Add <= 0 {
		cfg.Add = 10
	}
	if cfg.DenseWeight == 0 {
		cfg.DenseWeight = 0.4
	}
	if d == nil {
		cfg.DenseWeight = 0
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
	for _, path := range p.Metapath {
		if len(path) >= 3 {
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
	o := graphops.ExpandOptions{Relations: m.rels}
	if m.Cfg.Similarity {
		o = graphops.ExpandOptions{NoGraph: true, Sim: m.Sim}
	}
	nbrs := slices.DeleteFunc(graphops.Expand(m.ws.Graph, top, o), func(v uint32) bool { return !m.cand[v] })
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

// prune rescores neighbours by w·dense + (1−w)·BM25, BM25 computed over the
// neighbour set alone and divided by its maximum (as SAGE's code), and
// keeps the top k′.
func (m *Method) prune(q data.Query, nbrs []uint32) ([]index.Hit, error) {
	if len(nbrs) == 0 {
		return nil, nil
	}
	b := index.NewBuilder(m.ws.Config.BM25)
	for _, v := range nbrs {
		b.Add(m.ws.SKB.Document(v))
	}
	lex := make([]float32, len(nbrs))
	var mx float32
	for _, h := range b.Build().Search(q.Text, len(nbrs), nil) {
		lex[h.ID] = h.Score
		mx = max(mx, h.Score)
	}
	var qv []float32
	if m.Cfg.DenseWeight > 0 {
		var err error
		if qv, err = m.d.QueryVector(q); err != nil {
			return nil, err
		}
	}
	w := float32(m.Cfg.DenseWeight)
	hits := make([]index.Hit, len(nbrs))
	for i, v := range nbrs {
		s := float32(0)
		if mx > 0 {
			s = (1 - w) * lex[i] / mx
		}
		if qv != nil {
			var c float32
			for j, x := range m.d.Docs.Row(int(v)) {
				c += x * qv[j]
			}
			s += w * c
		}
		hits[i] = index.Hit{ID: v, Score: s}
	}
	index.Sort(hits)
	return hits[:min(m.Cfg.Add, len(hits))], nil
}

// BuildSimilarityGraph builds SAGE's offline similarity graph over the
// workspace's candidates from their text fields, each encoded with the
// dense channel's encoder.
func BuildSimilarityGraph(ctx context.Context, ws *workspace.Workspace, d *infer.DenseChannel, cfg graphops.SimGraphConfig) (*graphops.SimGraph, []graphops.SimDegrees, []string, error) {
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
		for lo := 0; lo < len(nodes); lo += 1024 {
			hi := min(lo+1024, len(nodes))
			copy(x.Data[lo*x.Dim:hi*x.Dim], d.Encoder.EncodeTexts(texts[lo:hi]))
		}
		fields = append(fields, x)
		present = append(present, pr)
		names = append(names, name)
	}
	sg, st, err := graphops.BuildSimGraph(ctx, len(ws.SKB.Nodes), nodes, fields, present, cfg)
	return sg, st, names, err
}

func init() {
	for _, v := range []struct{ name, summary string }{
		{"sage", "SAGE: the top 10 of bm25+dense, plus the 10 best of their 1-hop neighbours rescored by 0.4·dense + 0.6·BM25 over the neighbour set"},
		{"sage-sim", "SAGE expanding along the similarity graph of the candidates' text fields (95th percentile) instead of relations"},
		{"sage-plan", "SAGE with plan-based seeds (mor-traversal) and the ±Edge policy: no expansion when the plan has relational hops"},
		{"sage-plan-always", "SAGE with plan-based seeds, expanding every query (without the ±Edge policy)"},
	} {
		name := v.name
		registry.RegisterMethod(name, v.summary, func(env *infer.Env) (infer.Method, error) { return NewNamed(env, name) })
	}
}

var _ infer.Method = (*Method)(nil)

// NewNamed builds the named SAGE variant: sage and sage-sim seed with
// bm25+dense (expanding along relations, or along the similarity graph),
// sage-plan and sage-plan-always with MoR's traversal of the query's plan
// (with and without the ±Edge policy).
func NewNamed(env *infer.Env, name string) (*Method, error) {
	d, err := env.Dense()
	if errors.Is(err, infer.ErrNoDense) {
		d, err = nil, nil
	}
	if err != nil {
		return nil, err
	}
	var seed infer.Method
	cfg := Config{}
	switch name {
	case "sage-plan", "sage-plan-always":
		seed = planner.NewTraversalMethod(env.WS)
		cfg.EdgePolicy = name == "sage-plan"
	default:
		if seed, err = baseline.NewBM25Dense(env); err != nil {
			return nil, err
		}
	}
	var sim *graphops.SimGraph
	if name == "sage-sim" {
		cfg.Similarity = true
		if sim, _, _, err = BuildSimilarityGraph(env.Ctx, env.WS, d, graphops.SimGraphConfig{}); err != nil {
			return nil, err
		}
	}
	return New(env.WS, d, seed, cfg, sim, name)
}
