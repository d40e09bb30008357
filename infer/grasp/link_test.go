package grasp

import (
	"context"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	gplan "github.com/strata-retrieval/strata/graphops/plan"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/internal/testskb"
	"github.com/strata-retrieval/strata/internal/testws"
)

func cities(t *testing.T) (*workspace.Workspace, *infer.TextSpace) {
	skb := &data.SKB{Schema: data.Schema{Format: data.FormatSKBDir, NodeTypes: []string{"city", "country"}, RelationTypes: []string{"capital_of"},
		CandidateTypes: []string{"city", "country"}, TextFields: []string{"details"}}}
	skb.Nodes = []data.Node{
		{Type: 0, Name: "Paris", Fields: []string{"capital london london london"}},
		{Type: 0, Name: "London", Fields: []string{"city on the thames"}},
		{Type: 1, Name: "France", Fields: []string{""}},
	}
	skb.Edges.Add(0, 0, 2)
	ws, err := workspace.Build(context.Background(), skb, nil, workspace.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	docs := index.NewMatrix(len(skb.Nodes), 64)
	for v := range skb.Nodes {
		x, _ := testws.BagEncoder{}.EncodeTexts([]string{skb.Document(uint32(v))})
		copy(docs.Row(v), x)
	}
	return ws, infer.NewTextSpace("bag", testws.BagEncoder{}, docs, skb)
}

// TestLink pins GRASP's anchor linking (appendix A) on a bag-of-words
// space: name mode keeps the top 5 names within 0.95 of the best cosine,
// doc mode the top 10 documents within 0.90. "london" has name cosines
// London 1, Paris 0, and document cosines Paris 3/√12 = 0.866 ("Paris\n
// details: capital london london london"), London 1/√6 = 0.408.
func TestLink(t *testing.T) {
	ws, space := cities(t)
	l := NewLinker(ws, space, LinkConfig{})
	check := func(a data.GraspAnchor, want []gplan.Binding) {
		t.Helper()
		got, err := l.Link(context.Background(), a)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("%+v: %+v, want %+v", a, got, want)
		}
		for i := range got {
			if got[i].Node != want[i].Node || math.Abs(float64(got[i].Cos-want[i].Cos)) > 1e-5 {
				t.Errorf("%+v: %+v, want %+v", a, got, want)
			}
		}
	}
	check(data.GraspAnchor{Text: "london", Label: "city", MatchMode: "name"}, []gplan.Binding{{Node: 1, Cos: 1}})
	check(data.GraspAnchor{Text: "london", Label: "city", MatchMode: "doc"}, []gplan.Binding{{Node: 0, Cos: float32(3 / math.Sqrt(12))}})
	// The planner's links keep their nodes, at the cosine of the text and
	// the name; without an encoder (imported vectors), at 1.
	check(data.GraspAnchor{Text: "london", Nodes: []uint32{0, 1}}, []gplan.Binding{{Node: 0, Cos: 0}, {Node: 1, Cos: 1}})
	bare := NewLinker(ws, infer.NewTextSpace("imported", nil, space.Docs, ws.SKB), LinkConfig{})
	got, err := bare.Link(context.Background(), data.GraspAnchor{Text: "london", Nodes: []uint32{0, 1}})
	if err != nil || len(got) != 2 || got[0].Cos != 1 || got[1].Cos != 1 {
		t.Errorf("linked anchors without an encoder: %+v %v", got, err)
	}
	if _, err := bare.Link(context.Background(), data.GraspAnchor{Text: "london", Label: "city", MatchMode: "name"}); err == nil {
		t.Error("an anchor to embed was linked without an encoder")
	}
}

// TestGraphAttributes: GRASP's graph branch keeps only the targets whose
// text states the plan's attributes (strata's extension). Paul Smith
// directed First Film (2007), Second Film (1999) and Third Film (2007);
// each film scores the linked anchor's name cosine, 1.
func TestGraphAttributes(t *testing.T) {
	skb := testskb.DirectorFilms()
	ws := testskb.Workspace(t, skb)
	docs := index.NewMatrix(len(skb.Nodes), 64)
	for v := range skb.Nodes {
		x, _ := testws.BagEncoder{}.EncodeTexts([]string{skb.Document(uint32(v))})
		copy(docs.Row(v), x)
	}
	p := data.GraspPlan{
		Anchors:   []data.GraspAnchor{{Var: "a", Text: "Paul Smith", Label: "person", MatchMode: "name", Nodes: []uint32{0}}},
		Hops:      []data.GraspHop{{From: "a", Rel: "<-directed_by", ToVar: "t", ToLabel: "movie"}},
		Target:    data.GraspTarget{Var: "t", Labels: []string{"movie"}},
		RiskLevel: data.RiskNormal,
	}
	films := func(p data.GraspPlan) []index.Hit {
		t.Helper()
		g := NewGraph(ws, infer.NewTextSpace("bag", testws.BagEncoder{}, docs, skb), PlansFromFile(map[int]data.GraspPlan{7: p}), LinkConfig{})
		r, err := g.Retrieve(context.Background(), data.Query{ID: 7, Text: "films by Paul Smith released in 2007"})
		if err != nil {
			t.Fatal(err)
		}
		return r.Hits
	}
	want := []index.Hit{{ID: 1, Score: 1}, {ID: 2, Score: 1}, {ID: 3, Score: 1}}
	if got := films(p); !cmp.Equal(got, want, cmpopts.EquateApprox(0, 1e-5)) {
		t.Errorf("every film: %v", got)
	}
	p.Target.Attributes = []data.PlanAttr{{Key: "released", Value: "2007"}}
	want = []index.Hit{{ID: 1, Score: 1}, {ID: 3, Score: 1}}
	if got := films(p); !cmp.Equal(got, want, cmpopts.EquateApprox(0, 1e-5)) {
		t.Errorf("films released 2007: %v", got)
	}
}
