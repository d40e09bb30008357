package plan

import (
	"slices"
	"testing"

	"github.com/strata-retrieval/strata/data"
)

// TestReturnedLast: an actor's co-stars (<-starred_actors then
// ->starred_actors) reach the actor, node 7, whatever the graph; it is
// ranked below every other node (the lowest score, 0.5, minus one) and
// the others keep their scores. A path that goes on (a co-star's films),
// one that takes another relation back, one whose step may take either
// of two relations, one from an anchor that names two nodes (a word's
// senses, among which the restriction chooses) and a plan whose other
// path meets the returning one return to nothing.
func TestReturnedLast(t *testing.T) {
	plan := func(tokens ...string) data.Plan {
		return data.Plan{Paths: data.MustPaths(tokens), Anchors: []data.PlanAnchor{{Text: "Ann Lee", Nodes: []uint32{7}}}}
	}
	senses := plan("person", "<-starred_actors", "movie", "->starred_actors", "person")
	senses.Anchors[0].Nodes = []uint32{7, 9}
	met := data.Plan{Paths: data.MustPaths([]string{"person", "<-starred_actors", "movie", "->starred_actors", "person"}, []string{"movie", "->starred_actors", "person"}),
		Anchors: []data.PlanAnchor{{Text: "Ann Lee", Nodes: []uint32{7}}, {Text: "First Film", Nodes: []uint32{1}}}}
	costars := plan("person", "<-starred_actors", "movie", "->starred_actors", "person")
	if got := Returned(costars); !slices.Equal(got, []uint32{7}) {
		t.Fatalf("Returned(co-stars) = %v, want [7]", got)
	}
	ids := []uint32{3, 7, 9}
	scores := []float32{1, 2.5, 0.5}
	ReturnedLast(costars, ids, scores)
	if want := []float32{1, -0.5, 0.5}; !slices.Equal(scores, want) {
		t.Errorf("ReturnedLast scores %v, want %v", scores, want)
	}
	for _, p := range []data.Plan{
		plan("person", "<-starred_actors", "movie", "->starred_actors", "person", "<-starred_actors", "movie"),
		plan("person", "<-starred_actors", "movie", "->directed_by", "person"),
		plan("person", "<-starred_actors", "movie", "->starred_actors|directed_by", "person"),
		plan("person", "<-starred_actors", "movie"),
		senses,
		met,
	} {
		if got := Returned(p); len(got) != 0 {
			t.Errorf("Returned(%v) = %v, want none", p.MetapathTokens(), got)
		}
		s := []float32{1, 2.5, 0.5}
		ReturnedLast(p, ids, s)
		if !slices.Equal(s, []float32{1, 2.5, 0.5}) {
			t.Errorf("ReturnedLast(%v) changed the scores to %v", p.MetapathTokens(), s)
		}
	}
}
