package reranker

import (
	"fmt"
	"slices"
	"sort"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
)

// FusionExample is one validation query: both rankings (best first), what
// stage 1 said about the plan, and the gold answers.
type FusionExample struct {
	Graph, Text []index.Hit
	Meta        PlanMeta
	Gold        []uint32
}

// Grid is the search space of GRASP's fusions; a nil list means the
// paper's (appendix A).
type Grid struct {
	StaticW  []float64 `json:"static_w,omitempty"`
	StaticK  []float64 `json:"static_k,omitempty"`
	DynamicK []float64 `json:"dynamic_k,omitempty"`
	// BucketW holds each n_cand bucket's candidate weights; RiskM each risk
	// level's candidate multipliers (no_trade, weak, normal, aggressive).
	BucketW [][]float64 `json:"w_bucket,omitempty"`
	RiskM   [][]float64 `json:"m_risk,omitempty"`
	// RiskQuantiles are where the risk cuts may fall, as quantiles of the
	// validation queries' planner confidence (0 keeps a level empty).
	RiskQuantiles []float64 `json:"risk_quantiles,omitempty"`
}

// WithDefaults fills the lists left nil with GRASP's grids and strata's
// risk-cut quantiles (0, 0.1, ..., 0.9).
func (g Grid) WithDefaults() Grid {
	def := func(v *[]float64, d ...float64) {
		if *v == nil {
			*v = d
		}
	}
	def(&g.StaticW, 0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1)
	def(&g.StaticK, 1, 2, 5, 10, 20, 40, 60, 80, 100)
	def(&g.DynamicK, 5, 10, 20, 40, 80, 150, 300)
	if g.BucketW == nil {
		g.BucketW = [][]float64{{1.0, 1.2, 1.4, 1.6, 2.0}, {0.8, 1.0, 1.2, 1.4}, {0.2, 0.4, 0.6, 0.8}, {0, 0.05, 0.1}, {0, 0.05, 0.1}}
	}
	if g.RiskM == nil {
		g.RiskM = [][]float64{{0, 0.25, 0.5, 0.75}, {0.5, 0.75, 1.0, 1.25}, {0.75, 1.0, 1.25, 1.5}, {1.0, 1.25, 1.5, 2.0}}
	}
	def(&g.RiskQuantiles, 0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
	return g
}

// Check reports a grid whose lists do not fit the buckets and risk levels.
func (g Grid) Check() error {
	if g.BucketW != nil && len(g.BucketW) != NumBuckets {
		return fmt.Errorf("fusion grid: %d bucket weight lists, want %d", len(g.BucketW), NumBuckets)
	}
	if g.RiskM != nil && len(g.RiskM) != len(data.RiskLevels) {
		return fmt.Errorf("fusion grid: %d risk multiplier lists, want %d", len(g.RiskM), len(data.RiskLevels))
	}
	for _, q := range g.RiskQuantiles {
		if q < 0 || q >= 1 {
			return fmt.Errorf("fusion grid: risk quantile %g outside [0, 1)", q)
		}
	}
	return nil
}

// cell sums Hit@1 and Recall@20 over examples.
type cell struct{ hit, rec float64 }

// scored is an example prepared for the searches: the union of both
// rankings with each node's ranks (0: absent).
type scored struct {
	ids    []uint32
	rg, rm []float64
	gold   []bool
	nGold  int
}

func prepare(e *FusionExample) scored {
	pos := map[uint32]int{}
	var s scored
	add := func(id uint32) int {
		i, ok := pos[id]
		if !ok {
			i = len(s.ids)
			pos[id] = i
			s.ids = append(s.ids, id)
			s.rg, s.rm = append(s.rg, 0), append(s.rm, 0)
		}
		return i
	}
	// Rankings list a node once; a repeat keeps its first rank.
	for r, h := range e.Graph {
		if i := add(h.ID); s.rg[i] == 0 {
			s.rg[i] = float64(r + 1)
		}
	}
	for r, h := range e.Text {
		if i := add(h.ID); s.rm[i] == 0 {
			s.rm[i] = float64(r + 1)
		}
	}
	s.gold = make([]bool, len(s.ids))
	for _, g := range slices.Compact(slices.Sorted(slices.Values(e.Gold))) {
		s.nGold++
		if i, ok := pos[g]; ok {
			s.gold[i] = true
		}
	}
	return s
}

// eval returns Hit@1 and Recall@20 of the fusion wg/(k + rank_g) + wt/(k +
// rank_m), ranked exactly as FuseRRF ranks it (summed in float64, compared
// as the float32 score it returns, ties to the smaller id).
func (s *scored) eval(wg, wt, k float64) (hit1, recall20 float64) {
	if len(s.ids) == 0 {
		return 0, 0
	}
	score := func(i int) float64 {
		var v float64
		if s.rg[i] > 0 {
			v += wg / (k + s.rg[i])
		}
		if s.rm[i] > 0 {
			v += wt / (k + s.rm[i])
		}
		return float64(float32(v))
	}
	sc := make([]float64, len(s.ids))
	top := 0
	for i := range s.ids {
		sc[i] = score(i)
		if sc[i] > sc[top] || sc[i] == sc[top] && s.ids[i] < s.ids[top] {
			top = i
		}
	}
	if s.gold[top] {
		hit1 = 1
	}
	if s.nGold == 0 {
		return hit1, 0
	}
	n := 0
	for g := range s.ids {
		if !s.gold[g] {
			continue
		}
		ahead := 0
		for i := range s.ids {
			if sc[i] > sc[g] || sc[i] == sc[g] && s.ids[i] < s.ids[g] {
				if ahead++; ahead >= 20 {
					break
				}
			}
		}
		if ahead < 20 {
			n++
		}
	}
	return hit1, float64(n) / float64(s.nGold)
}

// branchRecall is the Recall@20 of the graph and the text ranking alone.
func (s *scored) branchRecall() (graph, text float64) {
	if s.nGold == 0 {
		return 0, 0
	}
	var g, t int
	for i := range s.ids {
		if s.gold[i] {
			if s.rg[i] > 0 && s.rg[i] <= 20 {
				g++
			}
			if s.rm[i] > 0 && s.rm[i] <= 20 {
				t++
			}
		}
	}
	return float64(g) / float64(s.nGold), float64(t) / float64(s.nGold)
}

// SearchStatic picks (w, k) over g's static grid by mean validation Hit@1
// (ties: the earlier grid point, k outer, w inner). With RuleRecallFloor
// only settings whose Recall@20 is at least the better branch's compete
// (all of them when none is).
func SearchStatic(ex []FusionExample, g Grid, rule string) FusionChoice {
	g = g.WithDefaults()
	ss := make([]scored, len(ex))
	var gr, tr float64
	for i := range ex {
		ss[i] = prepare(&ex[i])
		a, b := ss[i].branchRecall()
		gr, tr = gr+a, tr+b
	}
	need := max(gr, tr) - 1e-9
	best, free := FusionChoice{ValHit1: -1}, FusionChoice{ValHit1: -1}
	for _, k := range g.StaticK {
		for _, w := range g.StaticW {
			var h, r float64
			for i := range ss {
				a, b := ss[i].eval(w, 1-w, k)
				h, r = h+a, r+b
			}
			c := FusionChoice{Mode: "static", Rule: rule, K: k, W: w, ValHit1: h / float64(max(1, len(ex)))}
			if c.ValHit1 > free.ValHit1 {
				free = c
			}
			if (rule != RuleRecallFloor || r >= need) && c.ValHit1 > best.ValHit1 {
				best = c
			}
		}
	}
	if best.ValHit1 < 0 {
		return free
	}
	return best
}

// riskCandidates are the cuts the search may use: the given quantiles of
// the confidences of the examples whose risk is calibrated (0 stays 0).
func riskCandidates(ex []FusionExample, qs []float64) []float64 {
	var conf []float64
	for i := range ex {
		if ex[i].Meta.Risk == "" {
			conf = append(conf, ex[i].Meta.Conf)
		}
	}
	if len(conf) == 0 {
		return nil
	}
	sort.Float64s(conf)
	var out []float64
	for _, q := range qs {
		v := 0.0
		if q > 0 {
			v = conf[min(len(conf)-1, int(q*float64(len(conf))))]
		}
		out = append(out, v)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// SearchDynamic runs GRASP's dynamic-RRF grid search exactly: every k,
// every bucket weight of every bucket, every risk multiplier of every
// level and, for plans whose risk is calibrated, every triple of risk cuts
// from the candidate quantiles, by mean validation Hit@1 (ties: the first
// found). A query falls in one bucket, so for given k, multipliers and
// cuts each bucket's best weight is found on its own; the search is exact
// over the whole product grid.
func SearchDynamic(ex []FusionExample, g Grid, rule string) FusionChoice {
	g = g.WithDefaults()
	nb, nr := NumBuckets, len(data.RiskLevels)
	riskIdx := map[string]int{}
	for i, r := range data.RiskLevels {
		riskIdx[r] = i
	}
	// hit/rec[e][k][i][r][j]: example e at k, its bucket's weight i and
	// level r's multiplier j.
	tab := make([][][][][]cell, len(ex))
	bucket := make([]int, len(ex))
	need := make([]float64, nb)
	var gr, tr = make([]float64, nb), make([]float64, nb)
	for e := range ex {
		s := prepare(&ex[e])
		b := Bucket(ex[e].Meta.NCand)
		bucket[e] = b
		a, c := s.branchRecall()
		gr[b], tr[b] = gr[b]+a, tr[b]+c
		tab[e] = make([][][][]cell, len(g.DynamicK))
		for ki, k := range g.DynamicK {
			tab[e][ki] = make([][][]cell, len(g.BucketW[b]))
			for i, wb := range g.BucketW[b] {
				tab[e][ki][i] = make([][]cell, nr)
				for r := range nr {
					if d := ex[e].Meta.Risk; d != "" && riskIdx[d] != r {
						continue
					}
					tab[e][ki][i][r] = make([]cell, len(g.RiskM[r]))
					for j, m := range g.RiskM[r] {
						h, rc := s.eval(wb*m, 1, k)
						tab[e][ki][i][r][j] = cell{h, rc}
					}
				}
			}
		}
	}
	for b := range nb {
		need[b] = max(gr[b], tr[b]) - 1e-9
	}
	cands := riskCandidates(ex, g.RiskQuantiles)
	var triples [][]float64
	if cands == nil {
		triples = [][]float64{nil}
	}
	for a := range cands {
		for b := a; b < len(cands); b++ {
			for c := b; c < len(cands); c++ {
				triples = append(triples, []float64{cands[a], cands[b], cands[c]})
			}
		}
	}
	best := FusionChoice{Mode: "dynamic", Formula: FormulaGRASP, Rule: rule, ValHit1: -1}
	level := make([]int, len(ex))
	bestTotal, bestShort := 0.0, 0
	for _, cuts := range triples {
		probe := FusionChoice{RiskCuts: cuts}
		for e := range ex {
			level[e] = riskIdx[probe.RiskLevel(ex[e].Meta)]
		}
		for ki, k := range g.DynamicK {
			// sum[b][i][r][j] over the bucket's examples at level r.
			sum := make([][][][]cell, nb)
			for b := range nb {
				sum[b] = make([][][]cell, len(g.BucketW[b]))
				for i := range sum[b] {
					sum[b][i] = make([][]cell, nr)
					for r := range nr {
						sum[b][i][r] = make([]cell, len(g.RiskM[r]))
					}
				}
			}
			for e := range ex {
				b, r := bucket[e], level[e]
				for i := range g.BucketW[b] {
					for j, c := range tab[e][ki][i][r] {
						s := &sum[b][i][r][j]
						s.hit += c.hit
						s.rec += c.rec
					}
				}
			}
			js := make([]int, nr)
			for {
				c, total, short := dynamicChoice(sum, g, js, need, rule)
				if best.ValHit1 < 0 || short < bestShort || short == bestShort && total > bestTotal {
					bestTotal, bestShort = total, short
					c.K, c.RiskCuts, c.Rule = k, cuts, rule
					c.ValHit1 = total / float64(max(1, len(ex)))
					best = c
				}
				// next multiplier vector
				r := nr - 1
				for ; r >= 0; r-- {
					if js[r]++; js[r] < len(g.RiskM[r]) {
						break
					}
					js[r] = 0
				}
				if r < 0 {
					break
				}
			}
		}
	}
	return best
}

// dynamicChoice picks each bucket's best weight for multiplier indices js
// and returns the choice, its total Hit@1 count and the number of buckets
// where no weight keeps the recall floor (RuleRecallFloor; settings with
// fewer such buckets win before Hit@1 counts).
func dynamicChoice(sum [][][][]cell, g Grid, js []int, need []float64, rule string) (FusionChoice, float64, int) {
	c := FusionChoice{Mode: "dynamic", Formula: FormulaGRASP, Buckets: make([]float64, NumBuckets), Risk: map[string]float64{}}
	for r, lv := range data.RiskLevels {
		c.Risk[lv] = g.RiskM[r][js[r]]
	}
	var total float64
	short := 0
	for b := range sum {
		bi, bs, kept := 0, -1.0, false
		for i := range sum[b] {
			var h, rc float64
			for r := range sum[b][i] {
				h += sum[b][i][r][js[r]].hit
				rc += sum[b][i][r][js[r]].rec
			}
			ok := rule != RuleRecallFloor || rc >= need[b]
			if ok && (!kept || h > bs) || !ok && !kept && h > bs {
				bi, bs, kept = i, h, ok
			}
		}
		c.Buckets[b] = g.BucketW[b][bi]
		total += bs
		if !kept {
			short++
		}
	}
	return c, total, short
}
