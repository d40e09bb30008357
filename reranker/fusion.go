package reranker

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
)

// GRASP's plan-conditioned reciprocal rank fusion of a graph ranking with a
// text ranking (mFAR's), and its grid search.

// Buckets are GRASP's n_cand buckets: [1,10], [11,50], [51,100], [101,500],
// >500 (0 candidates falls in the first).
var Buckets = [][2]int{{1, 10}, {11, 50}, {51, 100}, {101, 500}, {501, 1 << 62}}

// Bucket returns the bucket of a candidate count.
func Bucket(n int) int {
	for i, b := range Buckets {
		if n <= b[1] {
			return i
		}
	}
	return len(Buckets) - 1
}

// FusionChoice is a fusion setting: static (one w) or dynamic
// (ŵ = w_bucket[b(n_cand)] · m_risk[r], clipped to [0, 1]).
type FusionChoice struct {
	Mode    string             `json:"mode"` // "static" or "dynamic"
	K       float64            `json:"k"`
	W       float64            `json:"w,omitempty"`
	Buckets []float64          `json:"w_bucket,omitempty"`
	Risk    map[string]float64 `json:"m_risk,omitempty"`
	ValHit1 float64            `json:"val_hit@1"`
}

// Weight is the graph branch's weight for a query.
func (c FusionChoice) Weight(nCand int, risk string) float64 {
	if c.Mode == "static" {
		return c.W
	}
	w := c.Buckets[Bucket(nCand)] * c.Risk[risk]
	return min(1, max(0, w))
}

// RRF fuses two rankings: w/(k + rank_g) + (1 − w)/(k + rank_m) (FuseRRF
// with weights w and 1 − w).
func RRF(graph, text []index.Hit, w, k float64) []index.Hit {
	return FuseRRF([][]index.Hit{graph, text}, []float64{w, 1 - w}, k)
}

// FuseRRF is the one weighted reciprocal rank fusion: every list (best
// first) adds weights[i]/(k + rank) to each of its nodes, ranks from 1; a
// node missing from a list gets nothing from it. The result is sorted by
// the fused score (computed in float64), ties to the smaller id.
func FuseRRF(lists [][]index.Hit, weights []float64, k float64) []index.Hit {
	if len(weights) != len(lists) {
		panic(fmt.Sprintf("reranker: FuseRRF: %d lists, %d weights", len(lists), len(weights)))
	}
	s := map[uint32]float64{}
	for li, l := range lists {
		for i, h := range l {
			s[h.ID] += weights[li] / (k + float64(i+1))
		}
	}
	out := make([]index.Hit, 0, len(s))
	for id, v := range s {
		out = append(out, index.Hit{ID: id, Score: float32(v)})
	}
	sortByScore(out, s)
	return out
}

