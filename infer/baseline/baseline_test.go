package baseline_test

import (
	"context"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/eval"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	_ "github.com/strata-retrieval/strata/infer/all"
	"github.com/strata-retrieval/strata/infer/registry"
	"github.com/strata-retrieval/strata/internal/testws"
)

func evaluate(t *testing.T, ws *workspace.Workspace, method, split string) eval.Summary {
	t.Helper()
	m, err := registry.NewMethod(infer.NewEnv(context.Background(), ws), method)
	if err != nil {
		t.Fatal(err)
	}
	qs, err := ws.SKB.QA.Split(split)
	if err != nil {
		t.Fatal(err)
	}
	ev := eval.NewEvaluator(len(ws.SKB.Nodes), ws.Candidates)
	rs, err := eval.Run(context.Background(), ev, qs, m, eval.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return eval.Summarize(rs)
}

// TestCalibration guards the generator's calibration at the default size
// (5,000 nodes, 1,000 queries, seed 1): BM25's test Hit@1 is within 0.10 of
// STaRK's BM25 (amazon 0.45, mag 0.26, prime 0.13), the oracle plan reaches
// at least 0.90, and both text-only and graph-only retrieval fall well short
// of the oracle: the headroom hybrid methods are for.
func TestCalibration(t *testing.T) {
	stark := map[string]float64{"amazon": 0.45, "mag": 0.26, "prime": 0.13}
	for preset, target := range stark {
		t.Run(preset, func(t *testing.T) {
			ws := testws.Preset(t, preset, 5000, 1000)
			bm := evaluate(t, ws, "bm25", "test")
			or := evaluate(t, ws, "oracle-plan", "test")
			st := evaluate(t, ws, "plan-structure", "test")
			t.Logf("bm25 %v\noracle %v\nstructure %v", bm, or, st)
			if bm.N != 200 {
				t.Errorf("test split has %d queries, want 200", bm.N)
			}
			if bm.Hit1 < target-0.10 || bm.Hit1 > target+0.10 {
				t.Errorf("bm25 hit@1 = %.4f, want %.2f ± 0.10", bm.Hit1, target)
			}
			if or.Hit1 < 0.90 {
				t.Errorf("oracle-plan hit@1 = %.4f, want >= 0.90", or.Hit1)
			}
			if or.Hit1-bm.Hit1 < 0.3 {
				t.Errorf("text-only bm25 (%.4f) is too close to the oracle (%.4f)", bm.Hit1, or.Hit1)
			}
			if or.Hit1-st.Hit1 < 0.3 {
				t.Errorf("graph-only plan-structure (%.4f) is too close to the oracle (%.4f)", st.Hit1, or.Hit1)
			}
		})
	}
}

func TestUnknownMethod(t *testing.T) {
	ws := testws.Preset(t, "amazon", 500, 20)
	if _, err := registry.NewMethod(infer.NewEnv(context.Background(), ws), "dense"); err == nil {
		t.Error("unknown method accepted")
	}
	// A plan given with the query wins over the workspace's; a query
	// without any plan falls back to BM25 and is counted.
	m, _ := registry.NewMethod(infer.NewEnv(context.Background(), ws), "plan-structure")
	q := ws.SKB.QA.Queries[0]
	bad := data.Plan{Paths: data.MustPaths([][]string{{"nope"}}...)}
	q.Plan = &bad
	bm, _ := registry.NewMethod(infer.NewEnv(context.Background(), ws), "bm25")
	got, _ := m.Rank(t.Context(), q)
	want, _ := bm.Rank(t.Context(), q)
	if fb := m.(infer.FallbackCounter).TakeFallbacks(); len(got) != len(want) || fb != 1 {
		t.Errorf("invalid per-query plan: %d hits (bm25 %d), %d fallbacks", len(got), len(want), fb)
	}
}

// TestTraversalRecall: with the ground-truth plans, MoR's traversal pool
// holds the answers far more often than BM25's top 20 (the headroom its
// reranker is for), and a query whose plan is unusable falls back to BM25.
func TestTraversalRecall(t *testing.T) {
	ws := testws.Preset(t, "prime", 3000, 300)
	bm := evaluate(t, ws, "bm25", "test")
	tr := evaluate(t, ws, "mor-traversal", "test")
	t.Logf("bm25 %v\ntraversal %v", bm, tr)
	if tr.Recall20 < 0.8 || tr.Recall20-bm.Recall20 < 0.3 {
		t.Errorf("traversal recall@20 %.4f, bm25 %.4f", tr.Recall20, bm.Recall20)
	}
	m, _ := registry.NewMethod(infer.NewEnv(context.Background(), ws), "mor-traversal")
	q := ws.SKB.QA.Queries[0]
	q.Plan = &data.Plan{Paths: data.MustPaths([][]string{{"no such type"}}...)}
	got, _ := m.Rank(t.Context(), q)
	if fb := m.(infer.FallbackCounter).TakeFallbacks(); fb != 1 || len(got) != 100 {
		t.Errorf("fallback: %d hits, %d fallbacks", len(got), fb)
	}
}

// fixedMethod ranks every query the same.
type fixedMethod []index.Hit

func (fixedMethod) Name() string { return "fixed" }
func (m fixedMethod) Rank(context.Context, data.Query) ([]index.Hit, error) {
	return append([]index.Hit(nil), m...), nil
}

// TestPlanExecTextFallback: plan-exec given another text channel
// (infer.TextFallback, a planner's bm25+dense) answers the queries it
// falls back on with that channel's ranking, counted, and plans the rest
// as before.
func TestPlanExecTextFallback(t *testing.T) {
	ws := testws.Preset(t, "amazon", 500, 20)
	pe, err := registry.NewMethod(infer.NewEnv(context.Background(), ws), "plan-exec")
	if err != nil {
		t.Fatal(err)
	}
	text := fixedMethod{{ID: 7, Score: 2}, {ID: 3, Score: 1}}
	m := pe.(infer.TextFallback).WithText(text)
	q := ws.SKB.QA.Queries[0]
	planned, err := pe.Rank(t.Context(), q) // the workspace's plan
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.Rank(t.Context(), q)
	if err != nil {
		t.Fatal(err)
	}
	if fb := m.(infer.FallbackCounter).TakeFallbacks(); fb != 0 || len(got) != len(planned) || got[0] != planned[0] {
		t.Errorf("planned query: %d hits (plan-exec %d), first %v (%v), %d fallbacks", len(got), len(planned), got[0], planned[0], fb)
	}
	q.Plan = &data.Plan{} // no plan fits
	got, err = m.Rank(t.Context(), q)
	if err != nil {
		t.Fatal(err)
	}
	if fb := m.(infer.FallbackCounter).TakeFallbacks(); fb != 1 || len(got) != 2 || got[0].ID != 7 || got[1].ID != 3 {
		t.Errorf("fallback: %v, %d fallbacks; want the text channel's [7 3], 1", got, fb)
	}
	if fb := pe.(infer.FallbackCounter).TakeFallbacks(); fb != 0 {
		t.Errorf("the method WithText was called on counted %d fallbacks of the other's", fb)
	}
	if a, b := infer.FallbackText(pe), infer.FallbackText(m); a != "bm25" || b != "fixed" {
		t.Errorf("fallback text channels %q and %q, want bm25 and fixed", a, b)
	}
}
