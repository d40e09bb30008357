package planner

import "testing"

// TestObjectWh: no training question opened with "whom", so "Whom did the
// films Ann Lee starred in have as director?" names no type ("films" names
// what Ann Lee is in, right before her) and the ranker's one-hop plan
// answers (her film, node 1). With ObjectWh "whom" asks for what "who"
// asked for opening the training questions (people): her film's director
// answers (Paul Smith, node 0). Where the training opened enough questions
// with "whom" to say, they decide, and "whose", no object form, is left to
// PossessorWh.
func TestObjectWh(t *testing.T) {
	set := func(a *AnchorConfig, on bool) { a.ObjectWh = on }
	whFormOnOff(t, "ObjectWh", "whom", set, "Whom did the films Ann Lee starred in have as director?", "Whom were the films Ann Lee starred in directed by?")
	firstOnOff(t, "ObjectWh (whose)", func(p *LinkingPlanner, on bool) { p.Cfg.Anchors.WhAsks = true; set(p.Cfg.Anchors, on) }, 1, 1, "Whose faces are seen in the films Ann Lee starred in?")
}
