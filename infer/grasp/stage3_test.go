package grasp

import (
	"context"
	"slices"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
)

// reverser reranks a pool by reversing it and ranks on its own as [7, 8].
type reverser struct{ got []uint32 }

func (r *reverser) Name() string { return "reverser" }
func (r *reverser) Rank(context.Context, data.Query) ([]index.Hit, error) {
	return []index.Hit{{ID: 8, Score: 1}, {ID: 7, Score: 2}}, nil
}
func (r *reverser) Rerank(_ context.Context, _ data.Query, pool []index.Hit) ([]index.Hit, error) {
	r.got = nil
	out := make([]index.Hit, len(pool))
	for i, h := range pool {
		r.got = append(r.got, h.ID)
		out[len(pool)-1-i] = index.Hit{ID: h.ID, Score: float32(i)}
	}
	return out, nil
}

type plain struct{}

func (plain) Name() string                                          { return "plain" }
func (plain) Rank(context.Context, data.Query) ([]index.Hit, error) { return nil, nil }

func TestStage3Ranking(t *testing.T) {
	stage2 := make([]index.Hit, 150)
	for i := range stage2 {
		stage2[i] = index.Hit{ID: uint32(1000 + i), Score: float32(-i)}
	}
	r := &reverser{}
	got, err := Stage3Ranking(context.Background(), r, Stage3Rerank, 0, data.Query{}, stage2)
	if err != nil {
		t.Fatal(err)
	}
	// GRASP's stage 3 sees stage 2's top 100 in order, and only them.
	if len(r.got) != 100 || r.got[0] != 1000 || r.got[99] != 1099 || len(got) != 100 || got[0].ID != 1099 {
		t.Fatalf("pool %d nodes (%v..), ranking %d nodes", len(r.got), r.got[:min(2, len(r.got))], len(got))
	}
	if _, err := Stage3Ranking(context.Background(), r, Stage3Rerank, 3, data.Query{}, stage2); err != nil || !slices.Equal(r.got, []uint32{1000, 1001, 1002}) {
		t.Errorf("pool 3: %v %v", r.got, err)
	}
	ind, err := Stage3Ranking(context.Background(), r, Stage3Independent, 0, data.Query{}, stage2)
	if err != nil || len(ind) != 2 || ind[0].ID != 7 {
		t.Errorf("independent: %v %v (want the model's own ranking, sorted)", ind, err)
	}
	if _, err := Stage3Ranking(context.Background(), plain{}, Stage3Rerank, 0, data.Query{}, stage2); err == nil {
		t.Error("a model that cannot rerank was accepted in rerank mode")
	}
}

// TestMemoRerank: a memoized reranker still reranks (GRASP's fit wraps
// stage 3 in a Memo), once per query and pool; a memoized plain method
// cannot.
func TestMemoRerank(t *testing.T) {
	r := &reverser{}
	m := &Memo{M: r}
	stage2 := []index.Hit{{ID: 1}, {ID: 2}, {ID: 3}}
	q := data.Query{ID: 4}
	a, err := Stage3Ranking(context.Background(), m, Stage3Rerank, 2, q, stage2)
	if err != nil || len(a) != 2 || a[0].ID != 2 {
		t.Fatalf("memoized rerank %v %v", a, err)
	}
	r.got = nil
	if b, _ := Stage3Ranking(context.Background(), m, Stage3Rerank, 2, q, stage2); r.got != nil || !slices.Equal(ids(b), ids(a)) {
		t.Errorf("the same pool was reranked again (%v)", r.got)
	}
	if _, _ = Stage3Ranking(context.Background(), m, Stage3Rerank, 3, q, stage2); len(r.got) != 3 {
		t.Errorf("another pool came from the memo: %v", r.got)
	}
	if _, err := Stage3Ranking(context.Background(), &Memo{M: plain{}}, Stage3Rerank, 2, q, stage2); err == nil {
		t.Error("a memoized plain method reranked")
	}
}

func ids(hs []index.Hit) []uint32 {
	out := make([]uint32, len(hs))
	for i, h := range hs {
		out[i] = h.ID
	}
	return out
}

// batcher ranks query q as [q] alone; RankBatch records its batch sizes and
// Rank counts its calls.
type batcher struct {
	sizes []int
	ranks int
}

func (b *batcher) Name() string { return "batcher" }
func (b *batcher) Rank(_ context.Context, q data.Query) ([]index.Hit, error) {
	b.ranks++
	return []index.Hit{{ID: uint32(q.ID), Score: 1}}, nil
}
func (b *batcher) RankBatch(_ context.Context, qs []data.Query) ([][]index.Hit, error) {
	b.sizes = append(b.sizes, len(qs))
	out := make([][]index.Hit, len(qs))
	for i, q := range qs {
		out[i] = []index.Hit{{ID: uint32(q.ID), Score: 1}}
	}
	return out, nil
}

// TestMemoPrefetch: Prefetch ranks the remembered queries in batches of
// 256 once (a repeated id and a query with its own plan are left alone),
// and Rank then answers from the memo.
func TestMemoPrefetch(t *testing.T) {
	b := &batcher{}
	m := &Memo{M: b}
	var qs []data.Query
	for i := range 300 {
		qs = append(qs, data.Query{ID: i})
	}
	qs = append(qs, data.Query{ID: 5}, data.Query{ID: 999, Plan: &data.Plan{}})
	if err := m.Prefetch(context.Background(), qs); err != nil {
		t.Fatal(err)
	}
	if err := m.Prefetch(context.Background(), qs[:10]); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(b.sizes, []int{256, 44}) {
		t.Errorf("batches %v, want [256 44]", b.sizes)
	}
	for _, id := range []int{0, 255, 299} {
		got, err := m.Rank(context.Background(), data.Query{ID: id})
		if err != nil || len(got) != 1 || got[0].ID != uint32(id) {
			t.Fatalf("query %d: %v %v", id, got, err)
		}
	}
	if b.ranks != 0 {
		t.Errorf("Rank called %d times after Prefetch", b.ranks)
	}
}
