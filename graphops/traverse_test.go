package graphops

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
)

// fakeMatcher returns, for a node type, the nodes whose name occurs in the
// text (score 1), or a fixed list.
type fakeMatcher struct {
	g     *Graph
	names []string
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
	for v, n := range m.names {
		if m.g.Type(uint32(v)) == t && strings.Contains(text, n) {
			out = append(out, index.Hit{ID: uint32(v), Score: 1})
		}
	}
	if len(out) > k {
		out = out[:k]
	}
	return out
}

func TestMixedTraversal(t *testing.T) {
	s := smallSKB() // papers P0 P1 P2; authors Ann(3) Bob(4); Ann writes P0 P1; Bob writes P1; P0-P1 cite; P2 cites itself
	g, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	names := []string{"P0", "P1", "P2", "Ann", "Bob"}
	tm := fakeMatcher{g: g, names: names, fixed: map[data.TypeID][]uint32{0: {2}}} // papers: P2 matches textually
	first := []index.Hit{{ID: 1, Score: 0.9}, {ID: 2, Score: 0.5}}
	plan := data.Plan{Metapath: [][]string{{"author", "writes", "paper"}}, Restriction: map[string][]string{"author": {"Ann"}}}
	res, err := MixedTraversal(g, tm, "papers by", plan, TraversalConfig{}, first)
	if err != nil {
		t.Fatal(err)
	}
	// Layer 0: Ann (textual, from "[Q : Ann]"); layer 1: P0, P1 by writes,
	// P2 textually. Pool by first-stage rank: P1, P2, then unscored P0.
	if want := []index.Hit{{ID: 1, Score: 0.9}, {ID: 2, Score: 0.5}, {ID: 0, Score: 0}}; !cmp.Equal(res.Pool, want) {
		t.Errorf("pool %v, want %v", res.Pool, want)
	}
	wantTraj := map[uint32][]Step{
		0: {{Node: 3, Type: 1, Textual: true}, {Node: 0, Type: 0}},
		1: {{Node: 3, Type: 1, Textual: true}, {Node: 1, Type: 0}},
		2: {{Node: 2, Type: 0, Textual: true}},
	}
	if !cmp.Equal(res.Trajectories, wantTraj) || res.Union || res.Filled != 0 {
		t.Errorf("trajectories %v union %v filled %d", res.Trajectories, res.Union, res.Filled)
	}
	// Two paths from two authors meet at P1 (and P2, matched textually on both).
	plan2 := data.Plan{Metapath: [][]string{{"author", "writes", "paper"}, {"author", "*", "paper"}}, Restriction: map[string][]string{"author": {"Ann", "Bob"}}}
	res, _ = MixedTraversal(g, tm, "q", plan2, TraversalConfig{}, nil)
	if ids := hitIDs(res.Pool); !cmp.Equal(ids, []uint32{1, 2}) || res.Union {
		t.Errorf("intersection %v union %v", ids, res.Union)
	}
	// Without textual paper matches and an author who wrote nothing shared,
	// the intersection is empty: the union is used.
	tm.fixed = map[data.TypeID][]uint32{0: {}}
	plan3 := data.Plan{Metapath: [][]string{{"author", "writes", "paper"}, {"paper", "cites", "paper"}}, Restriction: map[string][]string{"author": {"Bob"}, "paper": {"P2"}}}
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
	planZed := data.Plan{Metapath: [][]string{{"author", "writes", "paper"}}, Restriction: map[string][]string{"author": {"Zed"}}}
	res, _ = MixedTraversal(g, tm, "q", planZed, TraversalConfig{PoolSize: 2}, first)
	if ids := hitIDs(res.Pool); !cmp.Equal(ids, []uint32{2, 1}) || res.Filled != 1 || !cmp.Equal(res.Trajectories[1], []Step{{Node: 1, Type: 0, Textual: true}}) {
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
	if _, err := MixedTraversal(g, tm, "q", data.Plan{}, TraversalConfig{}, nil); err == nil {
		t.Error("empty plan accepted")
	}
}

func hitIDs(hs []index.Hit) []uint32 {
	out := make([]uint32, len(hs))
	for i, h := range hs {
		out[i] = h.ID
	}
	return out
}
