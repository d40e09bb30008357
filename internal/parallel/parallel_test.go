package parallel

import (
	"context"
	"testing"
)

func TestChunksCoverEachIndexOnce(t *testing.T) {
	for _, c := range []struct{ n, chunk, workers int }{{0, 4, 2}, {1, 4, 2}, {10, 3, 0}, {1000, 7, 3}, {5, 100, 8}} {
		hits := make([]int32, c.n)
		err := Chunks(context.Background(), c.n, c.chunk, c.workers, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				hits[i]++
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		for i, h := range hits {
			if h != 1 {
				t.Fatalf("%+v: index %d visited %d times", c, i, h)
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	calls := 0
	if err := Chunks(ctx, 100, 1, 1, func(lo, hi int) { calls++ }); err == nil || calls != 0 {
		t.Errorf("cancelled: err %v, %d calls", err, calls)
	}
}
