package planner

import (
	"context"
	"slices"
	"testing"

	"github.com/strata-retrieval/strata/data"
)

// TestJoinSingles: Paul Smith directed First Film and Second Film and
// starred in the first, as Ann Lee did. The classifier ranks the one-path templates
// of an actor's films and a director's films first and second and their
// intersection third, beyond TopTemplates 2. "Which film starring Ann
// Lee did Paul Smith direct?" gets the intersection anchored on both
// names, reaching First Film alone, only with JoinSingles; a template
// slot's nodes are its one-path anchoring's. "Which film starring Paul
// Smith?" gets none: both one-path templates anchor on its one mention.
func TestJoinSingles(t *testing.T) {
	joined := func(join bool, text string) []PlanCandidate {
		t.Helper()
		p := filmPlanner(t, []string{"directed_by", "starred_actors"}, []string{"Paul Smith", "First Film", "Second Film", "Ann Lee"},
			[][3]int{{1, 0, 0}, {2, 0, 0}, {1, 1, 3}, {1, 1, 0}},
			[][][]string{
				{{"*", "<-starred_actors", "movie"}},
				{{"*", "<-directed_by", "movie"}},
				{{"*", "<-starred_actors", "movie"}, {"*", "<-directed_by", "movie"}},
			}, AnchorConfig{TopTemplates: 2, JoinSingles: join})
		rankTemplates(p, []float32{2, 1, 0})
		cs, ments, err := p.candidates(context.Background(), data.Query{Text: text, ID: -1}, nil, 0, nil, join)
		if err != nil {
			t.Fatal(err)
		}
		var out []PlanCandidate
		for _, c := range cs {
			if c.Template != 2 {
				continue
			}
			if got := []string{ments[c.Mentions[0]].Text, ments[c.Mentions[1]].Text}; !slices.Equal(got, []string{"Ann Lee", "Paul Smith"}) {
				t.Errorf("join %v %q: intersection anchored on %v, want [Ann Lee Paul Smith]", join, text, got)
			}
			if !slices.Equal(c.Plan.Anchors[0].Nodes, []uint32{3}) || !slices.Equal(c.Plan.Anchors[1].Nodes, []uint32{0}) {
				t.Errorf("join %v %q: anchors %v", join, text, c.Plan.Anchors)
			}
			if !slices.Equal(c.Reach, []uint32{1}) {
				t.Errorf("join %v %q: intersection reaches %v, want [1] (First Film)", join, text, c.Reach)
			}
			out = append(out, c)
		}
		return out
	}
	q := "Which film starring Ann Lee did Paul Smith direct?"
	if got := joined(true, q); len(got) == 0 {
		t.Errorf("JoinSingles: %q has no intersection candidate", q)
	}
	if got := joined(false, q); len(got) != 0 {
		t.Errorf("without JoinSingles: %q has %d intersection candidates, want none (template 2 is beyond TopTemplates)", q, len(got))
	}
	if got := joined(true, "Which film starring Paul Smith?"); len(got) != 0 {
		t.Errorf("JoinSingles: one name gave %d intersection candidates", len(got))
	}
}
