package plan

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/graphops"
)

// fakeMatcher returns, for a node type, the nodes whose name occurs in the
// text (score 1), or a fixed list.
type fakeMatcher struct {
	g     *graphops.Graph
	fixed map[data.TypeID][]uint32
}

func (m fakeMatcher) Match(text string, t data.TypeID, k int) []index.Hit {
	var out []index.Hit
	if ids, ok := m.fixed[t]; ok {
		for _, id := range ids {
			out = append(out, index.Hit{ID: id, Score: 1})
		}
		return out
	}
	for v := range m.g.NumNodes() {
		if m.g.Type(uint32(v)) == t && strings.Contains(text, m.g.Name(uint32(v))) {
			out = append(out, index.Hit{ID: uint32(v), Score: 1})
		}
	}
	if len(out) > k {
		out = out[:k]
	}
	return out
}

// papers is P0 P1 P2 (papers, ids 0-2), Ann (3) and Bob (4) (authors): Ann
// writes P0 and P1, Bob P1; P0 and P1 cite each other; P2 cites itself.
func papers(t *testing.T) *graphops.Graph {
	t.Helper()
	s := &data.SKB{Schema: data.Schema{
		Format: data.FormatSKBDir, NodeTypes: []string{"paper", "author"},
		RelationTypes: []string{"writes", "cites"}, TextFields: []string{"title"},
	}}
	for _, n := range []struct {
		t    data.TypeID
		name string
	}{{0, "P0"}, {0, "P1"}, {0, "P2"}, {1, "Ann"}, {1, "Bob"}} {
		s.Nodes = append(s.Nodes, data.Node{Type: n.t, Name: n.name, Fields: []string{"title " + n.name}})
	}
	for _, e := range [][3]uint32{{3, 0, 0}, {3, 0, 1}, {4, 0, 1}, {0, 1, 1}, {1, 1, 0}, {2, 1, 2}} {
		s.Edges.Add(e[0], data.RelID(e[1]), e[2])
	}
	g, err := graphops.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	return g
}

func TestMixedTraversal(t *testing.T) {
	g := papers(t)
	tm := fakeMatcher{g: g, fixed: map[data.TypeID][]uint32{0: {2}}} // papers: P2 matches textually
	first := []index.Hit{{ID: 1, Score: 0.9}, {ID: 2, Score: 0.5}}
	plan := data.Plan{Paths: data.MustPaths([][]string{{"author", "writes", "paper"}}...), Restriction: map[string][]string{"author": {"Ann"}}}
	res, err := MixedTraversal(g, tm, "papers by", plan, TraversalConfig{}, first)
	if err != nil {
		t.Fatal(err)
	}
	// Layer 0: Ann (textual, from "[Q : Ann]"); layer 1: P0, P1 by writes,
	// P2 textually. Pool by first-stage rank: P1, P2, then unscored P0.
	if want := []index.Hit{{ID: 1, Score: 0.9}, {ID: 2, Score: 0.5}, {ID: 0, Score: 0}}; !cmp.Equal(res.Pool, want) {
		t.Errorf("pool %v, want %v", res.Pool, want)
	}
	wantTraj := map[uint32][]TrajectoryStep{
		0: {{Node: 3, Type: 1, Textual: true}, {Node: 0, Type: 0}},
		1: {{Node: 3, Type: 1, Textual: true}, {Node: 1, Type: 0}},
		2: {{Node: 2, Type: 0, Textual: true}},
	}
	if !cmp.Equal(res.Trajectories, wantTraj) || res.Union || res.Filled != 0 {
		t.Errorf("trajectories %v union %v filled %d", res.Trajectories, res.Union, res.Filled)
	}
	// Two paths from two authors meet at P1 (and P2, matched textually on both).
	plan2 := data.Plan{Paths: data.MustPaths([][]string{{"author", "writes", "paper"}, {"author", "*", "paper"}}...), Restriction: map[string][]string{"author": {"Ann", "Bob"}}}
	res, _ = MixedTraversal(g, tm, "q", plan2, TraversalConfig{}, nil)
	if ids := hitIDs(res.Pool); !cmp.Equal(ids, []uint32{1, 2}) || res.Union {
		t.Errorf("intersection %v union %v", ids, res.Union)
	}
	// Without textual paper matches and an author who wrote nothing shared,
	// the intersection is empty: the union is used.
	tm.fixed = map[data.TypeID][]uint32{0: {}}
	plan3 := data.Plan{Paths: data.MustPaths([][]string{{"author", "writes", "paper"}, {"paper", "cites", "paper"}}...), Restriction: map[string][]string{"author": {"Bob"}, "paper": {"P2"}}}
	res, _ = MixedTraversal(g, tm, "q", plan3, TraversalConfig{}, nil)
	// Path 1 reaches P1 from Bob; path 2 has no seed at all: union {P1}.
	if ids := hitIDs(res.Pool); !cmp.Equal(ids, []uint32{1}) || !res.Union {
		t.Errorf("union %v %v", ids, res.Union)
	}
	// Cutting and filling to the pool size by the first stage.
	tm.fixed = map[data.TypeID][]uint32{0: {2}}
	res, _ = MixedTraversal(g, tm, "q", plan, TraversalConfig{PoolSize: 2}, first)
	if ids := hitIDs(res.Pool); !cmp.Equal(ids, []uint32{1, 2}) || res.Trajectories[0] != nil {
		t.Errorf("cut pool %v, P0 trajectory %v", ids, res.Trajectories[0])
	}
	planZed := data.Plan{Paths: data.MustPaths([][]string{{"author", "writes", "paper"}}...), Restriction: map[string][]string{"author": {"Zed"}}}
	res, _ = MixedTraversal(g, tm, "q", planZed, TraversalConfig{PoolSize: 2}, first)
	if ids := hitIDs(res.Pool); !cmp.Equal(ids, []uint32{2, 1}) || res.Filled != 1 || !cmp.Equal(res.Trajectories[1], []TrajectoryStep{{Node: 1, Type: 0, Textual: true}}) {
		t.Errorf("filled pool %v filled %d trajectory %v", ids, res.Filled, res.Trajectories[1])
	}
	// Ablations: without textual retrieval the walk from Ann reaches P0, P1
	// only; without structural retrieval the last layer is P2 (textual).
	res, _ = MixedTraversal(g, tm, "q", plan, TraversalConfig{NoTextual: true}, nil)
	if ids := hitIDs(res.Pool); !cmp.Equal(ids, []uint32{0, 1}) {
		t.Errorf("no textual retrieval: %v", ids)
	}
	res, _ = MixedTraversal(g, tm, "q", plan, TraversalConfig{NoStructural: true}, nil)
	if ids := hitIDs(res.Pool); !cmp.Equal(ids, []uint32{2}) {
		t.Errorf("no structural retrieval: %v", ids)
	}
	// A path of the target type alone is the target's textual matches.
	res, _ = MixedTraversal(g, tm, "q", data.Plan{Paths: data.MustPaths([][]string{{"paper"}}...)}, TraversalConfig{}, nil)
	if ids := hitIDs(res.Pool); !cmp.Equal(ids, []uint32{2}) {
		t.Errorf("a bare target: %v", ids)
	}
	if _, err := MixedTraversal(g, tm, "q", data.Plan{}, TraversalConfig{}, nil); err == nil {
		t.Error("empty plan accepted")
	}
}

