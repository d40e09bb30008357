package planner

import (
	"context"
	"slices"
	"testing"

	"github.com/strata-retrieval/strata/data"
)

// TestDeeperSearchFormOut: "What are the parts of Dhow?" over a graph
// where Parts (a node, as "parts" is on WordNet) has a kind, Spare, and a
// part, Bit, a kind of Spare with a kind of its own, Chip; Dhow has a
// part, Sail, with no kind nor kind of its own. The classifier ranks the
// kinds template first, then the kind of a thing's parts, its parts'
// kinds, and last its parts. The kinds template reaches nodes only
// anchored on "parts", in the head-of form, so its one candidate is ruled
// out. "parts" names part_of: with DeeperAsked, the two templates the
// deeper search tries are those that walk part_of from an anchor no form
// rules out and lead somewhere from it: the parts template, and Sail
// answers. Without the rules on anchorings the search spent its two
// templates on the second and third, which lead nowhere from Dhow and
// are anchored on "parts" where they lead somewhere.
func TestDeeperSearchFormOut(t *testing.T) {
	planner := func(asked bool) *LinkingPlanner {
		p := filmPlanner(t, []string{"kind_of", "part_of"}, []string{"Parts", "Spare", "Dhow", "Sail", "Bit", "Chip"},
			[][3]int{{1, 0, 0}, {3, 1, 2}, {4, 1, 0}, {4, 0, 1}, {5, 0, 4}},
			[][][]string{
				{{"*", "<-kind_of", "person"}},
				{{"*", "<-part_of", "person", "->kind_of", "person"}},
				{{"*", "<-part_of", "person", "<-kind_of", "person"}},
				{{"*", "<-part_of", "person"}},
			}, AnchorConfig{TopTemplates: 1, NonAnchorForms: []string{FormHeadOf}, NamedRelations: true, DeeperSearch: true, DeeperAsked: asked})
		rankTemplates(p, []float32{3, 2, 1, 0})
		rw := NewRelWords()
		for range 10 {
			rw.Add("the parts", []string{"part_of"})
		}
		p.Cfg.Anchors.RelWords = rw
		return p
	}
	q := "What are the parts of Dhow?"
	for _, c := range []struct {
		asked bool
		want  uint32
	}{{true, 3}, {false, 1}} {
		pred, err := planner(c.asked).Predict(context.Background(), data.Query{Text: q, ID: -1})
		if err != nil || pred.Reach == nil || !slices.Equal(pred.Reach.Nodes, []uint32{c.want}) {
			t.Errorf("DeeperAsked %v: %q planned %v reaching %v (%v), want [%d]", c.asked, q, pred.Plan.MetapathTokens(), pred.Reach, err, c.want)
		}
	}
}
