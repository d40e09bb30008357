package planner

import (
	"testing"

	"github.com/strata-retrieval/strata/graphops/linking"
)

// TestPrepositionWh: a preposition that opens a question right before
// its question word ("By whom ...") leaves that word the opening one, so
// "whom" asks for the people "who" asked for in training (node 0, the
// director) and not for Ann Lee's films (node 1); a question word
// further in, a question too short to ask with it, and a first word that
// is no preposition leave the first word opening it.
func TestPrepositionWh(t *testing.T) {
	p := lexPlanner(t)
	for q, want := range map[string]int{
		"By whom has Ann Lee been directed?":     1,
		"In which film did Ann Lee star?":        1,
		"Directed by whom were Ann Lee's films?": 0,
		"By whom, then?":                         0,
		"Films by whom Ann Lee was directed?":    0,
		"Who has Ann Lee been directed by?":      0,
	} {
		words := linking.MentionWords(q)
		for _, on := range []bool{false, true} {
			p.Cfg.Anchors.PrepositionWh = on
			w := 0
			if on {
				w = want
			}
			if got := p.opening(q, words); got != w {
				t.Errorf("PrepositionWh %v: opening(%q) = %d, want %d", on, q, got, w)
			}
		}
	}
	set := func(a *AnchorConfig, on bool) { a.ObjectWh = true; a.PrepositionWh = on }
	whFormOnOff(t, "PrepositionWh", "whom", set, "By whom were the films Ann Lee starred in directed?")
}
