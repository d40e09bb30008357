package eval

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sort"

	"github.com/strata-retrieval/strata/data/index"
)

// Evaluator computes per-query metrics against a fixed candidate set.
type Evaluator struct {
	cands  []uint32 // ascending
	isCand []bool
}

// NewEvaluator returns an evaluator over the given candidate ids of an SKB
// with numNodes nodes.
func NewEvaluator(numNodes int, candidates []uint32) *Evaluator {
	c := append([]uint32(nil), candidates...)
	sort.Slice(c, func(i, j int) bool { return c[i] < c[j] })
	is := make([]bool, numNodes)
	for _, id := range c {
		if int(id) < numNodes {
			is[id] = true
		}
	}
	return &Evaluator{cands: c, isCand: is}
}

// NumCandidates returns the size of the candidate set.
func (e *Evaluator) NumCandidates() int { return len(e.cands) }

// QueryResult holds the metrics of one query.
type QueryResult struct {
	Hit1, Hit5, Recall20, MRR float64
	// Ranks holds the 1-based full-ranking rank of every gold answer that is
	// a candidate, ascending.
	Ranks []int
	// Gold is the number of gold answers inside the candidate set.
	Gold int
}

// HitAt returns Hit@k for this query.
func (r *QueryResult) HitAt(k int) float64 {
	if len(r.Ranks) > 0 && r.Ranks[0] <= k {
		return 1
	}
	return 0
}

// RecallAt returns Recall@k for this query.
func (r *QueryResult) RecallAt(k int) float64 {
	if r.Gold == 0 {
		return 0
	}
	n := sort.SearchInts(r.Ranks, k+1)
	return float64(n) / float64(r.Gold)
}

// Query scores one ranking. ranking may hold any subset of node ids in any
// order, with at most one entry per id (later duplicates are ignored);
// non-candidates are ignored.
func (e *Evaluator) Query(ranking []index.Hit, gold []uint32) QueryResult {
	// The gold candidates, each once.
	var res QueryResult
	golds := make([]uint32, 0, len(gold))
	isGold := map[uint32]bool{}
	for _, g := range gold {
		if int(g) < len(e.isCand) && e.isCand[g] && !isGold[g] {
			golds = append(golds, g)
			isGold[g] = true
		}
	}
	res.Gold = len(golds)
	// The scored candidates, first entry per id (seen is a bitset by id),
	// and the gold ones among them.
	seen := make([]uint64, (len(e.isCand)+63)/64)
	nScored := 0
	var goldHits []index.Hit
	for _, h := range ranking {
		if int(h.ID) >= len(e.isCand) || !e.isCand[h.ID] || seen[h.ID/64]&(1<<(h.ID%64)) != 0 {
			continue
		}
		seen[h.ID/64] |= 1 << (h.ID % 64)
		nScored++
		if isGold[h.ID] {
			goldHits = append(goldHits, index.Hit{ID: h.ID, Score: sanitize(h.Score)})
		}
	}
	// A scored gold's rank is 1 + the scored candidates ranking before it
	// (index.Compare: higher score, then lower id): each candidate is
	// counted at the best gold it precedes, and the counts are summed.
	index.Sort(goldHits)
	if len(goldHits) > 0 {
		before := make([]int, len(goldHits))
		clear(seen)
		for _, h := range ranking {
			if int(h.ID) >= len(e.isCand) || !e.isCand[h.ID] || seen[h.ID/64]&(1<<(h.ID%64)) != 0 {
				continue
			}
			seen[h.ID/64] |= 1 << (h.ID % 64)
			x := index.Hit{ID: h.ID, Score: sanitize(h.Score)}
			j, _ := slices.BinarySearchFunc(goldHits, x, func(g, x index.Hit) int { return -index.Compare(x, g) })
			// goldHits[j:] are the golds x ranks before (or is).
			if j < len(goldHits) && goldHits[j].ID == x.ID {
				j++
			}
			if j < len(goldHits) {
				before[j]++
			}
		}
		n := 0
		for k := range goldHits {
			n += before[k] // a gold ranking before goldHits[k] is counted too
			res.Ranks = append(res.Ranks, n+1)
		}
	}
	// An unscored gold follows every scored candidate, then the unscored
	// candidates by ascending id.
	for _, g := range golds {
		if seen[g/64]&(1<<(g%64)) != 0 {
			continue
		}
		candBelow := sort.Search(len(e.cands), func(i int) bool { return e.cands[i] >= g })
		scoredBelow := 0
		for w := range int(g / 64) {
			scoredBelow += bits.OnesCount64(seen[w])
		}
		scoredBelow += bits.OnesCount64(seen[g/64] & (1<<(g%64) - 1))
		res.Ranks = append(res.Ranks, nScored+(candBelow-scoredBelow)+1)
	}
	sort.Ints(res.Ranks)
	if res.Gold > 0 {
		res.MRR = 1 / float64(res.Ranks[0])
	}
	res.Hit1 = res.HitAt(1)
	res.Hit5 = res.HitAt(5)
	res.Recall20 = res.RecallAt(20)
	return res
}

// sanitize ranks a NaN score last, as -Inf.
func sanitize(s float32) float32 {
	if math.IsNaN(float64(s)) {
		return float32(math.Inf(-1))
	}
	return s
}

// Summary is the mean of the metrics over a split's queries.
type Summary struct {
	Split    string  `json:"split,omitempty"`
	Method   string  `json:"method,omitempty"`
	N        int     `json:"n"`
	Hit1     float64 `json:"hit@1"`
	Hit5     float64 `json:"hit@5"`
	Recall20 float64 `json:"recall@20"`
	MRR      float64 `json:"mrr"`
	// Fallbacks counts the queries the method answered by its fallback
	// (no plan fits, no usable plan or pattern), when it says.
	Fallbacks int64 `json:"fallbacks,omitempty"`
}

// Summarize averages per-query results, in order (deterministic sums).
func Summarize(results []QueryResult) Summary {
	s := Summary{N: len(results)}
	if len(results) == 0 {
		return s
	}
	for _, r := range results {
		s.Hit1 += r.Hit1
		s.Hit5 += r.Hit5
		s.Recall20 += r.Recall20
		s.MRR += r.MRR
	}
	n := float64(len(results))
	s.Hit1 /= n
	s.Hit5 /= n
	s.Recall20 /= n
	s.MRR /= n
	return s
}

// String formats a summary on one line.
func (s Summary) String() string {
	return fmt.Sprintf("n=%d hit@1=%.4f hit@5=%.4f recall@20=%.4f mrr=%.4f", s.N, s.Hit1, s.Hit5, s.Recall20, s.MRR)
}

// ByGroup summarises results per group: keys[i] is the group of results[i]
// (e.g. a query's plan template). Groups come back sorted by key, each
// with Method set to its key.
func ByGroup(results []QueryResult, keys []string) []Summary {
	if len(keys) != len(results) {
		panic(fmt.Sprintf("eval: ByGroup: %d results, %d keys", len(results), len(keys)))
	}
	groups := map[string][]QueryResult{}
	for i, r := range results {
		groups[keys[i]] = append(groups[keys[i]], r)
	}
	names := make([]string, 0, len(groups))
	for k := range groups {
		names = append(names, k)
	}
	sort.Strings(names)
	out := make([]Summary, len(names))
	for i, k := range names {
		out[i] = Summarize(groups[k])
		out[i].Method = k
	}
	return out
}
