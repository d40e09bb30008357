package mor

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/data/synth"
	"github.com/strata-retrieval/strata/graphops/plan"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/internal/testskb"
	"github.com/strata-retrieval/strata/internal/testws"
	"github.com/strata-retrieval/strata/models"
)

// TestRerankPool: MoR's reranker scores a pool it is given. A node its
// traversal reached keeps its trajectory; any other has the one-step
// trajectory of a textual retrieval (its type, code 1, its BM25 in the
// last text slot before the dense one), and the scores are the model's
// on those inputs.
func TestRerankPool(t *testing.T) {
	ws := testws.Build(t, synth.Config{Preset: "amazon", Nodes: 400, Queries: 40, Seed: 3})
	f := NewFeatures(ws, nil, plan.TraversalConfig{}, false)
	q := ws.SKB.QA.Queries[0]
	plan, ok := infer.PlanFor(ws, q)
	if !ok {
		t.Fatal("no plan")
	}
	res, usable, err := f.traverse(q, plan)
	if err != nil || !usable || len(res.Pool) == 0 {
		t.Fatalf("traversal: %v usable %v pool %d", err, usable, len(res.Pool))
	}
	reached := res.Pool[0].ID
	var outside uint32
	for v := range uint32(len(ws.SKB.Nodes)) {
		if _, ok := res.Trajectories[v]; !ok && ws.CandMask[v] {
			outside = v
			break
		}
	}
	in, err := f.Inputs(q, res.Trajectories, []uint32{reached, outside})
	if err != nil {
		t.Fatal(err)
	}
	x := in[1]
	last := models.TrajLen - 1
	if x.Types[last] != int32(ws.SKB.Nodes[outside].Type) || x.Codes[last] != 1 || x.Types[last-1] != -1 {
		t.Errorf("unreached node: types %v codes %v", x.Types, x.Codes)
	}
	// BM25 of the node's whole document (a candidate) or of its name,
	// each query scored on its own.
	bm := ws.Fields[workspace.NameField].Score(q.Text, outside)
	if d, ok := slices.BinarySearch(ws.Candidates, outside); ok {
		bm = ws.Doc.Score(q.Text, uint32(d))
	}
	if x.TF[models.TrajTF-2] != bm {
		t.Errorf("unreached node's BM25 %v, want %v", x.TF[models.TrajTF-2], bm)
	}
	steps := res.Trajectories[reached]
	if n := min(len(steps), models.TrajLen); in[0].Types[models.TrajLen-n] != int32(steps[len(steps)-n].Type) {
		t.Errorf("reached node lost its trajectory: %v vs %v", in[0].Types, steps)
	}
	m, err := models.NewTrajectoryReranker(models.TrajectoryConfig{NodeTypes: len(ws.SKB.Schema.NodeTypes), UseTF: true, UseSF: true, UseTI: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	meth := &Method{F: f, Model: m}
	pool := []index.Hit{{ID: outside, Score: 2}, {ID: reached, Score: 1}}
	got, err := meth.Rerank(context.Background(), q, pool)
	if err != nil {
		t.Fatal(err)
	}
	want := m.Score(in)
	ids := []uint32{got[0].ID, got[1].ID}
	if !slices.Contains(ids, reached) || !slices.Contains(ids, outside) || len(got) != 2 {
		t.Fatalf("reranked %v", got)
	}
	for _, h := range got {
		w := want[0]
		if h.ID == outside {
			w = want[1]
		}
		if h.Score != w {
			t.Errorf("node %d score %v, want the model's %v", h.ID, h.Score, w)
		}
	}
	if got[0].Score < got[1].Score {
		t.Errorf("not best first: %v", got)
	}
}

// TestExplanationTyped: the explanation prints the plan as the traversal
// walks it, attribute filter included.
func TestExplanationTyped(t *testing.T) {
	ws := testskb.Workspace(t, testskb.DirectorFilms())
	e := &Explanation{Fallback: true, Plan: data.Plan{
		Paths:      data.MustPaths([]string{"person", "<-directed_by", "movie"}),
		Anchors:    []data.PlanAnchor{{Text: "Paul Smith", Nodes: []uint32{0}}},
		Attributes: []data.PlanAttr{{Key: "released", Value: "2007"}},
	}}
	var b strings.Builder
	if err := e.WriteText(&b, ws); err != nil {
		t.Fatal(err)
	}
	want := "plan (the query's plan):\n  person -> <-directed_by -> movie\n" +
		`  typed: (person "Paul Smith" [1 linked] <-directed_by movie) where released "2007"` + "\n" +
		"no usable plan: MoR falls back to BM25\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}
