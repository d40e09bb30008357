package reranker

import (
	"math"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
)

func hits(ids ...uint32) []index.Hit {
	out := make([]index.Hit, len(ids))
	for i, id := range ids {
		out[i] = index.Hit{ID: id, Score: float32(-i)}
	}
	return out
}

func TestRRF(t *testing.T) {
	// w=0.5, k=1: A(1) = .5/2 = .25; B(2) = .5/3 + .5/2 = .4167; C(3) = .5/3.
	got := RRF(hits(1, 2), hits(2, 3), 0.5, 1)
	if len(got) != 3 || got[0].ID != 2 || got[1].ID != 1 || got[2].ID != 3 {
		t.Fatalf("order %v", got)
	}
	if math.Abs(float64(got[0].Score)-(0.5/3+0.5/2)) > 1e-6 {
		t.Errorf("score %v", got[0].Score)
	}
	for n, b := range map[int]int{0: 0, 10: 0, 11: 1, 50: 1, 51: 2, 100: 2, 101: 3, 500: 3, 501: 4, 1 << 30: 4} {
		if Bucket(n) != b {
			t.Errorf("Bucket(%d) = %d, want %d", n, Bucket(n), b)
		}
	}
	c := FusionChoice{Mode: "dynamic", Buckets: []float64{0.8, 0.6, 0.4, 0.2, 0}, Risk: map[string]float64{data.RiskNoTrade: 0, data.RiskWeak: 0.5, data.RiskNormal: 1, data.RiskAggressive: 1.5}}
	if c.Weight(5, data.RiskAggressive) != 1 || c.Weight(20, data.RiskWeak) != 0.3 || c.Weight(3, data.RiskNoTrade) != 0 {
		t.Errorf("weights %v %v %v", c.Weight(5, data.RiskAggressive), c.Weight(20, data.RiskWeak), c.Weight(3, data.RiskNoTrade))
	}
}

// TestSearch builds validation queries where the graph branch is right
// when it has few candidates (where the text branch misses the gold) and
// wrong when it has many: dynamic fusion
// must trust it only in the small buckets and beat the best static fusion.
func TestSearch(t *testing.T) {
	var ex []FusionExample
	for i := range 40 {
		gold := uint32(100 + i)
		small := i%2 == 0
		e := FusionExample{Risk: data.RiskNormal, Gold: []uint32{gold}}
		if small {
			e.NCand, e.Graph, e.Text = 5, hits(gold, 1), hits(2, 5)
		} else {
			e.NCand, e.Graph, e.Text = 800, hits(3, 6), hits(gold, 4)
		}
		ex = append(ex, e)
	}
	st := SearchStatic(ex, Grid{})
	dy := SearchDynamic(ex, Grid{})
	if st.ValHit1 != 0.5 || dy.ValHit1 != 1 || dy.Buckets[0] == 0 || dy.Buckets[4] != 0 {
		t.Errorf("static %+v dynamic %+v", st, dy)
	}
	if w := dy.Weight(5, data.RiskNormal); w <= 0.5 {
		t.Errorf("small-bucket weight %v", w)
	}
	// Long rankings: the graph branch has both golds (ranks 1 and 15), the
	// text branch none. Weights just above 0.5 already give Hit@1 = 1 (and
	// come first in the grid) but push the second gold out of the top 20:
	// the search must keep Recall@20 at the graph branch's.
	var long []FusionExample
	for i := range 30 {
		g1, g3 := uint32(1000+i), uint32(2000+i)
		graph := []index.Hit{{ID: g1}}
		for j := range 13 {
			graph = append(graph, index.Hit{ID: uint32(3000 + j)})
		}
		graph = append(graph, index.Hit{ID: g3})
		text := make([]index.Hit, 0, 40)
		for j := range 40 {
			text = append(text, index.Hit{ID: uint32(5000 + j)})
		}
		long = append(long, FusionExample{Graph: graph, Text: text, NCand: 15, Risk: data.RiskNormal, Gold: []uint32{g1, g3}})
	}
	if r := long[0].recall20(0.55, 1); r != 0.5 {
		t.Fatalf("the case does not bite: w=0.55 keeps Recall@20 %.2f", r)
	}
	all := make([]int, len(long))
	for i := range all {
		all[i] = i
	}
	for _, c := range []FusionChoice{SearchStatic(long, Grid{}), SearchDynamic(long, Grid{})} {
		var r float64
		for i := range long {
			r += long[i].recall20(c.Weight(long[i].NCand, long[i].Risk), c.K)
		}
		if r < floor(long, all)-1e-9 || c.ValHit1 != 1 {
			t.Errorf("%s: val Recall@20 %.3f below the better branch's %.3f (Hit@1 %.3f)", c.Describe(), r/30, floor(long, all)/30, c.ValHit1)
		}
	}
}
