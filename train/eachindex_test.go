package train

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
)

// TestEachIndex: every index once, on all cores; progress counts up to the
// total; the error of the lowest failing index wins.
func TestEachIndex(t *testing.T) {
	out := make([]int, 100)
	var mu sync.Mutex
	var seen []int
	err := eachIndex(context.Background(), 100, "squares", func(stage string, done, total int) {
		mu.Lock()
		defer mu.Unlock()
		if stage != "squares" || total != 100 {
			t.Errorf("progress %q %d/%d", stage, done, total)
		}
		seen = append(seen, done)
	}, func(i int) error {
		out[i] += i * i
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range out {
		if v != i*i {
			t.Fatalf("out[%d] = %d, want %d", i, v, i*i)
		}
	}
	if len(seen) != 101 || seen[0] != 0 || !slices.Contains(seen, 100) {
		t.Errorf("progress calls %d (want 101, from 0 to 100)", len(seen))
	}
	err = eachIndex(context.Background(), 10, "fail", nil, func(i int) error {
		if i == 7 || i == 3 {
			return fmt.Errorf("index %d", i)
		}
		return nil
	})
	if err == nil || err.Error() != "index 3" {
		t.Errorf("error %v, want index 3's", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := eachIndex(ctx, 10, "cancelled", nil, func(int) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
