package pipeline

import (
	"context"
	"errors"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/infer"
	_ "github.com/strata-retrieval/strata/infer/all"
)

func TestPipelineErrorsNameKeyAndLine(t *testing.T) {
	cases := []struct {
		file, text string
		line       int
		key        string
	}{
		{"p.json", "{\n  \"format\": \"strata-pipeline/1\",\n  \"scorers\": [\n    {\"method\": \"bm25\"},\n    {\"method\": \"bm26\"}\n  ],\n  \"fusion\": {\"kind\": \"rrf\"}\n}", 5, "scorers[1].method"},
		{"p.json", "{\n  \"format\": \"strata-pipeline/1\",\n  \"scorers\": [{\"method\": \"bm25\", \"model\": \"x\"}]\n}", 3, "scorers[0]"},
		{"p.json", "{\n  \"format\": \"strata-pipeline/1\",\n  \"scorers\": [{\"method\": \"bm25\"}],\n  \"fusio\": {}\n}", 4, "fusio"},
		{"p.json", "{\n  \"format\": \"strata-pipeline/1\",\n  \"scorers\": [{\"method\": \"bm25\"}, {\"method\": \"dense\"}]\n}", 3, "scorers"},
		{"p.json", "{\n  \"format\": \"strata-pipeline/1\",\n  \"scorers\": [{\"method\": \"bm25\", \"k\": \"ten\"}]\n}", 3, "scorers.k"},
		{"p.yaml", "format: strata-pipeline/1\nscorers:\n  - method: bm25\n  - model: runs/cor/best\nfusion:\n  kind: max\n", 6, "fusion.kind"},
		{"p.yaml", "format: strata-pipeline/1\nscorers:\n  - method: bm25\n    wieght: 2\n", 4, ""},
		{"p.json", "{\"format\": \"strata-pipeline/2\", \"scorers\": [{\"method\": \"bm25\"}]}", 1, "format"},
		// Non-finite numbers (issue 37): a NaN weight scored every query 0,
		// an infinite one failed every query, both silently.
		{"p.yaml", "format: strata-pipeline/1\nscorers:\n  - method: bm25\n  - method: dense\n    weight: .nan\nfusion: {kind: rrf}\n", 5, "scorers[1].weight"},
		{"p.yaml", "format: strata-pipeline/1\nscorers:\n  - method: bm25\n    weight: .inf\n", 4, "scorers[0].weight"},
		{"p.yaml", "format: strata-pipeline/1\nscorers:\n  - method: bm25\n  - method: dense\nfusion:\n  kind: rrf\n  k: -1\n", 7, "fusion.k"},
		{"p.yaml", "format: strata-pipeline/1\nscorers:\n  - method: bm25\n  - method: dense\nfusion:\n  kind: sum\n  k: .inf\n", 7, "fusion.k"},
	}
	for _, c := range cases {
		_, err := ParsePipeline([]byte(c.text), c.file)
		var pe *Error
		if !errors.As(err, &pe) {
			t.Errorf("%q: error %v is not a pipeline.Error", c.text, err)
			continue
		}
		if pe.Line != c.line || (c.key != "" && pe.Key != c.key) {
			t.Errorf("%q: line %d key %q, want line %d key %q (%v)", c.text, pe.Line, pe.Key, c.line, c.key, err)
		}
	}
	p, err := ParsePipeline([]byte("format: strata-pipeline/1\nname: hybrid\ncandidates: {method: bm25, k: 50}\nscorers:\n  - method: bm25\n    weight: 2\n  - method: dense\nfusion: {kind: rrf, k: 10}\n"), "dir/p.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "hybrid" || p.Candidates.K != 50 || p.Scorers[0].Weight != 2 || p.Fusion.K != 10 || p.dir != "dir" {
		t.Errorf("parsed %+v", p)
	}
}

type fixed []index.Hit

func (f fixed) Name() string { return "fixed" }
func (f fixed) Rank(context.Context, data.Query) ([]index.Hit, error) {
	return append([]index.Hit(nil), f...), nil
}

