package sage

import (
	"context"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/baseline"
	"github.com/strata-retrieval/strata/internal/testws"
	"slices"
	"testing"

	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/graphops"
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
		for _, v := range graphops.Expand(ws.Graph, top, graphops.ExpandOptions{}) {
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
