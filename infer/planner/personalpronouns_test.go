package planner

import (
	"slices"
	"testing"

	"github.com/strata-retrieval/strata/graphops/linking"
)

// TestPersonalPronouns: a node named "Them" is found in "their
// directors, all of them?" as any name is; with PersonalPronouns the
// pronoun in lower case names nothing, while "Them" written so and a
// quotation of it alone still name the node.
func TestPersonalPronouns(t *testing.T) {
	found := func(p *LinkingPlanner, text, as string) bool {
		return slices.ContainsFunc(p.findMentions(text), func(m linking.LinkedMention) bool { return m.Text == as })
	}
	for _, on := range []bool{false, true} {
		p := helmPlannerWith(t, AnchorConfig{}, "Them")
		p.Cfg.Anchors.PersonalPronouns = on
		for _, c := range []struct {
			text, as string
			want     bool
		}{
			{"Paul Smith's films: their directors, all of them?", "them", !on},
			{"Who directed Them? Who starred in them?", "Them", true},
			{"Who directed Them? Who starred in them?", "them", !on},
			{`Which film is called "them"?`, "them", true},
		} {
			if got := found(p, c.text, c.as); got != c.want {
				t.Errorf("PersonalPronouns %v: %q finds the node as %q %v, want %v", on, c.text, c.as, got, c.want)
			}
		}
	}
}
