package planner

import (
	"slices"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/lexicon"
)

// TestReturnedCounts: of four training questions, three mined plans walk
// straight back to their anchor (node 1); two of those questions have an
// answer beyond it, one is answered by the anchor alone; a plan that
// walks on along another relation returns to nothing.
func TestReturnedCounts(t *testing.T) {
	back := data.MustPaths([]string{"*", "<-hypernym", "*", "->hypernym", "*"})
	on := data.MustPaths([]string{"*", "<-hypernym", "*", "->part_holonym", "*"})
	anchored := func(paths []data.Path) *data.Plan {
		return &data.Plan{Paths: paths, Anchors: []data.PlanAnchor{{Text: "x", Nodes: []uint32{1}}}}
	}
	plans := []*data.Plan{anchored(back), anchored(back), anchored(back), anchored(on)}
	answers := [][]uint32{{1, 7}, {1}, {8}, {1}}
	if n, beyond := ReturnedCounts(plans, answers); n != 3 || beyond != 2 {
		t.Errorf("ReturnedCounts = %d, %d; want 3 walking back, 2 answered beyond the anchor", n, beyond)
	}
	for _, c := range []struct {
		reach []uint32
		want  bool
	}{{[]uint32{1}, true}, {[]uint32{1, 7}, false}, {nil, false}} {
		if got := onlyReturned(*anchored(back), c.reach); got != c.want {
			t.Errorf("onlyReturned(walk back, %v) = %v, want %v", c.reach, got, c.want)
		}
	}
	if onlyReturned(*anchored(on), []uint32{1}) {
		t.Error("onlyReturned: a plan that walks on returns to no anchor")
	}
}

// TestReturnedAnchors: Paul Smith directed First Film alone. The
// classifier prefers the plan of his co-directors (the films he directed,
// then their directors), which reaches Paul Smith himself and no one
// else; with ReturnedAnchors that plan reaches nothing and "What did Paul
// Smith direct?" is answered with his film, as it is where he has a
// co-director (Ann Lee on Second Film, whose co-directors' plan reaches
// someone: it stands). Without the rule the question is answered with
// Paul Smith.
func TestReturnedAnchors(t *testing.T) {
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	planner := func(on bool) *LinkingPlanner {
		p := filmPlanner(t, []string{"directed_by"}, []string{"Paul Smith", "First Film", "Ann Lee", "Second Film", "Kim Ray"},
			[][3]int{{1, 0, 0}, {3, 0, 2}, {3, 0, 4}},
			[][][]string{
				{{"*", "<-directed_by", "movie", "->directed_by", "person"}},
				{{"*", "<-directed_by", "movie"}},
			}, AnchorConfig{ReturnedAnchors: on})
		trainedLike(p, lex, []float32{2, 1}, nil)
		return p
	}
	for _, c := range []struct {
		q    string
		on   bool
		want []uint32 // the reach, the first answer first
	}{
		{"What did Paul Smith direct?", true, []uint32{1}},
		{"What did Paul Smith direct?", false, []uint32{0}},
		{"What did Ann Lee direct?", true, []uint32{4, 2}},
	} {
		pred, got, err := answered(planner(c.on), c.q)
		if !slices.Equal(got, c.want) {
			t.Errorf("ReturnedAnchors %v: %q planned %v reaching %v (%v), want %v", c.on, c.q, pred.Plan.MetapathTokens(), got, err, c.want)
		}
	}
}
