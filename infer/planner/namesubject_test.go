package planner

import (
	"testing"

	"github.com/strata-retrieval/strata/data/lexicon"
)

// TestNameSubjects: with NameSubjects, Paul Smith right before
// "directed" (a do- or have-auxiliary between allowed) is its subject:
// a plan from him whose first step is not directed_by, and a plan that
// does not anchor him, are ruled out, his films and their cast are not.
// A "by" after the verb, an -ing form, a comma between, a possessive and
// a preposition before the name make no subject; without the rule nothing is ruled out.
func TestNameSubjects(t *testing.T) {
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		q, plan  string
		anchored bool // the candidate anchors Paul Smith
		missed   bool // with the rule on
	}{
		{"Titles where Paul Smith directed?", smithFilms, true, false},
		{"Titles where Paul Smith directed?", smithCastOf, true, false},
		{"Titles where Paul Smith directed?", smithDirectorsOf, true, true},
		{"Titles where Paul Smith directed?", smithFilms, false, true},
		{"What has Paul Smith directed?", smithDirectorsOf, true, true},
		{"Films with Paul Smith directed by whom?", smithDirectorsOf, true, false},
		{"Films with Paul Smith directing?", smithDirectorsOf, true, false},
		{"Films of Paul Smith, directed in 2001?", smithDirectorsOf, true, false},
		{"Films of Paul Smith's directed in 2001?", smithDirectorsOf, true, false},
		{"Which films made by Paul Smith directed First Film?", smithDirectorsOf, true, false},
	}
	for _, c := range cases {
		for _, on := range []bool{false, true} {
			p := smithPlanner(t, lex, AnchorConfig{NamedRelations: true, NameSubjects: on, AnchorTypes: []string{"person"}})
			ments, cand := smithCandidate(t, p, c.q, c.plan)
			if !c.anchored {
				cand.Mentions = []int{-1}
			}
			got := nameSubjectMisses(p.nameSubjects(c.q, ments, nil), ments, &cand)
			if want := on && c.missed; got != want {
				t.Errorf("NameSubjects %v: %q against %s (anchored %v): missed %v, want %v", on, c.q, c.plan, c.anchored, got, want)
			}
		}
	}
}
