package planner

import (
	"slices"
	"testing"

	"github.com/strata-retrieval/strata/graphops/linking"
)

// TestMarkedFollowers: "term" came before no anchor in the training
// (NonAnchorAfter), so a mention right after it is ruled out as an
// anchor. With MarkedFollowers a colon or a dash between them ends the
// word's phrase ("Broader term: Ann Lee."), and the mention is not ruled
// out; right after the word ("Broader term Ann Lee.") it still is.
func TestMarkedFollowers(t *testing.T) {
	for _, on := range []bool{false, true} {
		p := castPlanner(t, true, false)
		p.Cfg.Anchors.NonAnchorAfter = []string{"term"}
		p.Cfg.Anchors.MarkedFollowers = on
		for q, want := range map[string]bool{"Broader term: Ann Lee.": !on, "Broader term - Ann Lee.": !on, "Broader term Ann Lee.": true} {
			ments := p.findMentions(q)
			i := slices.IndexFunc(ments, func(m linking.LinkedMention) bool { return m.Text == "Ann Lee" })
			if i < 0 {
				t.Fatalf("no mention of Ann Lee in %q: %+v", q, ments)
			}
			if got := p.afterNonAnchor(q, linking.MentionWords(q), &ments[i]); got != want {
				t.Errorf("MarkedFollowers %v: %q rules Ann Lee out %v, want %v", on, q, got, want)
			}
		}
	}
}
