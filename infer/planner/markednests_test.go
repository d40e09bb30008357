package planner

import (
	"context"
	"testing"

	"github.com/strata-retrieval/strata/data"
)

// TestMarkedNests: "subtypes" and "kinds", each borne out for the
// hypernym by the training (kindsRelWords), nest before "of" as a word
// said twice does; with MarkedNests a phrase mark between the first "of"
// and the second word ends the phrase, and nothing nests: "the subtypes
// of fine arts, kinds of them" says in apposition what the subtypes are.
// Over kindsPlanner's tree its ranker, preferring one hop, then answers
// painting (node 1), where the nesting ruled the one-hop plans out for
// watercolor (node 2). A word said twice across a mark nests nothing
// either (nestsWordIn), while the training's reading (nestsWord) is as
// before; no mark, no change.
func TestMarkedNests(t *testing.T) {
	rw := kindsRelWords()
	for _, c := range []struct {
		text    string
		off, on bool
	}{
		{"the subtypes of basalt, the kinds of", true, false},
		{"the subtypes of basalt; kinds of", true, false},
		{"the subtypes of the kinds of", true, true},
		{"the subtypes of some specific kinds of", true, true},
		{"the kinds of basalt, a kind of mineral", true, false},
		{"the kinds of some kind of mineral", true, true},
	} {
		for _, on := range []bool{false, true} {
			p := &LinkingPlanner{Classifier: &Classifier{Cfg: Config{Anchors: &AnchorConfig{NestedRelations: true, RelWords: rw, MarkedNests: on}}}}
			want := c.off
			if on {
				want = c.on
			}
			if got := p.nests(c.text); got != want {
				t.Errorf("MarkedNests %v: nests(%q) = %v, want %v", on, c.text, got, want)
			}
		}
	}
	for text, want := range map[string]bool{"the kinds of basalt, a kind of mineral": false, "the kinds of some kind of mineral": true} {
		if got := nestsWordIn(text, true); got != want {
			t.Errorf("nestsWordIn(%q, marks) = %v, want %v", text, got, want)
		}
		if !nestsWord(text) {
			t.Errorf("nestsWord(%q) = false, want the training's reading, true", text)
		}
	}
	q := "the subtypes of fine arts, kinds of them"
	for on, want := range map[bool]uint32{false: 2, true: 1} {
		p := kindsPlannerHops(t, AnchorConfig{TopTemplates: 2, DeeperSearch: true, RepeatTwice: true, DepthSaid: true, NestedRelations: true, MarkedNests: on, RelWords: rw}, 5)
		pred, err := p.PredictUngated(context.Background(), data.Query{Text: q})
		if err != nil {
			t.Fatal(err)
		}
		if pred.Reach == nil || len(pred.Reach.Nodes) != 1 || pred.Reach.Nodes[0] != want {
			t.Errorf("MarkedNests %v: %q answers %+v, want node %d", on, q, pred.Reach, want)
		}
	}
}
