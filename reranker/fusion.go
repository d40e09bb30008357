package reranker

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
)

// GRASP's plan-conditioned reciprocal rank fusion of a graph ranking with a
// text ranking (mFAR's), section 3.2 of the paper:
//
//	static:  w/(k + rank_g) + (1 − w)/(k + rank_m)
//	dynamic: ŵ/(k + rank_g) + 1/(k + rank_m),  ŵ = w_bucket[b(n_cand)] · m_risk[r]
//
// ŵ is not clipped: a bucket weight of 2 and a risk multiplier of 1.25 make
// the graph branch 2.5 times as heavy as mFAR; ŵ = 0 is pure mFAR.

// NumBuckets is the number of GRASP's n_cand buckets: [1,10], [11,50],
// [51,100], [101,500], >500 (0 candidates falls in the first; such a query
// has no graph ranking, so its weight does not matter).
const NumBuckets = len(bucketUpper) + 1

// bucketUpper holds the buckets' upper bounds but the last's (an array, so
// no caller can change the paper's buckets).
var bucketUpper = [...]int{10, 50, 100, 500}

// BucketName names bucket b as GRASP's Figure 2 does: "1-10", "11-50",
// "51-100", "101-500", ">500" (b outside them is clamped).
func BucketName(b int) string {
	switch {
	case b <= 0:
		return fmt.Sprintf("1-%d", bucketUpper[0])
	case b < len(bucketUpper):
		return fmt.Sprintf("%d-%d", bucketUpper[b-1]+1, bucketUpper[b])
	default:
		return fmt.Sprintf(">%d", bucketUpper[len(bucketUpper)-1])
	}
}

// Bucket returns the bucket of a candidate count.
func Bucket(n int) int {
	for i, hi := range bucketUpper {
		if n <= hi {
			return i
		}
	}
	return NumBuckets - 1
}

// FormulaGRASP names the paper's dynamic form: mFAR's term at weight 1 and
// ŵ unclipped. Dynamic choices saved before strata followed it carry no
// formula and keep their old meaning (ŵ clipped to [0, 1], mFAR at 1 − ŵ).
const FormulaGRASP = "grasp"

// Selection rules of the grid searches.
const (
	// RuleHit1 is GRASP's: the highest validation Hit@1.
	RuleHit1 = "hit1"
	// RuleRecallFloor is strata's earlier rule: the highest validation
	// Hit@1 among the settings that keep the Recall@20 of the better branch
	// (per n_cand bucket for dynamic fusion), by Hit@1 alone when none does.
	RuleRecallFloor = "hit1-recall-floor"
)

// FusionChoice is a fusion setting, static (one w) or dynamic (w_bucket,
// m_risk), chosen on validation.
type FusionChoice struct {
	Mode    string             `json:"mode"`              // "static" or "dynamic"
	Formula string             `json:"formula,omitempty"` // dynamic: FormulaGRASP, or "" (legacy clipped form)
	Rule    string             `json:"rule,omitempty"`    // the selection rule that chose it
	K       float64            `json:"k"`
	W       float64            `json:"w,omitempty"`
	Buckets []float64          `json:"w_bucket,omitempty"`
	Risk    map[string]float64 `json:"m_risk,omitempty"`
	// RiskCuts calibrate the risk level of plans that declare none (the
	// native planner's) from the planner's confidence c: c < RiskCuts[0]
	// no_trade, < [1] weak, < [2] normal, else aggressive. Chosen on
	// validation with the weights.
	RiskCuts []float64 `json:"risk_cuts,omitempty"`
	ValHit1  float64   `json:"val_hit@1"`
}

// PlanMeta is what stage 1 tells stage 2 about a query: the graph branch's
// candidate count, the plan's declared risk level ("" when the planner
// declares none) and the planner's confidence in it.
type PlanMeta struct {
	NCand int
	Risk  string
	Conf  float64
}

// RiskLevel is the risk level of a plan: the declared one, else the level
// the calibrated cuts give its confidence. A legacy dynamic choice (no
// cuts) uses strata's former fixed thresholds 0.5 and 0.9.
func (c FusionChoice) RiskLevel(m PlanMeta) string {
	if m.Risk != "" {
		return m.Risk
	}
	cuts := c.RiskCuts
	if len(cuts) != 3 {
		cuts = []float64{0, 0.5, 0.9}
	}
	for i, t := range cuts {
		if m.Conf < t {
			return data.RiskLevels[i]
		}
	}
	return data.RiskAggressive
}

