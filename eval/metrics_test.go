package eval

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-retrieval/strata/data/index"
)

func h(id uint32, s float32) index.Hit { return index.Hit{ID: id, Score: s} }

// Candidates are nodes 0..9 except 3 and 7 (non-candidate types), so the
// candidate list is [0 1 2 4 5 6 8 9].
func TestQueryGolden(t *testing.T) {
	cands := []uint32{0, 1, 2, 4, 5, 6, 8, 9}
	e := NewEvaluator(10, cands)
	cases := []struct {
		name    string
		ranking []index.Hit
		gold    []uint32
		ranks   []int
		mrr     float64
		hit1    float64
		hit5    float64
		rec20   float64
	}{
		{
			// ranking 5 > 2 > 9; unscored 0 1 4 6 8 follow by id: full order 5 2 9 0 1 4 6 8
			name: "simple", ranking: []index.Hit{h(2, 0.5), h(5, 0.9), h(9, 0.1)}, gold: []uint32{2},
			ranks: []int{2}, mrr: 0.5, hit1: 0, hit5: 1, rec20: 1,
		},
		{
			// ties on 0.7 between 6 and 1 -> 1 before 6; full order 1 6 4 0 2 5 8 9
			name: "ties by id", ranking: []index.Hit{h(6, 0.7), h(1, 0.7), h(4, 0.2)}, gold: []uint32{6},
			ranks: []int{2}, mrr: 0.5, hit1: 0, hit5: 1, rec20: 1,
		},
		{
			// gold 8 unscored: after scored {0,9} come 1 2 4 5 6 8 -> rank 2+5+1 = 8
			name: "unscored gold", ranking: []index.Hit{h(9, 3), h(0, 1)}, gold: []uint32{8},
			ranks: []int{8}, mrr: 0.125, hit1: 0, hit5: 0, rec20: 1,
		},
		{
			// gold 3 is not a candidate (dropped), gold 42 outside the SKB (dropped), gold 9 rank 1
			name: "gold outside candidates", ranking: []index.Hit{h(9, 1), h(3, 5)}, gold: []uint32{3, 42, 9},
			ranks: []int{1}, mrr: 1, hit1: 1, hit5: 1, rec20: 1,
		},
		{
			// only non-candidate gold: every metric is 0
			name: "no gold left", ranking: []index.Hit{h(9, 1)}, gold: []uint32{7},
			ranks: nil, mrr: 0, hit1: 0, hit5: 0, rec20: 0,
		},
		{
			// non-positive scores: -1 > -2 > -5; unscored get min-1 = -6, below them
			name: "negative scores", ranking: []index.Hit{h(4, -2), h(8, -1), h(0, -5)}, gold: []uint32{0, 1},
			ranks: []int{3, 4}, mrr: 1.0 / 3, hit1: 0, hit5: 1, rec20: 1,
		},
		{
			// zero scores are still scored: 2 (0) ranks above unscored 0
			name: "zero score", ranking: []index.Hit{h(2, 0)}, gold: []uint32{0},
			ranks: []int{2}, mrr: 0.5, hit1: 0, hit5: 1, rec20: 1,
		},
		{
			// empty ranking: order by id 0 1 2 4 5 6 8 9; gold 4 rank 4, gold 9 rank 8
			name: "empty ranking", ranking: nil, gold: []uint32{9, 4},
			ranks: []int{4, 8}, mrr: 0.25, hit1: 0, hit5: 1, rec20: 1,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.Query(c.ranking, c.gold)
			if !cmp.Equal(r.Ranks, c.ranks) {
				t.Errorf("ranks %v, want %v", r.Ranks, c.ranks)
			}
			for _, m := range []struct {
				name      string
				got, want float64
			}{{"mrr", r.MRR, c.mrr}, {"hit@1", r.Hit1, c.hit1}, {"hit@5", r.Hit5, c.hit5}, {"recall@20", r.Recall20, c.rec20}} {
				if math.Abs(m.got-m.want) > 1e-12 {
					t.Errorf("%s = %v, want %v", m.name, m.got, m.want)
				}
			}
		})
	}
}

