package planner

import (
	"context"
	"testing"

	"github.com/strata-retrieval/strata/data"
)

// TestPairWords: "a couple of levels" says a count of two only with
// pairs (PairWords), as "two levels" does without; a pair inside a
// quotation says none.
func TestPairWords(t *testing.T) {
	for _, c := range []struct {
		text       string
		off, pairs bool
	}{
		{"What sits a couple of rungs beneath X in the taxonomy?", false, true},
		{"Go down a pair of levels from X.", false, true},
		{"Which words sit two levels below X?", true, true},
		{"Which kind of X is defined as 'a pair of things'?", false, false},
		{"Which kinds of X are there?", false, false},
	} {
		if got := saysTwo(c.text, false); got != c.off {
			t.Errorf("saysTwo(%q, false) = %v, want %v", c.text, got, c.off)
		}
		if got := saysTwo(c.text, true); got != c.pairs {
			t.Errorf("saysTwo(%q, true) = %v, want %v", c.text, got, c.pairs)
		}
	}
	// The planner: the one-hop plan (node 1) answers "a couple of levels
	// below" unless PairWords makes it say two; then the two-hop plan
	// answers (node 2). Where the ranker favours one hop (hops1 5),
	// RepeatTwice rules the one-hop plan out only for a question that says
	// two; where it favours two (hops1 -5), DepthSaid weighs the two-hop
	// plan down only for one that says none.
	ctx := context.Background()
	q := "Which words sit a couple of levels below fine arts?"
	for _, hops1 := range []float32{5, -5} {
		for _, on := range []bool{false, true} {
			p := kindsPlannerHops(t, AnchorConfig{TopTemplates: 2, DeeperSearch: true, RepeatTwice: hops1 > 0, DepthSaid: true, PairWords: on}, hops1)
			pred, err := p.PredictUngated(ctx, data.Query{Text: q})
			if err != nil {
				t.Fatal(err)
			}
			want := uint32(1)
			if on {
				want = 2
			}
			if pred.Reach == nil || len(pred.Reach.Nodes) != 1 || pred.Reach.Nodes[0] != want {
				t.Errorf("PairWords %v, hops1 %v: %q answers %+v, want node %d", on, hops1, q, pred.Reach, want)
			}
		}
	}
}
