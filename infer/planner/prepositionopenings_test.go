package planner

import "testing"

// TestPrepositionOpenings: "Back in those days, Ann Lee starred in a film.
// Who directed it?" opens with "back", which the lexicon has as a verb, so
// the words before the last clause read as a request and the whole
// question is read: "film" names what it asks for, and her film answers
// (node 1). With PrepositionOpenings a first word followed by a
// preposition opens no request (as for verbType, NounHeads), the last
// clause asks, "who" asks for people, and her film's director answers
// (Paul Smith, node 0). A first word followed by its object still opens a
// request, and the whole question is read ("Name a film Ann Lee starred
// in. Who directed it?").
func TestPrepositionOpenings(t *testing.T) {
	set := func(p *LinkingPlanner, on bool) { p.Cfg.Anchors.PrepositionOpenings = on }
	firstOnOff(t, "PrepositionOpenings", set, 1, 0, "Back in those days, Ann Lee starred in a film. Who directed it?")
	firstOnOff(t, "PrepositionOpenings", set, 1, 1, "Name a film Ann Lee starred in. Who directed it?")
}
