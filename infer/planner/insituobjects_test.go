package planner

import (
	"testing"

	"github.com/strata-retrieval/strata/data/lexicon"
)

// TestInSituObjects: "Ann Lee's movie put whom in front of the camera?"
// names movies before its question word, which does not close it and
// follows no preposition, so castPlanner answers with her film (node 1)
// with InSituWh alone. With InSituObjects "whom", the object of "put",
// asks for what "who" asked for opening 10 training questions, a person,
// and her film's director (Paul Smith, node 0) answers. A stop word
// before it ("is whom"), a mark between ("put, whom"), a noun that is no
// verb ("the director whom"), a noun after a determiner ("put which
// director") and a verb after it in its clause (a relative clause) leave
// it asking nothing.
func TestInSituObjects(t *testing.T) {
	const q = "Ann Lee's movie put whom in front of the camera?"
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
		p.Cfg.Anchors.WhAsks, p.Cfg.Anchors.ClosingWh, p.Cfg.Anchors.InSituWh, p.Cfg.Anchors.InSituObjects = true, true, true, on
		return p
	}
	wantReach(t, build(false), q, 1, "InSituObjects", false)
	wantReach(t, build(true), q, 0, "InSituObjects", true)
	p := build(true)
	for _, c := range []struct{ text, want string }{
		{q, "person"},
		{"Ann Lee's movie featured whom over the years?", "person"},
		{"Ann Lee's movie is whom in the end?", ""},
		{"Ann Lee's movie put, whom in front of the camera?", ""},
		{"Ann Lee's movie had the director whom in the end?", ""},
		{"Ann Lee's movie put which director in charge?", ""},
		{"Ann Lee's movie put whom Ann Lee hired in front?", ""},
	} {
		if got := p.closingWhType(c.text); got != c.want {
			t.Errorf("closingWhType(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}
