package planner

import (
	"context"
	"slices"
	"testing"

	"github.com/strata-retrieval/strata/data"
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

// TestSlotsPastRuled: Bob Ray starred in Third Film too. With two
// mentions per template slot (TopMentions 2) and an anchor scorer that ranks "Paul
// Smith" (a text the training never anchored) first and "Bob Ray"
// second, "Which films did Ann Lee star in, Paul Smith or Bob Ray?" gives
// the slot to both, one of them open, so FormSlots adds nothing and no
// candidate anchors on Ann Lee. With SlotsPastRuled the ruled-out mention
// takes no place: the slot holds Paul Smith, Bob Ray and Ann Lee, and a
// candidate reaches her film (node 1). The plan ranker's candidates
// (Candidates) stay the classifier's own.
func TestSlotsPastRuled(t *testing.T) {
	q := "Which films did Ann Lee star in, Paul Smith or Bob Ray?"
	for _, on := range []bool{false, true} {
		p := filmPlanner(t, []string{"starred_actors"}, []string{"Paul Smith", "First Film", "Second Film", "Ann Lee", "Bob Ray", "Third Film"},
			[][3]int{{1, 0, 3}, {2, 0, 0}, {5, 0, 4}}, [][][]string{{{"*", "<-starred_actors", "movie"}}}, AnchorConfig{})
		p.Cfg.Anchors.TopMentions = 2
		p.Cfg.Anchors.NonAnchors = []string{"paul smith"}
		p.Cfg.Anchors.FormSlots = true
		p.Cfg.Anchors.SlotsPastRuled = on
		clear(p.Anchor.W.Data())
		p.Anchor.W.Data()[featureIndex(p.Anchor.Dim, "self", "paul smith")] = 10
		p.Anchor.W.Data()[featureIndex(p.Anchor.Dim, "self", "bob ray")] = 5
		for _, served := range []bool{false, true} {
			cs, ments, err := p.candidates(context.Background(), data.Query{Text: q, ID: -1}, nil, 0, nil, served)
			if err != nil {
				t.Fatal(err)
			}
			var anchors []string
			var reach [][]uint32
			for _, c := range cs {
				anchors = append(anchors, ments[c.Mentions[0]].Text)
				reach = append(reach, c.Reach)
			}
			want := []string{"Paul Smith", "Bob Ray"}
			wantReach := [][]uint32{{2}, {5}}
			if on && served {
				want = append(want, "Ann Lee")
				wantReach = append(wantReach, []uint32{1})
			}
			if !slices.Equal(anchors, want) || !slices.EqualFunc(reach, wantReach, slices.Equal) {
				t.Errorf("SlotsPastRuled %v, served %v: candidates anchored on %v reaching %v, want %v reaching %v", on, served, anchors, reach, want, wantReach)
			}
		}
	}
}
