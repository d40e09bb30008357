package planner

import (
	"strings"
	"testing"
)

// TestTitleObjects: "Cast member Ann Lee; titles wanted." opens with a
// verb ("cast") whose object would be "member", a kind of person, so the
// question asked for people and the two-hop plan answered (her film's
// director, Paul Smith, node 0). With TitleObjects a bare singular noun
// right before a name is the name's title, not a request's object: no
// type is asked and the ranker's one-hop plan answers (her film, node 1).
// A bare noun before no name ("Find director of the films Ann Lee
// starred in.") is still the request's object, and no title is a phrasal
// verb's particle ("Break down Ann Lee's films": "down" is a noun too) or
// a pronoun ("Ask someone Ann Lee knows"), comes before a determiner
// ("Cast member The Film", a film's name) or a question word ("Tell
// director who Ann Lee is", Who being a person), or begins a name with the
// word after it ("Cast member Bo Ray", Member Bo being a person too).
func TestTitleObjects(t *testing.T) {
	set := func(p *LinkingPlanner, on bool) { p.Cfg.Anchors.TitleObjects = on }
	firstOnOff(t, "TitleObjects", set, 0, 1, "Cast member Ann Lee; titles wanted.")
	firstOnOff(t, "TitleObjects", set, 0, 0, "Find director of the films Ann Lee starred in.")
	p := filmPlanner(t, []string{"starred_actors"}, []string{"Ann Lee", "The Film", "Bo Ray", "Member Bo", "Who"}, [][3]int{{1, 0, 0}}, [][][]string{{{"*", "<-starred_actors", "movie"}}}, AnchorConfig{})
	p.names.setLexicon(clausePlanner(t).names.lex)
	for q, want := range map[string]bool{
		"Cast member Ann Lee; titles wanted.": true,
		"Break down Ann Lee's films.":         false,
		"Cast member The Film.":               false,
		"Ask someone Ann Lee knows.":          false,
		"Cast member Bo Ray.":                 false,
		"Tell director who Ann Lee is.":       false,
	} {
		w := strings.Fields(strings.ToLower(q))[1]
		if got := p.titleObject(q, w); got != want {
			t.Errorf("titleObject(%q, %q) = %v, want %v", q, w, got, want)
		}
	}
}