// Weights returns the graph and text branches' weights for a query.
func (c FusionChoice) Weights(m PlanMeta) (graph, text float64) {
	if c.Mode == "static" {
		return c.W, 1 - c.W
	}
	w := c.Buckets[Bucket(m.NCand)] * c.Risk[c.RiskLevel(m)]
	if c.Formula != FormulaGRASP {
		w = min(1, max(0, w))
		return w, 1 - w
	}
	return w, 1
}

// Fuse fuses a query's graph and text rankings (best first).
func (c FusionChoice) Fuse(graph, text []index.Hit, m PlanMeta) []index.Hit {
	wg, wt := c.Weights(m)
	return FuseRRF([][]index.Hit{graph, text}, []float64{wg, wt}, c.K)
}

// RRF fuses two rankings: w/(k + rank_a) + (1 − w)/(k + rank_b) (FuseRRF
// with weights w and 1 − w), GRASP's static form.
func RRF(a, b []index.Hit, w, k float64) []index.Hit {
	return FuseRRF([][]index.Hit{a, b}, []float64{w, 1 - w}, k)
}

// FuseRRF is the one weighted reciprocal rank fusion: every list (best
// first) adds weights[i]/(k + rank) to each of its nodes, ranks from 1; a
// node missing from a list gets nothing from it. The fused score is
// summed in float64 and returned as a float32 Hit score; the result is
// sorted by that returned score, ties to the smaller id, which is the order
// every consumer (STaRK's evaluator, strata score) ranks the hits in. (Two
// sums that differ only below float32's precision, such as 0.6/5 + 0.4/4
// and 0.6/4 + 0.4/6 rounded apart in float64, are a tie.)
func FuseRRF(lists [][]index.Hit, weights []float64, k float64) []index.Hit {
	if len(weights) != len(lists) {
		panic(fmt.Sprintf("reranker: FuseRRF: %d lists, %d weights", len(lists), len(weights)))
	}
	hi, total := -1, 0
	for _, l := range lists {
		total += len(l)
		for _, h := range l {
			hi = max(hi, int(h.ID))
		}
	}
	return fuseRRF(lists, weights, k, hi < 2*total+1024)
}

// fuseRRF is FuseRRF summing in a slice indexed by node id when dense (the
// ids are few next to the lists' length: a dense channel's list of every
// candidate), else in a map. Both add each node's terms in list order, so
// they return the same hits to the bit.
func fuseRRF(lists [][]index.Hit, weights []float64, k float64, dense bool) []index.Hit {
	var out []index.Hit
	if dense {
		hi := -1
		for _, l := range lists {
			for _, h := range l {
				hi = max(hi, int(h.ID))
			}
		}
		s := make([]float64, hi+1)
		seen := make([]bool, hi+1)
		var order []uint32
		for li, l := range lists {
			for i, h := range l {
				if !seen[h.ID] {
					seen[h.ID] = true
					order = append(order, h.ID)
				}
				s[h.ID] += weights[li] / (k + float64(i+1))
			}
		}
		out = make([]index.Hit, len(order))
		for i, id := range order {
			out[i] = index.Hit{ID: id, Score: float32(s[id])}
		}
	} else {
		s := map[uint32]float64{}
		for li, l := range lists {
			for i, h := range l {
				s[h.ID] += weights[li] / (k + float64(i+1))
			}
		}
		out = make([]index.Hit, 0, len(s))
		for id, v := range s {
			out = append(out, index.Hit{ID: id, Score: float32(v)})
		}
	}
	slices.SortFunc(out, func(a, b index.Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return out
}

// Describe is a one-line account of a choice.
func (c FusionChoice) Describe() string {
	rule := ""
	if c.Rule != "" {
		rule = ", rule " + c.Rule
	}
	if c.Mode == "static" {
		return fmt.Sprintf("static RRF w=%.2f k=%g (val Hit@1 %.4f%s)", c.W, c.K, c.ValHit1, rule)
	}
	var risk []string
	for _, r := range data.RiskLevels {
		risk = append(risk, fmt.Sprintf("%s=%g", r, c.Risk[r]))
	}
	cuts := ""
	if len(c.RiskCuts) == 3 {
		cuts = fmt.Sprintf(" risk cuts on planner confidence %.3g/%.3g/%.3g", c.RiskCuts[0], c.RiskCuts[1], c.RiskCuts[2])
	}
	form := "ŵ/(k+r_g) + 1/(k+r_m)"
	if c.Formula != FormulaGRASP {
		form = "legacy clipped ŵ"
	}
	return fmt.Sprintf("dynamic RRF %s k=%g w_bucket=%v m_risk(%s)%s (val Hit@1 %.4f%s)",
		form, c.K, c.Buckets, strings.Join(risk, ", "), cuts, c.ValHit1, rule)
}
