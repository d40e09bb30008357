package planner

import (
	"slices"
	"testing"
)

// TestFormSlots: Ann Lee starred in First Film, Paul Smith in Second
// Film. With one mention per template slot (TopMentions 1) and an anchor
// scorer that prefers "Paul Smith", "Which films did Ann Lee star in,
// Paul Smith?" anchors the template on him, a text the training never
// anchored (NonAnchors), and his film (node 2) answers. With FormSlots a
// slot whose best mentions the form all rules out also tries the best
// one it does not: Ann Lee's film (node 1) answers.
func TestFormSlots(t *testing.T) {
	q := "Which films did Ann Lee star in, Paul Smith?"
	for _, on := range []bool{false, true} {
		p := filmPlanner(t, []string{"starred_actors"}, []string{"Paul Smith", "First Film", "Second Film", "Ann Lee"},
			[][3]int{{1, 0, 3}, {2, 0, 0}}, [][][]string{{{"*", "<-starred_actors", "movie"}}}, AnchorConfig{})
		p.Cfg.Anchors.TopMentions = 1
		p.Cfg.Anchors.NonAnchors = []string{"paul smith"}
		p.Cfg.Anchors.FormSlots = on
		clear(p.Anchor.W.Data())
		p.Anchor.W.Data()[featureIndex(p.Anchor.Dim, "self", "paul smith")] = 10
		want := uint32(2)
		if on {
			want = 1
		}
		pred, got, err := answered(p, q)
		if err != nil || !slices.Equal(got, []uint32{want}) {
			t.Errorf("FormSlots %v: %q planned %v reaching %v (%v), want [%d]", on, q, pred.Plan.MetapathTokens(), got, err, want)
		}
	}
}
