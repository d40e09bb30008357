package gating

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/nlpodyssey/spago/ag"
	"github.com/nlpodyssey/spago/mat"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/graphops"
	"github.com/strata-retrieval/strata/graphops/linking"
	"github.com/strata-retrieval/strata/models"
)

// Config shapes a CoR model. The retriever lists come from the SKB: one
// textual retriever per candidate node type, one relational retriever per
// relation type.
type Config struct {
	QueryDim   int      `json:"query_dim"`
	Hidden     int      `json:"hidden"`     // gate hidden units, default 64
	Types      []string `json:"types"`      // textual retrievers
	Relations  []string `json:"relations"`  // relational retrievers
	Textual    bool     `json:"textual"`    // use the textual retrievers
	Relational bool     `json:"relational"` // use the relational retrievers
	Hybrid     bool     `json:"hybrid"`     // learn the hybrid gate (else ½, ½)
	PoolK      int      `json:"pool_k"`     // per-retriever top-k of the training pool, default 20
	// Loss is the candidate set of the training loss: LossPool (the pool
	// of PoolK per retriever and the gold answers; "" means it) or LossAll
	// (CoRAG's C_q, eq. 11).
	Loss string `json:"loss,omitempty"`
	// Dense identifies the dense vectors the model was trained with.
	Dense string `json:"dense,omitempty"`
}

// DefaultConfig enables every part of CoR for an SKB and a query dimension.
func DefaultConfig(s *data.Schema, queryDim int) Config {
	return Config{QueryDim: queryDim, Hidden: 64, Types: append([]string(nil), s.CandidateTypes...),
		Relations: append([]string(nil), s.RelationTypes...), Textual: true, Relational: true, Hybrid: true, PoolK: 20}
}

// CoR is CoRAG's cooperative retrievers: a textual gate over node types, a
// relational gate over relations and a hybrid gate over the two groups,
// each a two-layer MLP on the query embedding with a softmax output. A
// candidate v scores
//
//	ŝ(v) = h₀ · g⁽ᵗ⁾[type(v)] · cos(q, v) + h₁ · Σ_{r : v ∈ N_r(T_q)} g⁽ʳ⁾[r] · cos(q, v)
//
// where T_q are the query's topic entities and N_r(T_q) their neighbours by
// relation r: textual retriever E scores the nodes of type E, relational
// retriever r the neighbours by r of the topic entities, both by the cosine
// of query and document vectors.
type CoR struct {
	Cfg                    Config
	Textual, Relational, H *models.Gate // nil when disabled
}

// Shapes lists the tensors a CoR model of cfg has, as Params orders them
// (for CheckShapes before New: a checkpoint's config is compared with its
// tensors before anything is allocated).
func Shapes(cfg Config) []models.NamedShape {
	hidden := cfg.Hidden
	if hidden == 0 {
		hidden = 64
	}
	var out []models.NamedShape
	if cfg.Textual {
		out = append(out, models.GateShapes(models.GateConfig{In: cfg.QueryDim, Hidden: hidden, Out: len(cfg.Types)}, "gate.textual")...)
	}
	if cfg.Relational {
		out = append(out, models.GateShapes(models.GateConfig{In: cfg.QueryDim, Hidden: hidden, Out: len(cfg.Relations)}, "gate.relational")...)
	}
	if cfg.Hybrid && cfg.Textual && cfg.Relational {
		out = append(out, models.GateShapes(models.GateConfig{In: cfg.QueryDim, Hidden: hidden, Out: 2}, "gate.hybrid")...)
	}
	return out
}

