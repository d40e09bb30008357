package sage

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/baseline"
	"github.com/strata-retrieval/strata/infer/infertest"
	"github.com/strata-retrieval/strata/internal/testws"
)

// TestSAGERanking checks SAGE's output on BM25 seeds: the k seeds first,
// then k′ of their 1-hop candidate neighbours in the order of BM25 computed
// over the neighbour set (max-normalised; no dense channel here), then the
// rest of the seed ranking.
func TestSAGERanking(t *testing.T) {
	ws := testws.Preset(t, "amazon", 800, 40)
	seed := baseline.NewBM25(ws)
	m, err := New(ws, nil, seed, Config{Seeds: 5, Add: 4}, nil, "sage")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, q := range ws.SKB.QA.Queries[:40] {
		seeds, _ := seed.Rank(context.Background(), q)
		infer.SortHits(seeds)
		got, err := m.Rank(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		if len(seeds) < 5 {
			continue
		}
		top := []uint32{}
		for _, h := range seeds[:5] {
			top = append(top, h.ID)
		}
		for i := range 5 {
			if got[i].ID != top[i] {
				t.Fatalf("query %d: rank %d is %d, seed %d", q.ID, i, got[i].ID, top[i])
			}
		}
		var nbrs []uint32
		for _, v := range Expand(ws.Graph, top, ExpandOptions{}) {
			if slices.Contains(ws.Candidates, v) {
				nbrs = append(nbrs, v)
			}
		}
		b := index.NewBuilder(ws.Config.BM25)
		for _, v := range nbrs {
			b.Add(ws.SKB.Document(v))
		}
		want := b.Build().Search(q.Text, 4, nil)
		for i, h := range want {
			if got[5+i].ID != nbrs[h.ID] {
				t.Fatalf("query %d: added %d is %d, want %d", q.ID, i, got[5+i].ID, nbrs[h.ID])
			}
		}
		for i := 1; i < len(got); i++ {
			if got[i].Score >= got[i-1].Score {
				t.Fatalf("query %d: scores not descending at %d", q.ID, i)
			}
		}
		if len(want) == 4 {
			checked++
		}
	}
	if checked < 20 {
		t.Errorf("only %d queries had 4 neighbours to add", checked)
	}
}

// TestFuseHandWorked pins SAGE's linear fusion on numbers worked by hand:
// lex = (2, 0, 4, 1), dense = (.5, .9, −.1, .2), α = .6. BM25 over its
// maximum 4 is (.5, 0, 1, .25), so
//
//	s = .6·(.5, 0, 1, .25) + .4·(.5, .9, −.1, .2) = (.5, .36, .56, .23)
//
// and the ranking is 2, 0, 1, 3, where the RRF (k = 60) of the two rankings
// (BM25: 2 0 3 1; dense: 1 0 3 2) would put 0 first (2/62 against 1/61 +
// 1/64 for 1 and 2).
func TestFuseHandWorked(t *testing.T) {
	lex := []float32{2, 0, 4, 1}
	dense := []float32{.5, .9, -.1, .2}
	for _, c := range []struct {
		name  string
		dense []float32
		lex   []float32
		want  []float32
	}{
		{"both", dense, lex, []float32{.5, .36, .56, .23}},
		{"no dense channel", nil, lex, []float32{.3, 0, .6, .15}},
		{"no term matches", dense, make([]float32, 4), []float32{.2, .36, -.04, .08}},
	} {
		got := Fuse(nil, c.lex, c.dense, DefaultAlpha)
		for i := range got {
			if math.Abs(float64(got[i]-c.want[i])) > 1e-6 {
				t.Errorf("%s: Fuse = %v, want %v", c.name, got, c.want)
				break
			}
		}
	}
	hits := make([]index.Hit, 4)
	for i, s := range Fuse(nil, lex, dense, 0.6) {
		hits[i] = index.Hit{ID: uint32(i), Score: s}
	}
	index.Sort(hits)
	if ids := []uint32{hits[0].ID, hits[1].ID, hits[2].ID, hits[3].ID}; !slices.Equal(ids, []uint32{2, 0, 1, 3}) {
		t.Errorf("ranking %v", ids)
	}
}

// TestHybridRanksByFuse checks that sage-hybrid scores every candidate by
// Fuse of its whole-document BM25 (looked up one document at a time) and
// the cosine with the query vector, over a lexical dense channel.
func TestHybridRanksByFuse(t *testing.T) {
	ws := testws.Preset(t, "amazon", 800, 40)
	d := infertest.LexicalDense(t, ws)
	h := NewHybrid(ws, d, 0)
	for _, q := range ws.SKB.QA.Queries[:10] {
		got, err := h.Rank(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(ws.Candidates) {
			t.Fatalf("%d hits for %d candidates", len(got), len(ws.Candidates))
		}
		qv := d.Encoder.EncodeTexts([]string{q.Text})
		lex := make([]float32, len(ws.Candidates))
		var mx float32
		for i := range ws.Candidates {
			lex[i] = ws.Doc.Score(q.Text, uint32(i))
			mx = max(mx, lex[i])
		}
		for i, v := range ws.Candidates {
			var c float32
			for j, x := range d.Docs.Row(int(v)) {
				c += x * qv[j]
			}
			want := 0.4 * c
			if mx > 0 {
				want += 0.6 * lex[i] / mx
			}
			if got[i].ID != v || math.Abs(float64(got[i].Score-want)) > 1e-5 {
				t.Fatalf("query %d candidate %d: %+v, want score %.6f", q.ID, v, got[i], want)
			}
		}
	}
}