func sortByScore(hs []index.Hit, s map[uint32]float64) {
	slices.SortFunc(hs, func(a, b index.Hit) int {
		if c := cmp.Compare(s[b.ID], s[a.ID]); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
}

// FusionExample is one validation query: both rankings (best first), the
// graph branch's candidate count and risk level, and the gold answers.
type FusionExample struct {
	Graph, Text []index.Hit
	NCand       int
	Risk        string
	Gold        []uint32
}

func (e *FusionExample) hit1(w, k float64) float64 {
	if w <= 0 {
		return e.top(e.Text)
	}
	if w >= 1 && len(e.Graph) > 0 {
		return e.top(e.Graph)
	}
	f := RRF(e.Graph, e.Text, w, k)
	return e.top(f)
}

// recall20 is Recall@20 of the fused ranking.
func (e *FusionExample) recall20(w, k float64) float64 {
	switch {
	case w <= 0:
		return e.recallOf(e.Text)
	case w >= 1 && len(e.Graph) > 0:
		return e.recallOf(e.Graph)
	}
	return e.recallOf(RRF(e.Graph, e.Text, w, k))
}

func (e *FusionExample) recallOf(hs []index.Hit) float64 {
	if len(e.Gold) == 0 {
		return 0
	}
	n := 0
	for _, h := range hs[:min(20, len(hs))] {
		if slices.Contains(e.Gold, h.ID) {
			n++
		}
	}
	return float64(n) / float64(len(e.Gold))
}

// floor is the Recall@20 a fusion must keep over examples: the better
// branch's.
func floor(ex []FusionExample, idx []int) float64 {
	var g, t float64
	for _, i := range idx {
		g += ex[i].recallOf(ex[i].Graph)
		t += ex[i].recallOf(ex[i].Text)
	}
	return max(g, t)
}

func (e *FusionExample) top(hs []index.Hit) float64 {
	if len(hs) > 0 && slices.Contains(e.Gold, hs[0].ID) {
		return 1
	}
	return 0
}

// Grid is the search space of GRASP's fusions; a nil list means GRASP's.
type Grid struct {
	StaticW  []float64 `json:"static_w,omitempty"`
	StaticK  []float64 `json:"static_k,omitempty"`
	DynamicK []float64 `json:"dynamic_k,omitempty"`
	BucketW  []float64 `json:"bucket_w,omitempty"`
	RiskWeak []float64 `json:"risk_weak,omitempty"`
	RiskAggr []float64 `json:"risk_aggressive,omitempty"`
}

// WithDefaults fills the lists left nil with GRASP's grids.
func (g Grid) WithDefaults() Grid {
	def := func(v *[]float64, d ...float64) {
		if *v == nil {
			*v = d
		}
	}
	def(&g.StaticW, 0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1)
	def(&g.StaticK, 1, 2, 5, 10, 20, 40, 60, 80, 100)
	def(&g.DynamicK, 5, 10, 20, 40, 80, 150, 300)
	def(&g.BucketW, 0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1)
	def(&g.RiskWeak, 0.25, 0.5, 0.75, 1)
	def(&g.RiskAggr, 1, 1.25, 1.5, 2)
	return g
}

// riskNormal is the normal risk level's multiplier.
const riskNormal = 1.0

// SearchStatic picks (w, k) over g by mean Hit@1 (ties: the earlier grid
// point) among the settings whose Recall@20 is at least the better
// branch's; when none keeps it, by Hit@1 alone.
func SearchStatic(ex []FusionExample, g Grid) FusionChoice {
	return searchStatic(ex, g.WithDefaults(), true)
}

// SearchStaticHit1 picks (w, k) by mean Hit@1 alone (GRASP's rule), as for
// fusing a reranker with stage 2, whose recall stage 2 already fixed.
func SearchStaticHit1(ex []FusionExample, g Grid) FusionChoice {
	return searchStatic(ex, g.WithDefaults(), false)
}

func searchStatic(ex []FusionExample, g Grid, keepRecall bool) FusionChoice {
	all := make([]int, len(ex))
	for i := range all {
		all[i] = i
	}
	need := floor(ex, all) - 1e-9
	var best, free FusionChoice
	best.ValHit1, free.ValHit1 = -1, -1
	for _, k := range g.StaticK {
		for _, w := range g.StaticW {
			var h, r float64
			for i := range ex {
				h += ex[i].hit1(w, k)
				r += ex[i].recall20(w, k)
			}
			c := FusionChoice{Mode: "static", K: k, W: w, ValHit1: h / float64(len(ex))}
			if c.ValHit1 > free.ValHit1 {
				free = c
			}
			if (r >= need || !keepRecall) && c.ValHit1 > best.ValHit1 {
				best = c
			}
		}
	}
	if best.ValHit1 < 0 {
		return free
	}
	return best
}

// SearchDynamic picks k, the risk multipliers (no_trade 0, normal 1, weak
// and aggressive from their grids) and, for each, every bucket's weight
// independently (a query falls in one bucket), by mean Hit@1 among the
// weights that keep the bucket's Recall@20 at least the better branch's
// (by Hit@1 alone when none does).
func SearchDynamic(ex []FusionExample, g Grid) FusionChoice {
	g = g.WithDefaults()
	best := FusionChoice{Mode: "dynamic", ValHit1: -1}
	byBucket := make([][]int, len(Buckets))
	for i := range ex {
		b := Bucket(ex[i].NCand)
		byBucket[b] = append(byBucket[b], i)
	}
	need := make([]float64, len(Buckets))
	for b, idx := range byBucket {
		need[b] = floor(ex, idx) - 1e-9
	}
	for _, k := range g.DynamicK {
		for _, mw := range g.RiskWeak {
			for _, ma := range g.RiskAggr {
				risk := map[string]float64{data.RiskNoTrade: 0, data.RiskWeak: mw, data.RiskNormal: riskNormal, data.RiskAggressive: ma}
				c := FusionChoice{Mode: "dynamic", K: k, Risk: risk, Buckets: make([]float64, len(Buckets))}
				var total float64
				for b, idx := range byBucket {
					bestW, bestS, kept := 0.0, -1.0, false
					for _, w := range g.BucketW {
						var s, r float64
						for _, i := range idx {
							wi := min(1, w*risk[ex[i].Risk])
							s += ex[i].hit1(wi, k)
							r += ex[i].recall20(wi, k)
						}
						ok := r >= need[b]
						if ok && (!kept || s > bestS) || !ok && !kept && s > bestS {
							bestW, bestS, kept = w, s, ok
						}
					}
					c.Buckets[b] = bestW
					total += bestS
				}
				c.ValHit1 = total / float64(len(ex))
				if c.ValHit1 > best.ValHit1 {
					best = c
				}
			}
		}
	}
	return best
}

// Describe is a one-line account of a choice.
func (c FusionChoice) Describe() string {
	if c.Mode == "static" {
		return fmt.Sprintf("static RRF w=%.2f k=%g (val Hit@1 %.4f)", c.W, c.K, c.ValHit1)
	}
	return fmt.Sprintf("dynamic RRF k=%g w_bucket=%v m_risk(weak=%.2f, aggressive=%.2f) (val Hit@1 %.4f)",
		c.K, c.Buckets, c.Risk[data.RiskWeak], c.Risk[data.RiskAggressive], c.ValHit1)
}
