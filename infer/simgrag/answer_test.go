package simgrag

import (
	"context"
	"slices"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
)

// films: P1 (0) directed F1 (1), F2 (2), F3 (3); genres G1 (4), G2 (5), G3
// (6): F1 {G3, G1}, F2 {G3}, F3 {G3, G2}. F2's text says French.
func films(t *testing.T) (*workspace.Workspace, *Matcher) {
	t.Helper()
	skb := &data.SKB{Schema: data.Schema{Format: data.FormatSKBDir, NodeTypes: []string{"person", "movie", "genre"},
		RelationTypes: []string{"directed_by", "has_genre"}, CandidateTypes: []string{"movie", "genre"}, TextFields: []string{"details"}}}
	node := func(ty data.TypeID, name, details string) {
		skb.Nodes = append(skb.Nodes, data.Node{Type: ty, Name: name, Fields: []string{details}})
	}
	node(0, "P1", "")
	node(1, "F1", "an English film")
	node(1, "F2", "a French film")
	node(1, "F3", "an English film")
	node(2, "G1", "")
	node(2, "G2", "")
	node(2, "G3", "")
	for _, e := range [][3]uint32{{1, 0, 0}, {2, 0, 0}, {3, 0, 0}, {1, 1, 6}, {1, 1, 4}, {2, 1, 6}, {3, 1, 6}, {3, 1, 5}} {
		skb.Edges.Add(e[0], data.RelID(e[1]), e[2])
	}
	ws, err := workspace.Build(context.Background(), skb, nil, workspace.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	// Imported vectors only: linked anchors and schema relations need no
	// encoder, and every binding below has GSD 0.
	s, err := New(ws, infer.NewTextSpace("imported", nil, index.NewMatrix(len(skb.Nodes), 4), skb), Config{})
	if err != nil {
		t.Fatal(err)
	}
	return ws, s
}

// TestAnswerStep: SimGRAG's answer step ranks the target's bindings at
// equal GSD by the typed plan. All bindings below have GSD 0, so before it
// they ranked by id.
//   - "the genre every film of P1 has": the pattern is existential (every
//     genre of a film of P1: G1, G2, G3); the plan's universal step, soft,
//     puts G3 (3 of 3 films) before G1 and G2 (1 of 3 each; ids decide).
//     The strings route refused the plan (the query fell back to BM25).
//   - "P1's French film": the restriction's BM25 puts F2 first (only its
//     text says French), then F1 and F3 by id.
//   - The plan's named node (F3) ranks first.
//
// Scores are ranks: 3, 2, 1.
func TestAnswerStep(t *testing.T) {
	ws, s := films(t)
	m := NewPlanned(s)
	anchor := []data.PlanAnchor{{Text: "P1", Nodes: []uint32{0}}}
	for _, c := range []struct {
		name string
		plan data.Plan
		want []uint32
	}{
		{"every", data.Plan{Paths: data.MustPaths([][]string{{"person", "<-directed_by", "movie", "∀->has_genre", "genre"}}...), Anchors: anchor}, []uint32{6, 4, 5}},
		{"restriction", data.Plan{Paths: data.MustPaths([][]string{{"person", "<-directed_by", "movie"}}...), Anchors: anchor, Restriction: map[string][]string{"movie": {"French"}}}, []uint32{2, 1, 3}},
		{"named", data.Plan{Paths: data.MustPaths([][]string{{"person", "<-directed_by", "movie"}}...), Anchors: anchor, Restriction: map[string][]string{"movie": {"French"}}, Named: []uint32{3}}, []uint32{3, 2, 1}},
	} {
		q := data.Query{ID: 1, Text: "which", Plan: &c.plan}
		hits, err := m.Rank(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		var ids []uint32
		var scores []float32
		for _, h := range hits {
			ids = append(ids, h.ID)
			scores = append(scores, h.Score)
		}
		if !slices.Equal(ids, c.want) || !slices.Equal(scores, []float32{3, 2, 1}) {
			t.Errorf("%s: %v scores %v, want %v scores [3 2 1]", c.name, ids, scores, c.want)
		}
		if n := m.TakeFallbacks(); n != 0 {
			t.Errorf("%s: %d fallbacks", c.name, n)
		}
		if c.name == "every" {
			if _, ok := data.PlanPatternResolved(c.plan, ws.Graph.Resolver()); ok {
				t.Errorf("the strings route wrote a pattern for a universal plan")
			}
		}
	}
}

// TestNoSubgraphFallsBack: a plan whose pattern matches no subgraph (P1
// has no genre) is answered by BM25 over the question and counted, as a
// query without a pattern is; it used to return an empty ranking.
func TestNoSubgraphFallsBack(t *testing.T) {
	ws, s := films(t)
	m := NewPlanned(s)
	plan := data.Plan{Paths: data.MustPaths([][]string{{"person", "->has_genre", "genre"}}...), Anchors: []data.PlanAnchor{{Text: "P1", Nodes: []uint32{0}}}}
	q := data.Query{ID: 1, Text: "a French film", Plan: &plan}
	hits, err := m.Rank(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	want := ws.SearchDoc(q.Text, 100)
	if len(want) == 0 || !slices.Equal(hits, want) {
		t.Errorf("no subgraph: %v, want BM25's %v", hits, want)
	}
	if n := m.TakeFallbacks(); n != 1 {
		t.Errorf("%d fallbacks, want 1", n)
	}
}

// TestMoreFallsBack: with further patterns (KGQA's topic paths), a query
// falls back to BM25, counted, only when neither its pattern nor any of
// the further ones matches a subgraph; it used to get an empty ranking.
// A further pattern that matches ranks its targets at min(main) − 1 −
// GSD: the main pattern matched nothing (min 0) and P1's films have GSD
// 0, so F1, F2, F3 score −1, ties by id.
func TestMoreFallsBack(t *testing.T) {
	ws, s := films(t)
	pattern := func(path ...string) data.Pattern {
		t.Helper()
		p, ok := data.PlanPatternResolved(data.Plan{Paths: data.MustPaths([][]string{path}...), Anchors: []data.PlanAnchor{{Text: "P1", Nodes: []uint32{0}}}}, ws.Graph.Resolver())
		if !ok {
			t.Fatalf("no pattern for %v", path)
		}
		return p
	}
	none := pattern("person", "->has_genre", "genre") // P1 has no genre
	films := pattern("person", "<-directed_by", "movie")
	q := data.Query{ID: 1, Text: "a French film"}
	for _, c := range []struct {
		name      string
		more      []data.Pattern
		want      []index.Hit
		fallbacks int64
	}{
		{"nothing matches", []data.Pattern{none}, ws.SearchDoc(q.Text, 100), 1},
		{"no further pattern", nil, ws.SearchDoc(q.Text, 100), 1},
		{"a further pattern matches", []data.Pattern{none, films}, []index.Hit{{ID: 1, Score: -1}, {ID: 2, Score: -1}, {ID: 3, Score: -1}}, 0},
	} {
		m := &Method{S: s, Patterns: func(data.Query) (data.Pattern, bool, error) { return none, true, nil },
			More: func(data.Query) ([]data.Pattern, error) { return c.more, nil }}
		hits, err := m.Rank(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		if len(c.want) == 0 || !slices.Equal(hits, c.want) {
			t.Errorf("%s: %v, want %v", c.name, hits, c.want)
		}
		if n := m.TakeFallbacks(); n != c.fallbacks {
			t.Errorf("%s: %d fallbacks, want %d", c.name, n, c.fallbacks)
		}
	}
}