// TestMixedTraversalTyped runs MoR's traversal over the typed plan's
// operators on the hand-built movies graph (see movies): a universal step
// and an attribute filter, with P1 linked and no textual matches after
// the seed unless fixed.
func TestMixedTraversalTyped(t *testing.T) {
	g, _ := movies(t)
	tm := fakeMatcher{g: g, fixed: map[data.TypeID][]uint32{genre: {}, movie: {}}}
	p1 := []data.PlanAnchor{{Text: "P1", Nodes: []uint32{0}}}
	every := data.Plan{Paths: data.MustPaths([][]string{{"person", "<-directed_by", "movie", "∀->has_genre", "genre"}}...), Anchors: p1}
	res, err := MixedTraversal(g, tm, "q", every, TraversalConfig{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// P1's films F1 F2 F3 share only G1, reached from F1, the first of them.
	if ids := hitIDs(res.Pool); !cmp.Equal(ids, []uint32{6}) ||
		!cmp.Equal(res.Trajectories[6], []TrajectoryStep{{Node: 0, Type: person, Textual: true}, {Node: 2, Type: movie}, {Node: 6, Type: genre}}) {
		t.Errorf("every: pool %v, trajectory %v", ids, res.Trajectories[6])
	}
	// The existential step reaches every genre of the three films.
	exists := every
	exists.Paths = data.MustPaths([]string{"person", "<-directed_by", "movie", "->has_genre", "genre"})
	if res, _ := MixedTraversal(g, tm, "q", exists, TraversalConfig{}, nil); !cmp.Equal(hitIDs(res.Pool), []uint32{6, 7, 8}) {
		t.Errorf("exists: %v", hitIDs(res.Pool))
	}
	// A textual match (G3) joins the universal step's set, as MoR's
	// traversal adds them at every position.
	tm.fixed[genre] = []uint32{8}
	if res, _ := MixedTraversal(g, tm, "q", every, TraversalConfig{}, nil); !cmp.Equal(hitIDs(res.Pool), []uint32{6, 8}) ||
		!cmp.Equal(res.Trajectories[8], []TrajectoryStep{{Node: 8, Type: genre, Textual: true}}) {
		t.Errorf("every with a textual match: %v %v", hitIDs(res.Pool), res.Trajectories[8])
	}
	// Attributes cut the end, textual matches included: F4 ("Released long
	// ago in 2007") does not state "released 2007", F2 says 1999.
	tm.fixed[movie] = []uint32{5}
	films := data.Plan{Paths: data.MustPaths([][]string{{"person", "<-directed_by", "movie"}}...), Anchors: p1}
	if res, _ := MixedTraversal(g, tm, "q", films, TraversalConfig{}, nil); !cmp.Equal(hitIDs(res.Pool), []uint32{2, 3, 4, 5}) {
		t.Errorf("films: %v", hitIDs(res.Pool))
	}
	films.Attributes = []data.PlanAttr{{Key: "released", Value: "2007"}}
	if res, _ := MixedTraversal(g, tm, "q", films, TraversalConfig{}, nil); !cmp.Equal(hitIDs(res.Pool), []uint32{2, 4}) {
		t.Errorf("films released 2007: %v", hitIDs(res.Pool))
	}
}

func hitIDs(hs []index.Hit) []uint32 {
	out := make([]uint32, len(hs))
	for i, h := range hs {
		out[i] = h.ID
	}
	return out
}
