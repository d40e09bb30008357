package eval

import (
	"context"
	"fmt"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
)

// rankByID ranks node (id + j) mod 10 at position j for query id.
type rankByID struct{}

func (rankByID) Rank(_ context.Context, q data.Query) ([]index.Hit, error) {
	out := make([]index.Hit, 10)
	for j := range out {
		out[j] = index.Hit{ID: uint32((q.ID + j) % 10), Score: float32(10 - j)}
	}
	return out, nil
}

// batched is rankByID with RankBatch, recording the batch sizes.
type batched struct {
	rankByID
	sizes []int
	fail  int // query id whose batch fails; -1 for none
}

func (b *batched) RankBatch(ctx context.Context, qs []data.Query) ([][]index.Hit, error) {
	b.sizes = append(b.sizes, len(qs))
	out := make([][]index.Hit, len(qs))
	for i, q := range qs {
		if q.ID == b.fail {
			return nil, fmt.Errorf("no vector")
		}
		out[i], _ = b.Rank(ctx, q)
	}
	return out, nil
}

// TestRunBatches: a BatchRanker gets the queries in batches of BatchSize
// and scores exactly as ranking them one by one; query i's gold is node 3,
// so its rank is (3 - i) mod 10 + 1 and its MRR the inverse.
func TestRunBatches(t *testing.T) {
	n := BatchSize*2 + 7
	qs := make([]data.Query, n)
	for i := range qs {
		qs[i] = data.Query{ID: i, Answers: []uint32{3}}
	}
	cands := make([]uint32, 10)
	for i := range cands {
		cands[i] = uint32(i)
	}
	ev := NewEvaluator(10, cands)
	one, err := Run(context.Background(), ev, qs, rankByID{}, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b := &batched{fail: -1}
	got, err := Run(context.Background(), ev, qs, b, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(b.sizes) != fmt.Sprint([]int{BatchSize, BatchSize, 7}) {
		t.Errorf("batch sizes %v", b.sizes)
	}
	for i := range qs {
		want := 1 / float64((3-i%10+10)%10+1)
		if one[i].MRR != want || got[i].MRR != want {
			t.Fatalf("query %d: MRR one by one %v, batched %v, want %v", i, one[i].MRR, got[i].MRR, want)
		}
	}
	b = &batched{fail: BatchSize + 5}
	if _, err := Run(context.Background(), ev, qs, b, RunOptions{}); err == nil || err.Error() != fmt.Sprintf("queries %d-%d (ids %d-%d): no vector", BatchSize, 2*BatchSize-1, BatchSize, 2*BatchSize-1) {
		t.Errorf("error %v", err)
	}
}