// Recall@k counts every gold: with 25 candidates and 4 gold at ranks 1, 5,
// 20, 21, Recall@20 = 3/4 and Recall@5 = 2/4.
func TestRecallOverAllGold(t *testing.T) {
	var cands []uint32
	var ranking []index.Hit
	for i := uint32(0); i < 25; i++ {
		cands = append(cands, i)
		ranking = append(ranking, h(i, float32(100-i)))
	}
	e := NewEvaluator(25, cands)
	r := e.Query(ranking, []uint32{0, 4, 19, 20})
	if r.Recall20 != 0.75 || r.RecallAt(5) != 0.5 || r.Hit1 != 1 || r.MRR != 1 {
		t.Errorf("recall@20=%v recall@5=%v hit1=%v mrr=%v", r.Recall20, r.RecallAt(5), r.Hit1, r.MRR)
	}
	s := Summarize([]QueryResult{r, e.Query(ranking, []uint32{24})})
	want := Summary{N: 2, Hit1: 0.5, Hit5: 0.5, Recall20: 0.375, MRR: (1 + 1.0/25) / 2}
	if s != want {
		t.Errorf("summary %+v, want %+v", s, want)
	}
}

func TestByGroup(t *testing.T) {
	rs := []QueryResult{{Hit1: 1, MRR: 1}, {Hit1: 0, MRR: 0.5}, {Hit1: 1, MRR: 1}, {Hit1: 0, MRR: 0.25}}
	got := ByGroup(rs, []string{"b", "a", "b", "a"})
	if len(got) != 2 || got[0].Method != "a" || got[0].N != 2 || got[0].Hit1 != 0 || got[0].MRR != 0.375 ||
		got[1].Method != "b" || got[1].N != 2 || got[1].Hit1 != 1 || got[1].MRR != 1 {
		t.Errorf("ByGroup = %+v", got)
	}
}

// refRanks is Query's gold ranks by the definition: sort the scored
// candidates (first entry per id, NaN as -Inf), then the unscored ones by
// ascending id, and read each gold's position.
func refRanks(e *Evaluator, ranking []index.Hit, gold []uint32) []int {
	var scored []index.Hit
	seen := map[uint32]bool{}
	for _, h := range ranking {
		if int(h.ID) >= len(e.isCand) || !e.isCand[h.ID] || seen[h.ID] {
			continue
		}
		seen[h.ID] = true
		s := h.Score
		if math.IsNaN(float64(s)) {
			s = float32(math.Inf(-1))
		}
		scored = append(scored, index.Hit{ID: h.ID, Score: s})
	}
	index.Sort(scored)
	order := make([]uint32, 0, len(e.cands))
	for _, h := range scored {
		order = append(order, h.ID)
	}
	for _, c := range e.cands {
		if !seen[c] {
			order = append(order, c)
		}
	}
	var ranks []int
	done := map[uint32]bool{}
	for _, g := range gold {
		if int(g) >= len(e.isCand) || !e.isCand[g] || done[g] {
			continue
		}
		done[g] = true
		ranks = append(ranks, slices.Index(order, g)+1)
	}
	sort.Ints(ranks)
	return ranks
}

// TestQueryRanksRandom checks Query's gold ranks against the sorting
// definition on random rankings: ties, duplicates, NaN, ±0, non-candidates
// and unscored golds.
func TestQueryRanksRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var cands []uint32
	for i := uint32(0); i < 300; i++ {
		if r.IntN(4) != 0 {
			cands = append(cands, i)
		}
	}
	e := NewEvaluator(300, cands)
	scores := []float32{1, 0.5, 0, float32(math.Copysign(0, -1)), -2, float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))}
	for trial := range 2000 {
		var ranking []index.Hit
		for range r.IntN(200) {
			s := scores[r.IntN(len(scores))]
			if r.IntN(2) == 0 {
				s = float32(r.IntN(7)) / 3
			}
			ranking = append(ranking, index.Hit{ID: uint32(r.IntN(320)), Score: s})
		}
		var gold []uint32
		for range 1 + r.IntN(12) {
			gold = append(gold, uint32(r.IntN(320)))
		}
		got := e.Query(ranking, gold)
		want := refRanks(e, ranking, gold)
		if !slices.Equal(got.Ranks, want) {
			t.Fatalf("trial %d: ranks %v, want %v", trial, got.Ranks, want)
		}
	}
}
