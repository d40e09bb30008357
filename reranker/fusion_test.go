package reranker

import (
	"math"
	"math/rand/v2"
	"slices"
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

func ids(hs []index.Hit) []uint32 {
	out := make([]uint32, len(hs))
	for i, h := range hs {
		out[i] = h.ID
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
	if NumBuckets != 5 {
		t.Errorf("NumBuckets %d, want GRASP's 5", NumBuckets)
	}
	for b, want := range []string{"1-10", "11-50", "51-100", "101-500", ">500"} {
		if got := BucketName(b); got != want {
			t.Errorf("BucketName(%d) = %q, want %q", b, got, want)
		}
	}
}

// TestRRFFloat32Ties: with w = 0.6 and k = 2, node 4 at rank 1 of the
// first list alone scores 0.6/3 = 0.19999999999999998 in float64 and node
// 9 at rank 3 of both 0.6/5 + 0.4/5 = 0.2: one float32 value, 0.2. The
// hits carry that float32 score, and every consumer (STaRK's evaluator,
// strata score) ranks equal scores by the smaller id, so FuseRRF must put
// 4 first, and the static search must count the fusion's Hit@1 for gold 4
// as those consumers will (the demo's GRASP recorded 0.75 on val and
// served 0.745 when the two orders differed). Fillers: 20 at rank 2 of
// the first list 0.6/4 = 0.15, 21 and 22 at ranks 1 and 2 of the second
// 0.4/3 and 0.4/4.
func TestRRFFloat32Ties(t *testing.T) {
	a, b := hits(4, 20, 9), hits(21, 22, 9)
	got := RRF(a, b, 0.6, 2)
	if want := []uint32{4, 9, 20, 21, 22}; !slices.Equal(ids(got), want) {
		t.Fatalf("order %v, want %v", ids(got), want)
	}
	if got[0].Score != got[1].Score || got[0].Score != float32(0.2) {
		t.Errorf("scores %v and %v, want both float32(0.2)", got[0].Score, got[1].Score)
	}
	ex := []FusionExample{{Graph: a, Text: b, Gold: []uint32{4}}}
	c := SearchStatic(ex, Grid{StaticW: []float64{0.6}, StaticK: []float64{2}}, RuleHit1)
	if c.ValHit1 != 1 {
		t.Errorf("static search Hit@1 %v, want 1 (node 4 ranks first)", c.ValHit1)
	}
}

// TestDynamicFormula pins GRASP's dynamic RRF on numbers worked by hand:
// ŵ = w_bucket · m_risk = 2 · 1.25 = 2.5 (not clipped), mFAR at weight 1,
// k = 5. Graph [1, 2], mFAR [2, 3]:
//
//	node 1: 2.5/6           = 0.416667
//	node 2: 2.5/7 + 1/6     = 0.523810
//	node 3:         1/7     = 0.142857
//
// so 2, 1, 3. The legacy clipped form (ŵ = 1, mFAR at 0) gives 1, 2, 3.
func TestDynamicFormula(t *testing.T) {
	c := FusionChoice{Mode: "dynamic", Formula: FormulaGRASP, K: 5, Buckets: []float64{2, 0.8, 0.2, 0.05, 0},
		Risk: map[string]float64{data.RiskNoTrade: 0, data.RiskWeak: 0.5, data.RiskNormal: 1.25, data.RiskAggressive: 2}}
	m := PlanMeta{NCand: 2, Risk: data.RiskNormal}
	if wg, wt := c.Weights(m); wg != 2.5 || wt != 1 {
		t.Fatalf("weights %v %v, want 2.5 1", wg, wt)
	}
	got := c.Fuse(hits(1, 2), hits(2, 3), m)
	want := []float64{2.5/7 + 1.0/6, 2.5 / 6, 1.0 / 7}
	if g := ids(got); len(g) != 3 || g[0] != 2 || g[1] != 1 || g[2] != 3 {
		t.Fatalf("order %v, want [2 1 3]", g)
	}
	for i, w := range want {
		if math.Abs(float64(got[i].Score)-w) > 1e-6 {
			t.Errorf("score %d: %v, want %v", i, got[i].Score, w)
		}
	}
	// Bucket 4 (n_cand > 500) at weight 0: pure mFAR whatever the risk.
	if g := ids(c.Fuse(hits(1, 2), hits(2, 3), PlanMeta{NCand: 900, Risk: data.RiskAggressive})); g[0] != 2 || g[1] != 3 {
		t.Errorf("opted-out order %v, want mFAR's first", g)
	}
	legacy := c
	legacy.Formula = ""
	if g := ids(legacy.Fuse(hits(1, 2), hits(2, 3), m)); g[0] != 1 || g[1] != 2 || g[2] != 3 {
		t.Errorf("legacy order %v, want [1 2 3]", g)
	}
	st := FusionChoice{Mode: "static", W: 0.3, K: 2}
	if wg, wt := st.Weights(m); wg != 0.3 || wt != 0.7 {
		t.Errorf("static weights %v %v", wg, wt)
	}
}

// TestRiskLevel: the cuts split the planner's confidence into the four
// levels (a cut is the least confidence of the next level); a declared
// level wins.
func TestRiskLevel(t *testing.T) {
	c := FusionChoice{Mode: "dynamic", Formula: FormulaGRASP, RiskCuts: []float64{0.2, 0.5, 0.8}}
	for conf, want := range map[float64]string{0.1: data.RiskNoTrade, 0.2: data.RiskWeak, 0.49: data.RiskWeak, 0.5: data.RiskNormal, 0.79: data.RiskNormal, 0.8: data.RiskAggressive, 1: data.RiskAggressive} {
		if got := c.RiskLevel(PlanMeta{Conf: conf}); got != want {
			t.Errorf("conf %v: %s, want %s", conf, got, want)
		}
	}
	if got := c.RiskLevel(PlanMeta{Conf: 0.99, Risk: data.RiskWeak}); got != data.RiskWeak {
		t.Errorf("declared weak: %s", got)
	}
}

// TestSearch builds validation queries where the graph branch is right
// when it has few candidates (where the text branch misses the gold) and
// wrong when it has many: dynamic fusion must trust it only in the small
// buckets and beat the best static fusion.
func TestSearch(t *testing.T) {
	var ex []FusionExample
	for i := range 40 {
		gold := uint32(100 + i)
		e := FusionExample{Meta: PlanMeta{Risk: data.RiskNormal}, Gold: []uint32{gold}}
		if i%2 == 0 {
			e.Meta.NCand, e.Graph, e.Text = 5, hits(gold, 1), hits(2, 5)
		} else {
			e.Meta.NCand, e.Graph, e.Text = 800, hits(3, 6), hits(gold, 4)
		}
		ex = append(ex, e)
	}
	st := SearchStatic(ex, Grid{}, RuleHit1)
	dy := SearchDynamic(ex, Grid{}, RuleHit1)
	// Bucket 0 needs ŵ > 1 (at ŵ = 1 node 2 ties the gold and wins on id):
	// its first weight 1.0 with normal's first multiplier 0.75 fails, so the
	// search must find a product above 1; bucket 4 must be 0.
	if st.ValHit1 != 0.5 || dy.ValHit1 != 1 || dy.Buckets[4] != 0 {
		t.Fatalf("static %s, dynamic %s", st.Describe(), dy.Describe())
	}
	if w, _ := dy.Weights(PlanMeta{NCand: 5, Risk: data.RiskNormal}); w <= 1 {
		t.Errorf("small-bucket weight %v, want > 1", w)
	}
}

// TestSearchExact compares the dynamic search with brute force over the
// whole product grid (every k, bucket weight per bucket, multiplier per
// level and cut triple), scoring each setting with FuseRRF itself.
func TestSearchExact(t *testing.T) {
	g := Grid{DynamicK: []float64{1, 10}, BucketW: [][]float64{{0.5, 2}, {0, 1}, {1}, {1}, {0, 1}},
		RiskM: [][]float64{{0, 0.5}, {1}, {0.5, 2}, {1, 3}}, RiskQuantiles: []float64{0, 0.5}}
	var ex []FusionExample
	r := uint32(1)
	next := func() uint32 { r = r*1103515245 + 12345; return r >> 8 }
	for i := range 36 {
		gold := uint32(1000 + i)
		graph, text := hits(uint32(next()%5), uint32(next()%5)+5), hits(uint32(next()%5)+10, uint32(next()%5)+15)
		m := PlanMeta{NCand: []int{3, 30, 700}[i%3], Conf: float64(next()%100) / 100}
		if i%5 == 0 {
			m.Risk = data.RiskAggressive
		}
		// The graph holds the gold in small buckets and for confident
		// plans of bucket 1, mFAR elsewhere; one query in four has it at
		// rank 2 instead of 1, one in seven nowhere.
		inGraph := m.NCand == 3 || m.NCand == 30 && m.Conf >= 0.5
		at := 0
		if next()%4 == 0 {
			at = 1
		}
		switch {
		case next()%7 == 0:
		case inGraph:
			graph[at].ID = gold
		default:
			text[at].ID = gold
		}
		ex = append(ex, FusionExample{Graph: graph, Text: text, Meta: m, Gold: []uint32{gold}})
	}
	got := SearchDynamic(ex, g, RuleHit1)
	full := g.WithDefaults()
	cands := riskCandidates(ex, full.RiskQuantiles)
	best := -1.0
	for _, k := range full.DynamicK {
		for _, b0 := range full.BucketW[0] {
			for _, b1 := range full.BucketW[1] {
				for _, b4 := range full.BucketW[4] {
					for _, m0 := range full.RiskM[0] {
						for _, m2 := range full.RiskM[2] {
							for _, m3 := range full.RiskM[3] {
								for a := range cands {
									for b := a; b < len(cands); b++ {
										for c := b; c < len(cands); c++ {
											ch := FusionChoice{Mode: "dynamic", Formula: FormulaGRASP, K: k, Buckets: []float64{b0, b1, 1, 1, b4},
												Risk:     map[string]float64{data.RiskNoTrade: m0, data.RiskWeak: 1, data.RiskNormal: m2, data.RiskAggressive: m3},
												RiskCuts: []float64{cands[a], cands[b], cands[c]}}
											best = max(best, hit1Of(ex, ch))
										}
									}
								}
							}
						}
					}
				}
			}
		}
	}
	var g1, t1 float64
	for _, e := range ex {
		g1 += float64(btoi(e.Graph[0].ID == e.Gold[0])) / float64(len(ex))
		t1 += float64(btoi(e.Text[0].ID == e.Gold[0])) / float64(len(ex))
	}
	if best <= max(g1, t1) || best == 1 {
		t.Fatalf("brute force Hit@1 %.3f (graph alone %.3f, text alone %.3f): the case does not discriminate", best, g1, t1)
	}
	t.Logf("brute force %.3f, graph alone %.3f, text alone %.3f", best, g1, t1)
	if got.ValHit1 != best {
		t.Errorf("search Hit@1 %.4f, brute force %.4f", got.ValHit1, best)
	}
	if h := hit1Of(ex, got); h != got.ValHit1 {
		t.Errorf("the chosen setting re-scores to %.4f, reported %.4f (%s)", h, got.ValHit1, got.Describe())
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func hit1Of(ex []FusionExample, c FusionChoice) float64 {
	var n float64
	for i := range ex {
		f := c.Fuse(ex[i].Graph, ex[i].Text, ex[i].Meta)
		if len(f) > 0 && f[0].ID == ex[i].Gold[0] {
			n++
		}
	}
	return n / float64(len(ex))
}

// TestSearchNoTrade: the graph branch is right when the planner is
// confident (0.6 and up) and wrong below, where mFAR ranks the gold first
// and the graph's wrong node second: that node then wins for any ŵ >
// 1/(k+2), below every grid product but no_trade's 0 (the least other is
// 0.25 at k ≥ 5). The calibrated cuts must send the unconfident plans to
// no_trade with multiplier 0 (pure mFAR) and trust the confident ones.
func TestSearchNoTrade(t *testing.T) {
	var ex []FusionExample
	for i := range 40 {
		gold := uint32(100 + i)
		conf := float64(i) / 40
		e := FusionExample{Meta: PlanMeta{NCand: 5, Conf: conf}, Gold: []uint32{gold}}
		if conf >= 0.6 {
			e.Graph, e.Text = hits(gold, 1), hits(2, 3)
		} else {
			e.Graph, e.Text = hits(4, 1), hits(gold, 4)
		}
		ex = append(ex, e)
	}
	c := SearchDynamic(ex, Grid{}, RuleHit1)
	if c.ValHit1 != 1 {
		t.Fatalf("%s: want val Hit@1 1", c.Describe())
	}
	for _, conf := range []float64{0, 0.3, 0.575} {
		if w, _ := c.Weights(PlanMeta{NCand: 5, Conf: conf}); w != 0 || c.RiskLevel(PlanMeta{Conf: conf}) != data.RiskNoTrade {
			t.Errorf("conf %v: level %s weight %v", conf, c.RiskLevel(PlanMeta{Conf: conf}), w)
		}
	}
	if w, _ := c.Weights(PlanMeta{NCand: 5, Conf: 0.6}); w <= 1 {
		t.Errorf("conf 0.6: weight %v, want > 1", w)
	}
}

// TestRecallFloor: the graph branch has both golds (ranks 1 and 15), the
// text branch none. GRASP's rule takes the first setting with Hit@1 = 1,
// k = 1 and w = 0.5 (the two first places tie at 0.25 and the gold has
// the smaller id), which pushes the second gold to rank 29: g1, 13 graph
// nodes (0.5/(1+r) > 0.5/16 for r < 15) and 14 text nodes (0.5/(1+r) >
// 0.5/16 for r ≤ 14) come before it. The recall-floor rule must keep it.
func TestRecallFloor(t *testing.T) {
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
		long = append(long, FusionExample{Graph: graph, Text: text, Meta: PlanMeta{NCand: 15, Risk: data.RiskNormal}, Gold: []uint32{g1, g3}})
	}
	s := prepare(&long[0])
	if h, r := s.eval(0.5, 0.5, 1); h != 1 || r != 0.5 {
		t.Fatalf("w=0.5 k=1: Hit@1 %v Recall@20 %v, want 1 and 0.5", h, r)
	}
	if c := SearchStatic(long, Grid{}, RuleHit1); c.W != 0.5 || c.K != 1 {
		t.Errorf("GRASP's rule: %s, want w=0.5 k=1", c.Describe())
	}
	for _, c := range []FusionChoice{SearchStatic(long, Grid{}, RuleRecallFloor), SearchDynamic(long, Grid{}, RuleRecallFloor)} {
		var r float64
		for i := range long {
			s := prepare(&long[i])
			wg, wt := c.Weights(long[i].Meta)
			_, ri := s.eval(wg, wt, c.K)
			r += ri
		}
		if r != 30 || c.ValHit1 != 1 {
			t.Errorf("%s: val Recall@20 %.3f, want 1 (Hit@1 %.3f)", c.Describe(), r/30, c.ValHit1)
		}
	}
}

// TestFuseRRFDenseSparse: summing in a slice and in a map give the same
// hits to the bit, on lists with repeats across them, gaps and ties.
func TestFuseRRFDenseSparse(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 50 {
		n := 1 + r.IntN(300)
		lists := make([][]index.Hit, 1+r.IntN(3))
		weights := make([]float64, len(lists))
		for li := range lists {
			weights[li] = r.Float64()
			for _, id := range r.Perm(n)[:r.IntN(n+1)] {
				lists[li] = append(lists[li], index.Hit{ID: uint32(id * (1 + trial%3))})
			}
		}
		a, b := fuseRRF(lists, weights, 60, true), fuseRRF(lists, weights, 60, false)
		if !slices.Equal(a, b) {
			t.Fatalf("trial %d: dense %v\nsparse %v", trial, a, b)
		}
	}
}

// BenchmarkFuseRRF: a dense channel's list of every candidate (117,659, as
// WordNet's) fused with BM25's 5,000 matches, summed in a slice (what
// FuseRRF picks for it) against a map (the sparse path, the baseline).
func BenchmarkFuseRRF(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	const n = 117659
	lists := [][]index.Hit{{}, {}}
	for _, id := range r.Perm(n)[:5000] {
		lists[0] = append(lists[0], index.Hit{ID: uint32(id)})
	}
	for _, id := range r.Perm(n) {
		lists[1] = append(lists[1], index.Hit{ID: uint32(id)})
	}
	for _, dense := range []bool{false, true} {
		name := map[bool]string{false: "map", true: "slice"}[dense]
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				fuseRRF(lists, []float64{1, 0.5}, 60, dense)
			}
		})
	}
}
