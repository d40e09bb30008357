package train

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
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

// TestFitCasual: a gate that learns "Give me red things?" and "Which
// things are red?" against the glosses "give red color" and "things that
// are red" as written only reads "give me blue things", typed casually,
// as a gloss (lower case "give" opens glosses alone, and no question
// mark): 0.47; learning every text also as typed casually (fitTexts), it
// passes it (0.92), and the gloss "give blue color" stays below 0.5 either
// way. fitTexts pairs each text with its casual form.
func TestFitCasual(t *testing.T) {
	if got, want := fitTexts([]string{"Which films?", "give a sign"}, true), []string{"Which films?", "which films", "give a sign", "give a sign"}; !slices.Equal(got, want) {
		t.Fatalf("fitTexts = %q, want %q", got, want)
	}
	const dim = 1 << 16
	// The lead verb as planner.FitFeatures reads it: a capitalised verb
	// opening the text.
	feats := func(texts []string) [][]uint32 {
		var out [][]uint32
		for _, s := range texts {
			out = append(out, planner.FitFeatures(dim, s, strings.HasPrefix(s, "Give")))
		}
		return out
	}
	for _, casual := range []bool{false, true} {
		var pos, neg []string
		for range 20 {
			pos = append(pos, fitTexts([]string{"Give me red things?", "Which things are red?"}, casual)...)
			neg = append(neg, fitTexts([]string{"give red color", "things that are red"}, casual)...)
		}
		m, _ := models.NewSparseLinear(dim, "fit")
		trainFitGate(m, feats(pos), feats(neg), 5, 0.1, 1)
		q := planner.FitProb(m, feats([]string{"give me blue things"})[0])
		g := planner.FitProb(m, feats([]string{"give blue color"})[0])
		if casual != (q >= 0.5) || g >= 0.5 {
			t.Errorf("casual %v: \"give me blue things\" %.4f, \"give blue color\" %.4f; want the question at or above 0.5 only with casual forms, the gloss below", casual, q, g)
		}
	}
}
