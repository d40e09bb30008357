package planner

import "testing"

// TestPossessorWh: no training question opened with "whose", so "Whose
// faces are seen in the films Ann Lee starred in?" names no type ("films"
// names what Ann Lee is in, right before her) and the ranker's one-hop
// plan answers (her film, node 1). With PossessorWh "whose" asks for what
// "who" asked for opening the training questions (people): her film's
// director answers (Paul Smith, node 0), also where "whose" opens an
// asking clause after a colon ("Ann Lee starred in some films: whose
// direction were they under?"). Where the training opened enough
// questions with "whose" to say, they decide.
func TestPossessorWh(t *testing.T) {
	set := func(p *LinkingPlanner, on bool) {
		p.Cfg.Anchors.WhAsks = true
		p.Cfg.Anchors.ClauseSlots = true
		p.Cfg.Anchors.PossessorWh = on
	}
	firstOnOff(t, "PossessorWh", set, 1, 0, "Whose faces are seen in the films Ann Lee starred in?", "Ann Lee starred in some films: whose direction were they under?")
	trained := func(p *LinkingPlanner, on bool) {
		set(p, on)
		p.Cfg.Anchors.Lead.Firsts["whose"] = map[string]int{"movie": minAskQuestions}
	}
	firstOnOff(t, "PossessorWh (whose trained)", trained, 1, 1, "Whose faces are seen in the films Ann Lee starred in?")
}
