package planner

import (
	"testing"

	"github.com/strata-retrieval/strata/data/lexicon"
)

// TestInSituWh: "Ann Lee's movie was directed by whom over the years?"
// names movies before its question word, which no longer closes it, so
// castPlanner answers with her film (node 1) with ClosingWh alone. With
// InSituWh "whom", right after "by" and followed by a preposition and
// stop words only, asks for what "who" asked for opening 10 training
// questions, a person, and her film's director (Paul Smith, node 0)
// answers. The question word asks nothing where it may be a determiner
// and a content word follows it with no mark between ("by which
// director": the noun says what is asked), a verb follows it in its
// clause (a relative clause: "with whom Ann Lee worked"), no preposition
// comes before it, or a question word opens the question.
func TestInSituWh(t *testing.T) {
	const q = "Ann Lee's movie was directed by whom over the years?"
	inSituRule(t, "InSituWh", func(a *AnchorConfig, on bool) { a.InSituWh = on }, q, []whCase{
		{q, "person"},
		{"Ann Lee's movie was directed by whom, as it happens?", "person"},
		{"Ann Lee's movie was directed by whom?", "person"},
		{"Ann Lee's movie was directed by whom exactly?", "person"},
		{"Ann Lee's movie was directed by which, as it happens?", "person"},
		{"Ann Lee's movie was directed by which director?", ""},
		{"Name the movie with whom Ann Lee worked in the end.", ""},
		{"Ann Lee's movie, whom over the years?", ""},
		{"Who directed the movie by whom over the years?", ""},
	})
}

// whCase is a text and the type closingWhType reads it as asking for.
type whCase struct{ text, want string }

// inSituRule builds castPlanner with WordNet's lexicon, "who" opening 10
// training questions about people (and "which ... directed" 10 more),
// WhAsks and ClosingWh on and the rule under test set on or off (set),
// wants q answered by Ann Lee's film (node 1) with it off and by its
// director (Paul Smith, node 0) with it on, and each case's
// closingWhType with it on.
func inSituRule(t *testing.T, rule string, set func(a *AnchorConfig, on bool), q string, cases []whCase) {
	t.Helper()
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	build := func(on bool) *LinkingPlanner {
		p := castPlanner(t, true, true)
		p.names.setLexicon(lex)
		p.Cfg.Anchors.Lead = whoLead(10, 0)
		for range 10 {
			p.Cfg.Anchors.Lead.Add([2]string{"which", "directed"}, "person")
		}
		p.Cfg.Anchors.WhAsks, p.Cfg.Anchors.ClosingWh = true, true
		set(p.Cfg.Anchors, on)
		return p
	}
	wantReach(t, build(false), q, 1, rule, false)
	wantReach(t, build(true), q, 0, rule, true)
	p := build(true)
	for _, c := range cases {
		if got := p.closingWhType(c.text); got != c.want {
			t.Errorf("closingWhType(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}
