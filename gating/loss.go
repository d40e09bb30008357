package gating

import (
	"fmt"
	"slices"

	"github.com/nlpodyssey/spago/ag"
	"github.com/nlpodyssey/spago/mat"
)

// Loss sets name the candidates CoR's MSE is averaged over.
const (
	// LossAll is CoRAG's objective (eq. 11): every candidate entity of the
	// query, C_q = E \ E^T, with target 1 for gold answers and 0 otherwise,
	// averaged over |C_q| per query and over the queries of a batch.
	LossAll = "all"
	// LossPool averages over a pool instead: the union of every
	// retriever's top PoolK and the gold answers, all pools of a batch
	// together.
	LossPool = "pool"
)

// LossInputs is one query's share of CoR's loss over its whole candidate
// set C_q without scoring every candidate at every step. A candidate that
// no relational retriever reaches and that is not gold scores
// h₀·g⁽ᵗ⁾[type]·cos with target 0, so the squared errors of all of them
// add up to h₀² Σ_E g⁽ᵗ⁾[E]² · Σ_{v of type E} cos(q, v)²: the per-type
// sums are computed once (RestSq), the other candidates are scored
// explicitly (Cands, Labels).
type LossInputs struct {
	Cands  *Candidates
	Labels []float32 // target of each explicit candidate (1 gold, 0 not)
	RestSq []float64 // per textual retriever: Σ cos² over its other candidates
	N      int       // |C_q|: every candidate that is not a topic entity
}

// FullInputs computes a query's LossInputs: the explicit candidates are
// the gold answers (those that are candidates and not topic entities) and
// every neighbour a relational retriever reaches. It returns nil when no
// gold answer is in C_q.
func (r *Retrievers) FullInputs(qvec []float32, text string, gold []uint32) *LossInputs {
	qs := r.prepare(qvec, text)
	isGold := map[uint32]bool{}
	for _, v := range gold {
		if r.isCandidate(v) && !qs.topic(v) {
			isGold[v] = true
		}
	}
	if len(isGold) == 0 {
		return nil
	}
	ids := make([]uint32, 0, len(qs.rels)+len(isGold))
	for v := range qs.rels {
		ids = append(ids, v)
	}
	for v := range isGold {
		if _, ok := qs.rels[v]; !ok {
			ids = append(ids, v)
		}
	}
	slices.Sort(ids)
	in := &LossInputs{Cands: r.candidates(ids, qs), Labels: make([]float32, len(ids))}
	for i, v := range ids {
		if isGold[v] {
			in.Labels[i] = 1
		}
	}
	nt := 0
	for _, ti := range r.typeIdx {
		nt = max(nt, int(ti)+1)
	}
	in.RestSq = make([]float64, nt)
	for i, v := range r.Candidates {
		if qs.topic(v) {
			continue
		}
		in.N++
		ti := r.typeIdx[r.Graph.Type(v)]
		if ti < 0 || isGold[v] {
			continue
		}
		if qs.relsOf(v) != nil {
			continue
		}
		c := float64(qs.cos[i])
		in.RestSq[ti] += c * c
	}
	return in
}

// LossOp returns CoRAG's training loss (eq. 11) over a batch as a
// differentiable scalar: the mean over queries b of
//
//	(1/|C_q|) [ Σ_explicit (ŝ(v) − y(v))² + h₀² Σ_E g⁽ᵗ⁾[E]² RestSq[E] ]
//
// for query vectors qvecs [len(batch), QueryDim]. One fused operator over
// the gates' outputs; its backward pass is checked against finite
// differences.
func (c *CoR) LossOp(qvecs []float32, batch []*LossInputs) mat.Tensor {
	B := len(batch)
	if B == 0 || len(qvecs) != B*c.Cfg.QueryDim {
		panic(fmt.Sprintf("gating: CoR.LossOp: %d query values for %d queries of dimension %d", len(qvecs), B, c.Cfg.QueryDim))
	}
	for b, in := range batch {
		if len(in.Labels) != in.Cands.Len() || in.N < in.Cands.Len() || len(in.RestSq) < len(c.Cfg.Types) && c.Textual != nil {
			panic(fmt.Sprintf("gating: CoR.LossOp: query %d has %d labels, %d candidates, N %d, %d type sums", b, len(in.Labels), in.Cands.Len(), in.N, len(in.RestSq)))
		}
	}
	fn := &lossFn{scoreFn: c.gateOps(qvecs, B), in: batch}
	return ag.NewOperator(fn).Run()
}

type lossFn struct {
	scoreFn
	in []*LossInputs
}

// score is ŝ of explicit candidate i of query b.
func (f *lossFn) score(b, i int, gt, gr, hb []float32, nt, nr int) float32 {
	return candScore(f.in[b].Cands, b, i, gt, gr, hb, nt, nr)
}

func (f *lossFn) Forward() (mat.Tensor, error) {
	gt, gr, h, nt, nr := f.rows()
	fixed := f.c.fixedH()
	var total float64
	for b, in := range f.in {
		hb := fixed
		if h != nil {
			hb = h[2*b : 2*b+2]
		}
		var sq float64
		for i := range in.Cands.IDs {
			d := float64(f.score(b, i, gt, gr, hb, nt, nr)) - float64(in.Labels[i])
			sq += d * d
		}
		if gt != nil {
			h0 := float64(hb[0])
			for t := range nt {
				g := float64(gt[b*nt+t])
				sq += h0 * h0 * g * g * in.RestSq[t]
			}
		}
		total += sq / float64(in.N)
	}
	return mat.Scalar(float32(total / float64(len(f.in)))), nil
}

func (f *lossFn) Backward(gy mat.Tensor) error {
	gt, gr, h, nt, nr := f.rows()
	fixed := f.c.fixedH()
	g0 := float64(mat.Data[float32](gy)[0])
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
	for b, in := range f.in {
		hb := fixed
		if h != nil {
			hb = h[2*b : 2*b+2]
		}
		k := g0 * 2 / float64(in.N) / float64(len(f.in)) // d loss / d (ŝ − y) per unit error
		cands := in.Cands
		for i := range cands.IDs {
			e := float32(k * (float64(f.score(b, i, gt, gr, hb, nt, nr)) - float64(in.Labels[i])))
			candGrad(cands, b, i, e, gt, gr, hb, nt, nr, dgt, dgr, dh)
		}
		if gt != nil {
			// d/dg [h₀² g² S] = 2 h₀² g S; d/dh₀ = 2 h₀ g² S (k holds the 2).
			h0 := float64(hb[0])
			var sh float64
			for t := range nt {
				g := float64(gt[b*nt+t])
				dgt[b*nt+t] += float32(k * h0 * h0 * g * in.RestSq[t])
				sh += g * g * in.RestSq[t]
			}
			if dh != nil {
				dh[2*b] += float32(k * h0 * sh)
			}
		}
	}
	f.accumulate(dgt, dgr, dh)
	return nil
}