// New returns a CoR model with gates initialised from r.
func New(cfg Config, r *rand.Rand) (*CoR, error) {
	if cfg.Hidden == 0 {
		cfg.Hidden = 64
	}
	if cfg.PoolK == 0 {
		cfg.PoolK = 20
	}
	if cfg.Loss != "" && cfg.Loss != LossAll && cfg.Loss != LossPool {
		return nil, fmt.Errorf("gating: loss over %q: want %s or %s", cfg.Loss, LossAll, LossPool)
	}
	if !cfg.Textual && !cfg.Relational {
		return nil, fmt.Errorf("gating: CoR needs textual or relational retrievers")
	}
	if cfg.Textual && len(cfg.Types) == 0 || cfg.Relational && len(cfg.Relations) == 0 {
		return nil, fmt.Errorf("gating: no retrievers (types %v, relations %v)", cfg.Types, cfg.Relations)
	}
	c := &CoR{Cfg: cfg}
	var err error
	if cfg.Textual {
		if c.Textual, err = models.NewGate(models.GateConfig{In: cfg.QueryDim, Hidden: cfg.Hidden, Out: len(cfg.Types)}, "gate.textual", r); err != nil {
			return nil, err
		}
	}
	if cfg.Relational {
		if c.Relational, err = models.NewGate(models.GateConfig{In: cfg.QueryDim, Hidden: cfg.Hidden, Out: len(cfg.Relations)}, "gate.relational", r); err != nil {
			return nil, err
		}
	}
	if cfg.Hybrid && cfg.Textual && cfg.Relational {
		if c.H, err = models.NewGate(models.GateConfig{In: cfg.QueryDim, Hidden: cfg.Hidden, Out: 2}, "gate.hybrid", r); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// Params lists every gate parameter in a fixed order.
func (c *CoR) Params() []models.NamedParam {
	var out []models.NamedParam
	for _, g := range []*models.Gate{c.Textual, c.Relational, c.H} {
		if g != nil {
			out = append(out, g.Params()...)
		}
	}
	return out
}

// Candidates holds the retriever inputs of one query's candidates.
type Candidates struct {
	IDs  []uint32
	Type []int32   // textual retriever index of each candidate (-1: none)
	Cos  []float32 // cosine of query and document
	// Relational retrievers reaching candidate i: Rel[RelOff[i]:RelOff[i+1]].
	RelOff []int32
	Rel    []int32
}

// Len returns the number of candidates.
func (c *Candidates) Len() int { return len(c.IDs) }

// Retrievers computes CoR's retriever inputs over a workspace's graph and
// dense vectors.
type Retrievers struct {
	Graph      *graphops.Graph
	Linker     *linking.Linker
	Docs       *index.Matrix // normalised document vector of every node
	Candidates []uint32      // candidate node ids, ascending
	pos        []int32       // node id -> its index in Candidates (-1: not a candidate)
	typeIdx    []int32       // node type id -> textual retriever index (-1)
	relIdx     []int32       // relation id -> relational retriever index (-1)
}

// NewRetrievers binds the retrievers of cfg to a graph.
func NewRetrievers(g *graphops.Graph, linker *linking.Linker, docs *index.Matrix, candidates []uint32, cfg Config) (*Retrievers, error) {
	s := g.Schema()
	r := &Retrievers{Graph: g, Linker: linker, Docs: docs, Candidates: candidates,
		pos:     make([]int32, g.NumNodes()),
		typeIdx: make([]int32, len(s.NodeTypes)), relIdx: make([]int32, len(s.RelationTypes))}
	for i := range r.pos {
		r.pos[i] = -1
	}
	for i, c := range candidates {
		if int(c) >= len(r.pos) || (i > 0 && c <= candidates[i-1]) {
			return nil, fmt.Errorf("gating: candidate ids must be ascending node ids below %d (at %d: %d)", len(r.pos), i, c)
		}
		r.pos[c] = int32(i)
	}
	for i := range r.typeIdx {
		r.typeIdx[i] = -1
	}
	for i := range r.relIdx {
		r.relIdx[i] = -1
	}
	for i, t := range cfg.Types {
		id, ok := s.NodeTypeID(t)
		if !ok {
			return nil, fmt.Errorf("gating: node type %q of the model is not in the SKB", t)
		}
		r.typeIdx[id] = int32(i)
	}
	for i, name := range cfg.Relations {
		id, ok := s.RelationID(name)
		if !ok {
			return nil, fmt.Errorf("gating: relation %q of the model is not in the SKB", name)
		}
		r.relIdx[id] = int32(i)
	}
	if docs.Rows != g.NumNodes() {
		return nil, fmt.Errorf("gating: %d document vectors for %d nodes", docs.Rows, g.NumNodes())
	}
	return r, nil
}

// Inputs computes the candidates of a query (all candidates, or with
// poolK > 0 the union of every retriever's top poolK plus extra ids) and
// returns them with the query's topic entities.
func (r *Retrievers) Inputs(qvec []float32, text string, poolK int, extra []uint32) (*Candidates, []uint32) {
	qs := r.prepare(qvec, text)
	var ids []uint32
	if poolK <= 0 {
		for _, v := range r.Candidates {
			if !qs.topic(v) {
				ids = append(ids, v)
			}
		}
	} else {
		set := map[uint32]bool{}
		// Textual retrievers: top poolK per node type.
		byType := map[int32][]index.Hit{}
		for i, v := range r.Candidates {
			if ti := r.typeIdx[r.Graph.Type(v)]; ti >= 0 && !qs.topic(v) {
				byType[ti] = append(byType[ti], index.Hit{ID: v, Score: qs.cos[i]})
			}
		}
		for _, hs := range byType {
			for _, h := range topK(hs, poolK) {
				set[h.ID] = true
			}
		}
		// Relational retrievers: top poolK neighbours per relation.
		byRel := map[int32][]index.Hit{}
		for v, rs := range qs.rels {
			for _, ri := range rs {
				byRel[ri] = append(byRel[ri], index.Hit{ID: v, Score: r.cosOf(qs.cos, v)})
			}
		}
		for _, hs := range byRel {
			for _, h := range topK(hs, poolK) {
				set[h.ID] = true
			}
		}
		for _, v := range extra {
			if r.isCandidate(v) && !qs.topic(v) {
				set[v] = true
			}
		}
		for v := range set {
			ids = append(ids, v)
		}
		slices.Sort(ids)
	}
	return r.candidates(ids, qs), qs.topics
}

// queryScope is what every retriever needs of one query: its topic
// entities, the cosine of every candidate and the relational retrievers
// reaching each neighbour of the topic entities (reached marks those
// neighbours, so that the loops over every candidate test a bit instead of
// looking each one up in rels).
type queryScope struct {
	topics  []uint32
	topicOf map[uint32]bool // only when there are many topics
	cos     []float32       // per candidate position
	rels    map[uint32][]int32
	reached []uint64 // bit v: rels has v
}

// topic reports whether v is one of the query's topic entities.
func (qs *queryScope) topic(v uint32) bool {
	if qs.topicOf != nil {
		return qs.topicOf[v]
	}
	return slices.Contains(qs.topics, v)
}

// relsOf returns the relational retrievers reaching v (nil for none).
func (qs *queryScope) relsOf(v uint32) []int32 {
	if qs.reached[v>>6]&(1<<(v&63)) == 0 {
		return nil
	}
	return qs.rels[v]
}

func (r *Retrievers) prepare(qvec []float32, text string) *queryScope {
	qs := &queryScope{topics: r.Linker.TopicEntities(text), rels: map[uint32][]int32{},
		reached: make([]uint64, (len(r.pos)+63)/64)}
	if len(qs.topics) > 16 {
		qs.topicOf = map[uint32]bool{}
		for _, t := range qs.topics {
			qs.topicOf[t] = true
		}
	}
	qs.cos = index.ScoreRows(r.Docs, qvec, r.Candidates)
	for _, u := range qs.topics {
		nb, rl := r.Graph.Neighbors(u)
		for i, v := range nb {
			ri := r.relIdx[rl.At(i)]
			if ri < 0 || !r.isCandidate(v) || qs.topic(v) {
				continue
			}
			if !slices.Contains(qs.rels[v], ri) {
				qs.rels[v] = append(qs.rels[v], ri)
				qs.reached[v>>6] |= 1 << (v & 63)
			}
		}
	}
	return qs
}

// isCandidate reports whether node v is one of the candidates.
func (r *Retrievers) isCandidate(v uint32) bool { return int(v) < len(r.pos) && r.pos[v] >= 0 }

// cosOf returns the query's cosine with candidate v.
func (r *Retrievers) cosOf(cos []float32, v uint32) float32 { return cos[r.pos[v]] }

// candidates builds the retriever inputs of the given ids (ascending).
func (r *Retrievers) candidates(ids []uint32, qs *queryScope) *Candidates {
	c := &Candidates{IDs: ids, Type: make([]int32, len(ids)), Cos: make([]float32, len(ids)), RelOff: make([]int32, len(ids)+1)}
	for i, v := range ids {
		c.Type[i] = r.typeIdx[r.Graph.Type(v)]
		c.Cos[i] = r.cosOf(qs.cos, v)
		rs := qs.relsOf(v)
		slices.Sort(rs)
		c.Rel = append(c.Rel, rs...)
		c.RelOff[i+1] = int32(len(c.Rel))
	}
	return c
}

// topK returns the k best of hs in ranking order (index.Compare), keeping
// them in a heap rather than sorting all of hs.
func topK(hs []index.Hit, k int) []index.Hit {
	if len(hs) <= k {
		index.Sort(hs)
		return hs
	}
	t := index.NewTopK(k)
	for _, h := range hs {
		t.Push(h)
	}
	return t.Sorted(nil)
}

// gateOutputs returns the three gates' outputs for one query vector (nil
// for disabled gates; h defaults to ½, ½ or selects the only group).
func (c *CoR) gateOutputs(qvec []float32) (gt, gr, h []float32) {
	if c.Textual != nil {
		gt = c.Textual.Forward(qvec, 1)
	}
	if c.Relational != nil {
		gr = c.Relational.Forward(qvec, 1)
	}
	h = c.fixedH()
	if c.H != nil {
		h = c.H.Forward(qvec, 1)
	}
	return gt, gr, h
}

func (c *CoR) fixedH() []float32 {
	switch {
	case !c.Cfg.Textual:
		return []float32{0, 1}
	case !c.Cfg.Relational:
		return []float32{1, 0}
	}
	return []float32{0.5, 0.5}
}

// Contribution splits a candidate's score into its textual and relational
// parts.
type Contribution struct {
	Textual    float32
	Relational []float32 // per relational retriever (zero when unused)
}

// Score returns ŝ for every candidate, and each retriever's contribution
// when explain is true.
func (c *CoR) Score(qvec []float32, cands *Candidates, explain bool) ([]float32, []Contribution) {
	gt, gr, h := c.gateOutputs(qvec)
	out := make([]float32, cands.Len())
	var contrib []Contribution
	if explain {
		contrib = make([]Contribution, cands.Len())
	}
	for i := range out {
		var t, rsum float32
		if gt != nil && cands.Type[i] >= 0 {
			t = h[0] * gt[cands.Type[i]] * cands.Cos[i]
		}
		if explain {
			contrib[i].Textual = t
			contrib[i].Relational = make([]float32, len(c.Cfg.Relations))
		}
		if gr != nil {
			for _, ri := range cands.Rel[cands.RelOff[i]:cands.RelOff[i+1]] {
				v := h[1] * gr[ri] * cands.Cos[i]
				rsum += v
				if explain {
					contrib[i].Relational[ri] = v
				}
			}
		}
		out[i] = t + rsum
	}
	return out, contrib
}

// Gates returns the gate outputs for a query vector (for explanations).
func (c *CoR) Gates(qvec []float32) (textual, relational, hybrid []float32) {
	return c.gateOutputs(qvec)
}

// ScoreOp returns a differentiable node with ŝ for every candidate of a
// batch of queries: qvecs [len(batch), QueryDim] and one Candidates per
// query; the scores of query b's candidates follow those of query b−1.
func (c *CoR) ScoreOp(qvecs []float32, batch []*Candidates) mat.Tensor {
	fn := c.gateOps(qvecs, len(batch))
	fn.batch = batch
	return ag.NewOperator(&fn).Run()
}

// gateOps runs the enabled gates on a batch of B query vectors.
func (c *CoR) gateOps(qvecs []float32, B int) scoreFn {
	fn := scoreFn{c: c}
	if c.Textual != nil {
		fn.gt = c.Textual.Op(qvecs, B)
	}
	if c.Relational != nil {
		fn.gr = c.Relational.Op(qvecs, B)
	}
	if c.H != nil {
		fn.h = c.H.Op(qvecs, B)
	}
	return fn
}

type scoreFn struct {
	c         *CoR
	batch     []*Candidates
	gt, gr, h mat.Tensor
	n         int
}

func (f *scoreFn) Operands() []mat.Tensor {
	var out []mat.Tensor
	for _, t := range []mat.Tensor{f.gt, f.gr, f.h} {
		if t != nil {
			out = append(out, t)
		}
	}
	return out
}

func (f *scoreFn) rows() (gt, gr, h []float32, nt, nr int) {
	nt, nr = len(f.c.Cfg.Types), len(f.c.Cfg.Relations)
	if f.gt != nil {
		gt = mat.Data[float32](f.gt.Value())
	}
	if f.gr != nil {
		gr = mat.Data[float32](f.gr.Value())
	}
	if f.h != nil {
		h = mat.Data[float32](f.h.Value())
	}
	return
}

func (f *scoreFn) Forward() (mat.Tensor, error) {
	gt, gr, h, nt, nr := f.rows()
	fixed := f.c.fixedH()
	var out []float32
	for b, cands := range f.batch {
		hb := fixed
		if h != nil {
			hb = h[2*b : 2*b+2]
		}
		for i := range cands.IDs {
			out = append(out, candScore(cands, b, i, gt, gr, hb, nt, nr))
		}
	}
	f.n = len(out)
	if f.n == 0 {
		out = []float32{0}
	}
	return mat.NewDense[float32](mat.WithShape(len(out)), mat.WithBacking(out)), nil
}

func (f *scoreFn) Backward(gy mat.Tensor) error {
	gt, gr, h, nt, nr := f.rows()
	fixed := f.c.fixedH()
	g := mat.Data[float32](gy)
	var dgt, dgr, dh []float32
	if gt != nil {
		dgt = make([]float32, len(gt))
	}
	if gr != nil {
		dgr = make([]float32, len(gr))
	}
	if h != nil {
		dh = make([]float32, len(h))
	}
	k := 0
	for b, cands := range f.batch {
		hb := fixed
		if h != nil {
			hb = h[2*b : 2*b+2]
		}
		for i := range cands.IDs {
			candGrad(cands, b, i, g[k], gt, gr, hb, nt, nr, dgt, dgr, dh)
			k++
		}
	}
	f.accumulate(dgt, dgr, dh)
	return nil
}

// candScore is ŝ of candidate i of query b:
// h₀·g⁽ᵗ⁾[type]·cos + h₁·Σ_r g⁽ʳ⁾[r]·cos.
func candScore(cands *Candidates, b, i int, gt, gr, hb []float32, nt, nr int) float32 {
	var s float32
	if gt != nil && cands.Type[i] >= 0 {
		s += hb[0] * gt[b*nt+int(cands.Type[i])] * cands.Cos[i]
	}
	if gr != nil {
		for _, ri := range cands.Rel[cands.RelOff[i]:cands.RelOff[i+1]] {
			s += hb[1] * gr[b*nr+int(ri)] * cands.Cos[i]
		}
	}
	return s
}

// candGrad adds e·∂ŝ/∂(gates) of candidate i of query b to the gradients
// (dh nil when the hybrid gate is fixed).
func candGrad(cands *Candidates, b, i int, e float32, gt, gr, hb []float32, nt, nr int, dgt, dgr, dh []float32) {
	cs := cands.Cos[i]
	if gt != nil && cands.Type[i] >= 0 {
		ti := b*nt + int(cands.Type[i])
		dgt[ti] += e * hb[0] * cs
		if dh != nil {
			dh[2*b] += e * gt[ti] * cs
		}
	}
	if gr != nil {
		for _, ri := range cands.Rel[cands.RelOff[i]:cands.RelOff[i+1]] {
			j := b*nr + int(ri)
			dgr[j] += e * hb[1] * cs
			if dh != nil {
				dh[2*b+1] += e * gr[j] * cs
			}
		}
	}
}

// accumulate hands the gates' gradients to their outputs.
func (f *scoreFn) accumulate(dgt, dgr, dh []float32) {
	for _, x := range []struct {
		t mat.Tensor
		d []float32
	}{{f.gt, dgt}, {f.gr, dgr}, {f.h, dh}} {
		if x.t != nil && x.t.RequiresGrad() {
			x.t.AccGrad(mat.NewDense[float32](mat.WithShape(x.t.Value().Shape()...), mat.WithBacking(x.d)))
		}
	}
}