// RRF by hand: scorer A ranks 3 > 1 > 2, scorer B (weight 2) ranks 2 > 3;
// k = 10: node 3: 1/11 + 2/12 = 0.25758; node 2: 1/13 + 2/11 = 0.25874;
// node 1: 1/12 = 0.08333. With candidates {2, 3} only, node 1 is dropped
// and ranks are recomputed inside the allowed set: node 2: 1/12 + 2/11 =
// 0.26515 first, node 3: 1/11 + 2/12 = 0.25758.
func TestRunnerFusion(t *testing.T) {
	a := fixed{{ID: 1, Score: 0.5}, {ID: 3, Score: 0.9}, {ID: 2, Score: 0.1}}
	b := fixed{{ID: 2, Score: 7}, {ID: 3, Score: 4}}
	r := &Runner{P: &Pipeline{Scorers: []Stage{{Method: "bm25"}, {Method: "dense", Weight: 2}}, Fusion: &FusionSpec{Kind: "rrf", K: 10}},
		scorers: []infer.Method{a, b}, names: []string{"a", "b"}}
	hits, per, err := r.RankStages(context.Background(), data.Query{})
	if err != nil {
		t.Fatal(err)
	}
	want := []index.Hit{{ID: 2, Score: float32(1.0/13 + 2.0/11)}, {ID: 3, Score: float32(1.0/11 + 2.0/12)}, {ID: 1, Score: float32(1.0 / 12)}}
	for i := range want {
		if hits[i].ID != want[i].ID || absf(hits[i].Score-want[i].Score) > 1e-6 {
			t.Fatalf("rrf = %v, want %v", hits, want)
		}
	}
	if per[1][3] != 4 || per[0][1] != 0.5 {
		t.Errorf("per-stage scores %v", per)
	}
	r.P.Candidates = &Stage{Method: "bm25", K: 2}
	r.candidates = fixed{{ID: 2, Score: 3}, {ID: 3, Score: 2}, {ID: 1, Score: 1}}
	hits, _, _ = r.RankStages(context.Background(), data.Query{})
	if len(hits) != 2 || hits[0].ID != 2 || absf(hits[0].Score-float32(1.0/12+2.0/11)) > 1e-6 || absf(hits[1].Score-float32(1.0/11+2.0/12)) > 1e-6 {
		t.Errorf("restricted rrf = %v", hits)
	}
	// Weighted sum.
	r.P.Candidates, r.candidates = nil, nil
	r.P.Fusion = &FusionSpec{Kind: "sum"}
	hits, _, _ = r.RankStages(context.Background(), data.Query{})
	if hits[0].ID != 2 || hits[0].Score != 14.1 {
		t.Errorf("sum = %v", hits)
	}
}

func absf(x float32) float32 {
	if x < 0 {
		return -x
	}
	return x
}

// reranking ranks node 1 alone, and scores any pool it is given: node 3
// at 5, every other at 1 (every node of the pool).
type reranking struct{ got *[]uint32 }

func (reranking) Name() string { return "reranking" }

func (reranking) Rank(context.Context, data.Query) ([]index.Hit, error) {
	return []index.Hit{{ID: 1, Score: 9}}, nil
}

func (r reranking) Rerank(_ context.Context, _ data.Query, pool []index.Hit) ([]index.Hit, error) {
	out := make([]index.Hit, len(pool))
	for i, h := range pool {
		*r.got = append(*r.got, h.ID)
		out[i] = index.Hit{ID: h.ID, Score: 1}
		if h.ID == 3 {
			out[i].Score = 5
		}
	}
	return out, nil
}

// TestRunnerReranksThePool: after a candidate stage, a scorer that can
// rerank is given the pool (the candidate stage's top 2: nodes 2 and 3)
// and scores all of it, 3 before 2; it used to rank alone and keep what
// fell in the pool, which here is nothing. Without a candidate stage it
// ranks alone (issue 38: pipelines never called Rerank).
func TestRunnerReranksThePool(t *testing.T) {
	var got []uint32
	r := &Runner{P: &Pipeline{Scorers: []Stage{{Method: "reranking"}}, Candidates: &Stage{Method: "bm25", K: 2}},
		scorers: []infer.Method{reranking{&got}}, names: []string{"reranking"},
		candidates: fixed{{ID: 2, Score: 3}, {ID: 3, Score: 2}, {ID: 1, Score: 1}}}
	hits, _, err := r.RankStages(context.Background(), data.Query{})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 2 || hits[0] != (index.Hit{ID: 3, Score: 5}) || hits[1] != (index.Hit{ID: 2, Score: 1}) {
		t.Errorf("reranked pool %v, want node 3 (5) then node 2 (1)", hits)
	}
	if len(got) != 2 || got[0] != 2 || got[1] != 3 {
		t.Errorf("the scorer was given %v, want the pool [2 3]", got)
	}
	r.P.Candidates, r.candidates = nil, nil
	if hits, _, _ := r.RankStages(context.Background(), data.Query{}); len(hits) != 1 || hits[0].ID != 1 {
		t.Errorf("without a candidate stage: %v, want its own ranking (node 1)", hits)
	}
}
