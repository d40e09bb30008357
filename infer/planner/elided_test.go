package planner

import (
	"testing"
)

// TestElidedQuestions: "Every film Ann Lee starred in had a director;
// which?" asks which director, as "which director?" would. Without
// ElidedQuestions the closing "which", which asked for no one type in
// training, leaves the question read as a whole, "film" its first word
// naming a type, and the ranker's one-hop plan (her film, node 1)
// stands; with it the last indefinite noun phrase before the question
// word names what is asked, a director (a person: Paul Smith, node 0).
// elidedType reads only a question word standing alone after a mark,
// closing the question with "?", and only the last indefinite phrase.
func TestElidedQuestions(t *testing.T) {
	const q = "Every film Ann Lee starred in had a director; which?"
	firstOnOff(t, "ElidedQuestions", func(p *LinkingPlanner, on bool) {
		p.Cfg.Anchors.ClosingWh = true
		p.Cfg.Anchors.ElidedQuestions = on
	}, 1, 0, q)
	p := clausePlanner(t)
	for _, c := range []struct {
		text, want string
	}{
		{q, "person"},
		{"Ann Lee had a director in mind - which?", "person"},
		{"Ann Lee starred in a film with some famous directors: which?", "person"},
		// The last indefinite phrase decides, naming a type or not.
		{"A director cast Ann Lee in a role, which?", ""},
		{"Every film Ann Lee starred in had a director; which one?", ""},
		{"Every film Ann Lee starred in had a director; which", ""},
		{"Every film Ann Lee starred in had a director which?", ""},
		// A mark ends the phrase: "a" opens no phrase naming "director".
		{"Ann Lee was a star; directors too; which?", ""},
	} {
		if got := p.elidedType(c.text, nil); got != c.want {
			t.Errorf("elidedType(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// TestBackPastRoles: "Ann Lee starred in something Paul Smith made as a
// director; name it." refers back with "it" to the film, not to the
// capacity Paul Smith made it in. Without BackPastRoles the pronoun
// takes the last word naming a type before it, "director", and the
// director of her films (Paul Smith, node 0) answers; with it "as a
// director" is passed over, nothing before names a type, and her film
// (node 1) answers. A capacity without a determiner or with "the" is
// passed over too, a noun after another preposition is not.
func TestBackPastRoles(t *testing.T) {
	const q = "Ann Lee starred in something Paul Smith made as a director; name it."
	firstOnOff(t, "BackPastRoles", func(p *LinkingPlanner, on bool) { p.Cfg.Anchors.BackPastRoles = on }, 0, 1, q)
	p := clausePlanner(t)
	p.Cfg.Anchors.BackPastRoles = true
	for _, c := range []struct {
		before, want string
	}{
		{"Ann Lee starred in something Paul Smith made as director; ", ""},
		{"Ann Lee starred in something Paul Smith made as the director; ", ""},
		{"Ann Lee starred in something Paul Smith made for a director; ", "person"},
	} {
		if got := p.clauseType("name it.", c.before, nil); got != c.want {
			t.Errorf("clauseType(\"name it.\", %q) = %q, want %q", c.before, got, c.want)
		}
	}
}
