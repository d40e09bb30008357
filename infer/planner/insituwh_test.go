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
		p.Cfg.Anchors.WhAsks, p.Cfg.Anchors.ClosingWh, p.Cfg.Anchors.InSituWh = true, true, on
		return p
	}
	wantReach(t, build(false), q, 1, "InSituWh", false)
	wantReach(t, build(true), q, 0, "InSituWh", true)
	p := build(true)
	for _, c := range []struct{ text, want string }{
		{q, "person"},
		{"Ann Lee's movie was directed by whom, as it happens?", "person"},
		{"Ann Lee's movie was directed by whom?", "person"},
		{"Ann Lee's movie was directed by whom exactly?", "person"},
		{"Ann Lee's movie was directed by which, as it happens?", "person"},
		{"Ann Lee's movie was directed by which director?", ""},
		{"Name the movie with whom Ann Lee worked in the end.", ""},
		{"Ann Lee's movie, whom over the years?", ""},
		{"Who directed the movie by whom over the years?", ""},
	} {
		if got := p.closingWhType(c.text); got != c.want {
			t.Errorf("closingWhType(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}
