package train

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"testing"

	"github.com/strata-retrieval/strata/infer/planner"
	"github.com/strata-retrieval/strata/models"
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

// TestTrainFitGateStep: one positive example, one epoch from zero
// weights: p = 1/2, each feature's gradient -1/2 (a repeated feature's
// summed: "film" twice gives -1) and AdaGrad's first step
// lr·|g|/(sqrt(g²)+1e-6) = lr on each; the loss is ln 2.
func TestTrainFitGateStep(t *testing.T) {
	const dim = 1 << 20
	m, _ := models.NewSparseLinear(dim, "fit")
	loss := trainFitGate(m, [][]uint32{planner.FitFeatures(dim, "film of film", false)}, nil, 1, 0.1, 1)
	if math.Abs(loss-math.Ln2) > 1e-9 {
		t.Errorf("loss %.6f, want ln 2", loss)
	}
	for _, f := range planner.FitFeatures(dim, "film of film", false) {
		if w := m.W.Data()[f]; math.Abs(float64(w)-0.1) > 1e-6 {
			t.Errorf("weight of feature %d = %.7f, want 0.1", f, w)
		}
	}
}
